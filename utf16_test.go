package utf8stream

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream/internal/textgen"
	utf16k "github.com/utf8stream/utf8stream/internal/utf16"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"golang.org/x/text/transform"
)

var (
	_ encoding.Encoding             = UTF16(LittleEndian, Replace)
	_ transform.Transformer         = (*encoder)(nil)
	_ transform.SpanningTransformer = UTF32(BigEndian, Reject).NewDecoder().Transformer.(*Transformer)
)

// wideCase is one line of testdata/wide.golden (see gen_wide_golden.py):
// an input and CPython's answer for each policy, plain and with WTF8.
type wideCase struct {
	kind string // enc, dec or str
	f    form
	in   []byte
	want [2 * numPolicies]wideAnswer
}

// wideAnswer is CPython's output, and where it stops with an error the
// error's offset and bytes; errOff is -1 without one.
type wideAnswer struct {
	out      []byte
	errOff   int64
	errBytes []byte
}

var codecForms = map[string]form{"utf-16-le": formUTF16LE, "utf-16-be": formUTF16BE, "utf-32-le": formUTF32LE, "utf-32-be": formUTF32BE}

func readWideGolden(t *testing.T) []wideCase {
	t.Helper()
	f, err := os.Open("testdata/wide.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []wideCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		cols := strings.Fields(sc.Text())
		if len(cols) != 3+2*int(numPolicies) {
			t.Fatalf("line %d: %d columns", len(cases)+1, len(cols))
		}
		c := wideCase{kind: cols[0], f: codecForms[cols[1]], in: []byte(unquoteGolden(t, cols[2]))}
		if c.f == formUTF8 {
			t.Fatalf("line %d: unknown form %q", len(cases)+1, cols[1])
		}
		for i, col := range cols[3:] {
			if col == "=" {
				c.want[i] = c.want[i-1]
				continue
			}
			parts := strings.Split(col, "!")
			a := wideAnswer{out: []byte(unquoteGolden(t, parts[0])), errOff: -1}
			if len(parts) == 3 {
				a.errOff, err = strconv.ParseInt(parts[1], 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				a.errBytes = []byte(unquoteGolden(t, parts[2]))
			}
			c.want[i] = a
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil || len(cases) < 1000 {
		t.Fatalf("read %d lines: %v", len(cases), err)
	}
	return cases
}

// check compares out and err with a: the same output, and the same
// *Error, or none.
func (a wideAnswer) check(out []byte, err error) bool {
	if !bytes.Equal(out, a.out) {
		return false
	}
	if a.errOff < 0 {
		return err == nil
	}
	var e *Error
	return errors.As(err, &e) && errors.Is(err, ErrInvalid) && e.Offset == a.errOff && bytes.Equal(e.Bytes, a.errBytes)
}

// wideEncoding returns UTF16 or UTF32 for form f.
func wideEncodingOf(f form, p Policy, opts ...Option) encoding.Encoding {
	o := LittleEndian
	if f.big() {
		o = BigEndian
	}
	if f.width() == 2 {
		return UTF16(o, p, opts...)
	}
	return UTF32(o, p, opts...)
}

// transformOnce runs tr over in with one Transform call into a dst with
// room for all of the output.
func transformOnce(tr transform.Transformer, in []byte) ([]byte, error) {
	dst := make([]byte, 8*len(in)+maxReplacement*len(in)+16)
	nd, ns, err := tr.Transform(dst, in, true)
	if err == nil && ns != len(in) {
		err = errors.New("nil error before the end of the input")
	}
	return dst[:nd], err
}

// writeSplit writes in to tr through transform.NewWriter, split at cut,
// and closes it. (After an error it does not: x/text's Writer.Close would
// transform again what it kept from before the error.)
func writeSplit(tr transform.Transformer, in []byte, cut int) ([]byte, error) {
	var buf bytes.Buffer
	w := transform.NewWriter(&buf, tr)
	_, err := w.Write(in[:cut])
	if err == nil {
		_, err = w.Write(in[cut:])
	}
	if err == nil {
		err = w.Close()
	}
	return buf.Bytes(), err
}

// TestWideCPython checks the encoders and decoders of UTF16 and UTF32, and
// the functions on slices, against what CPython's codecs give for the
// inputs of testdata/wide.golden: through one Transform call, a Reader
// fed one byte at a time and a Writer split at every point (at a few
// under -short).
func TestWideCPython(t *testing.T) {
	cases := readWideGolden(t)
	for _, c := range cases {
		for i, want := range c.want {
			p := Policy(i / 2)
			var opts []Option
			name := p.String()
			if i%2 == 1 {
				opts, name = []Option{WTF8()}, name+"+WTF8"
			}
			switch c.kind {
			case "enc", "dec":
				e := wideEncodingOf(c.f, p, opts...)
				var tr transform.Transformer = e.NewDecoder().Transformer
				if c.kind == "enc" {
					tr = e.NewEncoder().Transformer
				}
				if out, err := transformOnce(tr, c.in); !want.check(out, err) {
					t.Fatalf("%s %v %s: Transform(%q) = %q, %v; CPython gives %+v", c.kind, c.f, name, c.in, out, err, want)
				}
				tr.Reset()
				out, err := io.ReadAll(transform.NewReader(iotest.OneByteReader(bytes.NewReader(c.in)), tr))
				if !want.check(out, err) {
					t.Fatalf("%s %v %s: Reader(one byte)(%q) = %q, %v; CPython gives %+v", c.kind, c.f, name, c.in, out, err, want)
				}
				step := 1
				if testing.Short() {
					step = 1 + len(c.in)/4
				}
				for cut := 0; cut <= len(c.in); cut += step {
					tr.Reset()
					out, err := writeSplit(tr, c.in, cut)
					if !want.check(out, err) {
						t.Fatalf("%s %v %s: Writer(split at %d)(%q) = %q, %v; CPython gives %+v", c.kind, c.f, name, cut, c.in, out, err, want)
					}
				}
				if c.kind == "enc" {
					checkAppendWide(t, c, p, opts, want)
				}
				if c.kind == "dec" && c.f.width() == 2 {
					checkDetectBOM(t, c, p, opts, want)
				}
			case "str":
				var out []byte
				var err error
				if c.f.width() == 2 {
					out, err = AppendFromUTF16(nil, unitsOf[uint16](c.in, c.f), p, opts...)
				} else {
					out, err = AppendFromRunes(nil, unitsOf[rune](c.in, c.f), p, opts...)
				}
				if !want.check(out, err) {
					t.Fatalf("str %v %s: AppendFrom(%q) = %q, %v; CPython gives %+v", c.f, name, c.in, out, err, want)
				}
			default:
				t.Fatalf("unknown kind %q", c.kind)
			}
		}
	}
}

// checkAppendWide checks AppendUTF16 or AppendRunes against an answer of
// the encoder, whose output is in little-endian order.
func checkAppendWide(t *testing.T, c wideCase, p Policy, opts []Option, want wideAnswer) {
	t.Helper()
	if c.f != formUTF16LE && c.f != formUTF32LE {
		return
	}
	var got []byte
	var err error
	if c.f.width() == 2 {
		var u []uint16
		u, err = AppendUTF16(nil, c.in, p, opts...)
		for _, x := range u {
			got = binary.LittleEndian.AppendUint16(got, x)
		}
	} else {
		var r []rune
		r, err = AppendRunes(nil, c.in, p, opts...)
		for _, x := range r {
			got = binary.LittleEndian.AppendUint32(got, uint32(x))
		}
	}
	if !want.check(got, err) {
		t.Fatalf("Append %v %v: (%q) = %q, %v; CPython gives %+v", c.f, p, c.in, got, err, want)
	}
}

// checkDetectBOM checks that a Reader, a Writer and Bytes with DetectBOM
// decode the UTF-16 input after its byte order mark as the decoder does,
// with error offsets 2 bytes on.
func checkDetectBOM(t *testing.T, c wideCase, p Policy, opts []Option, want wideAnswer) {
	t.Helper()
	mark := "\xFF\xFE"
	if c.f.big() {
		mark = "\xFE\xFF"
	}
	in := mark + string(c.in)
	if want.errOff >= 0 {
		want.errOff += 2
	}
	opts = append(opts[:len(opts):len(opts)], DetectBOM())
	out, err := readSmall(NewReader(iotest.OneByteReader(strings.NewReader(in)), p, opts...), 7)
	if err == io.EOF {
		err = nil
	}
	if !want.check(out, err) {
		t.Fatalf("DetectBOM %v %v: Reader(one byte)(%q) = %q, %v; want %+v", c.f, p, in, out, err, want)
	}
	for cut := 0; cut <= len(in); cut++ {
		out, err := writeChunks(p, []byte(in), []int{cut, len(in)}, opts...)
		if !want.check(out, err) {
			t.Fatalf("DetectBOM %v %v: Writer(split at %d)(%q) = %q, %v; want %+v", c.f, p, cut, in, out, err, want)
		}
	}
	out, err = Bytes([]byte(in), p, opts...)
	if !want.check(out, err) {
		t.Fatalf("DetectBOM %v %v: Bytes(%q) = %q, %v; want %+v", c.f, p, in, out, err, want)
	}
}

// unitsOf returns the units that b holds in form f.
func unitsOf[T uint16 | rune](b []byte, f form) []T {
	w := f.width()
	var s []T
	for i := 0; i+w <= len(b); i += w {
		s = append(s, T(f.unit(b[i:])))
	}
	return s
}

// xtextEncoding returns x/text's encoding for form f, without byte order
// marks.
func xtextEncoding(f form) encoding.Encoding {
	switch f {
	case formUTF16LE:
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	case formUTF16BE:
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	case formUTF32LE:
		return utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM)
	}
	return utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM)
}

var wideForms = []form{formUTF16LE, formUTF16BE, formUTF32LE, formUTF32BE}

// wideTexts are long inputs, so that the loops that take 8 or 16 bytes at
// a time run, with every length modulo 16 at the end.
func wideTexts() map[string][]byte {
	texts := map[string][]byte{}
	for _, name := range textgen.Names {
		texts[name] = textgen.Make(name, 1000+len(name))
	}
	texts["ascii+escapes"] = []byte(strings.Repeat("abcdefghijklmnop\xEE\xBE\x80\xED\xB2\x80\x00", 40))
	return texts
}

// transformSmall runs tr over in with a dst of n bytes, which must have
// room for the output of any one unit (48 bytes), giving it m more bytes
// of src on each call, as a caller with small buffers does, and checks the
// transform.Transformer contract on each call.
func transformSmall(t *testing.T, tr transform.Transformer, in []byte, n, m int) ([]byte, error) {
	t.Helper()
	var out []byte
	dst := make([]byte, n)
	pos, avail := 0, 0
	for range 1 << 22 {
		avail = min(avail+m, len(in))
		atEOF := avail == len(in)
		nd, ns, err := tr.Transform(dst, in[pos:avail], atEOF)
		out = append(out, dst[:nd]...)
		pos += ns
		switch err {
		case nil:
			if pos != avail {
				t.Fatalf("Transform: nil error with %d of %d bytes consumed", ns, avail-pos+ns)
			}
			if atEOF {
				return out, nil
			}
		case transform.ErrShortSrc:
			if atEOF {
				t.Fatalf("Transform: ErrShortSrc at EOF")
			}
		case transform.ErrShortDst:
			if nd == 0 && ns == 0 {
				t.Fatalf("Transform: ErrShortDst with %d bytes of room and nothing written", n)
			}
		default:
			return out, err
		}
	}
	t.Fatal("Transform made no progress")
	return nil, nil
}

// TestWideText checks the encoders and decoders on long text, where the
// kernels and the loops that take 8 and 16 bytes at a time run, with each
// implementation of the kernels: valid text against x/text's
// encodings, every input against Transform with small buffers, and the
// round trip of SurrogateEscape and OPTU8.
func TestWideText(t *testing.T) {
	for _, impl := range utf16k.ImplNames() {
		t.Run("impl="+impl, func(t *testing.T) {
			defer utf16k.SetImpl(impl)()
			testWideText(t)
		})
	}
}

func testWideText(t *testing.T) {
	for name, text := range wideTexts() {
		for _, f := range wideForms {
			x := xtextEncoding(f)
			if utf8.Valid(text) {
				want, err := x.NewEncoder().Bytes(text)
				if err != nil {
					t.Fatal(err)
				}
				got, err := transformOnce(wideEncodingOf(f, Reject).NewEncoder().Transformer, text)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s %v: encoder differs from x/text's: %v", name, f, err)
				}
				back, err := transformOnce(wideEncodingOf(f, Reject).NewDecoder().Transformer, want)
				if err != nil || !bytes.Equal(back, text) {
					t.Fatalf("%s %v: decoder does not give the text back: %v", name, f, err)
				}
			}
			// Replace against x/text: its UTF-8 decoder, then its encoder.
			fixed, _ := unicode.UTF8.NewDecoder().Bytes(text)
			want, _ := x.NewEncoder().Bytes(fixed)
			got, err := transformOnce(wideEncodingOf(f, Replace).NewEncoder().Transformer, text)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s %v: Replace encoder differs from x/text's UTF-8 decoder and encoder: %v", name, f, err)
			}
			for _, p := range allPolicies {
				for _, tr := range []transform.Transformer{wideEncodingOf(f, p).NewEncoder().Transformer, wideEncodingOf(f, p).NewDecoder().Transformer} {
					in := text
					if _, ok := tr.(*Transformer); ok {
						// The decoder: the wide form of the text, and
						// the text itself as ill-formed wide input.
						in = append(append([]byte(nil), want...), text...)
					}
					tr.Reset()
					once, oerr := transformOnce(tr, in)
					for _, size := range [][2]int{{48, 1}, {61, 7}, {200, 3}, {4096, 16}, {100, 4096}} {
						tr.Reset()
						small, serr := transformSmall(t, tr, in, size[0], size[1])
						if !bytes.Equal(small, once) || !sameError(serr, oerr) {
							t.Fatalf("%s %v %v %T: Transform(dst %d, src +%d) = %d bytes, %v; in one call %d bytes, %v", name, f, p, tr, size[0], size[1], len(small), serr, len(once), oerr)
						}
					}
				}
			}
			for _, p := range []Policy{SurrogateEscape, OPTU8} {
				e := wideEncodingOf(f, p)
				wide, err := e.NewEncoder().Bytes(text)
				if err != nil {
					t.Fatal(err)
				}
				back, err := e.NewDecoder().Bytes(wide)
				if err != nil || !bytes.Equal(back, text) {
					t.Fatalf("%s %v %v: decode(encode(text)) = %d bytes, %v; want the text back", name, f, p, len(back), err)
				}
			}
		}
	}
}

