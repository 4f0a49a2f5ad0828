package utf8stream

import (
	"bytes"
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
// start of p, where refSeq found no sequence.
func refSubpart(p []byte) int {
	for k := min(3, len(p)); k > 1; k-- {
		if validPrefixes[string(p[:k])] {
			return k
		}
	}
	return 1
}

type refOpts struct {
	noNUL, cesu8, mutf8, stripBOM bool
	replacement                   string
}

// refTransform applies policy p to all of in, as a whole stream. Under
// Reject it returns the output before the first ill-formed subpart and that
// subpart's offset and bytes; otherwise errOff is -1.
func refTransform(p Policy, in []byte, o refOpts) (out []byte, errOff int64, errBytes []byte) {
	if o.replacement == "" {
		o.replacement = "\uFFFD"
	}
	i := 0
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
		if o.cesu8 && len(rest) >= 6 {
			hi := rune(rest[0]&0x0F)<<12 | rune(rest[1]&0x3F)<<6 | rune(rest[2]&0x3F)
			lo := rune(rest[3]&0x0F)<<12 | rune(rest[4]&0x3F)<<6 | rune(rest[5]&0x3F)
			isCont := func(b byte) bool { return b&0xC0 == 0x80 }
			if rest[0] == 0xED && rest[3] == 0xED && isCont(rest[1]) && isCont(rest[2]) && isCont(rest[4]) && isCont(rest[5]) &&
				0xD800 <= hi && hi <= 0xDBFF && 0xDC00 <= lo && lo <= 0xDFFF {
				out = utf8.AppendRune(out, 0x10000+(hi-0xD800)<<10+(lo-0xDC00))
				i += 6
				continue
			}
		}
		n := refSeq(rest)
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
			n = refSubpart(rest)
		}
		sub := rest[:n]
		switch p {
		case Reject:
			return out, int64(i), sub
		case Replace:
			out = append(out, o.replacement...)
		case SurrogateEscape:
			for _, b := range sub {
				// utf8.AppendRune refuses surrogates: write U+DC00+b by hand.
				r := 0xDC00 + rune(b)
				out = append(out, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
			}
		case OPTU8:
			for _, b := range sub {
				out = utf8.AppendRune(out, 0xEF00+rune(b))
			}
		case Windows1252:
			for _, b := range sub {
				r := charmap.Windows1252.DecodeByte(b)
				// x/text maps the five undefined bytes to U+0080..U+009F
				// controls; utf8stream writes U+FFFD for them, and for NUL.
				if b == 0 || 0x80 <= r && r <= 0x9F {
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
			}
		}
		i += n
	}
	return out, -1, nil
}
