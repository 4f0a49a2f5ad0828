//go:build !unix

package main

import (
	"errors"
	"os"
)

// mapFile reports that files are read, not mapped, on this system.
func mapFile(f *os.File, off, size int64) (data []byte, unmap func() error, err error) {
	return nil, nil, errors.ErrUnsupported
}
