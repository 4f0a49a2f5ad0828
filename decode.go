package utf8stream

import (
	"bytes"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream/internal/repair"
	"github.com/utf8stream/utf8stream/internal/valid"
)

// acceptRange is a range of bytes, lo to hi.
type acceptRange struct{ lo, hi uint8 }

// status is what scan finds at the start of its input.
type status uint8

const (
	complete  status = iota // a well-formed sequence
	illFormed               // a maximal ill-formed subpart
	short                   // a proper prefix of a well-formed sequence: more input decides
)

// scan looks at the sequence that starts p, which must not be empty. It
// returns the length of the well-formed sequence, of the maximal ill-formed
// subpart, or of the truncated sequence that makes up all of p.
func scan(p []byte) (n int, st status) {
	size, lo1, hi1 := valid.Lead(p[0])
	switch size {
	case 0:
		return 1, illFormed
	case 1:
		return 1, complete
	}
	for i := 1; i < size; i++ {
		if i == len(p) {
			return i, short
		}
		lo, hi := uint8(0x80), uint8(0xBF)
		if i == 1 {
			lo, hi = lo1, hi1
		}
		if c := p[i]; c < lo || hi < c {
			return i, illFormed
		}
	}
	return size, complete
}

// kind is what the core does with the unit at the start of its input.
type kind uint8

const (
	kValid   kind = iota // copy as it is
	kShort               // wait for more input
	kInvalid             // an ill-formed subpart: apply the policy
	kEscape              // a valid sequence in the escape range of OPTU8, escaped byte by byte
	kCESU                // a CESU-8 surrogate pair, written as one 4-byte sequence
	kMUTF                // C0 80, written as 00
)

// core holds the decisions: the policy and the options, fixed at construction.
// Its methods are pure functions of their arguments.
type core struct {
	o      *options // shared and read-only: defaultOptions when no Option was given
	policy Policy
	// noTab is set when there is no table to serve the block repairer
	// for this policy and these options; tab is looked up when first
	// needed.
	noTab bool
	// plain is set when span is valid.Prefix: not under OPTU8, and not
	// with NoNUL, WTF8 or BMPOnly.
	plain bool
	// stop is set when span is spanStop: under OPTU8 or WTF8.
	stop bool
	// ee is set under OPTU8, where spanStop's kernels stop at each EE.
	ee bool
	// bmp is set with BMPOnly but not under OPTU8, where the kernels
	// stop at each byte F0..FF (valid.PrefixBMP).
	bmp bool
	// plainSpan is set where quick and plain are: Span's short path
	// then has no option to look for. (Its other short path, for WTF8
	// and BMPOnly, runs where quick is set and ee is not.)
	plainSpan bool
	// quick is set without NoNUL, StripBOM and Lines, and not under
	// OPTU8 with BMPOnly, where Transform's short path serves valid input.
	quick bool
	tab   *repair.Table
}

// init sets up c in place for policy p and opts.
func (c *core) init(p Policy, opts []Option) {
	p.check()
	*c = core{o: &defaultOptions, policy: p}
	if len(opts) > 0 {
		// Only a value with options pays for a copy of its own.
		c.o = new(options)
		c.o.init(opts)
	}
	c.setPaths()
}

// initFrom sets up c in place for policy p and o, which c keeps and no
// one may change.
func (c *core) initFrom(p Policy, o *options) {
	p.check()
	*c = core{o: o, policy: p}
	c.setPaths()
}

// setPaths sets the flags that choose the fast paths from the policy and
// the options.
func (c *core) setPaths() {
	p := c.policy
	c.ee = p == OPTU8
	c.bmp = c.o.bmpOnly && !c.ee
	c.stop = c.ee || c.o.wtf8
	c.plain = !c.stop && !c.o.noNUL && !c.o.bmpOnly
	c.quick = !c.o.noNUL && !c.o.stripBOM && !(c.ee && c.o.bmpOnly) && !c.o.lines && c.o.base == formUTF8
	c.plainSpan = c.quick && c.plain
}

