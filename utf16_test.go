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

	"golang.org/x/text/encoding"
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
// fed one byte at a time and a Writer split at every point.
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
				for cut := 0; cut <= len(c.in); cut++ {
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