// codePoints decodes p, the output of a Transformer, with the UTF-8 bit
// patterns alone: surrogates are code points of their own, and a high one
// followed by a low one stays two.
func codePoints(t *testing.T, p []byte) []rune {
	t.Helper()
	var cps []rune
	for len(p) > 0 {
		n := map[bool]int{true: 1}[p[0] < 0x80]
		switch {
		case p[0]&0xE0 == 0xC0:
			n = 2
		case p[0]&0xF0 == 0xE0:
			n = 3
		case p[0]&0xF8 == 0xF0:
			n = 4
		}
		if n == 0 || len(p) < n {
			t.Fatalf("codePoints: % X starts no sequence", p)
		}
		cp := rune(p[0]) & (0x7F >> (n - 1))
		if n == 1 {
			cp = rune(p[0])
		}
		for _, c := range p[1:n] {
			cp = cp<<6 | rune(c&0x3F)
		}
		cps = append(cps, cp)
		p = p[n:]
	}
	return cps
}

// wideOf writes cps in form f, each surrogate as the one unit it is.
func wideOf(cps []rune, f form) []byte {
	var b []byte
	put := func(u uint32) {
		switch f {
		case formUTF16LE:
			b = binary.LittleEndian.AppendUint16(b, uint16(u))
		case formUTF16BE:
			b = binary.BigEndian.AppendUint16(b, uint16(u))
		case formUTF32LE:
			b = binary.LittleEndian.AppendUint32(b, u)
		default:
			b = binary.BigEndian.AppendUint32(b, u)
		}
	}
	for _, cp := range cps {
		if cp >= 0x10000 && f.width() == 2 {
			put(uint32(0xD800 + (cp-0x10000)>>10))
			put(uint32(0xDC00 + (cp-0x10000)&0x3FF))
			continue
		}
		put(uint32(cp))
	}
	return b
}

