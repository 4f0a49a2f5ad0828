package tablegen

import "math/bits"

// UTF16AVX2 returns tables_amd64.h of internal/utf16, which widen_amd64.s
// includes: the shuffles with which the AVX2 kernels pack the lanes they
// keep to the front of a 16-byte lane.
func UTF16AVX2() File {
	return File{
		Name: "tables_amd64.h",
		Doc:  "The shuffles of internal/utf16's AVX2 kernels, 16 bytes an entry.",
		Tables: []Table{
			{Name: "widenPack", Doc: "widenPack, by a mask of 8 words, packs the words whose bits are set\n" +
				"to the front, in order (VPSHUFB): entry k has the bytes 2j and 2j+1\n" +
				"for each bit j of k, then 80s, which zero the rest.",
				Data: WidenPack()},
			{Name: "narrowPack", Doc: "narrowPack, by m | n<<4 for 4 dwords that each hold the UTF-8 of a\n" +
				"unit below U+10000 from their low byte up, m having bit j set where\n" +
				"dword j holds 2 bytes or more and n where it holds 3, packs their\n" +
				"bytes to the front, in order (VPSHUFB): 4+popcount(m|n<<4) bytes,\n" +
				"then 80s.",
				Data: NarrowPack()},
		},
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

// NarrowPack returns the table narrowPack of UTF16AVX2. The entries of
// keys with a bit of n set whose bit of m is not, which no unit gives,
// are those of the key with that bit of m set too.
func NarrowPack() []byte {
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
			panic("tablegen: narrowPack's length")
		}
		t = append(t, e...)
	}
	return t
}
