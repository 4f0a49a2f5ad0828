package utf8stream

import (
	"bytes"
	"syscall"
	"testing"
)

// guardedPages maps n read-write pages between two PROT_NONE pages and
// returns the read-write ones: touching a byte before or after them faults.
func guardedPages(t *testing.T, n int) []byte {
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

// TestRepairTailPageBoundary checks the block repairer on the last bytes
// of an input that ends at a PROT_NONE page, or starts after one, under
// each policy: Transform must read nothing outside its input.
// (internal/repair's TestRepairTailPageBoundary checks that its kernel,
// which Transform calls where the 64 bytes from the tail's start are
// readable, reads nothing of them past the tail.)
func TestRepairTailPageBoundary(t *testing.T) {
	buf := guardedPages(t, 1)
	tail := bytes.Repeat([]byte("\xff\xe2\x82\x80a\xed\xa0\x80\xc3\xf0\x9f\x98"), 6)
	for _, p := range allPolicies[1:] {
		for n := 1; n <= 64; n++ {
			src := tail[len(tail)-n:]
			want, _, _ := refTransform(p, src, refOpts{})
			for _, in := range [][]byte{buf[len(buf)-n:], buf[:n:n]} {
				copy(in, src)
				dst := make([]byte, 3*n+64)
				nd, ns, err := NewTransformer(p).Transform(dst, in, true)
				if err != nil || ns != n || !bytes.Equal(dst[:nd], want) {
					t.Fatalf("%v: Transform(%q) = %q, %d, %v; want %q", p, in, dst[:nd], ns, err, want)
				}
			}
		}
	}
}