// FuzzWide checks, for every policy and the options of fuzzOptions, that
// the encoders of UTF16 and UTF32 write the code points the Transformer
// writes, with the same error, and that chunking changes nothing for the
// encoders and the decoders, which also take in as UTF-16 or UTF-32.
func FuzzWide(f *testing.F) {
	addSeeds(f)
	f.Add([]byte("\xFF\xFEa\x00\x00\xD8\x00\xDC\x00\xD8"), uint8(3), uint8(32))
	f.Add([]byte("\x00\x00\xFE\xFF\x00\x00\x00a\x00\x11\x00\x00\x00\x00\xDC\x80"), uint8(5), uint8(0))
	f.Fuzz(func(t *testing.T, in []byte, split, o uint8) {
		opts, _ := fuzzOptions(o)
		size := 1 + int(split)%13
		// in repeated to a few hundred bytes, where the encoder hands
		// what follows an ill-formed unit to the Transformer's Transform.
		long := bytes.Repeat(in, 1+400/(len(in)+1))
		for _, p := range allPolicies {
			want, _, werr := transform.Bytes(NewTransformer(p, opts...), in)
			cps := codePoints(t, want)
			wantLong, _, werrLong := transform.Bytes(NewTransformer(p, opts...), long)
			for _, fm := range wideForms {
				e := wideEncodingOf(fm, p, opts...)
				got, gerr := transformOnce(e.NewEncoder().Transformer, in)
				if !bytes.Equal(got, wideOf(cps, fm)) || !sameError(gerr, werr) {
					t.Fatalf("%v %v opts %#x: encode(%q) = % X, %v; the Transformer writes %q, %v", fm, p, o, in, got, gerr, want, werr)
				}
				gotLong, lerr := transformOnce(e.NewEncoder().Transformer, long)
				if !bytes.Equal(gotLong, wideOf(codePoints(t, wantLong), fm)) || !sameError(lerr, werrLong) {
					t.Fatalf("%v %v opts %#x: encode(%q) = % X, %v; the Transformer writes %q, %v", fm, p, o, long, gotLong, lerr, wantLong, werrLong)
				}
				pieces, perr := io.ReadAll(transform.NewReader(iotestChunkReader(string(in), size), e.NewEncoder()))
				if !bytes.Equal(pieces, got) || !sameError(perr, gerr) {
					t.Fatalf("%v %v opts %#x: encode(%q) in pieces of %d = % X, %v; in one call % X, %v", fm, p, o, in, size, pieces, perr, got, gerr)
				}
				dec, derr := transformOnce(e.NewDecoder().Transformer, in)
				pieces, perr = io.ReadAll(transform.NewReader(iotestChunkReader(string(in), size), e.NewDecoder()))
				if !bytes.Equal(pieces, dec) || !sameError(perr, derr) {
					t.Fatalf("%v %v opts %#x: decode(% X) in pieces of %d = %q, %v; in one call %q, %v", fm, p, o, in, size, pieces, perr, dec, derr)
				}
				if fm.width() == 2 && o&8 == 0 {
					// (Under StripBOM the decoder strips a mark at the
					// start of in, which after DetectBOM's is not at
					// offset 0.)
					cut := min(int(split), len(in))
					mark := []byte("\xFF\xFE")
					if fm.big() {
						mark = []byte("\xFE\xFF")
					}
					bin := append(mark, in...)
					wgot, wgerr := writeChunks(p, bin, []int{cut, size}, append(opts, DetectBOM())...)
					var e *Error
					if errors.As(derr, &e) {
						e2 := *e
						e2.Offset += 2
						derr = &e2
					}
					if !bytes.Equal(wgot, dec) || !sameError(wgerr, derr) {
						t.Fatalf("%v %v opts %#x: DetectBOM Writer(% X) = %q, %v; the decoder gives %q, %v", fm, p, o, bin, wgot, wgerr, dec, derr)
					}
				}
			}
		}
	})
}

