package tablegen

// The error bits of the lookup tables of internal/valid's arm64 kernels,
// which neonBits describes: the bits of the amd64 kernels in an order of
// their own, with TooLong merged into TwoConts and 0x02 left unused, which
// the sum in the kernels relies on.
const (
	NEONTwoConts  = 0x01
	NEONTooShort  = 0x04
	NEONOverlong3 = 0x08
	NEONTooLarge  = 0x10
	NEONSurrogate = 0x20
	NEONOverlong2 = 0x40
	NEONOverlong4 = 0x80
)

var neonBits = []bit{
	{"TwoConts", NEONTwoConts, "a continuation byte after a byte that leads nothing\n" +
		"(ASCII or a continuation byte: the amd64 tables'\n" +
		"TooLong and TwoConts), wanted only 2 or 3 bytes after\n" +
		"a 3- or 4-byte lead"},
	{"TooShort", NEONTooShort, "a lead byte not followed by a continuation byte"},
	{"Overlong3", NEONOverlong3, "E0 followed by 80..9F"},
	{"TooLarge", NEONTooLarge, "F4 followed by 90..BF, or F5..FF followed by 90..BF"},
	{"Surrogate", NEONSurrogate, "ED followed by A0..BF"},
	{"Overlong2", NEONOverlong2, "C0 or C1 followed by a continuation byte"},
	{"Overlong4", NEONOverlong4, "F0 followed by 80..8F; also F5..FF followed by 80..8F"},
}

// ValidNEON returns tables_arm64.h of internal/valid, which valid_arm64.s
// includes: lead, leadEE and leadBMP by the earlier byte less C0 (the lead
// bytes), curHigh by the high nibble of the later byte.
func ValidNEON() File {
	lead := make([]byte, 64)
	for i := range lead {
		b := 0xC0 + i
		lead[i] = NEONTooShort
		switch {
		case b <= 0xC1:
			lead[i] |= NEONOverlong2
		case b == 0xE0:
			lead[i] |= NEONOverlong3
		case b == 0xED:
			lead[i] |= NEONSurrogate
		case b == 0xF0:
			lead[i] |= NEONOverlong4
		case b == 0xF4:
			lead[i] |= NEONTooLarge
		case b >= 0xF5:
			lead[i] |= NEONTooLarge | NEONOverlong4
		}
	}
	leadEE := append([]byte(nil), lead...)
	leadEE[0xEE-0xC0] |= NEONOverlong3 | NEONSurrogate // EE: stop whatever follows
	leadBMP := append([]byte(nil), lead...)
	for b := 0xF0; b <= 0xF4; b++ { // F0..F4: stop whatever follows
		leadBMP[b-0xC0] |= NEONTooLarge | NEONOverlong4
	}
	curHigh := make([]byte, 16)
	for n := range curHigh {
		switch {
		case n < 0x8 || n >= 0xC: // not a continuation byte
			curHigh[n] = NEONTooShort
		default: // 80..BF
			curHigh[n] = NEONTwoConts | NEONOverlong2
			if n <= 0x9 { // 80..9F
				curHigh[n] |= NEONOverlong3
			}
			if n >= 0x9 { // 90..BF
				curHigh[n] |= NEONTooLarge
			}
			if n == 0x8 { // 80..8F
				curHigh[n] |= NEONOverlong4
			}
			if n >= 0xA { // A0..BF
				curHigh[n] |= NEONSurrogate
			}
		}
	}
	// newline, a table for TBL by a byte: 1 for 0A, 0 for every other
	// byte (TBL gives 0 for an index of 16 or more).
	newline := make([]byte, 16)
	newline['\n'] = 1
	// firstLanes: FF in its first 16 bytes, 0 in the next 16.
	firstLanes := append(fill(0xFF, 16), fill(0, 16)...)
	return File{
		Name: "tables_arm64.h",
		Doc: "The lookup tables of valid_arm64.s, which includes this file.\n" +
			"\n" +
			"The error bits of the tables, by the names of tables_amd64.h, in an\n" +
			"order of their own:\n" +
			"\n" +
			bitList(neonBits) +
			"\n" +
			"No entry holds 0x02, which the sum in the kernels relies on. A byte\n" +
			"shows an error where the lookup by the byte before it and the lookup\n" +
			"by its own high nibble share a bit, other than TwoConts where a\n" +
			"continuation byte is wanted there.",
		Tables: []Table{
			{Name: "lead", Data: lead, key: byLead, bits: neonBits,
				Doc: "lead, by the earlier byte less C0:"},
			{Name: "leadEE", Data: leadEE, key: byLead, bits: neonBits,
				Doc: "leadEE, lead for the kernels that stop before EE, has EE as\n" +
					"TooShort|Overlong3|Surrogate, so that EE followed by anything shows\n" +
					"an error at the byte after it:"},
			{Name: "leadBMP", Data: leadBMP, key: byLead, bits: neonBits,
				Doc: "leadBMP, lead for the kernels that stop before each byte F0..FF, has\n" +
					"F0..F4 as TooShort|TooLarge|Overlong4, as F5..FF: curHigh has one of\n" +
					"TooLarge and Overlong4 for each continuation byte, so that F0..F4\n" +
					"followed by anything show an error at the byte after the lead:"},
			{Name: "curHigh", Data: curHigh, key: nibble, bits: neonBits,
				Doc: "curHigh, by the high nibble of the later byte:"},
			{Name: "newline", Data: newline,
				Doc: "newline holds 1 at offset 0A and 0 elsewhere: TBL by a byte gives 1\n" +
					"for a newline (0A) and 0 for every other byte, for the counting\n" +
					"kernels."},
			{Name: "firstLanes", Data: firstLanes,
				Doc: "firstLanes holds FF in its first 16 bytes and 0 in the next 16: the\n" +
					"16 bytes at firstLanes+16-d are FF in their first d lanes, for the\n" +
					"counting kernels' last 16 bytes, which overlap what they counted."},
		},
	}
}
