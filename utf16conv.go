package utf8stream

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	utf16k "github.com/utf8stream/utf8stream/internal/utf16"
	"golang.org/x/text/transform"
)

// This file converts between UTF-8 and the wide forms: the decoders'
// loop, which a Transformer runs where its input is UTF-16 or UTF-32, and
// the loops that widen and narrow runs of valid text, which decide
// nothing.

// transformWide is Transform where the input is UTF-16 or UTF-32, in
// t.inForm(), from nSrc on.
func (t *Transformer) transformWide(dst, src []byte, atEOF bool, nSrc int) (nDst, _ int, err error) {
	f := t.inForm()
	big := f.big()
	var rules wideRules
	t.setRules(&rules)
	first := 0 // bytes to take in Go before the kernel, after dense ill-formed units
	for nSrc < len(src) {
		var nd, ns int
		var fx wideFixed
		if f.width() == 2 {
			nd, ns, fx = narrow16(dst[nDst:], src[nSrc:], big, &rules, first)
		} else {
			nd, ns, fx = narrow32(dst[nDst:], src[nSrc:], big, &rules)
		}
		t.fixed(nSrc, fx)
		nDst += nd
		nSrc += ns
		if nSrc == len(src) {
			break
		}
		// Where ill-formed units come close together, the loop goes on
		// in Go after each, rather than call the kernel for each.
		first = wideRun
		nd, ns, err = t.wideUnit(dst[nDst:], src[nSrc:], atEOF, nSrc, &rules)
		nDst += nd
		nSrc += ns
		if err != nil {
			break
		}
	}
	t.off += int64(nSrc)
	return nDst, nSrc, err
}

// wideRun is how many bytes after a unit that stops the kernel the
// decoders' loops take in Go before they call the kernel again: where such
// units come closer together, the kernel's call costs more than the loop
// over the few units between them.
const wideRun = 8

// wideRules are what the decoders do with the units that are not valid
// text, or that the policy turns back into the bytes they stand for
// (U+DC80+b under SurrogateEscape and U+EF80+b under OPTU8 stand for the
// byte 80+b, and with NoNUL U+DC00 or U+EF00 for 00), and where the
// kernel stops for the latter.
type wideRules struct {
	lo, n uint32 // the kernel stops at the units lo..lo+n-1 (OPTU8's)
	esc   uint32 // 0xDC00, 0xEF00, or 0 where nothing is restored
	nul   bool   // esc itself stands for 00

	// Where fix is set, the loops write what the policy writes for each
	// ill-formed unit that is a whole unit (a lone surrogate; in UTF-32,
	// a value above U+10FFFF) themselves and count it, as wideBad does:
	// under Replace, Drop, Windows1252 and BackslashReplace without
	// OnInvalid. That is repl, or with backslash set its escapes.
	fix       bool
	wtf8      bool // lone surrogates are text, written in their 3-byte forms
	backslash bool
	slice     bool // the input is a []uint16 or a []rune (BackslashReplace's \u)
	repl      string

	// Where quick is set (fix, neither backslash nor wtf8, and repl of
	// at most 4 bytes), the loops write repl as the word word, of which
	// size bytes count, where dst has room for 4.
	quick bool
	word  uint32
	size  int
}

// lone writes what r makes of the ill-formed unit u, a lone surrogate or
// in UTF-32 a value above U+10FFFF, whose bytes in the input are b at
// position pos, to dst[nd:]: the byte it stands for where r restores it,
// its 3-byte form under WTF8, or what fix writes, which fx then counts. It
// returns the new nd and fx, and false where it writes nothing: dst has no
// room, or the unit is left to wideUnit.
func (r *wideRules) lone(dst []byte, nd int, b []byte, u uint32, pos int, fx wideFixed) (int, wideFixed, bool) {
	switch {
	case r.restores(u):
		if nd >= len(dst) {
			return nd, fx, false
		}
		dst[nd] = byte(u)
		return nd + 1, fx, true
	case r.wtf8 && u <= 0x10FFFF:
		if nd+3 > len(dst) {
			return nd, fx, false
		}
		return nd + putUTF8(dst[nd:], u), fx, true
	case r.fix:
		var ok bool
		if nd, ok = r.putFix(dst, nd, b, u); ok {
			fx = fx.add(pos)
		}
		return nd, fx, ok
	}
	return nd, fx, false
}

// putFix writes what r.fix writes for the ill-formed unit u, whose bytes
// in the input are b, to dst[nd:] and returns the new nd, or returns false
// where dst has no room for it.
func (r *wideRules) putFix(dst []byte, nd int, b []byte, u uint32) (int, bool) {
	if !r.backslash {
		if nd+len(r.repl) > len(dst) {
			return nd, false
		}
		return nd + copy(dst[nd:], r.repl), true
	}
	var n int
	var ok bool
	if r.slice {
		n, ok = backslashRune(dst[nd:], u)
	} else {
		n, ok = backslashBytes(dst[nd:], b)
	}
	return nd + n, ok
}

