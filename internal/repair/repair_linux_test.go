package repair

import (
	"bytes"
	"testing"

	"github.com/utf8stream/utf8stream/internal/pagetest"
)

// TestRepairTailPageBoundary checks each implementation on the last bytes
// of an input that ends at a PROT_NONE page, or starts after one, under
// each table without stops: where the 64 bytes from the tail's start are
// readable (tailReadable), kernelTail must read nothing of them past the
// tail, and Tail, which calls it there, nothing outside its input.
func TestRepairTailPageBoundary(t *testing.T) {
	for _, name := range ImplNames() {
		t.Run("impl="+name, func(t *testing.T) {
			defer SetImpl(name)()
			buf := pagetest.Guarded(t, 1)
			tail := bytes.Repeat([]byte("\xff\xe2\x82\x80a\xed\xa0\x80\xc3\xf0\x9f\x98"), 6)
			for _, s := range testSpecs {
				if len(s.Stops) > 0 {
					continue
				}
				tab := mustTable(s.Spec)
				for n := 1; n <= 64; n++ {
					src := tail[len(tail)-n:]
					want, _ := refRepair(s.Spec, src)
					for _, in := range [][]byte{buf[len(buf)-n:], buf[:n:n]} {
						copy(in, src)
						dst := make([]byte, 3*n+64)
						var c Counts
						if nd, ns := tab.Tail(dst, in, nil, &c); ns != n || !bytes.Equal(dst[:nd], want) {
							t.Fatalf("%s: Tail(%q) wrote %q for %d bytes; want %q", s.name, in, dst[:nd], ns, want)
						}
						if !haveKernel() || tab.maxOut > 3 || !tailReadable(in) {
							continue
						}
						dst = make([]byte, tab.tailRoom(n))
						st := state{first: -1, cleanMax: cleanBlocks}
						kernelTail(dst, in, tab, &st)
						if nd, ns := unpad(st.j, st.p, n); ns != n || !bytes.Equal(dst[:nd], want) {
							t.Fatalf("%s: kernelTail(%q) wrote %q for %d bytes; want %q", s.name, in, dst[:nd], ns, want)
						}
					}
				}
			}
		})
	}
}

// TestClassifyPageBoundary checks every implementation of classifyBlocks on
// blocks whose input, and the 3 bytes past it that it reads, end at a
// PROT_NONE page: it must read nothing past them.
func TestClassifyPageBoundary(t *testing.T) {
	buf := pagetest.Guarded(t, 1)
	src := buf[len(buf)-(4*64+3):]
	for i := range src {
		src[i] = []byte{0xF0, 0x90, 0x80, 0xE2, 0x82, 0xED, 0xA0, 'a', 0xFF}[i%9]
	}
	for _, name := range ImplNames() {
		restore := SetImpl(name)
		for n := 1; n <= 4; n++ {
			in := src[len(src)-(64*n+3):]
			out := make([]blockClass, n)
			classifyBlocks(in, out)
			for i, got := range out {
				if want := refClassify(in[64*i:]); got != want {
					t.Errorf("impl=%s: block %d of %d: got %+v, want %+v", name, i, n, got, want)
				}
			}
		}
		restore()
	}
}
