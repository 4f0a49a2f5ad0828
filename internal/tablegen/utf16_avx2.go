package tablegen

import "math/bits"

// UTF16AVX2 returns tables_amd64.h of internal/utf16, which widen_amd64.s
// includes: the shuffles with which the AVX2 kernels pack the lanes they
// keep to the front of a 16-byte lane, the constant shuffles of
// narrowAVX2, and the constants of widenAVX2's 4-byte sequences.
func UTF16AVX2() File {
	return File{
		Name: "tables_amd64.h",
		Doc:  "The shuffles (VPSHUFB, 16 bytes an entry) and constants of internal/utf16's AVX2 kernels.",
		Tables: append([]Table{
			{Name: "widenPack", Doc: "widenPack, by a mask of 8 words, packs the words whose bits are set\n" +
				"to the front, in order: entry k has the bytes 2j and 2j+1 for each\n" +
				"bit j of k, then 80s, which zero the rest.",
				Data: WidenPack()},
			{Name: "narrowPack3", Doc: "narrowPack3, by m | n<<4 for 4 dwords that each hold the UTF-8 of a\n" +
				"unit below U+10000 from their low byte up, m having bit j set where\n" +
				"dword j holds 2 bytes or more and n where it holds 3, packs their\n" +
				"bytes to the front, in order: 4+popcount(m|n<<4) bytes, then 80s.",
				Data: NarrowPack3()},
			{Name: "narrowPack2", Doc: "narrowPack2, by a mask m of 8 words that each hold the UTF-8 of a\n" +
				"unit below U+0800 from their low byte up, with bit j set where word j\n" +
				"holds 2 bytes, packs their bytes to the front, in order:\n" +
				"8+popcount(m) bytes, then 80s.",
				Data: NarrowPack2()},
			{Name: "narrowKeys", Doc: "narrowKeys orders the bytes of each lane of masks of 8 units a0..a7\n" +
				"then b0..b7 as a0..a3, b0..b3, a4..a7, b4..b7, so that each byte of\n" +
				"their VPMOVMSKB is the key of 4 units in narrowPack3.",
				Data: NarrowKeys()},
			{Name: "widenFours", Doc: "widenFours, for each phase p = 0..3 of a step of 4-byte characters\n" +
				"alone, whose leads lie at lanes p, p+4, ...: 32 bytes that move the\n" +
				"units of lanes p and (p+1)%4 of each 4, a lead's and the one after\n" +
				"it, to the front of each lane of 8 units, in order, then zeros.",
				Data: WidenFours()},
			NarrowPairs(),
			{Name: "wordEF", Doc: "The constants of widenAVX2's 4-byte sequences, each a word in all\n" +
				"16 lanes: b0 > wordEF for their leads b0. With t the unit that a\n" +
				"lane's 3 bytes would make if its byte led a 3-byte sequence,\n" +
				"(b0&0F)<<12 | (b1&3F)<<6 | b2&3F, the high surrogate in the lead's\n" +
				"lane is wordD7C0 + t>>4 (F0..F4 have bit 3 clear), and the low one,\n" +
				"in the lane after it, wordDC00 | t&word3FF.",
				Data: words(0xEF)},
			{Name: "wordD7C0", Data: words(0xD7C0)},
			{Name: "word3FF", Data: words(0x3FF)},
			{Name: "wordDC00", Data: words(0xDC00)},
			{Name: "wordFC00", Doc: "The constants of narrowAVX2's surrogates, each a word in all 16\n" +
				"lanes but notLane0: u&wordFC00 is D800 for a high surrogate u and\n" +
				"DC00 for a low one. For a high one, v = u-wordD7C0 is the code\n" +
				"point>>10, whose first 2 bytes of UTF-8 are wordF0|v>>8, 80|(v>>2)&3F;\n" +
				"the low one after it has the other 2, 80|(h&word3)<<4|(u>>6)&word0F\n" +
				"and 80|u&3F, h the high one. notLane0 clears the first lane.",
				Data: words(0xFC00)},
			{Name: "wordD800", Data: words(0xD800)},
			{Name: "byteDF", Doc: "byteDF is DF in all 32 bytes: the bytes b that b-DF saturated leaves\n" +
				"nonzero are the leads of 3-byte sequences and F0..FF.",
				Data: fill(0xDF, 32)},
			{Name: "wordF0", Data: words(0xF0)},
			{Name: "word3", Data: words(3)},
			{Name: "word0F", Data: words(0x0F)},
			{Name: "notLane0", Data: append([]byte{0, 0}, fill(0xFF, 30)...)},
			{Name: "widenZip", Doc: "widenZip is the index of VPERMI2B that makes words of two planes of\n" +
				"64 bytes, lo (0..63) and hi (64..127): the words of bytes j of both\n" +
				"for j in 0..31, then for j in 32..63.",
				Data: WidenZip()},
			{Name: "swapUnits", Doc: "swapUnits swaps the two bytes of each 16-bit unit.",
				Data: SwapUnits()},
			{Name: "widenHi", Doc: "widenHi is the high byte of the unit of a 2-byte sequence by its lead\n" +
				"b0&3F, (b0>>2)&7, and b0<<4 for the leads of longer ones.",
				Data: WidenHi()},
			{Name: "byteD8", Doc: "byteD8 and byteDC are D8 and DC in all 64 bytes: the high bytes\n" +
				"of high and low surrogates, to which widenAVX512 adds their bits.",
				Data: fill(0xD8, 64)},
			{Name: "byteDC", Data: fill(0xDC, 64)},
		}, widenAVX2Tables()...),
	}
}