// restores reports whether u stands for a byte, byte(u).
func (r *wideRules) restores(u uint32) bool {
	return r.esc != 0 && (u-r.esc-0x80 < 0x80 || r.nul && u == r.esc)
}

// setRules sets r to the rules of t's policy and options. It fills r in
// place, field by field: a wideRules built and then returned is copied in
// wide loads that wait for its narrow stores, which cost more than the
// rest of a short call.
func (t *Transformer) setRules(r *wideRules) {
	c := &t.c
	*r = wideRules{wtf8: c.o.wtf8}
	switch c.policy {
	case SurrogateEscape:
		r.esc, r.nul = 0xDC00, c.o.noNUL
		return
	case OPTU8:
		r.lo, r.n, r.esc = 0xEF80, 0x80, 0xEF00
		if c.o.noNUL {
			r.lo, r.n, r.nul = 0xEF00, 0x100, true
		}
		return
	}
	r.fix = c.o.onInvalid == nil
	switch c.policy {
	case Replace:
		r.repl = c.o.replacement
	case Windows1252:
		r.repl = "\uFFFD"
	case BackslashReplace:
		r.backslash, r.slice = true, c.o.slice
	case Drop:
	default:
		r.fix = false
	}
	if r.fix && !r.backslash && !r.wtf8 && len(r.repl) <= 4 {
		var w uint32
		for i := len(r.repl) - 1; i >= 0; i-- {
			w = w<<8 | uint32(r.repl[i])
		}
		r.quick, r.word, r.size = true, w, len(r.repl)
	}
}

// A wideFixed counts the ill-formed units that a loop fixed (rules.fix).
type wideFixed struct {
	units int
	first int // the position of the first in the loop's src
}

// add returns f with the unit at position pos counted. (A value, not a
// pointer: the loops keep f in registers.)
func (f wideFixed) add(pos int) wideFixed {
	if f.units == 0 {
		f.first = pos
	}
	f.units++
	return f
}

// fixed records what a loop fixed in the chunk from pos on, as wideBad
// records each unit: their count, bytes and the first's offset.
func (t *Transformer) fixed(pos int, f wideFixed) {
	if f.units == 0 {
		return
	}
	if t.stats.Subparts == 0 {
		t.stats.First = t.wideOffset(pos + f.first)
	}
	t.stats.Subparts += int64(f.units)
	t.stats.Bytes += int64(f.units * t.inForm().width())
}

// wideUnit decodes the one code point at the start of src, which is in
// t.inForm(), and writes its output to dst: a pair of surrogates, a lone one,
// a unit cut short at the end of the stream, or any other. pos is src's
// position in the chunk.
func (t *Transformer) wideUnit(dst, src []byte, atEOF bool, pos int, rules *wideRules) (nDst, nSrc int, err error) {
	if stepHook != nil {
		stepHook()
	}
	f := t.inForm()
	w := f.width()
	if len(src) < w {
		if !atEOF {
			return 0, 0, transform.ErrShortSrc
		}
		return t.wideBad(dst, src, pos, 0)
	}
	u, n := f.unit(src), w
	wtf8 := t.c.o.wtf8
	if u-0xD800 < 0x400 && (w == 2 || wtf8) {
		// A high surrogate, which the next unit may make a pair with.
		switch {
		case len(src) < 2*w && !atEOF:
			return 0, 0, transform.ErrShortSrc
		case len(src) < 2*w:
			if w == 2 && !wtf8 {
				// With what is left of a unit after it, if anything:
				// one ill-formed unit, as CPython and WHATWG count it.
				return t.wideBad(dst, src, pos, u)
			}
		default:
			if v := f.unit(src[w:]); v-0xDC00 < 0x400 {
				u, n = 0x10000+(u-0xD800)<<10+(v-0xDC00), 2*w
			}
		}
	}
	switch {
	case rules.restores(u):
		if len(dst) < 1 {
			return 0, 0, transform.ErrShortDst
		}
		dst[0] = byte(u)
		return 1, n, nil
	case u-0xD800 < 0x800 && !wtf8, u > 0x10FFFF:
		// A lone surrogate, which WTF8 writes in its 3-byte form.
		return t.wideBad(dst, src[:n], pos, u)
	}
	if len(dst) < utf8Len(u) {
		return 0, 0, transform.ErrShortDst
	}
	return putUTF8(dst, u), n, nil
}

