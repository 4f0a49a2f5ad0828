package tablegen

// widenAVX2Tables returns the constants of widenAVX2's and
// widenValidAVX2's blocks of ASCII with 2-, 3- or 4-byte characters,
// which UTF16AVX2 appends to its own tables.
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
		{Name: "byteE0", Doc: "byteE0, byteED and byte9F are E0, ED and 9F in all 32 bytes: a lead\n" +
			"E0 before a byte not above 9F as a signed byte (80..9F) starts an\n" +
			"overlong form, a lead ED before one above it (A0..BF) a surrogate.",
			Data: fill(0xE0, 32)},
		{Name: "byteED", Data: fill(0xED, 32)},
		{Name: "byte9F", Data: fill(0x9F, 32)},
		{Name: "byteFE", Doc: "byteFE and byteC0 are FE and C0 in all 32 bytes: b&FE is C0 for the\n" +
			"leads C0 and C1, which start only overlong forms.",
			Data: fill(0xFE, 32)},
		{Name: "byteC0", Data: fill(0xC0, 32)},
	}
}
