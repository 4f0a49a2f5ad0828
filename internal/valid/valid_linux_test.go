package valid

import (
	"bytes"
	"strings"
	"testing"

	"github.com/utf8stream/utf8stream/internal/pagetest"
)

// TestValidPrefixPageBoundary checks that no implementation reads past the
// end of its input when a PROT_NONE page follows it, or before its start
// when one precedes it, and that no CopyPrefix function writes past
// the end of dst[:len(src)] or before dst in the same way.
func TestValidPrefixPageBoundary(t *testing.T) {
	buf := pagetest.Guarded(t, 2)
	dbuf := pagetest.Guarded(t, 2)
	texts := []struct {
		desc string
		s    string
	}{
		{"ascii", strings.Repeat("abcdefg ", 60)},
		{"lines", strings.Repeat("ab\ncd\u00e9\n\n", 80)},
		{"2-byte", strings.Repeat("\u0436", 200)},
		{"3-byte", strings.Repeat("\u4e2d", 200)},
		{"4-byte", strings.Repeat("\U0001F600", 200)},
		{"truncated", strings.Repeat("\u4e2d", 200) + "\xf0\x9f\x98"},
		{"ill-formed", strings.Repeat("a\u00e9", 100) + "\xff" + strings.Repeat("b", 100)},
		{"continuation", strings.Repeat("\x80", 400)},
		{"ascii after a 2-byte character", "\u00e9" + strings.Repeat("abcdefg ", 60)},
	}
	for _, tc := range texts {
		t.Run(tc.desc, func(t *testing.T) {
			// From 1 KiB the AVX2 copying kernel goes on from its first
			// block where dst is 32-byte aligned: at each of dst's 32
			// offsets from that alignment as n goes, with src at the
			// start of buf.
			long := strings.Repeat(tc.s, 1100/len(tc.s)+1)
			for n := 1024; n < 1024+32; n++ {
				p := buf[:n:n]
				copy(p, long)
				checkCopyGuarded(t, dbuf, p)
			}
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

// checkCopyGuarded runs every CopyPrefix function on src with a dst
// of len(src) bytes that ends at the PROT_NONE page after dbuf, and with
// one that starts at the PROT_NONE page before it.
func checkCopyGuarded(t *testing.T, dbuf, src []byte) {
	t.Helper()
	n := len(src)
	for _, dst := range [][]byte{dbuf[len(dbuf)-n:], dbuf[:n:n]} {
		forEachCopy(src, prefixGeneric(src), func(impl, fn string, copyFn func(dst, src []byte) int, want int) {
			clear(dst)
			if got := copyFn(dst, src); got != want || !bytes.Equal(dst[:got], src[:got]) {
				t.Fatalf("impl=%s: %s(dst, %q) = %d, copied %q; want %d", impl, fn, src, got, dst[:got], want)
			}
		})
	}
}
