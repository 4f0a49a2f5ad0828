//go:build unix

package main

import (
	"io/fs"
	"os"
	"syscall"
)

// openRead opens the file name for reading, as os.Open does, without
// trying to register the descriptor with the runtime's poller, which
// refuses regular files: four fcntl calls and an epoll_ctl per file
// otherwise, as many system calls as reading a small file takes.
func openRead(name string) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}
