package utf8stream

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"golang.org/x/text/transform"

	utf16k "github.com/utf8stream/utf8stream/internal/utf16"
)

// denseWide returns n units in form f, each made by unit from its index,
// as bytes.
func denseWide(f form, n int, unit func(i int) uint32) []byte {
	w := f.width()
	b := make([]byte, n*w)
	for i := range n {
		u := unit(i)
		switch f {
		case formUTF16LE:
			binary.LittleEndian.PutUint16(b[i*w:], uint16(u))
		case formUTF16BE:
			binary.BigEndian.PutUint16(b[i*w:], uint16(u))
		case formUTF32LE:
			binary.LittleEndian.PutUint32(b[i*w:], u)
		default:
			binary.BigEndian.PutUint32(b[i*w:], u)
		}
	}
	return b
}

// denseWideInputs are units of which every one or every other is a unit
// that stops the kernels: ill-formed, or an escape that SurrogateEscape or
// OPTU8 restores.
var denseWideInputs = []struct {
	name   string
	unit   func(i int) uint32
	sparse bool // the units that stop the kernel lie a few units apart or more
}{
	{"lone high", func(i int) uint32 { return 0xD800 + uint32(i%0x400) }, false},
	{"lone low", func(i int) uint32 { return 0xDC00 + uint32(i%0x400) }, false},
	{"high then a", func(i int) uint32 { return [2]uint32{0xDBFF, 'a'}[i%2] }, false},
	{"low then Cyrillic", func(i int) uint32 { return [2]uint32{0xDFFF, 0x416}[i%2] }, false},
	{"SurrogateEscape escapes", func(i int) uint32 { return 0xDC80 + uint32(i%0x80) }, false},
	{"OPTU8 escapes", func(i int) uint32 { return 0xEF80 + uint32(i%0x80) }, false},
	{"escapes between text", func(i int) uint32 { return [3]uint32{0xDC80, 0x3042, 0xEFFF}[i%3] }, false},
	{"surrogates in text", func(i int) uint32 { return [6]uint32{'a', 0x416, 0xD83D, 0xDE00, 0x1F600, 0xDC80}[i%6] }, true},
	{"surrogate pairs in text", func(i int) uint32 {
		// In UTF-32, two lone surrogates each time, in long runs of text.
		switch i % 64 {
		case 10:
			return 0xD83D
		case 11:
			return 0xDE00
		case 40:
			return 0xDBFF
		case 41:
			return 0xDFFF
		}
		return 'a' + uint32(i%26)
	}, true},
	{"random", func(i int) uint32 { return uint32(rand.New(rand.NewPCG(uint64(i), 7)).Uint32()) }, true},
}

