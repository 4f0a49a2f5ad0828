package tablegen

// The error bits of the lookup tables of internal/valid's amd64 kernels,
// after simdjson's lookup4 (the names are simdjson's), which validBits
// describes.
const (
	TooShort  = 0x01
	TooLong   = 0x02
	Overlong3 = 0x04
	TooLarge  = 0x08
	Surrogate = 0x10
	Overlong2 = 0x20
	Overlong4 = 0x40
	TwoConts  = 0x80
	Carry     = TooShort | TooLong | TwoConts
)

var validBits = []bit{
	{"TooShort", TooShort, "a lead byte not followed by a continuation byte"},
	{"TooLong", TooLong, "an ASCII byte followed by a continuation byte"},
	{"Overlong3", Overlong3, "E0 followed by 80..9F"},
	{"TooLarge", TooLarge, "F4 followed by 90..BF, or F5..FF followed by 90..BF"},
	{"Surrogate", Surrogate, "ED followed by A0..BF"},
	{"Overlong2", Overlong2, "C0 or C1 followed by a continuation byte"},
	{"Overlong4", Overlong4, "F0 followed by 80..8F; also F5..FF followed by 80..8F\n(simdjson's TooLarge1000)"},
	{"TwoConts", TwoConts, "a continuation byte followed by one; wanted only 2 or 3\n" +
		"bytes after a 3- or 4-byte lead, where the kernels'\n" +
		"checks (_asm/valid) flip it"},
	{"Carry", Carry, "TooShort|TooLong|TwoConts: the bits that the low nibble\n" +
		"of the earlier byte does not decide"},
}

