package utf8stream

import (
	"bytes"
	"strings"
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

// TestValidPrefixPageBoundary checks that no implementation reads past the
// end of its input when a PROT_NONE page follows it, or before its start
// when one precedes it, and that no copyValidPrefix function writes past
// the end of dst[:len(src)] or before dst in the same way.
func TestValidPrefixPageBoundary(t *testing.T) {
	buf := guardedPages(t, 2)
	dbuf := guardedPages(t, 2)
	texts := []struct {
		desc string
		s    string
	}{
		{"ascii", strings.Repeat("abcdefg ", 60)},
		{"2-byte", strings.Repeat("\u0436", 200)},
		{"3-byte", strings.Repeat("\u4e2d", 200)},
		{"4-byte", strings.Repeat("\U0001F600", 200)},
		{"truncated", strings.Repeat("\u4e2d", 200) + "\xf0\x9f\x98"},
		{"ill-formed", strings.Repeat("a\u00e9", 100) + "\xff" + strings.Repeat("b", 100)},
		{"continuation", strings.Repeat("\x80", 400)},
	}
	for _, tc := range texts {
		t.Run(tc.desc, func(t *testing.T) {
			for n := 0; n <= 300; n++ {
				// Ending at the PROT_NONE page after buf.
				src := tc.s[len(tc.s)-n:]
				p := buf[len(buf)-n:]
				copy(p, src)
				checkValidPrefix(t, p)
				checkCopyGuarded(t, dbuf, p)
				// Starting at the PROT_NONE page before buf.
				src = tc.s[:n]
				p = buf[:n:n]
				copy(p, src)
				checkValidPrefix(t, p)
				checkCopyGuarded(t, dbuf, p)
			}
		})
	}
}

// checkCopyGuarded runs every copyValidPrefix function on src with a dst
// of len(src) bytes that ends at the PROT_NONE page after dbuf, and with
// one that starts at the PROT_NONE page before it.
func checkCopyGuarded(t *testing.T, dbuf, src []byte) {
	t.Helper()
	n := len(src)
	for _, dst := range [][]byte{dbuf[len(dbuf)-n:], dbuf[:n:n]} {
		forEachCopy(src, validPrefixGeneric(src), func(impl, fn string, copyFn func(dst, src []byte) int, want int) {
			clear(dst)
			if got := copyFn(dst, src); got != want || !bytes.Equal(dst[:got], src[:got]) {
				t.Fatalf("impl=%s: %s(dst, %q) = %d, copied %q; want %d", impl, fn, src, got, dst[:got], want)
			}
		})
	}
}

// TestDenseTailPageBoundary checks the block loop on the last bytes of an
// input that ends at a PROT_NONE page, or starts after one, under each
// policy: Transform must read nothing outside its input, and repairTail,
// which it calls where the 64 bytes from the tail's start are readable,
// must read nothing of them past the tail.
func TestDenseTailPageBoundary(t *testing.T) {
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
				tab := denseTableFor(&NewTransformer(p).c)
				if !haveRepair() || tab == nil || tab.maxOut > 3 || !tailReadable(in) {
					continue
				}
				dst = make([]byte, tab.tailRoom(n))
				st := repairState{first: -1, cleanMax: cleanBlocks}
				repairTail(dst, in, tab, &st)
				if nd, ns := unpad(st.j, st.p, n); ns != n || !bytes.Equal(dst[:nd], want) {
					t.Fatalf("%v: repairTail(%q) wrote %q for %d bytes; want %q", p, in, dst[:nd], ns, want)
				}
			}
		}
	}
}