// TestWideEncodingComparable checks that UTF16 and UTF32 values made from
// equal arguments are equal, and that each with an OnInvalid function is
// distinct.
func TestWideEncodingComparable(t *testing.T) {
	if UTF16(LittleEndian, Replace, WTF8(), Replacement("?")) != UTF16(LittleEndian, Replace, WTF8(), Replacement("?")) {
		t.Error("UTF16 with equal arguments: not equal")
	}
	if UTF32(BigEndian, OPTU8) != UTF32(BigEndian, OPTU8) {
		t.Error("UTF32 with equal arguments: not equal")
	}
	for _, other := range []encoding.Encoding{
		UTF16(BigEndian, Replace), UTF32(LittleEndian, Replace), UTF16(LittleEndian, Drop),
		UTF16(LittleEndian, Replace, WTF8()), UTF16(LittleEndian, Replace, Replacement("?")), Encoding(Replace),
	} {
		if UTF16(LittleEndian, Replace) == other {
			t.Errorf("UTF16(LittleEndian, Replace) == %v", other)
		}
	}
	f := func(Error) {}
	a, b := UTF16(LittleEndian, Replace, OnInvalid(f)), UTF16(LittleEndian, Replace, OnInvalid(f))
	if a == b || a != a {
		t.Error("values made with OnInvalid are not each distinct")
	}
	m := map[encoding.Encoding]int{UTF16(LittleEndian, Replace): 1, UTF32(LittleEndian, Replace): 2, a: 3}
	if m[UTF16(LittleEndian, Replace)] != 1 || m[UTF32(LittleEndian, Replace)] != 2 || m[a] != 3 {
		t.Errorf("map = %v", m)
	}
	if s := UTF16(BigEndian, SurrogateEscape).(interface{ String() string }).String(); s != "UTF-16BE (surrogateescape)" {
		t.Errorf("String() = %q", s)
	}
	for _, f := range []func(){
		func() { UTF16(ByteOrder(2), Replace) },
		func() { UTF32(LittleEndian, Policy(42)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic for an unknown byte order or policy")
				}
			}()
			f()
		}()
	}
}

