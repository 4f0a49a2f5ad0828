package tablegen

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// The bits of the classification's lookup tables in internal/repair,
// which repairBits describes.
const (
	Second8 = 0x01
	Second9 = 0x02
	SecondA = 0x04
	SecondB = 0x08
	Third   = 0x10
	Fourth  = 0x20
	Escape  = 0x40
)

var repairBits = []bit{
	{"Second8", Second8, "the second byte may be 80..8F"},
	{"Second9", Second9, "the second byte may be 90..9F"},
	{"SecondA", SecondA, "the second byte may be A0..AF"},
	{"SecondB", SecondB, "the second byte may be B0..BF"},
	{"Third", Third, "a third byte must be a continuation byte"},
	{"Fourth", Fourth, "a fourth byte must be a continuation byte"},
	{"Escape", Escape, "EE, and BE or BF after it: OPTU8's escapes"},
}

// CRest is internal/repair's cRest, the table word of a later byte of an
// ill-formed subpart, which repairAVX2 keeps in a register; that package's
// tests check that the two agree.
const CRest = 2

// classifyTables returns the lookup tables of the classification: leadC0
// by lead byte less C0, and cont1, cont2, cont3 by b>>2 and cont1Esc by
// b>>1 from 80, from the encodings of every scalar value (utf8.EncodeRune).
func classifyTables() (leadC0, cont1, cont2, cont3, cont1Esc []byte) {
	leadC0 = make([]byte, 64)
	var buf [utf8.UTFMax]byte
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		n := utf8.EncodeRune(buf[:], r)
		if buf[0] < 0xC0 {
			panic("tablegen: a lead byte below C0")
		}
		// What each lead byte asks of the bytes after it.
		e := &leadC0[buf[0]-0xC0]
		*e |= Second8 << (buf[1]>>4 - 8)
		if n >= 3 {
			*e |= Third
		}
		if n == 4 {
			*e |= Fourth
		}
		if buf[0] == 0xEE {
			*e |= Escape
		}
	}
	// What each continuation byte gives.
	cont1, cont2, cont3 = make([]byte, 64), make([]byte, 64), make([]byte, 64)
	cont1Esc = make([]byte, 64)
	for b := 0x80; b <= 0xBF; b++ {
		cont1[b>>2] = Second8 << (b>>4 - 8)
		cont2[b>>2] = Third
		cont3[b>>2] = Fourth
		cont1Esc[(b-0x80)>>1] |= Second8 << (b>>4 - 8)
		if b >= 0xBE {
			cont1Esc[(b-0x80)>>1] |= Escape
		}
	}
	return leadC0, cont1, cont2, cont3, cont1Esc
}

