package utf8stream

import (
	"bytes"
	"testing"

	"github.com/utf8stream/utf8stream/internal/pagetest"
)

// TestRepairTailPageBoundary checks the block repairer on the last bytes
// of an input that ends at a PROT_NONE page, or starts after one, under
// each policy: Transform must read nothing outside its input.
// (internal/repair's TestRepairTailPageBoundary checks that its kernel,
// which Transform calls where the 64 bytes from the tail's start are
// readable, reads nothing of them past the tail.)
func TestRepairTailPageBoundary(t *testing.T) {
	buf := pagetest.Guarded(t, 1)
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
