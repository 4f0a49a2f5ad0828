package utf8stream

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"golang.org/x/text/transform"
)

// lsb and msb are the low and the high bit of each byte of a word, for
// Transform's search for a lead byte 8 bytes at a time.
const lsb, msb = 0x0101010101010101, 0x8080808080808080

// Unescaper restores the bytes that [SurrogateEscape] or [OPTU8] escaped:
// each escape (ED B2 80..ED B3 BF, or EE BE 80..EE BF BF) becomes the one
// byte 80..FF it stands for, and every other byte is copied as it is. So
// restoring the output of the matching policy gives back the original input,
// whatever it was. With [NoNUL] it also turns U+DC00 (ED B0 80) or U+EF00
// (EE BC 80) back into 00; no other escape yields a byte below 80.
//
// For [Reject], [Replace], [Drop], [Windows1252] and [BackslashReplace]
// there is nothing to restore and an Unescaper copies its input unchanged.
//
// Under [BMPOnly] the escapes of a character above U+FFFF are those of its
// bytes: an Unescaper needs no option for it. Under [WTF8] a lone surrogate
// in U+DC80..U+DCFF passes SurrogateEscape unchanged, and an Unescaper takes
// it for an escape: restoring gives back input that holds none.
//
// Unescaper implements [transform.SpanningTransformer]. It keeps no input
// and has no state: at the end of a chunk that stops inside an escape it
// returns [transform.ErrShortSrc]. An Unescaper is safe for concurrent use.
type Unescaper struct {
	lead, mid byte // the escape of byte 00: ED B0 (U+DC00) or EE BC (U+EF00); lead 0: copy
	nul       bool
}

// NewUnescaper returns an Unescaper for the escapes of policy p. Of the
// options it heeds only [NoNUL].
func NewUnescaper(p Policy, opts ...Option) *Unescaper {
	p.check()
	var o options
	o.init(opts)
	u := &Unescaper{nul: o.noNUL}
	switch p {
	case SurrogateEscape:
		u.lead, u.mid = 0xED, 0xB0
	case OPTU8:
		u.lead, u.mid = 0xEE, 0xBC
	}
	return u
}

// Reset implements [transform.Transformer]; an Unescaper has no state.
func (u *Unescaper) Reset() {}

// match reports whether src starts with an escape, and whether src is too
// short to tell while it could still start one.
func (u *Unescaper) match(src []byte) (ok, short bool) {
	// src[0] == u.lead
	if len(src) > 1 {
		c := src[1]
		if c != u.mid|2 && c != u.mid|3 && !(u.nul && c == u.mid) {
			return false, false
		}
		if len(src) > 2 {
			if c == u.mid {
				return src[2] == 0x80, false
			}
			return src[2]&0xC0 == 0x80, false
		}
	}
	return false, true
}

// Span implements [transform.SpanningTransformer]: it returns the length of
// the prefix of src that holds no escape.
func (u *Unescaper) Span(src []byte, atEOF bool) (n int, err error) {
	if u.lead == 0 {
		return len(src), nil
	}
	for n < len(src) {
		i := bytes.IndexByte(src[n:], u.lead)
		if i < 0 {
			return len(src), nil
		}
		n += i
		ok, short := u.match(src[n:])
		if ok {
			return n, transform.ErrEndOfSpan
		}
		if short && !atEOF {
			return n, transform.ErrShortSrc
		}
		n++
	}
	return n, nil
}

// Transform implements [transform.Transformer].
func (u *Unescaper) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		if u.lead != 0 && src[nSrc] == u.lead {
			if ok, _ := u.match(src[nSrc:]); ok {
				if nDst == len(dst) {
					return nDst, nSrc, transform.ErrShortDst
				}
				dst[nDst] = (src[nSrc+1]&3)<<6 | src[nSrc+2]&0x3F
				nDst++
				nSrc += 3
				continue
			}
		}
		// The run up to the next escape. In output dense with escapes it
		// is short and ends at the first lead byte of the next 8, which
		// one word shows; a longer one ends where IndexByte, which costs
		// more to start, finds one. Where that lead byte starts no
		// escape, as in Korean text (ED) under SurrogateEscape, Span
		// takes the run.
		v, serr := 0, error(nil)
		if u.lead != 0 && src[nSrc] != u.lead && nSrc+9 <= len(src) {
			i := nSrc + 1
			w := binary.LittleEndian.Uint64(src[i:]) ^ lsb*uint64(u.lead)
			if z := (w - lsb) &^ w & msb; z != 0 {
				// The zero bytes of w are the lead bytes; the lowest
				// bit of z marks the first.
				i += bits.TrailingZeros64(z) / 8
			} else if k := bytes.IndexByte(src[nSrc:], u.lead); k >= 0 {
				// (From nSrc, where the caller's src is likely aligned:
				// IndexByte is slower from a misaligned start.)
				i = nSrc + k
			} else {
				i = len(src)
			}
			if i == len(src) {
				v = i - nSrc
			} else if ok, _ := u.match(src[i:]); ok {
				v, serr = i-nSrc, transform.ErrEndOfSpan
			}
		}
		if v == 0 {
			v, serr = u.Span(src[nSrc:], atEOF)
		}
		if room := len(dst) - nDst; v > room {
			v, serr = room, transform.ErrShortDst
		}
		nDst += copy(dst[nDst:], src[nSrc:nSrc+v])
		nSrc += v
		if serr != nil && serr != transform.ErrEndOfSpan {
			return nDst, nSrc, serr
		}
	}
	return nDst, nSrc, nil
}