// TestWideDense checks the decoders on input where the units that stop
// the kernels come one after another: the output is what the policy makes
// of each code point and each ill-formed unit, the Stats count
// every ill-formed unit, nothing is allocated, and the loop goes on in Go
// over such units: it calls the kernel a few times, and the general path
// only for a unit that ends the stream with an error.
func TestWideDense(t *testing.T) {
	n := 4096
	if testing.Short() {
		n = 1024
	}
	for _, f := range wideForms {
		for _, in := range denseWideInputs {
			src := denseWide(f, n, in.unit)
			// The code points, with -u-1 for each ill-formed unit u, and
			// the unit index where each starts.
			var cps []int64
			var at []int
			unit := in.unit
			if f.width() == 2 {
				unit = func(i int) uint32 { return in.unit(i) & 0xFFFF }
			}
			for i := 0; i < n; i++ {
				u := unit(i)
				at = append(at, i)
				switch {
				case f.width() == 2 && u-0xD800 < 0x400 && i+1 < n && unit(i+1)-0xDC00 < 0x400:
					cps = append(cps, 0x10000+int64(u-0xD800)<<10+int64(unit(i+1)-0xDC00))
					i++
				case u-0xD800 < 0x800 || u > 0x10FFFF:
					cps = append(cps, -int64(u)-1)
				default:
					cps = append(cps, int64(u))
				}
			}
			stops := 0 // the units that stop the kernel
			for _, c := range cps {
				if c < 0 {
					stops++
				}
			}
			for _, p := range allPolicies[1:] {
				for _, wtf8 := range []bool{false, true} {
					var opts []Option
					name := fmt.Sprintf("%v/%s/%v", f, in.name, p)
					if wtf8 {
						opts = []Option{WTF8()}
						name += "/WTF8"
					}
					want, bad, first, fails := denseModel(f, cps, at, p, wtf8, false)
					dec := wideEncodingOf(f, p, opts...).NewDecoder().Transformer.(*Transformer)
					dst := make([]byte, 8*len(src))
					var nd, ns int
					var err error
					var steps int
					kernel := countKernelCalls(func() {
						steps = countSteps(func() { nd, ns, err = dec.Transform(dst, src, true) })
					})
					limit := 4 + stops*b2i(in.sparse)
					if f.width() == 4 {
						// UTF-32 tries its way through UTF-16 again after
						// wideVia units in Go.
						limit += len(src) / (4 * wideVia)
					}
					if kernel > limit {
						t.Errorf("%s: %d calls of a kernel; want at most %d", name, kernel, limit)
					}
					if steps > 2 {
						t.Errorf("%s: %d units took the general path; want at most 2", name, steps)
					}
					if fails {
						if _, ok := err.(*Error); !ok {
							t.Errorf("%s: err = %v; want an *Error", name, err)
						}
						continue
					}
					if err != nil || ns != len(src) {
						t.Fatalf("%s: read %d of %d bytes, err = %v", name, ns, len(src), err)
					}
					if got := dst[:nd]; !bytes.Equal(got, want) {
						t.Errorf("%s: output differs from the reference at byte %d", name, firstDiff(got, want))
					}
					s := dec.Stats()
					if s.Subparts != int64(bad) || s.Bytes != int64(bad*f.width()) {
						t.Errorf("%s: Stats %+v; want %d ill-formed units of %d bytes", name, s, bad, f.width())
					}
					if bad > 0 && s.First != int64(first*f.width()) {
						t.Errorf("%s: Stats.First = %d; want %d", name, s.First, first*f.width())
					}
					// The same, a byte at a time and in halves of each read.
					for _, r := range []io.Reader{iotest.OneByteReader(bytes.NewReader(src)), iotest.HalfReader(bytes.NewReader(src))} {
						if got, err := io.ReadAll(wideEncodingOf(f, p, opts...).NewDecoder().Reader(r)); err != nil || !bytes.Equal(got, want) {
							t.Errorf("%s: through a Reader in pieces: output differs at byte %d, err = %v", name, firstDiff(got, want), err)
						}
					}
					// The same from a []uint16 or []rune, where BackslashReplace
					// writes the escape of a code point, as CPython does.
					if f == formUTF16LE || f == formUTF32LE {
						var got []byte
						if f == formUTF16LE {
							got, err = AppendFromUTF16(nil, unitsOf[uint16](src, f), p, opts...)
						} else {
							got, err = AppendFromRunes(nil, unitsOf[rune](src, f), p, opts...)
						}
						swant, _, _, _ := denseModel(f, cps, at, p, wtf8, true)
						if err != nil || !bytes.Equal(got, swant) {
							t.Errorf("%s: from a slice: output differs at byte %d, err = %v", name, firstDiff(got, swant), err)
						}
					}
					if a := testing.AllocsPerRun(5, func() { dec.Reset(); dec.Transform(dst, src, true) }); a != 0 {
						t.Errorf("%s: %v allocations per Transform; want 0", name, a)
					}
				}
			}
		}
	}
}