// wideBad applies the policy to the ill-formed unit b at position pos of
// the chunk, whose value is u where it has one. It returns the output
// written to dst and the bytes consumed.
func (t *Transformer) wideBad(dst, b []byte, pos int, u uint32) (nDst, nSrc int, err error) {
	switch t.c.policy {
	case Reject, SurrogateEscape, OPTU8:
		off, eb := t.wideError(pos, b)
		e := &Error{Offset: off, Bytes: eb, Form: t.enc()}
		if t.stats.Subparts == 0 {
			t.record(off, eb)
		}
		return 0, 0, e
	}
	var nd int
	switch t.c.policy {
	case Replace:
		if len(dst) < len(t.c.o.replacement) {
			return 0, 0, transform.ErrShortDst
		}
		nd = copy(dst, t.c.o.replacement)
	case Windows1252:
		if len(dst) < 3 {
			return 0, 0, transform.ErrShortDst
		}
		nd = copy(dst, "\uFFFD")
	case BackslashReplace:
		var ok bool
		if t.c.o.slice {
			nd, ok = backslashRune(dst, u)
		} else {
			nd, ok = backslashBytes(dst, b)
		}
		if !ok {
			return 0, 0, transform.ErrShortDst
		}
	}
	if t.c.o.onInvalid != nil {
		t.record(t.wideError(pos, b))
	} else {
		// The Stats need only the offset and the length: no copy.
		t.record(t.wideOffset(pos), b)
	}
	return nd, len(b), nil
}

// wideError returns the offset and a copy of the bytes of the ill-formed
// unit b at position pos of the chunk, as an Error holds them: for a
// []uint16 or a []rune, the offset in units and the unit high byte first.
func (t *Transformer) wideError(pos int, b []byte) (int64, []byte) {
	c := bytes.Clone(b)
	if f := t.inForm(); t.c.o.slice && !f.big() {
		w := f.width()
		for i := range w / 2 {
			c[i], c[w-1-i] = c[w-1-i], c[i]
		}
	}
	return t.wideOffset(pos), c
}

// wideOffset returns the offset that an Error reports for the unit at
// position pos of the chunk: in units for a []uint16 or a []rune.
func (t *Transformer) wideOffset(pos int) int64 {
	off := t.off + int64(pos)
	if t.c.o.slice {
		off /= int64(t.inForm().width())
	}
	return off
}

// enc returns the name of the form of t's input for an Error: "" for
// UTF-8, as Error.Error expects it.
func (t *Transformer) enc() string {
	switch {
	case t.inForm() == formUTF8:
		return ""
	case t.c.o.slice && t.inForm().width() == 2:
		return "UTF-16"
	case t.c.o.slice:
		return "UTF-32"
	}
	return t.inForm().String()
}

// backslashRune writes u as CPython's backslashreplace does for a
// character of a str: \xNN, \uNNNN or \UNNNNNNNN in lowercase hex.
func backslashRune(dst []byte, u uint32) (int, bool) {
	const hex = "0123456789abcdef"
	digits, c := 8, byte('U')
	switch {
	case u < 0x100:
		digits, c = 2, 'x'
	case u < 0x10000:
		digits, c = 4, 'u'
	}
	if len(dst) < 2+digits {
		return 0, false
	}
	dst[0], dst[1] = '\\', c
	for i := range digits {
		dst[2+i] = hex[u>>(4*(digits-1-i))&0xF]
	}
	return 2 + digits, true
}

// utf8Len returns the length of the generalized UTF-8 form of u, which
// must be at most U+10FFFF: surrogates take 3 bytes.
func utf8Len(u uint32) int {
	switch {
	case u < 0x80:
		return 1
	case u < 0x800:
		return 2
	case u < 0x10000:
		return 3
	}
	return 4
}

// putUTF8 writes the generalized UTF-8 form of u, surrogates included,
// to dst, which must have room, and returns its length.
func putUTF8(dst []byte, u uint32) int {
	switch {
	case u < 0x80:
		dst[0] = byte(u)
		return 1
	case u < 0x800:
		_ = dst[1]
		dst[0] = 0xC0 | byte(u>>6)
		dst[1] = 0x80 | byte(u)&0x3F
		return 2
	case u < 0x10000:
		_ = dst[2]
		dst[0] = 0xE0 | byte(u>>12)
		dst[1] = 0x80 | byte(u>>6)&0x3F
		dst[2] = 0x80 | byte(u)&0x3F
		return 3
	}
	_ = dst[3]
	dst[0] = 0xF0 | byte(u>>18)
	dst[1] = 0x80 | byte(u>>12)&0x3F
	dst[2] = 0x80 | byte(u>>6)&0x3F
	dst[3] = 0x80 | byte(u)&0x3F
	return 4
}

// swap16 swaps the bytes of each 16-bit lane of x.
func swap16(x uint64) uint64 {
	return x>>8&0x00FF00FF00FF00FF | x&0x00FF00FF00FF00FF<<8
}

// narrowWindow is how much UTF-16BE narrowBig swaps at a time, and
// narrowFirst how much in its first window.
const (
	narrowWindow = 4 << 10
	narrowFirst  = 256
)

