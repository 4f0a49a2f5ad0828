package repair

import (
	"math/bits"
	"slices"
	"testing"

	"github.com/utf8stream/utf8stream/internal/tablegen"
)

// The tables and constants of the kernels, which internal/tablegen builds
// and writes to the headers that their .s files include.
var (
	avx512Tab = tablegen.RepairAVX512()
	avx2Tab   = tablegen.RepairAVX2()
	neonTab   = tablegen.RepairNEON()

	leadC0, cont1, cont2, cont3 = avx512Tab.Bytes("leadC0"), avx512Tab.Bytes("cont1"), avx512Tab.Bytes("cont2"), avx512Tab.Bytes("cont3")
	cont1Esc                    = avx512Tab.Bytes("cont1Esc")
	neonLeadC0, neonCont1       = neonTab.Bytes("leadC0"), neonTab.Bytes("cont1")
)

// modelClassifyAVX512 does in Go, for the unit that would start at x[0],
// what classifyAVX512 does with its tables (under OPTU8 with esc), and
// returns the bits of m2, m3, m4 and v for it.
func modelClassifyAVX512(x [4]byte, esc bool) (m2, m3, m4, v bool) {
	var lead, c1 byte
	if x[0] >= 0xC0 { // VPERMI2B.Z of zeros for 80..BF and leadC0, masked to 80..FF
		lead = leadC0[x[0]-0xC0]
	}
	switch {
	case !esc:
		c1 = cont1[x[1]>>2]
	case x[1] >= 0x80: // VPERMI2B of zeros for 00..7F and cont1Esc by b>>1
		c1 = cont1Esc[x[1]>>1-0x40]
	}
	c2, c3 := cont2[x[2]>>2], cont3[x[3]>>2]
	m2 = lead&c1 != 0
	m3 = m2 && lead&c2 != 0
	m4 = m3 && lead&c3 != 0
	// The v test: VPTERNLOGD $0x48 with 30 in every byte keeps the bits
	// 4 and 5 (Third, Fourth) that lead asks and no byte gives, and the
	// others that both give, of which VPTESTNMB with 70 tests bit 6
	// (Escape) too.
	c := c1 | c2 | c3
	t := lead&^c&0x30 | lead&c&^0x30
	return m2, m3, m4, x[0] < 0x80 || m2 && t&0x70 == 0
}

// modelClassifyNEON does in Go, for the unit that would start at x[0],
// what classifyNEON does with its tables, and returns the bits of m2, m3,
// m4 and v for it.
func modelClassifyNEON(x [4]byte) (m2, m3, m4, v bool) {
	var lead byte
	if i := x[0] - 0xC0; i < 64 { // VTBL: 0 for an index past 63
		lead = neonLeadC0[i]
	}
	c1 := neonCont1[x[1]>>2]
	m2 = lead&c1 != 0
	m3 = m2 && lead&tablegen.Third != 0 && x[2]&0xC0 == 0x80
	m4 = m3 && lead&tablegen.Fourth != 0 && x[3]&0xC0 == 0x80
	switch {
	case x[0] < 0x80:
		v = true
	case lead&tablegen.Fourth != 0:
		v = m4
	case lead&tablegen.Third != 0:
		v = m3
	default:
		v = m2
	}
	return m2, m3, m4, v
}

// TestClassifyModel checks the meaning of the classification's lookup
// tables: modelClassifyAVX512 and modelClassifyNEON, which run the
// kernels' algorithms on them in Go, against refUnit, which reads the
// definitions, for every first and second byte (with -short, every
// second byte at an edge of Table 3-7's ranges) and the bytes after them
// on either side of the continuation bytes' range.
func TestClassifyModel(t *testing.T) {
	later := []byte{0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF}
	var second []byte
	for b := range 256 {
		second = append(second, byte(b))
	}
	if testing.Short() {
		second = slices.Concat(later, []byte{0xAF, 0xB0, 0xBD, 0xBE})
	}
	for b0 := range 256 {
		for _, b1 := range second {
			for _, b2 := range later {
				for _, b3 := range later {
					x := [4]byte{byte(b0), b1, b2, b3}
					n, valid := refUnit(x[:])
					want := [4]bool{n >= 2, n >= 3, n >= 4, valid}
					// OPTU8 escapes U+EF80..U+EFFF: EE BE xx, EE BF xx.
					wantEsc := want
					wantEsc[3] = valid && !(b0 == 0xEE && b1 >= 0xBE && b1 <= 0xBF)
					for _, c := range []struct {
						name string
						want [4]bool
						f    func([4]byte) (m2, m3, m4, v bool)
					}{
						{"modelClassifyAVX512", want, func(x [4]byte) (bool, bool, bool, bool) { return modelClassifyAVX512(x, false) }},
						{"modelClassifyAVX512 OPTU8", wantEsc, func(x [4]byte) (bool, bool, bool, bool) { return modelClassifyAVX512(x, true) }},
						{"modelClassifyNEON", want, modelClassifyNEON},
					} {
						m2, m3, m4, v := c.f(x)
						if got := [4]bool{m2, m3, m4, v}; got != c.want {
							t.Fatalf("%s(% x): m2, m3, m4, v = %v; want %v", c.name, x, got, c.want)
						}
					}
				}
			}
		}
	}
}

