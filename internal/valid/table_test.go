package valid

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The error bits of the lookup tables of valid_amd64.s, where each is
// described.
const (
	tooShort  = 0x01
	tooLong   = 0x02
	overlong3 = 0x04
	tooLarge  = 0x08
	surrogate = 0x10
	overlong2 = 0x20
	overlong4 = 0x40 // and F5..FF followed by 80..8F (simdjson's TooLarge1000)
	twoConts  = 0x80
	carry     = tooShort | tooLong | twoConts
)

// lookupTables returns the 16 entries of each nibble table of
// valid_amd64.s, built from what the nibble says of a byte, and
// incompleteMax.
func lookupTables() map[string][]byte {
	var prevHigh, prevLow, prevLowEE, prevLowBMP, curHigh [16]byte
	for n := range 16 {
		// The high nibble of the earlier byte: what it can start.
		switch {
		case n < 0x8: // ASCII
			prevHigh[n] = tooLong
		case n < 0xC: // a continuation byte
			prevHigh[n] = twoConts
		case n == 0xC: // C0..CF
			prevHigh[n] = tooShort | overlong2
		case n == 0xD: // D0..DF
			prevHigh[n] = tooShort
		case n == 0xE: // E0..EF
			prevHigh[n] = tooShort | overlong3 | surrogate
		default: // F0..FF
			prevHigh[n] = tooShort | tooLarge | overlong4
		}

		// The low nibble of the earlier byte: which lead bytes it can be.
		// The high nibble tells them apart, so each bit here goes with
		// every lead byte of this low nibble.
		prevLow[n] = carry
		if n == 0x0 { // C0, E0, F0
			prevLow[n] |= overlong2 | overlong3 | overlong4
		}
		if n == 0x1 { // C1
			prevLow[n] |= overlong2
		}
		if n >= 0x4 { // F4..FF
			prevLow[n] |= tooLarge
		}
		if n >= 0x5 { // F5..FF
			prevLow[n] |= overlong4
		}
		if n == 0xD { // ED
			prevLow[n] |= surrogate
		}
		prevLowEE[n] = prevLow[n]
		if n == 0xE { // EE: stop before it, whatever follows
			prevLowEE[n] |= overlong3 | surrogate
		}
		prevLowBMP[n] = prevLow[n]
		if n <= 0x4 { // F0..F4: stop before them, whatever follows
			prevLowBMP[n] |= tooLarge | overlong4
		}

		// The high nibble of the later byte.
		switch {
		case n < 0x8 || n >= 0xC: // not a continuation byte
			curHigh[n] = tooShort
		default: // 80..BF
			curHigh[n] = tooLong | overlong2 | twoConts
			if n <= 0x9 { // 80..9F
				curHigh[n] |= overlong3
			}
			if n >= 0x9 { // 90..BF
				curHigh[n] |= tooLarge
			}
			if n == 0x8 { // 80..8F
				curHigh[n] |= overlong4
			}
			if n >= 0xA { // A0..BF
				curHigh[n] |= surrogate
			}
		}
	}
	// incompleteMax: a lead byte in the last byte of a block, a 3- or
	// 4-byte lead in the one before, a 4-byte lead in the one before that.
	incompleteMax := make([]byte, 64)
	for i := range incompleteMax {
		incompleteMax[i] = 0xFF
	}
	incompleteMax[63], incompleteMax[62], incompleteMax[61] = 0xBF, 0xDF, 0xEF
	return map[string][]byte{
		"prevHigh":      prevHigh[:],
		"prevLow":       prevLow[:],
		"prevLowEE":     prevLowEE[:],
		"prevLowBMP":    prevLowBMP[:],
		"curHigh":       curHigh[:],
		"incompleteMax": incompleteMax,
	}
}

// asmData returns the read-only data that file defines with DATA lines and
// with the TABLE macro of table_amd64.h (16 bytes repeated four times),
// by symbol.
func asmData(t *testing.T, file string) map[string][]byte {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data := map[string][]byte{}
	put := func(name string, off, size int, v uint64) {
		b := data[name]
		if len(b) < off+size {
			b = append(b, make([]byte, off+size-len(b))...)
		}
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], v)
		copy(b[off:off+size], w[:size])
		data[name] = b
	}
	parse := func(s string) uint64 {
		v, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return v
	}
	for _, m := range regexp.MustCompile(`(?m)^TABLE\((\w+)<>, \$(\w+), \$(\w+)\)$`).FindAllStringSubmatch(string(src), -1) {
		for k := range 4 {
			put(m[1], 16*k, 8, parse(m[2]))
			put(m[1], 16*k+8, 8, parse(m[3]))
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^DATA (\w+)<>\+(\w+)\(SB\)/(\d), \$(\w+)$`).FindAllStringSubmatch(string(src), -1) {
		put(m[1], int(parse(m[2])), int(parse(m[3])), parse(m[4]))
	}
	return data
}

// TestLookupTables checks the bytes of the tables in valid_amd64.s against
// lookupTables, which builds them from the error bits.
func TestLookupTables(t *testing.T) {
	got := asmData(t, "valid_amd64.s")
	for name, want := range lookupTables() {
		b, ok := got[name]
		if !ok {
			t.Errorf("valid_amd64.s does not define %s", name)
			continue
		}
		if len(want) == 16 {
			// A TABLE: the 16 bytes four times over.
			want = []byte(strings.Repeat(string(want), 4))
		}
		if string(b) != string(want) {
			t.Errorf("valid_amd64.s: %s is\n% x\nwant\n% x\n%s", name, b, want, tableLine(name, want))
		}
	}
}

// tableLine returns the line of valid_amd64.s that defines table name with
// the 64 bytes b, or its DATA lines.
func tableLine(name string, b []byte) string {
	le := binary.LittleEndian.Uint64
	if string(b[:16]) == string(b[16:32]) && string(b[:32]) == string(b[32:]) {
		return fmt.Sprintf("TABLE(%s<>, $%#016x, $%#016x)", name, le(b), le(b[8:]))
	}
	var lines []string
	for off := 0; off < len(b); off += 8 {
		lines = append(lines, fmt.Sprintf("DATA %s<>+%#02x(SB)/8, $%#016x", name, off, le(b[off:])))
	}
	return strings.Join(lines, "\n")
}

// modelPrefix does in Go, a byte at a time, what the kernels of
// valid_amd64.s do with the tables of lookupTables, and returns the n they
// return: the first byte that shows an error, or len(p) if there is none
// and p does not end inside a sequence, or len(p)-1 if it does.
// (The kernels may stop short of a flag in the last bytes of short input,
// which checkKernel allows for.)
func modelPrefix(p []byte, v variant) int {
	tab := lookupTables()
	low := tab[map[variant]string{plain: "prevLow", beforeEE: "prevLowEE", bmp: "prevLowBMP"}[v]]
	at := func(i int) byte { // zeros before p
		if i < 0 {
			return 0
		}
		return p[i]
	}
	for i, c := range p {
		p1, p2, p3 := at(i-1), at(i-2), at(i-3)
		flags := tab["prevHigh"][p1>>4] & low[p1&15] & tab["curHigh"][c>>4]
		if p2 >= 0xE0 || p3 >= 0xF0 { // a continuation byte must come here
			flags ^= twoConts
		}
		if flags != 0 {
			return i
		}
	}
	n := len(p)
	for k := range 3 {
		if at(n-1-k) > tab["incompleteMax"][63-k] {
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