// narrowBig is utf16k.Narrow for UTF-16BE: the kernel narrows the units of
// src swapped into a buffer, a window at a time, for as long as it stops
// only near a window's end, where the next window goes on. The first
// window has narrowFirst bytes, so that a kernel that stops soon, as among
// ill-formed units, leaves few bytes swapped for nothing; the others
// narrowWindow bytes, in narrowBigOn's buffer.
func narrowBig(dst, src []byte, stopLo, stopN uint32) (nd, ns int) {
	var buf [narrowFirst]byte
	n := min(len(buf), len(src)) &^ 1
	utf16k.Swap(buf[:n], src[:n])
	nd, ns = utf16k.Narrow(dst, buf[:n], stopLo, stopN)
	if ns == 0 || n-ns >= utf16k.NarrowBlock+2 {
		return nd, ns
	}
	d, s := narrowBigOn(dst[nd:], src[ns:], stopLo, stopN)
	return nd + d, ns + s
}

// narrowBigOn is narrowBig after its first window.
func narrowBigOn(dst, src []byte, stopLo, stopN uint32) (nd, ns int) {
	var buf [narrowWindow]byte
	for {
		n := min(len(buf), len(src)-ns) &^ 1
		w := buf[:n]
		utf16k.Swap(w, src[ns:ns+n])
		d, s := utf16k.Narrow(dst[nd:], w, stopLo, stopN)
		nd += d
		ns += s
		if s == 0 || n-s >= utf16k.NarrowBlock+2 {
			return nd, ns
		}
	}
}

// narrow16 writes the UTF-8 of the valid UTF-16 at the start of src to
// dst, and what rules make of each lone surrogate (wideRules.lone), as far
// as both allow: whole code points only. It stops at a lone surrogate that
// rules leave to wideUnit and at a unit cut short. It returns the bytes
// written and read, and the units it fixed. It takes the first bytes of
// src, first of them, in Go, then lets the kernel go first; where the
// kernel stops, it goes on in Go for a block, or wideRun bytes after each
// unit that it fixes or restores.
func narrow16(dst, src []byte, big bool, rules *wideRules, first int) (nd, ns int, fx wideFixed) {
	lo, hi := 0, 1
	if big {
		lo, hi = 1, 0
	}
	kernel := utf16k.Enabled()
	end := min(len(src), first)
	for {
		for ns < end && ns+2 <= len(src) {
			u := uint32(src[ns+lo]) | uint32(src[ns+hi])<<8
			switch {
			case u < 0x80:
				if ns+16 <= len(src) && nd+8 <= len(dst) {
					// ASCII, 8 units at a time.
					a := binary.LittleEndian.Uint64(src[ns:])
					b := binary.LittleEndian.Uint64(src[ns+8:])
					if big {
						a, b = swap16(a), swap16(b)
					}
					if (a|b)&0xFF80FF80FF80FF80 == 0 {
						binary.LittleEndian.PutUint32(dst[nd:], pack16(a))
						binary.LittleEndian.PutUint32(dst[nd+4:], pack16(b))
						nd += 8
						ns += 16
						continue
					}
				}
				if nd >= len(dst) {
					return nd, ns, fx
				}
				dst[nd] = byte(u)
				nd++
				ns += 2
			case u < 0x800:
				if nd+2 > len(dst) {
					return nd, ns, fx
				}
				dst[nd] = 0xC0 | byte(u>>6)
				dst[nd+1] = 0x80 | byte(u)&0x3F
				nd += 2
				ns += 2
			case u-0xD800 < 0x800:
				if u < 0xDC00 {
					if ns+4 > len(src) {
						return nd, ns, fx // the pair, if any, is cut short
					}
					if v := uint32(src[ns+2+lo]) | uint32(src[ns+2+hi])<<8; v-0xDC00 < 0x400 {
						if nd+4 > len(dst) {
							return nd, ns, fx
						}
						nd += putUTF8(dst[nd:], 0x10000+(u-0xD800)<<10+(v-0xDC00))
						ns += 4
						continue
					}
				}
				// A lone surrogate: a low one after a high one would have
				// made a pair with it.
				// The two common cases here, the rest in lone.
				switch {
				case rules.restores(u) && nd < len(dst):
					dst[nd] = byte(u)
					nd++
				case rules.quick && nd+4 <= len(dst):
					binary.LittleEndian.PutUint32(dst[nd:], rules.word)
					nd += rules.size
					fx = fx.add(ns)
				default:
					var ok bool
					if nd, fx, ok = rules.lone(dst, nd, src[ns:ns+2], u, ns, fx); !ok {
						return nd, ns, fx
					}
				}
				ns += 2
				end = min(len(src), ns+wideRun)
			default:
				if u-rules.lo < rules.n && rules.restores(u) {
					if nd >= len(dst) {
						return nd, ns, fx
					}
					dst[nd] = byte(u)
					nd++
					ns += 2
					end = min(len(src), ns+wideRun)
					continue
				}
				if nd+3 > len(dst) {
					return nd, ns, fx
				}
				dst[nd] = 0xE0 | byte(u>>12)
				dst[nd+1] = 0x80 | byte(u>>6)&0x3F
				dst[nd+2] = 0x80 | byte(u)&0x3F
				nd += 3
				ns += 2
			}
		}
		if ns+2 > len(src) {
			return nd, ns, fx
		}
		end = len(src)
		if kernel {
			if kernelHook != nil {
				kernelHook()
			}
			var d, s int
			if big {
				d, s = narrowBig(dst[nd:], src[ns:], rules.lo, rules.n)
			} else {
				d, s = utf16k.Narrow(dst[nd:], src[ns:], rules.lo, rules.n)
			}
			nd += d
			ns += s
			// At least a block in Go, where the kernel stopped.
			end = min(len(src), ns+utf16k.NarrowBlock)
		}
	}
}

