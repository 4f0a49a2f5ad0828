//go:build unix

package main

import (
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// mapFile maps size bytes of f from offset off into memory, read-only, and
// returns them with the function that unmaps them.
func mapFile(f *os.File, off, size int64) (data []byte, unmap func() error, err error) {
	if strconv.IntSize < 64 {
		// Leave the address space of 32-bit systems alone.
		return nil, nil, errors.ErrUnsupported
	}
	start := off &^ int64(os.Getpagesize()-1)
	m, err := unix.Mmap(int(f.Fd()), start, int(size+off-start), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	unix.Madvise(m, unix.MADV_SEQUENTIAL)
	return m[off-start:], func() error { return unix.Munmap(m) }, nil
}
