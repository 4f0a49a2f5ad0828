package utf8stream

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// This file holds a slow reference implementation of every policy, built
// from nothing but Go's unicode/utf8 and the definitions: a sequence is
// well-formed if utf8.DecodeRune decodes all of it to a scalar value, and a
// maximal subpart is the longest proper prefix of some well-formed sequence.
// It shares no code with decode.go.

// validPrefixes holds every proper prefix (1 to 3 bytes) of every
// well-formed multi-byte sequence, made by encoding every scalar value.
var validPrefixes = func() map[string]bool {
	m := make(map[string]bool)
	var b [4]byte
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		n := utf8.EncodeRune(b[:], r)
		for k := 1; k < n; k++ {
			m[string(b[:k])] = true
		}
	}
	return m
}()

// refSeq returns the length of the well-formed sequence at the start of p,
// or 0 if there is none.
func refSeq(p []byte) int {
	r, n := utf8.DecodeRune(p)
	if r == utf8.RuneError && n <= 1 {
		return 0
	}
	return n
}

// refSubpart returns the length of the maximal ill-formed subpart at the
// start of p, where refSeq found no sequence. Under WTF8 the proper
// prefixes of the surrogates' encodings count too (surrogatePrefixes).
func refSubpart(p []byte, wtf8 bool) int {
	for k := min(3, len(p)); k > 1; k-- {
		if validPrefixes[string(p[:k])] || wtf8 && surrogatePrefixes[string(p[:k])] {
			return k
		}
	}
	return 1
}

// encodeSurrogate encodes the surrogate u as the 3-byte sequence that the
// UTF-8 bit pattern gives, which utf8.EncodeRune refuses to write.
func encodeSurrogate(u rune) []byte {
	return []byte{0xE0 | byte(u>>12), 0x80 | byte(u>>6)&0x3F, 0x80 | byte(u)&0x3F}
}

// surrogatePrefixes holds every proper prefix of every surrogate's encoding.
var surrogatePrefixes = func() map[string]bool {
	m := make(map[string]bool)
	for u := rune(0xD800); u <= 0xDFFF; u++ {
		b := encodeSurrogate(u)
		m[string(b[:1])] = true
		m[string(b[:2])] = true
	}
	return m
}()

// refSurrogate returns the surrogate that the 3 bytes at the start of p
// encode, decoded by the UTF-8 bit pattern, or -1 if they encode none.
func refSurrogate(p []byte) rune {
	if len(p) < 3 || p[0]&0xF0 != 0xE0 || p[1]&0xC0 != 0x80 || p[2]&0xC0 != 0x80 {
		return -1
	}
	u := rune(p[0]&0x0F)<<12 | rune(p[1]&0x3F)<<6 | rune(p[2]&0x3F)
	if u < 0xD800 || u > 0xDFFF {
		return -1
	}
	return u
}

type refOpts struct {
	noNUL, cesu8, mutf8, stripBOM, wtf8, bmpOnly bool
	replacement                                  string
}

// refTransform applies policy p to all of in, as a whole stream. Under
// Reject it returns the output before the first ill-formed subpart and that
// subpart's offset and bytes; otherwise errOff is -1.
func refTransform(p Policy, in []byte, o refOpts) (out []byte, errOff int64, errBytes []byte) {
	if o.replacement == "" {
		o.replacement = "\uFFFD"
	}
	i, ok := 0, true
	if o.stripBOM && bytes.HasPrefix(in, []byte("\uFEFF")) {
		i = 3
	}
	for i < len(in) {
		rest := in[i:]
		if o.mutf8 && bytes.HasPrefix(rest, []byte{0xC0, 0x80}) {
			out = append(out, 0)
			i += 2
			continue
		}
		if (o.cesu8 || o.wtf8) && len(rest) >= 6 {
			hi, lo := refSurrogate(rest), refSurrogate(rest[3:])
			if 0xD800 <= hi && hi <= 0xDBFF && 0xDC00 <= lo && lo <= 0xDFFF {
				if o.bmpOnly {
					// A character above U+FFFF: one ill-formed unit.
					if out, ok = refIllFormed(p, out, rest[:6], o); !ok {
						return out, int64(i), rest[:6]
					}
				} else {
					out = utf8.AppendRune(out, 0x10000+(hi-0xD800)<<10+(lo-0xDC00))
				}
				i += 6
				continue
			}
		}
		if u := refSurrogate(rest); o.wtf8 && u >= 0 {
			// A lone surrogate, which passes under every policy: a
			// pair was matched above.
			out = append(out, rest[:3]...)
			i += 3
			continue
		}
		n := refSeq(rest)
		if n == 4 && o.bmpOnly {
			if out, ok = refIllFormed(p, out, rest[:4], o); !ok {
				return out, int64(i), rest[:4]
			}
			i += 4
			continue
		}
		if n > 0 && !(o.noNUL && rest[0] == 0) {
			r, _ := utf8.DecodeRune(rest)
			escRange := 0xEF80 <= r && r <= 0xEFFF || o.noNUL && r == 0xEF00
			if p == OPTU8 && escRange {
				for _, b := range rest[:n] {
					out = utf8.AppendRune(out, 0xEF00+rune(b))
				}
			} else {
				out = append(out, rest[:n]...)
			}
			i += n
			continue
		}
		n = 1
		if rest[0] != 0 {
			n = refSubpart(rest, o.wtf8)
		}
		if out, ok = refIllFormed(p, out, rest[:n], o); !ok {
			return out, int64(i), rest[:n]
		}
		i += n
	}
	return out, -1, nil
}

// refIllFormed appends the output of policy p for the ill-formed unit sub
// to out: a maximal subpart, or under BMPOnly the 4 or 6 bytes of a
// character above U+FFFF. It reports false under Reject.
func refIllFormed(p Policy, out, sub []byte, o refOpts) ([]byte, bool) {
	switch p {
	case Reject:
		return out, false
	case Replace:
		out = append(out, o.replacement...)
	case SurrogateEscape:
		for _, b := range sub {
			out = append(out, encodeSurrogate(0xDC00+rune(b))...)
		}
	case OPTU8:
		for _, b := range sub {
			out = utf8.AppendRune(out, 0xEF00+rune(b))
		}
	case Windows1252:
		if len(sub) > 3 {
			return utf8.AppendRune(out, utf8.RuneError), true
		}
		for _, b := range sub {
			r := charmap.Windows1252.DecodeByte(b)
			// x/text maps the five undefined bytes to U+0080..U+009F
			// controls; utf8stream writes U+FFFD for them, and for NUL.
			if b == 0 || 0x80 <= r && r <= 0x9F {
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
		}
	case BackslashReplace:
		for _, b := range sub {
			out = fmt.Appendf(out, "\\x%02x", b)
		}
	}
	return out, true
}