// pack16 returns the low bytes of the four 16-bit lanes of x, the first
// lane lowest.
func pack16(x uint64) uint32 {
	x = (x | x>>8) & 0x0000FFFF0000FFFF
	return uint32(x | x>>16)
}

// narrow32 is narrow16 for UTF-32: it stops at a surrogate that rules
// neither restores nor fixes, at a value above U+10FFFF that it does not
// fix, and at a unit cut short. Where a kernel runs, it takes runs of
// valid text through UTF-16 (narrow32Via16), and the rest in Go.
func narrow32(dst, src []byte, big bool, rules *wideRules) (nd, ns int, fx wideFixed) {
	kernel := utf16k.Enabled()
	end := 0 // where the loop tries the kernel again, through UTF-16
	for ns+4 <= len(src) {
		if kernel && ns >= end && len(src)-ns >= 4*wideVia {
			d, s := narrow32Via16(dst[nd:], src[ns:], big, rules.lo, rules.n)
			nd += d
			ns += s
			if s < 4*wideVia {
				// At least wideVia units in Go, where the kernel
				// stopped soon.
				end = ns + 4*wideVia
			}
			continue
		}
		if ns+16 <= len(src) && nd+4 <= len(dst) {
			// ASCII, 4 units at a time.
			a := binary.LittleEndian.Uint64(src[ns:])
			b := binary.LittleEndian.Uint64(src[ns+8:])
			mask := uint64(0xFFFFFF80FFFFFF80)
			if big {
				mask = 0x80FFFFFF80FFFFFF
			}
			if (a|b)&mask == 0 {
				if big {
					a, b = a>>24, b>>24
				}
				dst[nd] = byte(a)
				dst[nd+1] = byte(a >> 32)
				dst[nd+2] = byte(b)
				dst[nd+3] = byte(b >> 32)
				nd += 4
				ns += 16
				continue
			}
		}
		u := unit32(src[ns:], big)
		if u-0xD800 < 0x800 || u > 0x10FFFF {
			if rules.wtf8 && u-0xD800 < 0x400 {
				// A high surrogate, which a low one after it makes a
				// pair with, as WTF-8 writes them.
				if ns+8 > len(src) {
					return nd, ns, fx // the pair, if any, is cut short
				}
				if v := unit32(src[ns+4:], big); v-0xDC00 < 0x400 {
					if nd+4 > len(dst) {
						return nd, ns, fx
					}
					nd += putUTF8(dst[nd:], 0x10000+(u-0xD800)<<10+(v-0xDC00))
					ns += 8
					continue
				}
			}
			var ok bool
			if nd, fx, ok = rules.lone(dst, nd, src[ns:ns+4], u, ns, fx); !ok {
				return nd, ns, fx
			}
			ns += 4
			continue
		}
		if u-rules.lo < rules.n && rules.restores(u) {
			if nd >= len(dst) {
				return nd, ns, fx
			}
			dst[nd] = byte(u)
			nd++
			ns += 4
			continue
		}
		if nd+utf8Len(u) > len(dst) {
			return nd, ns, fx
		}
		nd += putUTF8(dst[nd:], u)
		ns += 4
	}
	return nd, ns, fx
}

// widen writes src, whole sequences of generalized UTF-8 (valid UTF-8 and
// the 3-byte forms of surrogates), in form f to dst, as far as dst has
// room for whole code points. It returns the bytes written and read. It
// decides nothing: src is what a Transformer writes, or a run that it
// copies. Where highs is set, src may hold the 3-byte forms of high
// surrogates (under WTF8), which UTF-32 must keep apart from a low one
// after them.
func widen(dst, src []byte, f form, highs bool) (nd, ns int) {
	if f.width() == 2 {
		return widen16(dst, src, f.big())
	}
	if !highs && utf16k.Enabled() {
		// Through UTF-16, where the kernels run, a window at a time.
		for len(src)-ns >= wideVia && len(dst)-nd >= 4*wideVia {
			d, s := widen32Via16(dst[nd:], src[ns:], f.big())
			nd += d
			ns += s
			if s == 0 {
				break
			}
		}
	}
	d, s := widen32(dst[nd:], src[ns:], f.big())
	return nd + d, ns + s
}

