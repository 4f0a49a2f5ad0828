package valid

import (
	"math/rand/v2"
	"testing"

	"github.com/utf8stream/utf8stream/internal/tablegen"
)

// amd64Tab holds the tables of valid_amd64.s.
var amd64Tab = tablegen.ValidAMD64()

// modelPrefix does in Go, a byte at a time, what the kernels of
// valid_amd64.s do with the tables of amd64Tab, and returns the n they
// return: the first byte that shows an error, or len(p) if there is none
// and p does not end inside a sequence, or len(p)-1 if it does.
// (The kernels may stop short of a flag in the last bytes of short input,
// which checkKernel allows for.)
func modelPrefix(p []byte, v variant) int {
	tab := amd64Tab
	prevHigh, curHigh := tab.Bytes("prevHigh"), tab.Bytes("curHigh")
	low := tab.Bytes(map[variant]string{plain: "prevLow", beforeEE: "prevLowEE", bmp: "prevLowBMP"}[v])
	high, incompleteMax := tab.Bytes("high"), tab.Bytes("incompleteMax")
	at := func(i int) byte { // zeros before p
		if i < 0 {
			return 0
		}
		return p[i]
	}
	for i, c := range p {
		p1, p2, p3 := at(i-1), at(i-2), at(i-3)
		flags := prevHigh[p1>>4] & low[p1&15] & curHigh[c>>4]
		if p2 >= 0xE0 || p3 >= 0xF0 { // a continuation byte must come here
			flags ^= high[0]
		}
		if flags != 0 {
			return i
		}
	}
	n := len(p)
	for k := range 3 {
		if at(n-1-k) > incompleteMax[63-k] {
			return n - 1
		}
	}
	return n
}

// TestLookupModel checks the tables' meaning: modelPrefix, which runs the
// kernels' algorithm on them in Go, against the generic implementation,
// as checkKernel checks a kernel.
func TestLookupModel(t *testing.T) {
	var inputs [][]byte
	for _, tc := range validPrefixTests {
		inputs = append(inputs, []byte(tc.in))
	}
	for _, seq := range append(append([]string{}, badSeqs...), goodSeqs...) {
		for _, filler := range fillers {
			inputs = append(inputs, []byte(cutAt(filler, 70)+seq+cutAt(filler, 10)), []byte(cutAt(filler, 70)+seq))
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		p := make([]byte, 67+rng.IntN(20))
		for i := range p {
			p[i] = []byte{0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC1, 0xC2, 0xE0, 0xE1, 0xED, 0xEE, 0xF0, 0xF4, 0xF5}[rng.IntN(16)]
		}
		inputs = append(inputs, p)
	}
	for _, p := range inputs {
		checkKernel(t, "modelPrefix", modelPrefix(p, plain), p, prefixGeneric(p))
		checkKernel(t, "modelPrefix BeforeEE", modelPrefix(p, beforeEE), p, prefixBeforeEEGeneric(p))
		checkKernel(t, "modelPrefix BMP", modelPrefix(p, bmp), p, prefixBMPGeneric(p))
	}
}