// denseModel returns what p, with WTF8 where wtf8 is set, makes of the
// code points cps of TestWideDense in form f (from a []uint16 or []rune
// where slice is set), how many ill-formed units it meets, the unit index
// of the first, and whether it stops at one with an error.
func denseModel(f form, cps []int64, at []int, p Policy, wtf8, slice bool) (want []byte, bad, first int, fails bool) {
	first = -1
	for i := 0; i < len(cps) && !fails; i++ {
		c := cps[i]
		u := uint32(-c - 1)
		switch {
		case c >= 0 && p == OPTU8 && uint32(c)-0xEF80 < 0x80:
			want = append(want, byte(c))
		case c >= 0:
			want = utf8.AppendRune(want, rune(c))
		case wtf8 && f.width() == 4 && u-0xD800 < 0x400 && i+1 < len(cps) && cps[i+1] < 0 && uint32(-cps[i+1]-1)-0xDC00 < 0x400:
			// In UTF-32, a high surrogate and a low one after it: the
			// pair's 4-byte form.
			want = utf8.AppendRune(want, rune(0x10000+(u-0xD800)<<10+(uint32(-cps[i+1]-1)-0xDC00)))
			i++
		case p == SurrogateEscape && u-0xDC80 < 0x80:
			want = append(want, byte(u))
		case wtf8 && u-0xD800 < 0x800:
			want = append(want, 0xE0|byte(u>>12), 0x80|byte(u>>6)&0x3F, 0x80|byte(u)&0x3F)
		case p == SurrogateEscape || p == OPTU8:
			fails = true
		default:
			if first < 0 {
				first = at[i]
			}
			bad++
			switch {
			case p == Replace || p == Windows1252:
				want = utf8.AppendRune(want, utf8.RuneError)
			case p == BackslashReplace && slice && u < 0x10000:
				want = fmt.Appendf(want, "\\u%04x", u)
			case p == BackslashReplace && slice:
				want = fmt.Appendf(want, "\\U%08x", u)
			case p == BackslashReplace:
				for _, b := range denseWide(f, 1, func(int) uint32 { return u }) {
					want = fmt.Appendf(want, "\\x%02x", b)
				}
			}
		}
	}
	return want, bad, first, fails
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// firstDiff returns the offset of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// TestWideEncodeValidating checks the UTF-16 encoders on text of ASCII
// and 4-byte characters, of ASCII and 3-byte ones and of ASCII and 2-byte
// ones (which the kernels of WidenValid validate as they widen them, on
// AVX-512 here on input of any length), with an ill-formed sequence or
// another character put in at every offset of its first steps: every
// policy, both byte orders, in one call and in pieces, against the code
// points of the Transformer's output.
func TestWideEncodeValidating(t *testing.T) {
	defer utf16k.SetWidenValidBMP(0)()
	// (The encoder tries WidenValid on 512 bytes and more.)
	texts := []string{strings.Repeat("\U0001F4A9a\U0002A6D6 \U00010437\U0001F600\U0010FFFF.\U00010000 ", 20),
		strings.Repeat("한국어 텍스트 中文 \uFFFF\uE000 ", 20), strings.Repeat("Привет, мир! Ünïcödé ߿\u0080 ش", 20)}
	inserts := []string{"\x80", "\xC0\x80", "\xE0\x80", "\xE0\x9F\xBF", "\xED\xA0\x80", "\xF0\x8F\xBF\xBF", "\xF4\x90\x80\x80",
		"\xF5\x80\x80\x80", "\xFF", "\xF0\x9F\x98", "\xE3\x81", "é", "日", "\U0001F600", "\xEE\x80\x80", "\xC1\xBF", "\xC2", "\xF0\x9F", "\xFF\x80"}
	limit := 200
	if testing.Short() {
		limit = 70
		if sampled {
			limit = 20 // a sample: see sampled
		}
	}
	for at := 0; at < limit; at++ {
		for i, text := range texts {
			if testing.Short() && i != at%len(texts) {
				continue // with -short, each place in one of the texts, in turn
			}
			for _, ins := range inserts {
				in := []byte(text[:at] + ins + text[at:])
				checkEncodeWide(t, in, at)
			}
		}
	}
}

// checkEncodeWide checks the UTF-16 encoders on in against the code points
// of the Transformer's output, for every policy and both byte orders, in
// one call, and in pieces where at is a multiple of 7.
func checkEncodeWide(t *testing.T, in []byte, at int) {
	t.Helper()
	for _, p := range allPolicies {
		want, _, werr := transform.Bytes(NewTransformer(p), in)
		cps := codePoints(t, want)
		for _, fm := range []form{formUTF16LE, formUTF16BE} {
			e := wideEncodingOf(fm, p)
			got, gerr := transformOnce(e.NewEncoder().Transformer, in)
			if !bytes.Equal(got, wideOf(cps, fm)) || !sameError(gerr, werr) {
				t.Fatalf("%v %v: encode(%q) = % X, %v; the Transformer writes %q, %v", fm, p, in, got, gerr, want, werr)
			}
			if at%7 == 0 {
				pieces, perr := io.ReadAll(transform.NewReader(iotestChunkReader(string(in), 1+at%13), e.NewEncoder()))
				if !bytes.Equal(pieces, got) || !sameError(perr, gerr) {
					t.Fatalf("%v %v: encode(%q) in pieces = % X, %v; in one call % X, %v", fm, p, in, pieces, perr, got, gerr)
				}
			}
		}
	}
}
