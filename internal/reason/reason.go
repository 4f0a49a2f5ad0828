// Package reason says in a few words why a maximal ill-formed subpart of
// UTF-8 is ill-formed. The library's Error.Reason and the command's
// reports share it, so that both use one vocabulary: unexpected
// continuation byte, overlong encoding, surrogate, above U+10FFFF,
// truncated sequence at end of input.
package reason

// Hex returns b as upper-case hex pairs separated by spaces, as
// fmt's "% X" does, without fmt and the reflection it links in.
func Hex(b []byte) string {
	const digits = "0123456789ABCDEF"
	s := make([]byte, 0, 3*len(b))
	for i, c := range b {
		if i > 0 {
			s = append(s, ' ')
		}
		s = append(s, digits[c>>4], digits[c&15])
	}
	return string(s)
}

// The values of Of's next that are not a byte.
const (
	Unknown = -1 // what follows the subpart is not known
	End     = -2 // the subpart ends the input
)

// Of returns why subpart b is ill-formed. next is the byte that follows it,
// or [End], or [Unknown]; a lead byte whose next byte is known can be told
// apart as an overlong form, a surrogate or a code point above U+10FFFF.
// b is a maximal subpart (1 to 3 bytes), a NUL byte, or a character
// above U+FFFF refused whole (4 bytes, or a 6-byte surrogate pair).
func Of(b []byte, next int) string {
	if len(b) == 0 {
		return "empty subpart"
	}
	c := b[0]
	switch {
	case len(b) >= 4:
		// A character, or under CESU8 a surrogate pair, refused by
		// BMPOnly.
		return "character above U+FFFF"
	case c == 0:
		return "NUL byte"
	case c < 0x80:
		return "unexpected ASCII byte"
	case c < 0xC0:
		return "unexpected continuation byte"
	case c < 0xC2:
		return "overlong encoding (C0 and C1 never appear)"
	case c >= 0xF8:
		return "byte " + Hex(b[:1]) + " never appears in UTF-8"
	case c >= 0xF5:
		return "above U+10FFFF (F5..F7 never appear)"
	case next == End:
		return "truncated sequence at end of input"
	}
	lo, hi := second(c)
	if len(b) > 1 || lo == 0x80 && hi == 0xBF {
		return Hex(b) + " must be followed by 80..BF"
	}
	what := ""
	switch c {
	case 0xE0, 0xF0:
		what = "overlong encoding"
	case 0xED:
		what = "surrogate U+D800..U+DFFF"
	case 0xF4:
		what = "above U+10FFFF"
	}
	rule := Hex(b[:1]) + " must be followed by " + Hex([]byte{lo}) + ".." + Hex([]byte{hi})
	switch {
	case next == Unknown:
		return rule + " (" + what + ", or a sequence cut short)"
	case next&0xC0 == 0x80:
		// A continuation byte outside the lead byte's range.
		return what + " (" + rule + ")"
	}
	return rule
}

// second returns the range of the byte after lead byte c (C2..F4), from
// Table 3-7 of the Unicode Standard.
func second(c byte) (lo, hi byte) {
	switch c {
	case 0xE0:
		return 0xA0, 0xBF
	case 0xED:
		return 0x80, 0x9F
	case 0xF0:
		return 0x90, 0xBF
	case 0xF4:
		return 0x80, 0x8F
	}
	return 0x80, 0xBF
}
