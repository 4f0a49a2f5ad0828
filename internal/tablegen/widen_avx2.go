package tablegen

// widenAVX2Tables returns the constants of widenAVX2's blocks of ASCII
// with 3-byte or with 4-byte characters, which UTF16AVX2 appends to its
// own tables.
func widenAVX2Tables() []Table {
	return []Table{
		{Name: "byte20", Doc: "byte20 and byteCF are 20 and CF in all 32 bytes: b^20 is at most CF\n" +
			"for ASCII, continuation bytes and the leads E0..EF, and above it for\n" +
			"the other leads.",
			Data: fill(0x20, 32)},
		{Name: "byteCF", Data: fill(0xCF, 32)},
		{Name: "word7F", Doc: "word7F is 7F in all 16 words: b0 > word7F for the lanes where a\n" +
			"character other than ASCII starts.",
			Data: words(0x7F)},
	}
}