// wideVia is the least input that the UTF-32 loops take through UTF-16
// and its kernels, and the window, in bytes of UTF-8, that widen32Via16
// takes at a time.
const (
	wideVia       = 64
	wideViaWindow = 1 << 10
)

// widen32Via16 is widen32 for at most wideViaWindow bytes of src, which
// holds no 3-byte form of a high surrogate, through UTF-16: the kernel
// widens src into a buffer, and units32 widens the units. dst must have
// room for 4 bytes for each byte of src it takes.
func widen32Via16(dst, src []byte, big bool) (nd, ns int) {
	var buf [2 * wideViaWindow]byte
	n := min(len(src), wideViaWindow, len(dst)/4)
	for n > 0 && n < len(src) && src[n]&0xC0 == 0x80 {
		n-- // whole sequences only
	}
	w, ns := widen16(buf[:], src[:n], false)
	return units32(dst, buf[:w], big), ns
}

// units32 writes the UTF-16LE units of src, where every high surrogate
// has its low one after it, as UTF-32 to dst, which must have room for
// them, and returns the bytes written.
func units32(dst, src []byte, big bool) (nd int) {
	i := 0
	for i+2 <= len(src) {
		if i+16 <= len(src) && nd+32 <= len(dst) {
			// Eight units at a time, where none is a surrogate: at once
			// where all are below U+8000.
			x := binary.LittleEndian.Uint64(src[i:])
			y := binary.LittleEndian.Uint64(src[i+8:])
			if (x|y)&0x8000800080008000 == 0 || !surrogates(x) && !surrogates(y) {
				d := dst[nd : nd+32]
				if big {
					binary.BigEndian.PutUint64(d[0:], x&0xFFFF<<32|x>>16&0xFFFF)
					binary.BigEndian.PutUint64(d[8:], x>>32&0xFFFF<<32|x>>48)
					binary.BigEndian.PutUint64(d[16:], y&0xFFFF<<32|y>>16&0xFFFF)
					binary.BigEndian.PutUint64(d[24:], y>>32&0xFFFF<<32|y>>48)
				} else {
					binary.LittleEndian.PutUint64(d[0:], x&0xFFFF|x>>16&0xFFFF<<32)
					binary.LittleEndian.PutUint64(d[8:], x>>32&0xFFFF|x>>48<<32)
					binary.LittleEndian.PutUint64(d[16:], y&0xFFFF|y>>16&0xFFFF<<32)
					binary.LittleEndian.PutUint64(d[24:], y>>32&0xFFFF|y>>48<<32)
				}
				nd += 32
				i += 16
				continue
			}
			if i+18 <= len(src) {
				k, high := spread8(dst[nd:nd+32], src[i:i+18], big)
				nd += k
				i += 16 + 2*high
				continue
			}
		}
		u := uint32(binary.LittleEndian.Uint16(src[i:]))
		i += 2
		if u-0xD800 < 0x400 && i+2 <= len(src) {
			u = 0x10000 + (u-0xD800)<<10 + (uint32(binary.LittleEndian.Uint16(src[i:])) - 0xDC00)
			i += 2
		}
		if big {
			binary.BigEndian.PutUint32(dst[nd:], u)
		} else {
			binary.LittleEndian.PutUint32(dst[nd:], u)
		}
		nd += 4
	}
	return nd
}

// spread8 writes the first eight UTF-16LE units of s (18 bytes) as UTF-32
// to d (32 bytes), a high surrogate with the low one after it, the ninth
// unit for the last one, and returns the bytes written and 1 if the last
// unit is a high surrogate, else 0. It may write to d past what it
// returns. A unit is written at k, which then moves on but for the low
// surrogate of a pair, with no branch on what the units are: in text with
// characters above U+FFFF such a branch goes either way.
func spread8(d, s []byte, big bool) (k, high int) {
	d, s = d[:32], s[:18]
	h := uint32(0) // 1 for a high surrogate
	for j := 0; j < 16; j += 2 {
		u := uint32(binary.LittleEndian.Uint16(s[j:]))
		v := uint32(binary.LittleEndian.Uint16(s[j+2:]))
		low := h // the low surrogate of the pair before
		h = ((u ^ 0xD800) - 0x400) >> 31
		if pair := u<<10 + v - 0x35FDC00; h != 0 {
			u = pair // 0x10000 + (u-0xD800)<<10 + v-0xDC00
		}
		if big {
			u = bits.ReverseBytes32(u)
		}
		binary.LittleEndian.PutUint32(d[k&28:], u)
		k += 4 - 4*int(low)
	}
	return k, int(h)
}

