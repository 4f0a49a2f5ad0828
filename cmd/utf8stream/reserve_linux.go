package main

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// reserve allocates the disk space for f to hold size bytes, without
// changing its size. It returns an error only when the space is not there;
// a file system that cannot reserve space is not an error.
func reserve(f *os.File, size int64) error {
	if size == 0 {
		return nil
	}
	err := unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_KEEP_SIZE, 0, size)
	if errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EDQUOT) || errors.Is(err, unix.EFBIG) {
		return &fs.PathError{Op: "fallocate", Path: f.Name(), Err: err}
	}
	return nil
}