// denseWindow is how far span looks with the Go scanner after an
// ill-formed unit before it calls a kernel, which costs more to start than
// it saves on the short runs between dense errors.
const denseWindow = 32

// denseLast is how many bytes at the end of the stream span takes as
// after a valid unit even where errors are dense: the kernel's call costs
// little more there than the window, and after the block loop the rest
// is often valid to the end.
const denseLast = 128

// resizes reports whether the output can differ in length from the input
// even when the input is valid UTF-8: under every policy but Reject, which
// either copies or stops, and under the options that drop or convert valid
// bytes.
func (c *core) resizes() bool {
	return c.policy != Reject || c.o.stripBOM || c.o.cesu8 || c.o.mutf8 || c.o.wtf8 || c.o.base != formUTF8
}

// maxGrowth returns the most bytes of output the core writes for one byte
// of input: the replacement for a 1-byte subpart under Replace, 3 bytes
// for an escape or a Windows-1252 character, 4 for \xNN.
func (c *core) maxGrowth() int {
	switch c.policy {
	case Replace:
		return max(1, len(c.o.replacement))
	case SurrogateEscape, OPTU8, Windows1252:
		return 3
	case BackslashReplace:
		return 4
	}
	return 1
}

// span returns the length of the prefix of p that the core copies unchanged:
// well-formed complete sequences (and WTF8's lone surrogates), less OPTU8's
// escape range, NUL and characters above U+FFFF when the options ask for
// it. dense says that the unit before p was ill-formed, so that another may
// well follow soon; it changes only the speed.
func (c *core) span(p []byte, dense bool) int {
	if dense && len(p) > denseWindow {
		if n := valid.Prefix(p[:denseWindow]); n <= denseWindow-4 {
			// The valid run ends in the window.
			if c.plain {
				return n
			}
			p = p[:n]
		}
	}
	switch {
	case c.stop:
		return c.spanStop(nil, p)
	case c.bmp:
		return c.cutNUL(p, valid.PrefixBMP(p))
	}
	return c.cutNUL(p, valid.Prefix(p))
}

// copySpan is span(p, false) that also copies the prefix it returns to dst,
// as valid.CopyPrefix does: len(dst) must be at least len(p), and the bytes
// of dst after the prefix are unspecified.
func (c *core) copySpan(dst, p []byte) int {
	switch {
	case c.stop:
		return c.spanStop(dst, p)
	case c.bmp:
		return c.cutNUL(p, valid.CopyPrefixBMP(dst, p))
	}
	return c.cutNUL(p, valid.CopyPrefix(dst, p))
}

// spanStop is span under OPTU8 or WTF8. Under OPTU8 the kernels that stop
// at each EE serve it, and it steps over the EE sequences that OPTU8
// copies; under WTF8 it steps over the lone surrogates, at which the
// kernels stop as at any ill-formed byte. With BMPOnly it stops at the
// first byte F0..FF too: under WTF8 through the kernels that stop there,
// under OPTU8, where that is rare, by looking no further. With dst it also
// copies, as copySpan does.
func (c *core) spanStop(dst, p []byte) int {
	whole := p
	if c.ee && c.o.bmpOnly {
		// Before the validation, which then stops there at the latest:
		// a character above U+FFFF ends the span, and the bytes F5..FF
		// are ill-formed.
		p = p[:valid.IndexHigh(p)]
	}
	n := 0
	for {
		switch {
		case c.ee && dst == nil:
			n += valid.PrefixBeforeEE(p[n:])
		case c.ee:
			n += valid.CopyPrefixBeforeEE(dst[n:], p[n:])
		case c.bmp && dst == nil:
			n += valid.PrefixBMP(p[n:])
		case c.bmp:
			n += valid.CopyPrefixBMP(dst[n:], p[n:])
		case dst == nil:
			n += valid.Prefix(p[n:])
		default:
			n += valid.CopyPrefix(dst[n:], p[n:])
		}
		if n+3 > len(p) || !c.copies(whole[n:]) {
			break
		}
		if dst != nil {
			copy(dst[n:n+3], p[n:n+3])
		}
		n += 3
	}
	return c.cutNUL(p, n)
}