// highSurrogates returns how many of the four UTF-16 units in x are high
// surrogates.
func highSurrogates(x uint64) int {
	t := x&0xFC00FC00FC00FC00 ^ 0xD800D800D800D800 // 0 for a high surrogate
	nonzero := (t&0x7FFF7FFF7FFF7FFF + 0x7FFF7FFF7FFF7FFF | t) & 0x8000800080008000
	return 4 - bits.OnesCount64(nonzero)
}

// surrogates reports whether any of the four UTF-16 units in x is a
// surrogate.
func surrogates(x uint64) bool {
	t := x&0xF800F800F800F800 ^ 0xD800D800D800D800
	return (t-0x0001000100010001)&^t&0x8000800080008000 != 0
}

// unit32 returns the UTF-32 unit at the start of b, in the order big says.
func unit32(b []byte, big bool) uint32 {
	if big {
		return binary.BigEndian.Uint32(b)
	}
	return binary.LittleEndian.Uint32(b)
}

// narrow32Via16 is narrow32 through UTF-16, for valid text that holds no
// unit in lo..lo+n-1: it packs the units of src into UTF-16 in a buffer,
// as far as the first that is not a code point or is a surrogate, or as
// the buffer holds, and the kernel narrows them. It returns the bytes
// written and read.
func narrow32Via16(dst, src []byte, big bool, lo, n uint32) (nd, ns int) {
	var buf [2 * wideViaWindow]byte
	k, pairs := 0, 0 // bytes of buf written, pairs of surrogates among them
	for i := 0; i+4 <= len(src) && k+16 <= len(buf); {
		if i+16 <= len(src) {
			// Four units at a time, where all are in the BMP and none
			// is a surrogate.
			x := binary.LittleEndian.Uint64(src[i:])
			y := binary.LittleEndian.Uint64(src[i+8:])
			if big {
				x = bits.RotateLeft64(bits.ReverseBytes64(x), 32)
				y = bits.RotateLeft64(bits.ReverseBytes64(y), 32)
			}
			if (x|y)&0xFFFF0000FFFF0000 == 0 {
				w := uint64(uint32(x)|uint32(x>>16)) | uint64(uint32(y)|uint32(y>>16))<<32
				if w&0x8000800080008000 == 0 || !surrogates(w) {
					binary.LittleEndian.PutUint64(buf[k:], w)
					k += 8
					i += 16
					continue
				}
			}
			if i+32 <= len(src) && k+34 <= len(buf) {
				w, p, stop := pack8((*[34]byte)(buf[k:]), (*[32]byte)(src[i:]), big)
				k += w
				pairs += p
				if stop {
					break
				}
				i += 32
				continue
			}
		}
		// Else the units left one at a time.
		for end := min(len(src), i+16); i+4 <= end; i += 4 {
			switch u := unit32(src[i:], big); {
			case u-0xD800 < 0x800 || u > 0x10FFFF:
				goto narrow
			case u < 0x10000:
				binary.LittleEndian.PutUint16(buf[k:], uint16(u))
				k += 2
			default:
				u -= 0x10000
				binary.LittleEndian.PutUint16(buf[k:], uint16(0xD800+u>>10))
				binary.LittleEndian.PutUint16(buf[k+2:], uint16(0xDC00+u&0x3FF))
				k += 4
				pairs++
			}
		}
	}
narrow:
	if kernelHook != nil {
		kernelHook()
	}
	nd, s := utf16k.Narrow(dst, buf[:k], lo, n)
	// A pair of units is one unit of src; the kernel takes whole pairs
	// only.
	units := s/2 - pairs
	if s < k && pairs > 0 {
		units = s / 2
		j := 0
		for ; j+8 <= s; j += 8 {
			units -= highSurrogates(binary.LittleEndian.Uint64(buf[j:]))
		}
		for ; j+2 <= s; j += 2 {
			if buf[j+1]&0xFC == 0xD8 {
				units--
			}
		}
	}
	return nd, 4 * units
}

// pack8 writes the eight UTF-32 units of s to d as UTF-16LE, as far as
// the first that is a surrogate or above U+10FFFF, and returns the bytes
// written, how many pairs of surrogates it wrote, and whether it stopped
// at such a unit. It may write to d past what it returns. A unit is
// written at k, which then moves on by its length, with no branch on
// which it is: in text with characters above U+FFFF such a branch goes
// either way.
func pack8(d *[34]byte, s *[32]byte, big bool) (k, pairs int, stop bool) {
	for j := 0; j < len(s); j += 4 {
		u := binary.LittleEndian.Uint32(s[j:])
		if big {
			u = bits.ReverseBytes32(u)
		}
		if u-0xD800 < 0x800 || u > 0x10FFFF {
			return k, pairs, true
		}
		sup := (0xFFFF - u) >> 31
		if pair := 0xD7C0 + u>>10 | (0xDC00|u&0x3FF)<<16; sup != 0 {
			u = pair
		}
		binary.LittleEndian.PutUint32(d[k&30:], u)
		k += 2 + 2*int(sup)
		pairs += int(sup)
	}
	return k, pairs, false
}

