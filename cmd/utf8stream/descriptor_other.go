//go:build !unix

package main

import (
	"errors"
	"io/fs"
	"os"
)

// descriptorPath reports that no path stands for an open file descriptor
// on this system.
func descriptorPath(name string) (fd int, ok bool) { return 0, false }

// openDescriptor is not called on this system.
func openDescriptor(fd int, name string) (*os.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: errors.ErrUnsupported}
}

// dialSocket reports that sockets are not written by name on this system.
func dialSocket(name string) (*os.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: errors.ErrUnsupported}
}