// TestWideOnInvalid checks that the decoders call the OnInvalid function
// for each unit the policy replaces, with its offset, bytes and form.
func TestWideOnInvalid(t *testing.T) {
	var got []Error
	dec := UTF16(BigEndian, Replace, OnInvalid(func(e Error) { got = append(got, e) })).NewDecoder()
	out, err := dec.String("\x00a\xD8\x00\x00b\xDC\x00\x00")
	want := []Error{
		{Offset: 2, Bytes: []byte{0xD8, 0x00}, Form: "UTF-16BE"},
		{Offset: 6, Bytes: []byte{0xDC, 0x00}, Form: "UTF-16BE"},
		{Offset: 8, Bytes: []byte{0x00}, Form: "UTF-16BE"},
	}
	if out != "a\uFFFDb\uFFFD\uFFFD" || err != nil || !equalErrors(got, want) {
		t.Errorf("decode = %q, %v, calls %+v; want calls %+v", out, err, got, want)
	}
	got = nil
	_, err = AppendFromRunes(nil, []rune{'a', 0xDFFF, 0x110000}, Drop, OnInvalid(func(e Error) { got = append(got, e) }))
	want = []Error{
		{Offset: 1, Bytes: []byte{0, 0, 0xDF, 0xFF}, Form: "UTF-32"},
		{Offset: 2, Bytes: []byte{0, 0x11, 0, 0}, Form: "UTF-32"},
	}
	if err != nil || !equalErrors(got, want) {
		t.Errorf("AppendFromRunes: %v, calls %+v; want %+v", err, got, want)
	}
}