// spread16 returns the four bytes of x each in a 16-bit lane, the first
// lowest.
func spread16(x uint32) uint64 {
	y := uint64(x)
	y = (y | y<<16) & 0x0000FFFF0000FFFF
	return (y | y<<8) & 0x00FF00FF00FF00FF
}

// decodeGeneral returns the code point of the generalized UTF-8 sequence
// at the start of p, which must be whole, and its length.
func decodeGeneral(p []byte) (uint32, int) {
	c := p[0]
	switch {
	case c < 0x80:
		return uint32(c), 1
	case c < 0xE0:
		return uint32(c&0x1F)<<6 | uint32(p[1]&0x3F), 2
	case c < 0xF0:
		return uint32(c&0x0F)<<12 | uint32(p[1]&0x3F)<<6 | uint32(p[2]&0x3F), 3
	}
	return uint32(c&0x07)<<18 | uint32(p[1]&0x3F)<<12 | uint32(p[2]&0x3F)<<6 | uint32(p[3]&0x3F), 4
}

// put16 writes the unit u to dst in the order big says.
func put16(dst []byte, u uint16, big bool) {
	if big {
		binary.BigEndian.PutUint16(dst, u)
	} else {
		binary.LittleEndian.PutUint16(dst, u)
	}
}

func widen16(dst, src []byte, big bool) (nd, ns int) {
	kernel := utf16k.Enabled()
	for ns < len(src) {
		end := len(src)
		if kernel {
			d, s := utf16k.Widen(dst[nd:], src[ns:])
			if big {
				utf16k.Swap(dst[nd:nd+d], dst[nd:nd+d])
			}
			nd += d
			ns += s
			// At least a block in Go, where the kernel stopped.
			end = min(len(src), ns+utf16k.WidenBlock)
		}
		for ns < end {
			c := src[ns]
			switch {
			case c < 0x80:
				if ns+8 <= len(src) && nd+16 <= len(dst) {
					// ASCII, 8 bytes at a time.
					w := binary.LittleEndian.Uint64(src[ns:])
					if w&0x8080808080808080 == 0 {
						a, b := spread16(uint32(w)), spread16(uint32(w>>32))
						if big {
							a, b = a<<8, b<<8
						}
						binary.LittleEndian.PutUint64(dst[nd:], a)
						binary.LittleEndian.PutUint64(dst[nd+8:], b)
						nd += 16
						ns += 8
						continue
					}
				}
				if nd+2 > len(dst) {
					return nd, ns
				}
				put16(dst[nd:], uint16(c), big)
				nd += 2
				ns++
			case c < 0xE0:
				if nd+2 > len(dst) || ns+2 > len(src) {
					return nd, ns
				}
				put16(dst[nd:], uint16(c&0x1F)<<6|uint16(src[ns+1]&0x3F), big)
				nd += 2
				ns += 2
			case c < 0xF0:
				if nd+2 > len(dst) || ns+3 > len(src) {
					return nd, ns
				}
				put16(dst[nd:], uint16(c)<<12|uint16(src[ns+1]&0x3F)<<6|uint16(src[ns+2]&0x3F), big)
				nd += 2
				ns += 3
			default:
				if nd+4 > len(dst) {
					return nd, ns
				}
				u, n := decodeGeneral(src[ns:])
				u -= 0x10000
				put16(dst[nd:], uint16(0xD800+u>>10), big)
				put16(dst[nd+2:], uint16(0xDC00+u&0x3FF), big)
				nd += 4
				ns += n
			}
		}
	}
	return nd, ns
}

func widen32(dst, src []byte, big bool) (nd, ns int) {
	for ns < len(src) {
		if ns+4 <= len(src) && nd+16 <= len(dst) {
			// ASCII, 4 bytes at a time.
			w := binary.LittleEndian.Uint32(src[ns:])
			if w&0x80808080 == 0 {
				a := uint64(w&0xFF) | uint64(w>>8&0xFF)<<32
				b := uint64(w>>16&0xFF) | uint64(w>>24)<<32
				if big {
					a, b = a<<24, b<<24
				}
				binary.LittleEndian.PutUint64(dst[nd:], a)
				binary.LittleEndian.PutUint64(dst[nd+8:], b)
				nd += 16
				ns += 4
				continue
			}
		}
		if nd+4 > len(dst) {
			return nd, ns
		}
		u, n := decodeGeneral(src[ns:])
		if big {
			binary.BigEndian.PutUint32(dst[nd:], u)
		} else {
			binary.LittleEndian.PutUint32(dst[nd:], u)
		}
		nd += 4
		ns += n
	}
	return nd, ns
}
