//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxLinks bounds the symbolic links descriptorPath follows, as the
// system's own limit does.
const maxLinks = 40

// descriptorPath reports whether name stands for one of the process's open
// file descriptors, directly or through symbolic links: /dev/stdin,
// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N and the like. Such a
// name must be written through the descriptor: on Linux, /proc/self/fd/1
// leads to the file the shell opened, and opening that again would lose
// the shell's O_APPEND and its offset, and replacing it would destroy it.
func descriptorPath(name string) (fd int, ok bool) {
	p, err := filepath.Abs(name)
	if err != nil {
		return 0, false
	}
	for range maxLinks {
		if fd, ok := descriptorName(p); ok {
			return fd, true
		}
		dir, base := filepath.Split(p)
		rdir, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return 0, false
		}
		p = filepath.Join(rdir, base)
		if fd, ok := descriptorName(p); ok {
			return fd, true
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return 0, false
		}
		target, err := os.Readlink(p)
		if err != nil {
			return 0, false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(rdir, target)
		}
		p = filepath.Clean(target)
	}
	return 0, false
}

// descriptorName returns the descriptor that the clean absolute path p
// names by its spelling alone.
func descriptorName(p string) (fd int, ok bool) {
	switch p {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	dir, base := filepath.Split(p)
	n, err := strconv.Atoi(base)
	if err != nil || n < 0 || base[0] == '+' {
		return 0, false
	}
	pid := strconv.Itoa(os.Getpid())
	switch dir {
	case "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/" + pid + "/fd/":
		return n, true
	}
	// /proc/PID/task/TID/fd/N, for a thread of this process.
	if rest, ok := strings.CutPrefix(dir, "/proc/"+pid+"/task/"); ok {
		if tid, ok := strings.CutSuffix(rest, "/fd/"); ok && !strings.Contains(tid, "/") {
			return n, true
		}
	}
	return 0, false
}

// openDescriptor returns a new descriptor for the open file description of
// fd, which name stands for; closing it leaves fd open.
func openDescriptor(fd int, name string) (*os.File, error) {
	nfd, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(nfd), name), nil
}

// dialSocket connects to the Unix domain socket name, for writing.
func dialSocket(name string) (*os.File, error) {
	for _, typ := range []int{unix.SOCK_STREAM, unix.SOCK_DGRAM, unix.SOCK_SEQPACKET} {
		fd, err := unix.Socket(unix.AF_UNIX, typ, 0)
		if err != nil {
			return nil, &fs.PathError{Op: "socket", Path: name, Err: err}
		}
		unix.CloseOnExec(fd)
		err = unix.Connect(fd, &unix.SockaddrUnix{Name: name})
		if err == nil {
			return os.NewFile(uintptr(fd), name), nil
		}
		unix.Close(fd)
		if err != syscall.EPROTOTYPE {
			return nil, &fs.PathError{Op: "connect", Path: name, Err: err}
		}
	}
	return nil, &fs.PathError{Op: "connect", Path: name, Err: syscall.EPROTOTYPE}
}
