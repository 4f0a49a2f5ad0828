package pagetest

import (
	"syscall"
	"testing"
)

// Guarded maps n read-write pages between two PROT_NONE pages and returns
// the read-write ones: touching a byte before or after them faults. The
// mapping is removed when the test ends; the test is skipped where mmap
// fails.
func Guarded(t testing.TB, n int) []byte {
	t.Helper()
	ps := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, (n+2)*ps, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[:ps], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	if err := syscall.Mprotect(mem[(n+1)*ps:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	return mem[ps : (n+1)*ps : (n+1)*ps]
}