// TestPerByteTables checks the tables of repairAVX512's per-byte path
// by what the kernel does with them: vecOut (_asm/repair) interleaves 3
// streams of 64 bytes, 64 output bytes at a time, with ilvIdxK and the
// masks of ilv0..2 in the order that its calls name them, so that output
// byte k is byte k/3 of stream k%3; shiftIdx+k-1 moves each byte of a
// block k places down for k = 1, 2, 3.
func TestPerByteTables(t *testing.T) {
	var streams [3][64]byte
	for s := range streams {
		for i := range streams[s] {
			streams[s][i] = byte(64*s + i)
		}
	}
	mask := func(name string) uint64 {
		var m uint64
		for i, b := range avx512Tab.Bytes(name) {
			m |= uint64(b) << (8 * i)
		}
		return m
	}
	for part, c := range []struct {
		idx   string
		masks [3]string // vecOut's m0, m1 and m2: where streams 0, 1 and 2 go
	}{
		{"ilvIdx0", [3]string{"ilv0", "ilv1", "ilv2"}},
		{"ilvIdx1", [3]string{"ilv2", "ilv0", "ilv1"}},
		{"ilvIdx2", [3]string{"ilv1", "ilv2", "ilv0"}},
	} {
		idx := avx512Tab.Bytes(c.idx)
		m2 := mask(c.masks[2])
		for j := range 64 {
			k := 64*part + j
			var got byte
			switch {
			case m2>>j&1 != 0: // VPERMB of the third stream, under m2
				got = streams[2][idx[j]&63]
			case idx[j]&0x40 != 0: // VPERMI2B's second table
				got = streams[1][idx[j]&63]
			default:
				got = streams[0][idx[j]&63]
			}
			if want := streams[k%3][k/3]; got != want {
				t.Errorf("%s: output byte %d is byte %d of stream %d; want byte %d of stream %d", c.idx, k, got%64, got/64, k/3, k%3)
			}
			for s, name := range c.masks {
				if got, want := mask(name)>>j&1 != 0, s == k%3; got != want {
					t.Errorf("%s: bit %d is %v; want %v (output byte %d is of stream %d)", name, j, got, want, k, k%3)
				}
			}
		}
	}
	shiftIdx := avx512Tab.Bytes("shiftIdx")
	for k := 1; k <= 3; k++ {
		for j := range 64 - k { // VPERMB.Z leaves the last k bytes 0
			if got := shiftIdx[k-1+j] & 63; int(got) != j+k {
				t.Errorf("shiftIdx+%d: byte %d takes byte %d; want %d", k-1, j, got, j+k)
			}
		}
	}
}

// TestKernelConsts checks the constants of the kernels by the tests they
// take part in: those of the AVX2 classification, which compares bytes as
// signed, against the ranges of Table 3-7, and the others by what the
// kernels do with them.
func TestKernelConsts(t *testing.T) {
	c := func(name string) byte { return avx2Tab.Bytes(name)[0] }
	gt := func(x, y byte) bool { return int8(x) > int8(y) } // VPCMPGTB
	ascii := func(x int) bool { return x < 0x80 }
	for x := range 256 {
		b := byte(x)
		for _, p := range []struct {
			desc      string
			got, want bool
		}{
			{"x > bC1", gt(b, c("bC1")), ascii(x) || x >= 0xC2},
			{"x > bDF", gt(b, c("bDF")), ascii(x) || x >= 0xE0},
			{"x > bEF", gt(b, c("bEF")), ascii(x) || x >= 0xF0},
			{"x > bF4", gt(b, c("bF4")), ascii(x) || x >= 0xF5},
			{"x == bF4", b == c("bF4"), x == 0xF4},
			{"x == bE0", b == c("bE0"), x == 0xE0},
			{"x == bED", b == c("bED"), x == 0xED},
			{"x == bF0", b == c("bF0"), x == 0xF0},
			{"bC0 > x", gt(c("bC0"), b), 0x80 <= x && x <= 0xBF},
			{"bA0 > x", gt(c("bA0"), b), 0x80 <= x && x <= 0x9F},
			{"b90 > x", gt(c("b90"), b), 0x80 <= x && x <= 0x8F},
			{"x == bEE", b == c("bEE"), x == 0xEE},
			{"x > bBD", gt(b, c("bBD")), ascii(x) || x >= 0xBE},
		} {
			if p.got != p.want {
				t.Errorf("%s for x = %#02x: %v; want %v", p.desc, x, p.got, p.want)
			}
		}
	}
	// The constants that fill a vector with one byte.
	for _, f := range []struct {
		file tablegen.File
		name string
		b    byte
	}{
		{avx2Tab, "two", cRest},
		{avx512Tab, "bit1", 1}, {avx512Tab, "bit2", 2}, {avx512Tab, "bit4", 4},
		{avx512Tab, "escBit", tablegen.Escape},
	} {
		for i, b := range f.file.Bytes(f.name) {
			if b != f.b {
				t.Errorf("%s[%d] = %#02x; want %#02x", f.name, i, b, f.b)
			}
		}
	}
	for i, b := range avx2Tab.Bytes("iota") {
		if int(b) != i {
			t.Errorf("iota[%d] = %d", i, b)
		}
	}
	// expandD8 and bitsel: byte p, in the order of VPERMQ $0xD8, which
	// swaps the middle 64-bit words, tests bit i of the mask.
	expandD8, bitsel := avx2Tab.Bytes("expandD8"), avx2Tab.Bytes("bitsel")
	for p := range 32 {
		i := 8*[]int{0, 2, 1, 3}[p/8] + p%8
		if bits.OnesCount8(bitsel[p]) != 1 || int(expandD8[p])*8+bits.TrailingZeros8(bitsel[p]) != i {
			t.Errorf("expandD8[%d], bitsel[%d] = %d, %#02x; want the bit %d of the mask", p, p, expandD8[p], bitsel[p], i)
		}
	}
	// bitWeights: bit i%8 in byte i, which VADDP sums into mask bytes.
	for i, b := range neonTab.Bytes("bitWeights") {
		if b != 1<<(i%8) {
			t.Errorf("bitWeights[%d] = %#02x; want %#02x", i, b, 1<<(i%8))
		}
	}
}
