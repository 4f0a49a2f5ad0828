package utf16

import (
	"bytes"
	"testing"

	"github.com/utf8stream/utf8stream/internal/pagetest"
)

// TestSwapPageEnd runs Swap on input that starts or ends where a page
// does, with the page beyond unreadable, and writes to dst the same way.
func TestSwapPageEnd(t *testing.T) {
	sbuf := pagetest.Guarded(t, 1)
	dbuf := pagetest.Guarded(t, 1)
	for n := 0; n <= 100; n++ {
		for _, atEnd := range []bool{false, true} {
			src, dst := sbuf[:n], dbuf[:n]
			if atEnd {
				src, dst = sbuf[len(sbuf)-n:], dbuf[len(dbuf)-n:]
			}
			for i := range src {
				src[i] = byte(i)
			}
			Swap(dst, src)
			if want := swapRef(src); !bytes.Equal(dst[:len(want)], want) {
				t.Fatalf("Swap of %d bytes (at the page's end: %v): % x; want % x", n, atEnd, dst, want)
			}
		}
	}
}