// TestWideLines checks that Lines, which counts newlines of UTF-8 input
// only, changes nothing else in the UTF-16 and UTF-32 decoders and
// encoders and in the functions on slices, under every policy: on short
// and long input (where the kernels run), valid and not, and that their
// Errors carry no line.
func TestWideLines(t *testing.T) {
	text := strings.Repeat("a line, caf\u00e9 \u65e5\u672c\n", 40)
	inputs := []string{text, text + "\xFF tail", "\xEF\xBB\xBF" + text, "x\n\xC3", "\n\xFF\n\xFE" + text + "\xC0\n\x80"}
	for _, p := range Policies() {
		for _, enc := range []encoding.Encoding{UTF16(LittleEndian, p), UTF16(BigEndian, p), UTF32(LittleEndian, p)} {
			var lenc encoding.Encoding
			switch {
			case enc == UTF16(LittleEndian, p):
				lenc = UTF16(LittleEndian, p, Lines())
			case enc == UTF16(BigEndian, p):
				lenc = UTF16(BigEndian, p, Lines())
			default:
				lenc = UTF32(LittleEndian, p, Lines())
			}
			for _, in := range inputs {
				want, werr := enc.NewEncoder().String(in)
				got, gerr := lenc.NewEncoder().String(in)
				if got != want || !sameError(gerr, werr) {
					t.Fatalf("%v encoder with Lines on %.20q: %q, %v; want %q, %v", p, in, got, gerr, want, werr)
				}
				wide := want
				want, werr = enc.NewDecoder().String(wide)
				got, gerr = lenc.NewDecoder().String(wide)
				if got != want || !sameError(gerr, werr) {
					t.Fatalf("%v decoder with Lines on %.20q: %q, %v; want %q, %v", p, wide, got, gerr, want, werr)
				}
				var e *Error
				if errorsAs(gerr, &e) && (e.Line != 0 || e.Column != 0) {
					t.Fatalf("%v decoder with Lines: error at line %d, column %d; want 0, 0", p, e.Line, e.Column)
				}
			}
		}
		for _, in := range inputs {
			// The encoders take UTF-8, whose lines Lines counts.
			var got []Error
			_, err := UTF16(LittleEndian, p, Lines(), OnInvalid(func(e Error) { got = append(got, e) })).NewEncoder().String(in)
			var e *Error
			if errorsAs(err, &e) {
				got = append(got, *e)
			}
			for _, g := range got {
				if line, col := refPosition([]byte(in), g.Offset); g.Line != line || g.Column != col {
					t.Fatalf("%v encoder with Lines on %.20q: error at offset %d, line %d, column %d; want %d, %d", p, in, g.Offset, g.Line, g.Column, line, col)
				}
			}
		}
		units := []uint16{'a', '\n', 0xD800, 'b', 0xDC80}
		w1, e1 := AppendFromUTF16(nil, units, p)
		w2, e2 := AppendFromUTF16(nil, units, p, Lines())
		if !bytes.Equal(w1, w2) || !sameError(e1, e2) {
			t.Fatalf("%v AppendFromUTF16 with Lines: %q, %v; want %q, %v", p, w2, e2, w1, e1)
		}
	}
}