// copies reports whether the core copies unchanged the 3-byte sequence at
// the start of p, where a kernel stopped: under OPTU8 one that starts with
// EE and lies outside the escape range, under WTF8 a lone surrogate. p
// must hold 3 bytes at least.
func (c *core) copies(p []byte) bool {
	if p[1]&0xC0 != 0x80 || p[2]&0xC0 != 0x80 {
		return false
	}
	switch {
	case p[0] == 0xEE && c.policy == OPTU8:
		return !c.optu8Escaped(p[1], p[2])
	case p[0] == 0xED && c.o.wtf8 && p[1] >= 0xA0:
		if p[1] < 0xB0 {
			// A high surrogate, which is lone unless the next bytes
			// are, or may yet be, a low one.
			_, k := cesuPair(p, false)
			return k == kInvalid
		}
		return true
	}
	return false
}

// cutNUL returns n, the length of a valid prefix of p, or under NoNUL the
// offset of the first NUL in p[:n] if it is smaller.
func (c *core) cutNUL(p []byte, n int) int {
	if c.o.noNUL {
		if i := bytes.IndexByte(p[:n], 0); i >= 0 {
			return i
		}
	}
	return n
}

// optu8Escaped reports whether the well-formed sequence EE b1 b2 lies in
// OPTU8's escape range and so must itself be escaped.
func (c *core) optu8Escaped(b1, b2 byte) bool {
	return b1 >= 0xBE || (c.o.noNUL && b1 == 0xBC && b2 == 0x80)
}

// unit classifies the unit at the start of p, which must not be empty, and
// returns its length. It is called where span stopped.
func (c *core) unit(p []byte, atEOF bool) (int, kind) {
	b := p[0]
	if b == 0 && c.o.noNUL {
		return 1, kInvalid
	}
	if b == 0xC0 && c.o.mutf8 {
		if len(p) == 1 && !atEOF {
			return 0, kShort
		}
		if len(p) > 1 && p[1] == 0x80 {
			return 2, kMUTF
		}
	}
	if b == 0xED && (c.o.cesu8 || c.o.wtf8) {
		if n, k := cesuPair(p, atEOF); k != kInvalid {
			if k == kCESU && c.o.bmpOnly {
				return n, kInvalid
			}
			return n, k
		}
		if c.o.wtf8 && len(p) > 1 && 0xA0 <= p[1] && p[1] <= 0xBF {
			return c.surrogate(p, atEOF)
		}
	}
	n, st := scan(p)
	switch st {
	case short:
		if !atEOF {
			return 0, kShort
		}
		return n, kInvalid
	case illFormed:
		return n, kInvalid
	}
	if n == 3 && b == 0xEE && c.policy == OPTU8 && c.optu8Escaped(p[1], p[2]) {
		return 3, kEscape
	}
	if n == 4 && c.o.bmpOnly {
		return 4, kInvalid
	}
	return n, kValid
}

// surrogate classifies, under WTF8, the unit at the start of p, which starts
// with ED A0..BF and is not a surrogate pair: a lone surrogate, or a
// truncated one, which is a maximal subpart of 2 bytes.
func (c *core) surrogate(p []byte, atEOF bool) (int, kind) {
	switch {
	case len(p) == 2 && !atEOF:
		return 0, kShort
	case len(p) == 2 || p[2]&0xC0 != 0x80:
		return 2, kInvalid
	}
	return 3, kValid
}

// cesuPair matches ED A0..AF 80..BF ED B0..BF 80..BF at the start of p. It
// returns kInvalid when p does not start with such a pair.
func cesuPair(p []byte, atEOF bool) (int, kind) {
	pat := [6]acceptRange{{0xED, 0xED}, {0xA0, 0xAF}, {0x80, 0xBF}, {0xED, 0xED}, {0xB0, 0xBF}, {0x80, 0xBF}}
	for i, r := range pat {
		if i == len(p) {
			if atEOF {
				return 0, kInvalid
			}
			return 0, kShort
		}
		if p[i] < r.lo || r.hi < p[i] {
			return 0, kInvalid
		}
	}
	return 6, kCESU
}

