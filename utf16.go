package utf8stream

import (
	"encoding/binary"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	utf16k "github.com/utf8stream/utf8stream/internal/utf16"
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// ByteOrder is the order of the bytes of a UTF-16 or UTF-32 code unit in a
// stream.
type ByteOrder uint8

const (
	// LittleEndian puts the low byte first, as Windows, .NET and Excel's
	// "Unicode text" files do.
	LittleEndian ByteOrder = iota
	// BigEndian puts the high byte first, as Java's DataOutput does and
	// as RFC 2781 reads UTF-16 without a byte order mark.
	BigEndian
)

// String returns "LittleEndian" or "BigEndian".
func (o ByteOrder) String() string {
	switch o {
	case LittleEndian:
		return "LittleEndian"
	case BigEndian:
		return "BigEndian"
	}
	return "ByteOrder(" + strconv.Itoa(int(o)) + ")"
}

// form is the encoding form of an input or an output: UTF-8, or UTF-16 or
// UTF-32 in either byte order.
type form uint8

const (
	formUTF8 form = iota
	formUTF16LE
	formUTF16BE
	formUTF32LE
	formUTF32BE
)

var formNames = [...]string{"UTF-8", "UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"}

func (f form) String() string { return formNames[f] }

// width returns the size of f's code unit in bytes.
func (f form) width() int {
	switch f {
	case formUTF8:
		return 1
	case formUTF16LE, formUTF16BE:
		return 2
	}
	return 4
}

// big reports whether f puts the high byte of a unit first.
func (f form) big() bool { return f == formUTF16BE || f == formUTF32BE }

// unit returns the code unit at the start of p, which must hold one.
func (f form) unit(p []byte) uint32 {
	switch f {
	case formUTF16LE:
		return uint32(binary.LittleEndian.Uint16(p))
	case formUTF16BE:
		return uint32(binary.BigEndian.Uint16(p))
	case formUTF32LE:
		return binary.LittleEndian.Uint32(p)
	}
	return binary.BigEndian.Uint32(p)
}

// wideForm returns the form of UTF-16 (bits 16) or UTF-32 (bits 32) in
// order o. It panics if o is not one of the constants.
func wideForm(bits int, o ByteOrder) form {
	if o > BigEndian {
		panic("utf8stream: unknown byte order " + o.String())
	}
	f := formUTF16LE
	if bits == 32 {
		f = formUTF32LE
	}
	return f + form(o)
}

// nativeUTF16 and nativeUTF32 are the forms of a []uint16 and a []rune in
// this machine's memory.
var nativeUTF16, nativeUTF32 = func() (form, form) {
	if binary.NativeEndian.Uint16([]byte{0, 1}) == 1 {
		return formUTF16BE, formUTF32BE
	}
	return formUTF16LE, formUTF32LE
}()

// UTF16 returns an [encoding.Encoding] for UTF-16 in byte order o under
// policy p, whose encoder takes UTF-8 in and whose decoder gives UTF-8 out,
// as x/text's unicode.UTF16 does, with the chunking guarantee of the rest
// of the package: any split of the input gives the same output, and error
// offsets count input bytes from the start of the stream.
//
// The encoder writes the code points that [NewTransformer](p, opts...)
// writes for the same input, each as one or two code units; a surrogate
// that that output holds as ED A0..BF xx (the escapes of [SurrogateEscape],
// and lone surrogates under [WTF8]) becomes that one unit. So [Replace]
// writes U+FFFD per maximal subpart, SurrogateEscape the lone unit
// DC80+b per ill-formed byte b, [OPTU8] U+EF80+b, and [Reject] the units of
// the valid prefix and then an *[Error]. It writes no byte order mark.
//
// The decoder reads order o. A lone surrogate and an odd final byte are
// ill-formed units; so is a high surrogate followed by a truncated final
// unit, as one unit, as CPython's and WHATWG's decoders count them. Reject
// writes the valid output and then an *[Error] whose Offset is the unit's
// byte offset; Replace writes one U+FFFD (or the [Replacement]) per
// ill-formed unit, [Windows1252] one U+FFFD; [Drop] writes nothing;
// [BackslashReplace] writes \xNN per byte of the unit, as CPython does.
// SurrogateEscape and OPTU8 restore: the decoder is the exact inverse of
// the encoder with the same policy, so a lone DC80..DCFF (SurrogateEscape)
// or any U+EF80..U+EFFF (OPTU8) becomes the byte 80..FF, with [NoNUL] DC00
// or U+EF00 becomes 00, and any other ill-formed unit is an *Error, as for
// CPython's surrogateescape encoder. Under [WTF8] a lone surrogate is
// written as its 3-byte WTF-8 form, under every policy, but that under
// SurrogateEscape DC80..DCFF still restore as bytes.
//
// By default a leading U+FEFF is a character like any other, as with
// x/text's IgnoreBOM, so that decoding what the encoder wrote gives back
// the input; with [StripBOM] the decoder removes a byte order mark of
// order o at offset 0, and with [DetectBOM] a leading FF FE or FE FF
// decides the byte order and is removed, as with x/text's UseBOM. The
// policy's rules are the same either way.
//
// [NoNUL], [CESU8], [ModifiedUTF8] and [BMPOnly] act in the encoder as in
// NewTransformer; the decoder needs only NoNUL, and only to restore. [OnInvalid] is
// called for each ill-formed subpart or unit the policy replaces.
//
// Values made from equal arguments are equal, so they can be map keys;
// each one given an OnInvalid function is distinct. UTF16 panics if p or
// o is not one of the constants.
func UTF16(o ByteOrder, p Policy, opts ...Option) encoding.Encoding {
	return newWideEncoding(wideForm(16, o), p, opts)
}

// UTF32 returns an [encoding.Encoding] for UTF-32 in byte order o under
// policy p, as [UTF16] does for UTF-16. Each code point is one 4-byte unit.
// The decoder's ill-formed units are a surrogate (D800..DFFF), a value
// above U+10FFFF, and 1 to 3 bytes at the end of the stream, which are one
// unit. Under [WTF8] a surrogate is well-formed, and a high surrogate
// followed by a low one is written as the 4-byte sequence of their
// character, as WTF-8 requires. With [DetectBOM] a leading FF FE 00 00 or
// 00 00 FE FF decides the byte order.
func UTF32(o ByteOrder, p Policy, opts ...Option) encoding.Encoding {
	return newWideEncoding(wideForm(32, o), p, opts)
}

// wideEncoding is what UTF16 and UTF32 return: a comparable value.
type wideEncoding struct {
	f  form
	p  Policy
	s  settings
	fn *func(Error) // the OnInvalid function, if any
}

func newWideEncoding(f form, p Policy, opts []Option) wideEncoding {
	p.check()
	var o options
	o.init(opts)
	e := wideEncoding{f: f, p: p, s: o.settings}
	if o.onInvalid != nil {
		fn := o.onInvalid
		e.fn = &fn
	}
	return e
}

func (e wideEncoding) options() *options {
	o := &options{settings: e.s}
	if e.fn != nil {
		o.onInvalid = *e.fn
	}
	return o
}

func (e wideEncoding) NewDecoder() *encoding.Decoder {
	t := new(Transformer)
	o := e.options()
	o.base = e.f
	t.c.initFrom(e.p, o)
	t.Reset()
	return &encoding.Decoder{Transformer: t}
}

func (e wideEncoding) NewEncoder() *encoding.Encoder {
	w := new(encoder)
	w.t.c.initFrom(e.p, e.options())
	w.t.c.o.detectBOM = false
	w.t.Reset()
	w.to = e.f
	return &encoding.Encoder{Transformer: w}
}

func (e wideEncoding) String() string { return e.f.String() + " (" + e.p.String() + ")" }

// encoder writes what a Transformer makes of UTF-8 input as UTF-16 or
// UTF-32. Its Transformer makes every decision, through the functions of
// its core, and counts; encoder only converts the code points.
type encoder struct {
	t  Transformer
	to form
}

// init sets up e in place for output in form f under p with opts, for
// the functions on slices.
func (e *encoder) init(f form, p Policy, opts []Option) {
	e.t.c.init(p, opts)
	if e.t.c.o.detectBOM {
		// A copy of e's own: init made one for the options.
		e.t.c.o.detectBOM = false
	}
	e.t.Reset()
	e.to = f
}

// Reset implements [transform.Transformer].
func (e *encoder) Reset() { e.t.Reset() }

// encodeChunk is how much UTF-8 output the encoder has the Transformer
// write before it widens it.
const encodeChunk = 4 << 10

// widenValidMin is the input below which the encoder does not try
// utf16.WidenValid: on shorter input the pass it saves costs less than a
// call that stops at once, and the last bytes of a longer chunk, which it
// leaves for the other paths, would pay for a second call.
const widenValidMin = 512

// Transform implements [transform.Transformer].
func (e *encoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	t := &e.t
	if t.broken {
		return 0, 0, errPanicked
	}
	dense := false // the last step took an ill-formed unit
	for nSrc < len(src) {
		growth := t.c.maxGrowth()
		if n := min(len(src)-nSrc, encodeChunk/growth, (len(dst)-nDst)/(growth*e.to.width())); dense && n >= 64 {
			// After an ill-formed unit, where others may follow: the
			// Transformer's own Transform, with its block repairer, on
			// as much input as dst has room for whatever it holds; then
			// its output widened. (Valid runs widen faster from src.)
			dense = false
			var out [encodeChunk]byte
			whole := nSrc+n == len(src)
			nd, ns, terr := t.Transform(out[:], src[nSrc:nSrc+n], atEOF && whole)
			wd, _ := widen(dst[nDst:], out[:nd], e.to, t.c.o.wtf8)
			nDst += wd
			nSrc += ns
			switch {
			case terr == nil, terr == transform.ErrShortSrc && !whole:
				if ns > 0 {
					continue
				}
			case terr == transform.ErrShortSrc:
				return nDst, nSrc, terr
			case terr != transform.ErrShortDst:
				return nDst, nSrc, terr
			}
			// No progress: the one-unit path below takes it.
		}
		if t.off == 0 && t.c.o.stripBOM {
			skip, _, short := t.bomPrefix(src[nSrc:], atEOF)
			if short {
				return nDst, nSrc, transform.ErrShortSrc
			}
			if skip > 0 {
				t.advance(src[nSrc:], skip)
				nSrc += skip
				continue
			}
		}
		chunk := src[nSrc:min(len(src), nSrc+spanChunk)]
		if t.c.plain && e.to.width() == 2 && len(chunk) >= widenValidMin {
			// Text validated as it is widened, where a kernel does
			// that for text of its kind.
			if nd, ns := utf16k.WidenValid(dst[nDst:], chunk); ns > 0 {
				if e.to.big() {
					utf16k.Swap(dst[nDst:nDst+nd], dst[nDst:nDst+nd])
				}
				t.advance(src[nSrc:], ns)
				nDst += nd
				nSrc += ns
				continue
			}
		}
		if v := t.c.span(chunk, false); v > 0 {
			nd, ns := widen(dst[nDst:], chunk[:v], e.to, t.c.o.wtf8)
			t.advance(src[nSrc:], ns)
			nDst += nd
			nSrc += ns
			if ns < v {
				return nDst, nSrc, transform.ErrShortDst
			}
			continue
		}
		// The one unit where the span stopped, through the core, as step
		// takes it.
		n, k := t.c.unit(src[nSrc:], atEOF)
		switch {
		case k == kShort:
			return nDst, nSrc, transform.ErrShortSrc
		case k == kInvalid && t.c.policy == Reject:
			_, _, err = t.step(nil, src[nSrc:], atEOF, 0)
			return nDst, nSrc, err
		}
		var out [2 * maxReplacement]byte
		m, _ := t.c.emit(out[:], src[nSrc:nSrc+n], k)
		nd, ns := widen(dst[nDst:], out[:m], e.to, t.c.o.wtf8)
		if ns < m {
			return nDst, nSrc, transform.ErrShortDst
		}
		t.settle(src[nSrc:nSrc+n], k, 0)
		t.advance(src[nSrc:], n)
		nDst += nd
		nSrc += n
		dense = k == kInvalid
	}
	return nDst, nSrc, nil
}

// AppendUTF16 appends the UTF-16 code units of what policy p, with opts,
// makes of src to dst and returns the extended slice: the units the
// encoder of [UTF16] writes, so that under [SurrogateEscape] the
// ill-formed byte b is the unit 0xDC00+b, which Go's own conversions
// cannot produce. It allocates nothing when dst has room. Under [Reject]
// it appends the units of the valid prefix and returns an *[Error] whose
// Offset counts bytes of src. [DetectBOM] acts as [StripBOM].
func AppendUTF16(dst []uint16, src []byte, p Policy, opts ...Option) ([]uint16, error) {
	if len(src) < shortSlice && len(opts) == 0 && p != OPTU8 {
		if out, ok := appendShort(dst, src); ok {
			return out, nil
		}
	}
	var e encoder
	e.init(nativeUTF16, p, opts)
	if cap(dst)-len(dst) < len(src) {
		dst = slices.Grow(dst, len(src))
	}
	for {
		nd, ns, err := e.Transform(wideBytes(dst[len(dst):cap(dst)]), src, true)
		dst = dst[:len(dst)+nd/2]
		src = src[ns:]
		if err != transform.ErrShortDst {
			return dst, err
		}
		dst = slices.Grow(dst, len(src)+maxReplacement)
	}
}

// AppendRunes appends the code points of what policy p, with opts, makes
// of src to dst, as [AppendUTF16] does for UTF-16. A []rune is UTF-32:
// under [SurrogateEscape] the ill-formed byte b is the rune 0xDC00+b, which
// a conversion []rune(s) cannot produce.
func AppendRunes(dst []rune, src []byte, p Policy, opts ...Option) ([]rune, error) {
	if len(src) < shortSlice && len(opts) == 0 && p != OPTU8 {
		if out, ok := appendShort(dst, src); ok {
			return out, nil
		}
	}
	var e encoder
	e.init(nativeUTF32, p, opts)
	if cap(dst)-len(dst) < len(src) {
		dst = slices.Grow(dst, len(src))
	}
	for {
		nd, ns, err := e.Transform(wideBytes(dst[len(dst):cap(dst)]), src, true)
		dst = dst[:len(dst)+nd/4]
		src = src[ns:]
		if err != transform.ErrShortDst {
			return dst, err
		}
		dst = slices.Grow(dst, len(src)+maxReplacement)
	}
}

// AppendFromUTF16 appends the UTF-8 of the UTF-16 code units src under
// policy p, with opts, to dst and returns the extended slice, as the
// decoder of [UTF16] writes it. It allocates nothing when dst has room.
// src behaves as a Python str holding those code units, and the result is
// CPython's s.encode('utf-8', handler): [Reject] appends the valid prefix
// and returns an *[Error] whose Offset counts units and whose Bytes hold
// the unit, high byte first; [Drop] is "ignore"; [BackslashReplace] writes
// \ud800 for a lone U+D800; [SurrogateEscape] restores DC80..DCFF and
// fails on any other lone surrogate. [Replace] writes one U+FFFD per lone
// surrogate (where CPython writes "?"). A leading U+FEFF is kept, unless
// [StripBOM] or [DetectBOM] removes it.
func AppendFromUTF16(dst []byte, src []uint16, p Policy, opts ...Option) ([]byte, error) {
	if len(src) < shortUnits && len(opts) == 0 && p != OPTU8 {
		if out, ok := appendFromShort(dst, src, true); ok {
			return out, nil
		}
	}
	var t Transformer
	t.initSlice(nativeUTF16, p, opts)
	return t.appendRest(dst, wideBytes(src))
}

// AppendFromRunes appends the UTF-8 of the code points src under policy p,
// with opts, to dst, as [AppendFromUTF16] does for UTF-16 and the decoder
// of [UTF32] for UTF-32: a surrogate and a rune outside 0..0x10FFFF are
// ill-formed, and [SurrogateEscape] restores the runes 0xDC80..0xDCFF.
func AppendFromRunes(dst []byte, src []rune, p Policy, opts ...Option) ([]byte, error) {
	if len(src) < shortUnits && len(opts) == 0 && p != OPTU8 {
		if out, ok := appendFromShort(dst, src, false); ok {
			return out, nil
		}
	}
	var t Transformer
	t.initSlice(nativeUTF32, p, opts)
	return t.appendRest(dst, wideBytes(src))
}

// shortSlice and shortUnits are the lengths of input below which the
// slice functions first try a loop over its characters that takes valid
// input only: there a Transformer's set-up and the kernels' calls cost
// more than the loop. No policy but OPTU8 changes valid input, and the
// loop gives up on anything else, which then takes the general path from
// the start.
const (
	shortSlice = 32 // bytes of UTF-8, for AppendUTF16 and AppendRunes
	shortUnits = 16 // units, for AppendFromUTF16 and AppendFromRunes
)

// appendShort appends to dst the code points of src, as UTF-16 units or
// runes, where src is valid UTF-8, and returns dst unchanged and false
// otherwise.
func appendShort[T uint16 | rune](dst []T, src []byte) ([]T, bool) {
	out := dst
	if cap(out)-len(out) < len(src) {
		// As the general path grows it: room for valid input, whose
		// units or runes are at most as many as its bytes.
		out = slices.Grow(out, len(src))
	}
	w := out[len(out) : len(out)+len(src)]
	k := 0
	for i := 0; i < len(src); {
		if c := src[i]; c < utf8.RuneSelf {
			w[k] = T(c)
			k++
			i++
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		if n == 1 {
			return dst, false
		}
		if unsafe.Sizeof(T(0)) == 2 && r > 0xFFFF {
			r -= 0x10000
			w[k], w[k+1] = T(0xD800+r>>10), T(0xDC00+r&0x3FF)
			k += 2
		} else {
			w[k] = T(r)
			k++
		}
		i += n
	}
	return out[:len(out)+k], true
}

// appendFromShort appends to dst the UTF-8 of src, UTF-16 code units
// (pairs true) or UTF-32 ones, where they hold no surrogate but UTF-16's
// pairs and no value above U+10FFFF, and returns dst unchanged and false
// otherwise. (In a []rune, as in a Python str, a high surrogate and a low
// one are two ill-formed units.)
func appendFromShort[T uint16 | rune](dst []byte, src []T, pairs bool) ([]byte, bool) {
	out := dst
	if n := len(src) * int(unsafe.Sizeof(src[0])); cap(out)-len(out) < n {
		// As the general path grows it: as many bytes as src has.
		out = slices.Grow(out, n)
	}
	for i := 0; i < len(src); i++ {
		r := rune(src[i])
		switch {
		case r < utf8.RuneSelf:
			out = append(out, byte(r))
			continue
		case pairs && r >= 0xD800 && r < 0xDC00 && i+1 < len(src):
			if r = utf16.DecodeRune(r, rune(src[i+1])); r == utf8.RuneError {
				return dst, false
			}
			i++
		case !utf8.ValidRune(r):
			return dst, false
		}
		out = utf8.AppendRune(out, r)
	}
	return out, true
}

// initSlice sets up t in place to decode a []uint16 or a []rune, whose
// memory is in form f.
func (t *Transformer) initSlice(f form, p Policy, opts []Option) {
	o := &sliceDefaults[0]
	if f.width() == 4 {
		o = &sliceDefaults[1]
	}
	if len(opts) > 0 {
		o = new(options)
		o.init(opts)
		o.detectBOM, o.base, o.slice = false, f, true
	}
	t.c.initFrom(p, o)
	t.Reset()
}

// sliceDefaults are the options of initSlice without an Option, for a
// []uint16 and a []rune. They are never written to.
var sliceDefaults = [2]options{
	{settings: defaultOptions.settings, base: nativeUTF16, slice: true},
	{settings: defaultOptions.settings, base: nativeUTF32, slice: true},
}

// wideBytes returns the memory of s as bytes, without a copy.
func wideBytes[T uint16 | rune](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}