func equalErrors(a, b []Error) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Offset != b[i].Offset || !bytes.Equal(a[i].Bytes, b[i].Bytes) || a[i].Form != b[i].Form {
			return false
		}
	}
	return true
}

// TestWideAllocs checks that the functions on slices allocate nothing when
// dst has room, and that a decoder and an encoder allocate nothing per
// Transform.
func TestWideAllocs(t *testing.T) {
	text := textgen.Make("japanese", 4096)
	u16 := make([]uint16, 0, 8192)
	runes := make([]rune, 0, 8192)
	out := make([]byte, 0, 3*8192)
	units, _ := AppendUTF16(nil, text, Replace)
	rs, _ := AppendRunes(nil, text, Replace)
	for _, p := range allPolicies {
		for name, f := range map[string]func(){
			"AppendUTF16":     func() { AppendUTF16(u16, text, p) },
			"AppendRunes":     func() { AppendRunes(runes, text, p) },
			"AppendFromUTF16": func() { AppendFromUTF16(out, units, p) },
			"AppendFromRunes": func() { AppendFromRunes(out, rs, p) },
		} {
			if n := testing.AllocsPerRun(10, f); n != 0 {
				t.Errorf("%s %v: %v allocations; want 0", name, p, n)
			}
		}
	}
	wide, _ := UTF16(LittleEndian, Replace).NewEncoder().Bytes(text)
	enc := UTF16(LittleEndian, Replace).NewEncoder().Transformer
	dec := UTF16(LittleEndian, Replace).NewDecoder().Transformer
	dst := make([]byte, 4*len(text))
	for name, f := range map[string]func(){
		"encoder": func() { enc.Reset(); enc.Transform(dst, text, true) },
		"decoder": func() { dec.Reset(); dec.Transform(dst, wide, true) },
	} {
		if n := testing.AllocsPerRun(10, f); n != 0 {
			t.Errorf("%s: %v allocations per Transform; want 0", name, n)
		}
	}
}