// emit writes the output for unit u of kind k to dst. It returns false, and
// writes nothing that counts, when dst is too small.
func (c *core) emit(dst, u []byte, k kind) (int, bool) {
	switch k {
	case kValid:
		if len(dst) < len(u) {
			return 0, false
		}
		return copy(dst, u), true
	case kMUTF:
		if len(dst) < 1 {
			return 0, false
		}
		dst[0] = 0
		return 1, true
	case kCESU:
		if len(dst) < 4 {
			return 0, false
		}
		hi := rune(u[1]&0x0F)<<6 | rune(u[2]&0x3F)
		lo := rune(u[4]&0x0F)<<6 | rune(u[5]&0x3F)
		return utf8.EncodeRune(dst, 0x10000+hi<<10+lo), true
	}
	// kInvalid, or kEscape under OPTU8
	switch c.policy {
	case Replace:
		if len(dst) < len(c.o.replacement) {
			return 0, false
		}
		return copy(dst, c.o.replacement), true
	case SurrogateEscape:
		return escapeBytes(dst, u, 0xED, 0xB0)
	case OPTU8:
		return escapeBytes(dst, u, 0xEE, 0xBC)
	case Windows1252:
		if len(u) > 3 {
			// A character above U+FFFF under BMPOnly.
			return copyAll(dst, "\uFFFD")
		}
		return decode1252(dst, u)
	case BackslashReplace:
		return backslashBytes(dst, u)
	}
	return 0, true // Drop
}

// copyAll copies all of s to dst, or reports false if it does not fit.
func copyAll(dst []byte, s string) (int, bool) {
	if len(dst) < len(s) {
		return 0, false
	}
	return copy(dst, s), true
}

// backslashBytes writes each byte b of u as \x and b in two lowercase hex
// digits.
func backslashBytes(dst, u []byte) (int, bool) {
	const hex = "0123456789abcdef"
	if len(dst) < 4*len(u) {
		return 0, false
	}
	for i, b := range u {
		dst[4*i] = '\\'
		dst[4*i+1] = 'x'
		dst[4*i+2] = hex[b>>4]
		dst[4*i+3] = hex[b&0x0F]
	}
	return 4 * len(u), true
}

// escapeBytes writes each byte b of u as the 3-byte sequence of U+x000+b,
// where lead and mid are the first two bytes for b = 0: ED B0 for U+DC00
// (SurrogateEscape), EE BC for U+EF00 (OPTU8).
func escapeBytes(dst, u []byte, lead, mid byte) (int, bool) {
	if len(dst) < 3*len(u) {
		return 0, false
	}
	for i, b := range u {
		dst[3*i] = lead
		dst[3*i+1] = mid | b>>6
		dst[3*i+2] = 0x80 | b&0x3F
	}
	return 3 * len(u), true
}

// cp1252 holds the characters Windows-1252 puts at 80..9F; 0 marks the
// five bytes it leaves undefined. A0..FF are U+00A0..U+00FF.
var cp1252 = [32]uint16{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

// decode1252 writes the characters of Windows1252 for the bytes of u to dst
// and returns their length, or reports false and writes nothing where they
// do not fit: they take 2 or 3 bytes each.
func decode1252(dst, u []byte) (int, bool) {
	need := 0
	for _, b := range u {
		need += utf8.RuneLen(char1252(b))
	}
	if len(dst) < need {
		return 0, false
	}
	n := 0
	for _, b := range u {
		n += utf8.EncodeRune(dst[n:], char1252(b))
	}
	return n, true
}

// char1252 is the character Windows1252 writes for the ill-formed byte b.
func char1252(b byte) rune {
	switch {
	case b < 0x80: // NUL under NoNUL
		return utf8.RuneError
	case b < 0xA0:
		if r := rune(cp1252[b-0x80]); r != 0 {
			return r
		}
		return utf8.RuneError
	}
	return rune(b)
}