// WidenPack returns the table widenPack of UTF16AVX2.
func WidenPack() []byte {
	t := make([]byte, 0, 256*16)
	for k := range 256 {
		e := fill(0x80, 16)
		n := 0
		for j := range 8 {
			if k>>j&1 != 0 {
				e[n], e[n+1] = byte(2*j), byte(2*j+1)
				n += 2
			}
		}
		t = append(t, e...)
	}
	return t
}

// NarrowPack3 returns the table narrowPack3 of UTF16AVX2. The entries of
// keys with a bit of n set whose bit of m is not, which no unit gives,
// are those of the key with that bit of m set too.
func NarrowPack3() []byte {
	t := make([]byte, 0, 256*16)
	for k := range 256 {
		m, n := k&0xF|k>>4, k>>4
		e := fill(0x80, 16)
		p := 0
		for j := range 4 {
			e[p] = byte(4 * j)
			p++
			if m>>j&1 != 0 {
				e[p] = byte(4*j + 1)
				p++
			}
			if n>>j&1 != 0 {
				e[p] = byte(4*j + 2)
				p++
			}
		}
		if m == k&0xF && p != 4+bits.OnesCount(uint(k)) {
			panic("tablegen: narrowPack3's length")
		}
		t = append(t, e...)
	}
	return t
}

// NarrowPack2 returns the table narrowPack2 of UTF16AVX2.
func NarrowPack2() []byte {
	t := make([]byte, 0, 256*16)
	for k := range 256 {
		e := fill(0x80, 16)
		p := 0
		for j := range 8 {
			e[p] = byte(2 * j)
			p++
			if k>>j&1 != 0 {
				e[p] = byte(2*j + 1)
				p++
			}
		}
		t = append(t, e...)
	}
	return t
}

// NarrowKeys returns the constant narrowKeys of UTF16AVX2.
func NarrowKeys() []byte {
	lane := []byte{0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15}
	return append(lane, lane...)
}

// WidenFours returns the table widenFours of UTF16AVX2.
func WidenFours() []byte {
	var t []byte
	for p := range 4 {
		a, b := p, (p+1)%4
		if a > b {
			a, b = b, a
		}
		var lane []byte
		for _, w := range []int{a, b, a + 4, b + 4} {
			lane = append(lane, byte(2*w), byte(2*w+1))
		}
		lane = append(lane, fill(0x80, 8)...)
		t = append(t, lane...)
		t = append(t, lane...)
	}
	return t
}

// words returns the 16-bit w in all 16 lanes of a Y register.
func words(w uint16) []byte {
	return repeat([]byte{byte(w), byte(w >> 8)}, 32)
}

// WidenZip returns the table widenZip of UTF16AVX2.
func WidenZip() []byte {
	t := make([]byte, 128)
	for j := range 64 {
		t[2*j], t[2*j+1] = byte(j), byte(64+j)
	}
	return t
}

// WidenHi returns the table widenHi of UTF16AVX2.
func WidenHi() []byte {
	t := make([]byte, 64)
	for x := range 64 {
		if b := 0xC0 | x; b < 0xE0 {
			t[x] = byte(b>>2) & 7
		} else {
			t[x] = byte(b << 4)
		}
	}
	return t
}

// SwapUnits returns the table swapUnits of UTF16AVX2.
func SwapUnits() []byte {
	t := make([]byte, 32)
	for i := range t {
		t[i] = byte(i ^ 1)
	}
	return t
}
