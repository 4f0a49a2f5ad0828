package tablegen

import "math/bits"

// The codes by which narrowNEON's tables know each unit's UTF-8 length,
// two bits a unit: bit 0 for a unit of U+0080 or more, bit 1 for one of
// U+0800 or more.
const (
	narrowCode1 = 0 // U+0000..U+007F: 1 byte
	narrowCode2 = 1 // U+0080..U+07FF: 2 bytes
	narrowCode3 = 3 // U+0800..U+FFFF: 3 bytes
)

// UTF16NEON returns tables_arm64.h of internal/utf16, which widen_arm64.s
// includes: the shuffles that gather the units of the characters that
// start in 8 bytes of UTF-8, and the bytes of 4 units of UTF-16, and
// their lengths.
func UTF16NEON() File {
	// widenIdx: by the 8 bits that mark the bytes that start a character
	// (bit i for byte i), the indexes into the two registers of a half
	// block's low and high unit bytes (16 each) that gather the units of
	// those characters, for the half's first 8 bytes; widenIdx+4096 the
	// same for its last 8. Unused bytes are FF, which TBL makes 0.
	widenIdx, widenLen := halves(256, func(e []byte, half, key int) int {
		k := 0
		for p := range 8 {
			if key>>p&1 != 0 {
				e[2*k] = byte(8*half + p)
				e[2*k+1] = byte(16 + 8*half + p)
				k++
			}
		}
		return 2 * bits.OnesCount8(uint8(key))
	})
	widenLen = append(widenLen, widenLen...)
	// widen13Idx: for text of 1- and 3-byte characters only, by the 9
	// bits that mark the bytes that start a character among 9 (bit i for
	// byte i), the indexes into a half block's 16 low unit bytes of
	// 3-byte characters, their 16 high ones and its 16 bytes of UTF-8
	// that gather the units of the characters that start in the first 8:
	// a character is ASCII where the byte after it starts one, else it
	// has 3 bytes. For the half's first 8 bytes; widen13Idx+8192 the same
	// for its last 8.
	widen13Idx, _ := halves(512, func(e []byte, half, key int) int {
		k := 0
		for p := range 8 {
			if key>>p&1 == 0 {
				continue
			}
			if key>>(p+1)&1 != 0 {
				e[2*k] = byte(32 + 8*half + p)
			} else {
				e[2*k] = byte(8*half + p)
				e[2*k+1] = byte(16 + 8*half + p)
			}
			k++
		}
		return 0
	})
	// narrowIdx: by the codes of 4 units (unit k's in bits 2k and 2k+1),
	// the indexes into the three registers of the units' first, second
	// and third UTF-8 bytes (16 each) that gather their bytes, for the
	// first 4 units of 16; the kernel adds 4, 8 or 12 for the others.
	// Unused bytes are 80, which stays 48 or more after that.
	narrowIdx := fill(0x80, 256*16)
	narrowLen := make([]byte, 256)
	for key := range 256 {
		e := narrowIdx[key*16:][:16]
		n := 0
		for k := range 4 {
			switch key >> (2 * k) & 3 {
			case narrowCode1:
				e[n] = byte(k)
				n++
			case narrowCode2:
				e[n], e[n+1] = byte(k), byte(32+k)
				n += 2
			default: // narrowCode3, and 2, which no unit has
				e[n], e[n+1], e[n+2] = byte(k), byte(16+k), byte(32+k)
				n += 3
			}
		}
		narrowLen[key] = byte(n)
	}
	// narrow2Idx: by the bits that mark the units of U+0080 or more among
	// 8 (bit k for unit k), the indexes into the registers of 16 units'
	// first and last UTF-8 bytes that gather their bytes (1 or 2 each),
	// for the first 8 units of 16; narrow2Idx+4096 the same for the last
	// 8.
	narrow2Idx, narrow2Len := halves(256, func(e []byte, half, key int) int {
		n := 0
		for k := range 8 {
			e[n] = byte(8*half + k)
			n++
			if key>>k&1 != 0 {
				e[n] = byte(16 + 8*half + k)
				n++
			}
		}
		return n
	})
	// widen14Idx: for text of 1- and 4-byte characters only, by the 10
	// bits that mark the bytes that start a character among the byte
	// before 8, those 8 and the byte after them (bit 0 for the byte
	// before), the indexes into a half block's 16 low bytes of first
	// units, their 16 high bytes, and the 16 high and 16 low bytes of
	// second units that gather the units in the 8 bytes: an ASCII
	// character's (the first unit's low byte) where the byte after it
	// starts one; the high surrogate of a 4-byte one, in the first, where
	// it does not; its low surrogate, in the second, in the byte after its
	// lead. For the half's first 8 bytes; widen14Idx+16384 the same for
	// its last 8.
	widen14Idx, widen14Len := halves(1024, func(e []byte, half, key int) int {
		n := 0
		for p := range 8 {
			j := byte(8*half + p)
			start, next, before := key>>(p+1)&1 != 0, key>>(p+2)&1 != 0, key>>p&1 != 0
			switch {
			case start && next:
				e[n] = j
				n += 2
			case start:
				e[n], e[n+1] = j, 16+j
				n += 2
			case before:
				e[n], e[n+1] = 48+j, 32+j
				n += 2
			}
		}
		return n
	})
	// narrow14Idx: for UTF-16 of ASCII and surrogate pairs only, by the
	// 9 bits that mark the units that are no high surrogate among the
	// unit before 8 and those 8 (bit 0 for the one before), the indexes
	// into the registers of 16 units' first, second, third and fourth
	// UTF-8 bytes that gather their bytes: an ASCII unit's, in the first
	// register; a high surrogate's first two, in the first and second;
	// the third and fourth of a low one, which follows a high one. For
	// the first 8 units of 16; narrow14Idx+8192 the same for the last 8.
	narrow14Idx, narrow14Len := halves(512, func(e []byte, half, key int) int {
		n := 0
		for p := range 8 {
			j := byte(8*half + p)
			switch {
			case key>>(p+1)&1 == 0: // high
				e[n], e[n+1] = j, 16+j
				n += 2
			case key>>p&1 == 0: // low
				e[n], e[n+1] = 32+j, 48+j
				n += 2
			default:
				e[n] = j
				n++
			}
		}
		return n
	})
	weights := []byte{1, 2, 4, 8, 16, 32, 64, 128}
	return File{
		Name: "tables_arm64.h",
		Doc:  "The lookup tables of widen_arm64.s, which includes this file.",
		Tables: []Table{
			{Name: "widenIdx", Data: widenIdx,
				Doc: "widenIdx, by the 8 bits that mark the bytes that start a character in\n" +
					"8 bytes of UTF-8 (bit i for byte i), holds the TBL indexes that gather\n" +
					"the units of those characters from a half block's 16 low unit bytes and\n" +
					"16 high ones, for the half's first 8 bytes; from offset 4096, for its\n" +
					"last 8. Unused indexes are FF, which TBL makes 0."},
			{Name: "widenLen", Data: widenLen,
				Doc: "widenLen, by the same bits, holds the bytes of those units: twice the\n" +
					"bits set; entry 256+k is entry k, for the keys of widen13Idx."},
			{Name: "widen13Idx", Data: widen13Idx,
				Doc: "widen13Idx, for text of 1- and 3-byte characters only, by the 9 bits\n" +
					"that mark the bytes that start a character among 9 bytes of UTF-8 (bit\n" +
					"i for byte i), holds the TBL indexes that gather the units of the\n" +
					"characters that start in the first 8 from a half block's 16 low unit\n" +
					"bytes of 3-byte characters, 16 high ones and 16 bytes of UTF-8: a\n" +
					"character is ASCII where the byte after it starts one, and has 3\n" +
					"bytes where it does not. For the half's first 8 bytes; from offset\n" +
					"8192, for its last 8. Unused indexes are FF, which TBL makes 0."},
			{Name: "narrowIdx", Data: narrowIdx,
				Doc: "narrowIdx, by the length codes of 4 units of UTF-16 (unit k's in bits 2k\n" +
					"and 2k+1: 0 for 1 byte of UTF-8, 1 for 2 bytes, 3 for 3), holds the TBL\n" +
					"indexes that gather their UTF-8 bytes from 16 first bytes, 16 second\n" +
					"ones and 16 third ones (a 2-byte sequence takes the third as its\n" +
					"second), for the first 4 units of 16. For units 4 to 15 the kernel\n" +
					"adds 4, 8 or 12. Unused indexes are 80, 48 or more after that, which\n" +
					"TBL makes 0."},
			{Name: "narrowLen", Data: narrowLen,
				Doc: "narrowLen, by the same codes, holds the bytes of those sequences."},
			{Name: "narrow2Idx", Data: narrow2Idx,
				Doc: "narrow2Idx, by the bits that mark the units of U+0080 or more among 8\n" +
					"units of U+07FF or less (bit k for unit k), holds the TBL indexes that\n" +
					"gather their UTF-8 bytes from 16 first bytes and 16 last ones, for the\n" +
					"first 8 units of 16; from offset 4096, for the last 8. Unused indexes\n" +
					"are FF, which TBL makes 0."},
			{Name: "narrow2Len", Data: narrow2Len,
				Doc: "narrow2Len, by the same bits, holds the bytes of those sequences: 8\n" +
					"plus the bits set."},
			{Name: "widen14Idx", Data: widen14Idx,
				Doc: "widen14Idx, for text of 1- and 4-byte characters only, by the 10 bits\n" +
					"that mark the bytes that start a character among the byte before 8\n" +
					"bytes of UTF-8, those 8 and the byte after them (bit 0 for the byte\n" +
					"before), holds the TBL indexes that gather the units in the 8 bytes\n" +
					"from a half block's 16 low and 16 high bytes of first units and 16\n" +
					"high and 16 low bytes of second units: an ASCII character's low byte\n" +
					"where the byte after it starts one; a 4-byte character's high\n" +
					"surrogate, the first unit, where it does not; and its low surrogate,\n" +
					"the second, in the byte after its lead. For the half's first 8 bytes;\n" +
					"from offset 16384, for its last 8. Unused indexes are FF, which TBL\n" +
					"makes 0."},
			{Name: "widen14Len", Data: widen14Len,
				Doc: "widen14Len, by the same bits, holds the bytes gathered."},
			{Name: "narrow14Idx", Data: narrow14Idx,
				Doc: "narrow14Idx, for UTF-16 of ASCII and surrogate pairs only, by the 9\n" +
					"bits that mark the units that are no high surrogate among the unit\n" +
					"before 8 and those 8 (bit 0 for the one before), holds the TBL indexes\n" +
					"that gather their UTF-8 bytes from 16 first bytes, 16 second ones, 16\n" +
					"third ones and 16 fourth ones: an ASCII unit's first; a high\n" +
					"surrogate's first and second; a low one's, after a high one, third\n" +
					"and fourth. For the first 8 units of 16; from offset 8192, for the\n" +
					"last 8. Unused indexes are FF, which TBL makes 0."},
			{Name: "narrow14Len", Data: narrow14Len,
				Doc: "narrow14Len, by the same bits, holds the bytes gathered."},
			{Name: "runLanes", Data: append(append(fill(0xFF, 11), fill(0, 5)...), append(fill(0xFF, 10), fill(0, 6)...)...),
				Doc: "runLanes holds FF in the lanes of the 11 characters of 3 bytes that\n" +
					"start in a block where the first starts in its byte 0 or 1, then in\n" +
					"those of the 10 where it starts in byte 2."},
			{Name: "laneBits", Data: append(append(repeat(weights, 16), repeat([]byte{1, 4, 16, 64}, 16)...), repeat([]byte{2, 8, 32, 128}, 16)...),
				Doc: "laneBits holds the weights that make a bit mask of a comparison's\n" +
					"lanes: bit i of 8 for byte i (widen); for the length codes of 4\n" +
					"units, bit 2k of 8 (from offset 16) and bit 2k+1 (from offset 32)\n" +
					"for unit k."},
		},
	}
}

// halves returns a table of TBL indexes for the two halves of a block, an
// entry of 16 bytes for each key below keys, half 1's entries after all of
// half 0's, with the bytes that entry leaves unset FF (which TBL makes 0),
// and the bytes each entry gathers, by key: entry fills e, the entry of
// key for half, and returns that count, which must not depend on half.
func halves(keys int, entry func(e []byte, half, key int) int) (idx, lens []byte) {
	idx = fill(0xFF, 2*keys*16)
	lens = make([]byte, keys)
	for half := range 2 {
		for key := range keys {
			n := byte(entry(idx[(half*keys+key)*16:][:16], half, key))
			if half > 0 && n != lens[key] {
				panic("tablegen: an entry's count depends on the half")
			}
			lens[key] = n
		}
	}
	return idx, lens
}