// RepairAVX512 returns tables_amd64.h of internal/repair, which
// repair_amd64.s includes: the lookup tables of classifyAVX512 and the
// indexes and masks of repairAVX512's per-byte path.
func RepairAVX512() File {
	leadC0, cont1, cont2, cont3, cont1Esc := classifyTables()
	ts := []Table{
		{Name: "leadC0", Data: leadC0, key: byLead, bits: repairBits,
			Doc: "leadC0, by lead byte C0..FF (00..BF take zeros, Z14), from Table 3-7:"},
		{Name: "cont1", Data: cont1, key: byShr2, bits: repairBits,
			Doc: "cont1, cont2 and cont3 give what each byte 1, 2 and 3 places on\n" +
				"gives, by b>>2. cont1:"},
		{Name: "cont2", Data: cont2, key: byShr2, bits: repairBits, Doc: "cont2:"},
		{Name: "cont3", Data: cont3, key: byShr2, bits: repairBits, Doc: "cont3:"},
		{Name: "cont1Esc", Data: cont1Esc, key: byShr1From80, bits: repairBits,
			Doc: "cont1Esc is cont1 for OPTU8, by b>>1 for 80..FF (bytes below 80 take\n" +
				"zeros): it also gives BE and BF Escape, which leadC0 gives EE alone,\n" +
				"so that the v test finds EE BE and EE BF:"},
	}

	// The per-byte path interleaves 3 streams of 64 bytes into 192: output
	// byte k is byte k/3 of stream k%3.
	for s := range 3 {
		// ilvS: the bytes of the first 64 that stream S takes.
		var m uint64
		for j := range 64 {
			if j%3 == s {
				m |= 1 << j
			}
		}
		t := Table{Name: fmt.Sprintf("ilv%d", s), Data: binary.LittleEndian.AppendUint64(nil, m)}
		if s == 0 {
			t.Doc = "The bits of a 64-bit mask that interleaving 3 streams of 64 bytes\n" +
				"gives to the first (ilv0), second (ilv1) and third (ilv2) of them in\n" +
				"the first 64 bytes; the next 64 bytes start with the second stream,\n" +
				"the last 64 with the third. ilvIdx0..2 are the indexes for VPERMI2B\n" +
				"(the first two streams) and VPERMB (the third) that interleave each\n" +
				"64: byte j of ilvIdxK is for byte 64K+j of the interleaved output,\n" +
				"which is byte (64K+j)/3 of stream (64K+j)%3, with 0x40 added for the\n" +
				"second stream (VPERMI2B's second table)."
		}
		ts = append(ts, t)
	}
	for part := range 3 {
		idx := make([]byte, 64)
		for j := range idx {
			k := 64*part + j
			idx[j] = byte(k / 3)
			if k%3 == 1 {
				idx[j] |= 0x40 // VPERMI2B's second table
			}
		}
		ts = append(ts, Table{Name: fmt.Sprintf("ilvIdx%d", part), Data: idx})
	}
	shiftIdx := make([]byte, 72)
	for i := range shiftIdx {
		shiftIdx[i] = byte(i + 1)
	}
	ts = append(ts,
		Table{Name: "shiftIdx", Data: shiftIdx,
			Doc: "shiftIdx is the bytes 1, 2, 3 and on: from shiftIdx+k-1, the indexes\n" +
				"that move each byte of a vector k places down."},
		Table{Name: "bit1", Data: fill(1, 64),
			Doc: "bit1, bit2 and bit4 are 64 bytes 1, 2 and 4, to test the bits of vlen."},
		Table{Name: "bit2", Data: fill(2, 64)},
		Table{Name: "bit4", Data: fill(4, 64)},
		Table{Name: "escBit", Data: fill(Escape, 64),
			Doc: "escBit is 64 bytes 0x40 (Escape), the bit of the v test that only EE\n" +
				"followed by BE or BF sets under OPTU8."},
	)
	return File{
		Name: "tables_amd64.h",
		Doc: "The tables of repair_amd64.s, which includes this file.\n" +
			"\n" +
			"The bits of classifyAVX512's lookup tables:\n" +
			"\n" +
			bitList(repairBits) +
			"\n" +
			"A lead byte's entry in leadC0 and the entries of the bytes 1, 2 and 3\n" +
			"places on in cont1, cont2 and cont3 share a bit where each byte that\n" +
			"the lead asks for is there (VPTESTMB); the v test looks for Third and\n" +
			"Fourth where the lead asks and the bytes do not give, and for Escape.",
		Tables: ts,
	}
}

