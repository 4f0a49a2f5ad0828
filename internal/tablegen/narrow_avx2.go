package tablegen

// NarrowPairs returns the table narrowPairs of UTF16AVX2, the constants
// with which narrowAVX2 converts blocks of ASCII units and surrogate
// pairs.
func NarrowPairs() Table {
	var d []byte
	for _, w := range []uint16{0xDBFF, 0x9840, 0x3F7F, 0x8080} {
		d = append(d, words(w)...)
	}
	return Table{Name: "narrowPairs",
		Doc: "narrowPairs holds the constants of narrowAVX2's blocks of ASCII units\n" +
			"and surrogate pairs, each a word in all 16 lanes. At +0, DBFF: as\n" +
			"signed words, the units above it are ASCII and the low surrogates.\n" +
			"At +32, 9840: for a high surrogate h, (h+9840)&FFFF>>2 holds\n" +
			"70|cp>>18 in bits 6..12 and cp>>12&3F in bits 0..5, cp the code point\n" +
			"of its pair. At +64, 3F7F, and at +96, 8080: the mask and the top\n" +
			"bits of the 2 bytes of a surrogate's lane, 80|(v>>6)&7F then\n" +
			"80|v&3F for such a v (or for the low one, v = cp&FFF).",
		Data: d}
}
