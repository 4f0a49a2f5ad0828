package valid

import (
	"math/rand/v2"
	"testing"

	"github.com/utf8stream/utf8stream/internal/tablegen"
)

// neonTab holds the tables of valid_arm64.s.
var neonTab = tablegen.ValidNEON()

// TestNEONTables checks that no entry of the lookup tables of
// valid_arm64.s holds the bit 0x02, which the sum in the kernels relies
// on.
func TestNEONTables(t *testing.T) {
	for _, name := range []string{"lead", "leadEE", "leadBMP", "curHigh"} {
		for i, v := range neonTab.Bytes(name) {
			if v&0x02 != 0 {
				t.Errorf("%s[%d] = %#02x holds 0x02", name, i, v)
			}
		}
	}
}

// neonModel does in Go, a byte at a time, what the kernels of
// valid_arm64.s do with the tables of neonTab, and returns the n they
// return: the first byte that shows an error, or len(p) if there is none
// and p does not end inside a sequence, or len(p)-1 if it does.
func neonModel(p []byte, v variant) int {
	lead := neonTab.Bytes(map[variant]string{plain: "lead", beforeEE: "leadEE", bmp: "leadBMP"}[v])
	curHigh := neonTab.Bytes("curHigh")
	at := func(i int) byte { // zeros before p
		if i < 0 {
			return 0
		}
		return p[i]
	}
	cmhs := func(b, c byte) byte { // CMHS: FF where b >= c
		if b >= c {
			return 0xFF
		}
		return 0
	}
	for i, c := range p {
		p1, p2, p3 := at(i-1), at(i-2), at(i-3)
		var d byte = tablegen.NEONTwoConts // VMOVI, then TBX by p1^C0
		if idx := p1 ^ 0xC0; idx < 64 {
			d = lead[idx]
		}
		x := d&curHigh[c>>4] + cmhs(p2, 0xE0) + cmhs(p3, 0xF0)
		if x != 0 {
			return i
		}
	}
	n := len(p)
	if at(n-1) >= 0xC0 || at(n-2) >= 0xE0 || at(n-3) >= 0xF0 {
		return n - 1
	}
	return n
}

// TestNEONModel checks the tables' meaning: neonModel, which runs the
// NEON kernels' algorithm on them in Go, against the generic
// implementation, as checkKernel checks a kernel but at every length: on
// every input of up to 4 bytes from a set that meets every entry of the
// tables (fewer with -short), and on inputs like TestLookupModel's. It
// runs on every platform.
func TestNEONModel(t *testing.T) {
	check := func(p []byte) {
		t.Helper()
		// The model leaves nothing to Go: its n is within 3 bytes
		// after the answer whatever the length of p.
		for _, c := range []struct {
			name    string
			n, want int
		}{
			{"neonModel", neonModel(p, plain), prefixGeneric(p)},
			{"neonModel BeforeEE", neonModel(p, beforeEE), prefixBeforeEEGeneric(p)},
			{"neonModel BMP", neonModel(p, bmp), prefixBMPGeneric(p)},
		} {
			if c.n == len(p) && c.want != len(p) || c.n < len(p) && (c.n < c.want || c.n > c.want+3) {
				t.Fatalf("%s(%q) = %d; want %d to %d", c.name, p, c.n, c.want, c.want+3)
			}
		}
	}
	// Each lead byte, and a byte of each nibble and each range edge.
	var set []byte
	for b := 0xC0; b <= 0xFF; b++ {
		set = append(set, byte(b))
	}
	set = append(set, 0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF)
	var rec func(p []byte)
	rec = func(p []byte) {
		check(p)
		if len(p) == 4 {
			return
		}
		for _, b := range set {
			rec(append(p, b))
		}
	}
	if testing.Short() {
		set = set[len(set)-24:] // F0..FF and the rest
	}
	rec(nil)

	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range validPrefixTests {
		check([]byte(tc.in))
	}
	for _, seq := range append(append([]string{}, badSeqs...), goodSeqs...) {
		for _, filler := range fillers {
			check([]byte(cutAt(filler, 70) + seq + cutAt(filler, 10)))
			check([]byte(cutAt(filler, 70) + seq))
		}
	}
	for range 20000 {
		p := make([]byte, 67+rng.IntN(20))
		for i := range p {
			p[i] = set[rng.IntN(len(set))]
		}
		check(p)
	}
}