// RepairAVX2 returns tables_avx2_amd64.h of internal/repair, which
// repair_amd64.s includes: the classification's constants, each one
// byte in 32 lanes, from the encodings of the scalar values that bound its
// range, and those of the repair kernel's paths.
func RepairAVX2() File {
	enc := func(r rune) []byte { return utf8.AppendRune(nil, r) }
	first := func(r rune) byte { return enc(r)[0] }
	second := func(r rune) byte { return enc(r)[1] }
	var ts []Table
	for i, c := range []struct {
		name string
		b    byte
	}{
		{"bC1", first(0x80) - 1},     // below the first 2-byte lead
		{"bDF", first(0x800) - 1},    // below the first 3-byte lead
		{"bEF", first(0x10000) - 1},  // below the first 4-byte lead
		{"bF4", first(utf8.MaxRune)}, // the last lead
		{"bE0", first(0x800)},        // second byte A0..BF
		{"bED", first(0xD7FF)},       // second byte 80..9F
		{"bF0", first(0x10000)},      // second byte 90..BF
		{"bC0", 0x80 + 0x40},         // one past the continuation bytes
		{"bA0", second(0xD7FF) + 1},  // one past ED's second bytes
		{"b90", second(0x10000)},     // one past F4's second bytes, where F0's start
		{"bEE", first(0xEF80)},       // the lead of what OPTU8 escapes
		{"bBD", second(0xEF80) - 1},  // below their second bytes
	} {
		t := Table{Name: c.name, Data: fill(c.b, 32)}
		if i == 0 {
			t.Doc = "The constants of the classification, each one byte in all 32 lanes.\n" +
				"It compares bytes as signed, where 80..FF come before 00..7F and keep\n" +
				"their order:\n" +
				"\n" +
				"\tbC1, bDF, bEF  one less than the first lead byte of the 2-, 3- and\n" +
				"\t               4-byte sequences (C2, E0, F0): x > bC1 holds for C2..FF\n" +
				"\t               and 00..7F\n" +
				"\tbF4            the last lead byte: x > bF4 holds for F5..FF and 00..7F,\n" +
				"\t               which lead no sequence; and F4 itself, by equality\n" +
				"\tbE0, bED, bF0  the other lead bytes that narrow the range of the\n" +
				"\t               second byte (Table 3-7), by equality\n" +
				"\tbC0, bA0, b90  one past the continuation bytes 80..BF, and the\n" +
				"\t               narrower ranges 80..9F and 80..8F: bC0 > x holds for\n" +
				"\t               80..BF\n" +
				"\tbEE, bBD       under OPTU8, the lead of the sequences it escapes, and\n" +
				"\t               one less than their second bytes BE..BF: x > bBD\n" +
				"\t               holds for BE..FF and 00..7F, of which only BE and BF\n" +
				"\t               continue EE"
		}
		ts = append(ts, t)
	}
	var iota, expandD8, bitsel []byte
	for i := range 64 {
		iota = append(iota, byte(i))
	}
	// expandD8: mask byte i/8 of each 32-bit lane for byte i of 32, with
	// the middle 64-bit words swapped (VPERMQ $0xD8); bitsel: bit i%8.
	for i := range 32 {
		expandD8 = append(expandD8, []byte{0, 2, 1, 3}[i/8])
		bitsel = append(bitsel, 1<<(i%8))
	}
	ts = append(ts,
		Table{Name: "iota", Data: iota,
			Doc: "The constants of repairAVX2's paths:\n" +
				"\n" +
				"\tiota      the bytes 0 to 63, to keep the first st.tail bytes of a tail\n" +
				"\texpandD8  the indexes for VPSHUFB that spread a 32-bit mask, broadcast\n" +
				"\t          to each 32-bit lane, over 32 bytes, a mask byte to 8 bytes:\n" +
				"\t          mask bytes 0 and 2 to the low 128-bit lane, 1 and 3 to the\n" +
				"\t          high one, the order of 32 bytes after VPERMQ $0xD8\n" +
				"\tbitsel    each 8 bytes 01 02 04 .. 80, to pick out one bit of the\n" +
				"\t          mask byte in each byte\n" +
				"\ttwo       32 bytes 02: cRest"},
		Table{Name: "expandD8", Data: expandD8},
		Table{Name: "bitsel", Data: bitsel},
		Table{Name: "two", Data: fill(CRest, 32)},
	)
	return File{
		Name:   "tables_avx2_amd64.h",
		Doc:    "The constants of the AVX2 kernels of repair_amd64.s, which includes this\nfile.",
		Tables: ts,
	}
}

// RepairNEON returns tables_arm64.h of internal/repair, which
// classify_arm64.s includes: the lookup tables of classifyNEON, which are
// classifyAVX512's leadC0 and cont1, and bitWeights.
func RepairNEON() File {
	leadC0, cont1, _, _, _ := classifyTables()
	bitWeights := make([]byte, 16)
	for i := range bitWeights {
		bitWeights[i] = 1 << (i % 8)
	}
	return File{
		Name: "tables_arm64.h",
		Doc: "The tables of classify_arm64.s, which includes this file.\n" +
			"\n" +
			"The lookup tables of classifyNEON are classifyAVX512's (see\n" +
			"tables_amd64.h), from these bits:\n" +
			"\n" +
			bitList(repairBits) +
			"\n" +
			"VTBL looks up leadC0 by lead byte less C0, as 0 for every byte below\n" +
			"C0 (an index past 63), and cont1 by b>>2.",
		Tables: []Table{
			{Name: "leadC0", Data: leadC0, key: byLead, bits: repairBits,
				Doc: "leadC0, by lead byte C0..FF, from Table 3-7:"},
			{Name: "cont1", Data: cont1, key: byShr2, bits: repairBits,
				Doc: "cont1 gives what the byte after a lead gives, by b>>2:"},
			{Name: "bitWeights", Data: bitWeights,
				Doc: "bitWeights is bit i%8 in byte i: ANDed with a vector of 00 and FF\n" +
					"bytes, it leaves the bits that VADDP gathers into a mask."},
		},
	}
}