// ValidAMD64 returns tables_amd64.h of internal/valid, which valid_amd64.s
// includes: the lookup tables, each 16 bytes repeated to 64 so that
// VPERMB, which uses the low 6 bits of an index, can look it up without
// masking the index, and the kernels' other constants.
func ValidAMD64() File {
	var prevHigh, prevLow, prevLowEE, prevLowBMP, curHigh [16]byte
	for n := range 16 {
		// The high nibble of the earlier byte: what it can start.
		switch {
		case n < 0x8: // ASCII
			prevHigh[n] = TooLong
		case n < 0xC: // a continuation byte
			prevHigh[n] = TwoConts
		case n == 0xC: // C0..CF
			prevHigh[n] = TooShort | Overlong2
		case n == 0xD: // D0..DF
			prevHigh[n] = TooShort
		case n == 0xE: // E0..EF
			prevHigh[n] = TooShort | Overlong3 | Surrogate
		default: // F0..FF
			prevHigh[n] = TooShort | TooLarge | Overlong4
		}

		// The low nibble of the earlier byte: which lead bytes it can be.
		// The high nibble tells them apart, so each bit here goes with
		// every lead byte of this low nibble.
		prevLow[n] = Carry
		if n == 0x0 { // C0, E0, F0
			prevLow[n] |= Overlong2 | Overlong3 | Overlong4
		}
		if n == 0x1 { // C1
			prevLow[n] |= Overlong2
		}
		if n >= 0x4 { // F4..FF
			prevLow[n] |= TooLarge
		}
		if n >= 0x5 { // F5..FF
			prevLow[n] |= Overlong4
		}
		if n == 0xD { // ED
			prevLow[n] |= Surrogate
		}
		prevLowEE[n] = prevLow[n]
		if n == 0xE { // EE: stop before it, whatever follows
			prevLowEE[n] |= Overlong3 | Surrogate
		}
		prevLowBMP[n] = prevLow[n]
		if n <= 0x4 { // F0..F4: stop before them, whatever follows
			prevLowBMP[n] |= TooLarge | Overlong4
		}

		// The high nibble of the later byte.
		switch {
		case n < 0x8 || n >= 0xC: // not a continuation byte
			curHigh[n] = TooShort
		default: // 80..BF
			curHigh[n] = TooLong | Overlong2 | TwoConts
			if n <= 0x9 { // 80..9F
				curHigh[n] |= Overlong3
			}
			if n >= 0x9 { // 90..BF
				curHigh[n] |= TooLarge
			}
			if n == 0x8 { // 80..8F
				curHigh[n] |= Overlong4
			}
			if n >= 0xA { // A0..BF
				curHigh[n] |= Surrogate
			}
		}
	}
	// incompleteMax: a lead byte in the last byte of a block, a 3- or
	// 4-byte lead in the one before, a 4-byte lead in the one before that.
	incompleteMax := fill(0xFF, 64)
	incompleteMax[63], incompleteMax[62], incompleteMax[61] = 0xBF, 0xDF, 0xEF
	var iota []byte
	for i := range 32 {
		iota = append(iota, byte(i))
	}

	nib := func(name, doc string, t [16]byte) Table {
		return Table{Name: name, Doc: doc, Data: repeat(t[:], 64), key: nibble, bits: validBits}
	}
	return File{
		Name: "tables_amd64.h",
		Doc: "The lookup tables and constants of valid_amd64.s, which includes this\n" +
			"file.\n" +
			"\n" +
			"The error bits of the lookup tables:\n" +
			"\n" +
			bitList(validBits) +
			"\n" +
			"A byte shows an error where the three lookups, by the high and low\n" +
			"nibbles of the byte before it and by its own high nibble, share a\n" +
			"bit. Each table is 16 bytes, repeated to 64 so that VPERMB, which\n" +
			"uses the low 6 bits of an index, can look it up without masking the\n" +
			"index.",
		Tables: []Table{
			nib("prevHigh", "prevHigh, by the high nibble of the earlier byte:", prevHigh),
			nib("prevLow", "prevLow, by the low nibble of the earlier byte:", prevLow),
			nib("prevLowEE",
				"prevLowEE, prevLow for the kernels that stop before EE, has E with\n"+
					"Overlong3|Surrogate too: the bits 0x04 and 0x10 that prevHigh has\n"+
					"only for a high nibble E, so that EE followed by 80..9F or A0..BF\n"+
					"shows an error at the byte after it, as EE followed by anything else\n"+
					"does already. The stop costs nothing per block, and the n these\n"+
					"kernels return is at most one past the first EE:",
				prevLowEE),
			nib("prevLowBMP",
				"prevLowBMP, prevLow for the kernels that stop before each byte\n"+
					"F0..FF, has 0..4 with TooLarge|Overlong4 (48) too: the bits that\n"+
					"prevHigh has only for a high nibble F, and of which curHigh has one\n"+
					"for each continuation byte (Overlong4 for 8x, TooLarge for 9x..Bx),\n"+
					"so that F0..F4 followed by a continuation byte show an error at the\n"+
					"byte after the lead, as F0..F4 followed by anything else and F5..FF\n"+
					"do already. The stop costs nothing per block, and the n these\n"+
					"kernels return is at most one past the first byte F0..FF:",
				prevLowBMP),
			nib("curHigh", "curHigh, by the high nibble of the later byte:", curHigh),
			{Name: "incompleteMax", Data: incompleteMax,
				Doc: "A block ends inside a sequence where one of its last three bytes is\n" +
					"greater than incompleteMax there: the last byte greater than BF (a\n" +
					"lead byte), the one before greater than DF (a 3- or 4-byte lead), or\n" +
					"the one before that greater than EF (a 4-byte lead). Every other byte\n" +
					"is FF."},
			{Name: "high", Data: fill(TwoConts, 32),
				Doc: "high holds 0x80 in every byte: the bit of TwoConts that the AVX2\n" +
					"check (checkR, _asm/valid) takes from the bytes two and three places\n" +
					"before."},
			{Name: "iota", Data: iota,
				Doc: "iota holds the bytes 0 to 31, for masks of the first or last n bytes\n" +
					"of a block."},
			{Name: "nl", Data: fill('\n', 32),
				Doc: "nl holds 0A in every byte, for the AVX2 counting kernels, which have\n" +
					"no register to spare for it."},
		},
	}
}
