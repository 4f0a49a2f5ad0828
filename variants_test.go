package utf8stream

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/utf8stream/utf8stream/internal/textgen"
	"github.com/utf8stream/utf8stream/internal/valid"
	"golang.org/x/text/transform"
)

// The tests of this file hold WTF8, BMPOnly and BackslashReplace to
// oracles that share no code with the package: CPython's codec
// (testdata/cpython.backslashreplace.golden), the reference in
// oracle_test.go, a WTF-8 decoder written here from the WTF-8 spec, and
// tables of expected outputs written out by hand.

// variantCombos are the option sets of this file, as fuzzOptions reads them.
var variantCombos = []optCombo{
	{"none", 0}, {"WTF8", 32}, {"BMPOnly", 64}, {"WTF8+BMPOnly", 96},
	{"CESU8+BMPOnly", 66}, {"WTF8+NoNUL", 33}, {"BMPOnly+NoNUL+Replacement", 81},
}

// variantVectors are inputs where the options change something, with
// ill-formed bytes around them.
var variantVectors = []string{
	"\xED\xA0\x80",
	"a\xED\xAF\xBFb\xED\xB0\x80c",
	"\xED\xA0\xBD\xED\xB8\x80",
	"\xED\xA0\xBD\xED\xA0\xBD\xED\xB8\x80\xED\xB8\x80",
	"\xED\xB2\x80\xED\xB3\xBF\xED\xB0\x80\xED\xB1\xBF",
	"\xED\xA0\x80\xFF\xED\xB0\x80",
	"\xED\xA0\xED\xB0\xED\xA0\x80\xED\xB0",
	"\xED\xA0A\xED\xBF",
	"\xF0\x9F\x98\x80",
	"x\xF0\x9F\x98\x80y\xF4\x8F\xBF\xBF\xF0\x90\x80\x80z",
	"\xF0\x9F\x98\x80\xF0\x9F\x98",
	"\xF0\x9F\x98\x80\xE2\x82\xF0\x9F\x98\x80\xFF\xF0\x9F\x98\x80",
	"\xF5\x80\x80\x80\xF0\x80\x80\x80\xF4\x90\x80\x80",
	"\xED\xA0\xBD\xED\xB8\x80\xF0\x9F\x98\x80\xED\xA0\x80\x00\xEE\xBE\x80",
	"ok \\xff ok",
}

// TestBackslashReplaceCPython checks BackslashReplace, alone and with WTF8
// and BMPOnly, against what CPython's codec gives for the inputs of
// testdata/cpython.backslashreplace.golden (see testdata/cpython.py),
// through the Transformer, the Reader a byte at a time and the Writer in
// pieces of 1 to 7 bytes, and split at every position.
func TestBackslashReplaceCPython(t *testing.T) {
	f, err := os.Open("testdata/cpython.backslashreplace.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	combos := []struct {
		name string
		opts []Option
	}{
		{"plain", nil}, {"WTF8", []Option{WTF8()}}, {"BMPOnly", []Option{BMPOnly()}}, {"WTF8+BMPOnly", []Option{WTF8(), BMPOnly()}},
	}
	sc := bufio.NewScanner(f)
	lines := 0
	for sc.Scan() {
		lines++
		cols := strings.Fields(sc.Text())
		if len(cols) != 1+len(combos) {
			t.Fatalf("line %d: %d columns", lines, len(cols))
		}
		in := unquoteGolden(t, cols[0])
		want := ""
		for i, c := range combos {
			if cols[1+i] != "=" {
				want = unquoteGolden(t, cols[1+i])
			}
			got, err := transformString(NewTransformer(BackslashReplace, c.opts...), in)
			if err != nil || got != want {
				t.Fatalf("%s: Transform(%q) = %q, %v; CPython gives %q", c.name, in, got, err, want)
			}
			got8, err := readSmall(NewReader(iotest.OneByteReader(strings.NewReader(in)), BackslashReplace, c.opts...), 5)
			if err != io.EOF || string(got8) != want {
				t.Fatalf("%s: Reader(one byte)(%q) = %q, %v; CPython gives %q", c.name, in, got8, err, want)
			}
			for size := 1; size <= 7; size++ {
				got8, err = writeChunks(BackslashReplace, []byte(in), []int{size}, c.opts...)
				if err != nil || string(got8) != want {
					t.Fatalf("%s: Writer(pieces of %d)(%q) = %q, %v; CPython gives %q", c.name, size, in, got8, err, want)
				}
			}
			for cut := 1; cut < len(in); cut++ {
				got8, err = writeChunks(BackslashReplace, []byte(in), []int{cut, len(in)}, c.opts...)
				if err != nil || string(got8) != want {
					t.Fatalf("%s: Writer(split at %d)(%q) = %q, %v; CPython gives %q", c.name, cut, in, got8, err, want)
				}
			}
			// The reference of oracle_test.go agrees too.
			_, ro := fuzzOptions(uint8(32 * i)) // none, WTF8, BMPOnly, WTF8+BMPOnly
			if ref, _, _ := refTransform(BackslashReplace, []byte(in), ro); string(ref) != want {
				t.Fatalf("%s: refTransform(%q) = %q; CPython gives %q", c.name, in, ref, want)
			}
		}
	}
	if err := sc.Err(); err != nil || lines < 1000 {
		t.Fatalf("read %d lines: %v", lines, err)
	}
}

// unquoteGolden decodes a column of cpython.backslashreplace.golden.
func unquoteGolden(t *testing.T, s string) string {
	t.Helper()
	if s == "-" {
		return ""
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		x, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			t.Fatalf("bad column %q: %v", s, err)
		}
		b = append(b, byte(x))
		i += 2
	}
	return string(b)
}

// wtf8Decode decodes p as WTF-8 with the definitions of the WTF-8 spec,
// one code point at a time: each is 1 to 4 bytes of the generalized UTF-8
// bit pattern, shortest form, at most U+10FFFF, and surrogates allowed. A
// high surrogate followed by a low one is a pair, which the spec forbids
// in WTF-8 and joins on concatenation; wtf8Decode joins it. It returns
// false at the first byte that starts no code point.
func wtf8Decode(p []byte) ([]rune, bool) {
	var cps []rune
	for len(p) > 0 {
		b := p[0]
		var n int
		var cp, min rune
		switch {
		case b < 0x80:
			n, cp, min = 1, rune(b), 0
		case b&0xE0 == 0xC0:
			n, cp, min = 2, rune(b&0x1F), 0x80
		case b&0xF0 == 0xE0:
			n, cp, min = 3, rune(b&0x0F), 0x800
		case b&0xF8 == 0xF0:
			n, cp, min = 4, rune(b&0x07), 0x10000
		default:
			return cps, false
		}
		if len(p) < n {
			return cps, false
		}
		for _, c := range p[1:n] {
			if c&0xC0 != 0x80 {
				return cps, false
			}
			cp = cp<<6 | rune(c&0x3F)
		}
		if cp < min || cp > 0x10FFFF {
			return cps, false
		}
		if k := len(cps) - 1; k >= 0 && 0xDC00 <= cp && cp <= 0xDFFF && 0xD800 <= cps[k] && cps[k] <= 0xDBFF {
			cps[k] = utf16.DecodeRune(cps[k], cp)
		} else {
			cps = append(cps, cp)
		}
		p = p[n:]
	}
	return cps, true
}

// wtf8Encode encodes code points, surrogates included, with the UTF-8 bit
// pattern.
func wtf8Encode(cps []rune) []byte {
	var b []byte
	for _, cp := range cps {
		if 0xD800 <= cp && cp <= 0xDFFF {
			b = append(b, encodeSurrogate(cp)...)
		} else {
			b = utf8.AppendRune(b, cp)
		}
	}
	return b
}

// TestWTF8Decoder checks WTF8 under Reject against wtf8Decode: on every
// surrogate alone and after a character, every pair of surrogates in
// steps, and inputs made of them and of ill-formed bytes. Valid input is
// written as wtf8Decode reads it, and ill-formed input is rejected.
func TestWTF8Decoder(t *testing.T) {
	var inputs [][]byte
	for u := rune(0xD800); u <= 0xDFFF; u++ {
		inputs = append(inputs, encodeSurrogate(u), append([]byte("é"), encodeSurrogate(u)...))
	}
	for hi := rune(0xD800); hi <= 0xDBFF; hi += 0x1F {
		for lo := rune(0xDC00); lo <= 0xDFFF; lo += 0x3D {
			h, l := encodeSurrogate(hi), encodeSurrogate(lo)
			inputs = append(inputs,
				append(append([]byte{}, h...), l...),
				append(append([]byte{}, l...), h...),
				append(append(append([]byte{}, h...), h...), l...),
				append(append([]byte{}, h...), l[:2]...),
				append(append([]byte("\xF0\x9F\x98\x80"), h...), 'x'),
			)
		}
	}
	for _, in := range variantVectors {
		inputs = append(inputs, []byte(in))
	}
	tr := NewTransformer(Reject, WTF8())
	for _, in := range inputs {
		cps, ok := wtf8Decode(in)
		tr.Reset()
		got, _, err := transform.Bytes(tr, in)
		if ok != (err == nil) || ok && !bytes.Equal(got, wtf8Encode(cps)) {
			t.Fatalf("WTF8 Reject(% X) = % X, %v; the WTF-8 decoder says %v, % X", in, got, err, ok, wtf8Encode(cps))
		}
		if !ok {
			continue
		}
		// A lone surrogate passes every policy unchanged. (OPTU8
		// escapes the valid characters of its own range, which some
		// inputs hold: restore them.)
		for _, p := range allPolicies {
			got, err := transformString(NewTransformer(p, WTF8()), string(in))
			if p == OPTU8 {
				got, _, _ = transform.String(NewUnescaper(p), got)
			}
			if err != nil || got != string(wtf8Encode(cps)) {
				t.Fatalf("WTF8 %v(% X) = % X, %v; want % X", p, in, got, err, wtf8Encode(cps))
			}
		}
	}
}

// TestWTF8Documented checks what WTF8 does under each policy, as its
// documentation says, with the expected outputs written out by hand.
func TestWTF8Documented(t *testing.T) {
	for _, tc := range []struct {
		desc string
		p    Policy
		in   string
		want string
	}{
		{"lone high passes", Replace, "a\xED\xA0\x80b", "a\xED\xA0\x80b"},
		{"lone low passes", Drop, "\xED\xBF\xBF", "\xED\xBF\xBF"},
		{"pair joined", Reject, "\xED\xA0\xBD\xED\xB8\x80", "😀"},
		{"high, then a pair", Replace, "\xED\xA0\xBD\xED\xA0\xBD\xED\xB8\x80", "\xED\xA0\xBD😀"},
		{"low then high is no pair", Replace, "\xED\xB8\x80\xED\xA0\xBD", "\xED\xB8\x80\xED\xA0\xBD"},
		{"truncated surrogate is one subpart", Replace, "\xED\xA0A", "\uFFFDA"},
		{"truncated surrogate at the end", Replace, "\xED\xBF", "\uFFFD"},
		{"truncated surrogate per byte", BackslashReplace, "\xED\xA0A", `\xed\xa0A`},
		{"truncated low after high", Replace, "\xED\xA0\xBD\xED\xB8", "\xED\xA0\xBD\uFFFD"},
		{"ED 80..9F as in UTF-8", Replace, "\xED\x9F\xBF\xED\x80", "\uD7FF\uFFFD"},
		{"SurrogateEscape passes U+DC80", SurrogateEscape, "\xED\xB2\x80", "\xED\xB2\x80"},
		{"SurrogateEscape passes U+DCFF", SurrogateEscape, "a\xED\xB3\xBFb", "a\xED\xB3\xBFb"},
		{"SurrogateEscape passes U+DC7F", SurrogateEscape, "\xED\xB1\xBF", "\xED\xB1\xBF"},
		{"SurrogateEscape passes U+DC00", SurrogateEscape, "\xED\xB0\x80", "\xED\xB0\x80"},
		{"OPTU8 passes U+DC80", OPTU8, "\xED\xB2\x80", "\xED\xB2\x80"},
		{"Drop keeps the halves apart", Drop, "\xED\xA0\xBD\xFF\xED\xB8\x80", "\xED\xA0\xBD\xED\xB8\x80"},
		{"Windows1252", Windows1252, "\xED\xA0\xED\xA0\x80", "í\u00A0\xED\xA0\x80"},
	} {
		got, err := transformString(NewTransformer(tc.p, WTF8()), tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%s: WTF8 %v(%q) = %q, %v; want %q", tc.desc, tc.p, tc.in, got, err, tc.want)
		}
	}
	// Under SurrogateEscape with NoNUL, U+DC00 passes too.
	got, _ := transformString(NewTransformer(SurrogateEscape, WTF8(), NoNUL()), "\xED\xB0\x80")
	if want := "\xED\xB0\x80"; got != want {
		t.Errorf("WTF8+NoNUL SurrogateEscape(U+DC00) = %q; want %q", got, want)
	}
	// Error and Stats.
	_, err := transformString(NewTransformer(Reject, WTF8()), "ok\xED\xA0\x80\xED\xA0z")
	var e *Error
	if !errors.As(err, &e) || e.Offset != 5 || string(e.Bytes) != "\xED\xA0" {
		t.Errorf("WTF8 Reject: %v; want the subpart ED A0 at 5", err)
	}
	tr := NewTransformer(SurrogateEscape, WTF8())
	transformString(tr, "\xED\xB2\x80\xED\xA0\x80\xFF")
	if s := tr.Stats(); s != (Stats{Subparts: 1, Bytes: 1, First: 6}) {
		t.Errorf("WTF8 SurrogateEscape Stats = %+v", s)
	}
}

// TestBMPOnlyDocumented checks what each policy writes for a character
// above U+FFFF under BMPOnly, as its documentation says.
func TestBMPOnlyDocumented(t *testing.T) {
	const in = "a\U0001F600b"
	for _, tc := range []struct {
		p    Policy
		opts []Option
		want string
	}{
		{Replace, nil, "a\uFFFDb"},
		{Replace, []Option{Replacement("?")}, "a?b"},
		{Drop, nil, "ab"},
		{Windows1252, nil, "a\uFFFDb"},
		{SurrogateEscape, nil, "a\xED\xB3\xB0\xED\xB2\x9F\xED\xB2\x98\xED\xB2\x80b"},
		{OPTU8, nil, "a\uEFF0\uEF9F\uEF98\uEF80b"},
		{BackslashReplace, nil, `a\xf0\x9f\x98\x80b`},
		{Replace, []Option{CESU8()}, "a\uFFFDb"},
	} {
		got, err := transformString(NewTransformer(tc.p, append(tc.opts, BMPOnly())...), in)
		if err != nil || got != tc.want {
			t.Errorf("BMPOnly %v(%q) = %q, %v; want %q", tc.p, in, got, err, tc.want)
		}
	}
	// A CESU-8 or WTF-8 pair is one unit of 6 bytes.
	for _, opt := range []Option{CESU8(), WTF8()} {
		got, _ := transformString(NewTransformer(Windows1252, opt, BMPOnly()), "\xED\xA0\xBD\xED\xB8\x80")
		if got != "\uFFFD" {
			t.Errorf("BMPOnly Windows1252 of a pair = %q; want one U+FFFD", got)
		}
	}
	// Reject stops at it with its offset and its 4 bytes.
	_, err := transformString(NewTransformer(Reject, BMPOnly()), "U+FFFF \uFFFF ok, \U00010000 not")
	var e *Error
	if !errors.As(err, &e) || e.Offset != 15 || string(e.Bytes) != "\U00010000" || e.Reason() != "character above U+FFFF" {
		t.Errorf("BMPOnly Reject: %v; want the 4 bytes of U+10000 at 15", err)
	}
	// Stats count it, and OnInvalid sees it.
	var calls []Error
	tr := NewTransformer(Replace, BMPOnly(), OnInvalid(func(e Error) { calls = append(calls, e) }))
	transformString(tr, "ab\U0001F600\xFF\U0010FFFF")
	if s := tr.Stats(); s != (Stats{Subparts: 3, Bytes: 9, First: 2}) || len(calls) != 3 || string(calls[2].Bytes) != "\U0010FFFF" {
		t.Errorf("BMPOnly Stats = %+v, calls %v", s, calls)
	}
	// Every character up to U+FFFF passes, every one above does not.
	trs := []*Transformer{NewTransformer(Reject, BMPOnly()), NewTransformer(Reject, BMPOnly(), WTF8())}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF || r > 0xFFFF && r%0x101 != 0 {
			continue
		}
		for _, tr := range trs {
			tr.Reset()
			_, err := transformString(tr, string(r))
			if (err == nil) != (r <= 0xFFFF) {
				t.Fatalf("BMPOnly Reject(U+%04X): %v", r, err)
			}
		}
	}
}

// TestVariantsChunking runs the variant vectors, and long inputs around
// them, under every policy and option set, against the oracle: through the
// Transformer in one call and through transform.Reader a byte at a time,
// through the Reader with every chunking reader and caller buffers large and
// small, and through the Writer split at every position and in pieces of 1
// to 12 bytes.
func TestVariantsChunking(t *testing.T) {
	cutStep := 1
	if testing.Short() && sampled {
		cutStep = 5 // a sample: see sampled
	}
	var inputs []string
	for _, in := range variantVectors {
		inputs = append(inputs, in, strings.Repeat("y", 40)+in+strings.Repeat("ü", 30)+in)
	}
	for _, combo := range variantCombos {
		opts, ro := fuzzOptions(combo.o)
		for _, p := range allPolicies {
			for _, in := range inputs {
				want, errOff, errBytes := refTransform(p, []byte(in), ro)
				check := func(how string, got []byte, err error) {
					t.Helper()
					if err == io.EOF {
						err = nil
					}
					ok := bytes.Equal(got, want)
					var e *Error
					if errOff >= 0 {
						ok = ok && errors.As(err, &e) && e.Offset == errOff && bytes.Equal(e.Bytes, errBytes)
					} else {
						ok = ok && err == nil
					}
					if !ok {
						t.Fatalf("%s %v %s(%q) = %q, %v; want %q (error at %d)", combo.name, p, how, in, got, err, want, errOff)
					}
				}
				got, _, err := transform.Bytes(NewTransformer(p, opts...), []byte(in))
				check("Transform", got, err)
				got, err = readAllErr(transform.NewReader(iotest.OneByteReader(strings.NewReader(in)), NewTransformer(p, opts...)))
				check("transform.Reader(one byte)", got, err)
				for _, rc := range readerCases(uint64(len(in))) {
					for _, bufSize := range []int{1, 5, 17, 512} {
						got, err = readSmall(NewReader(rc.mk(in), p, opts...), bufSize)
						check(fmt.Sprintf("Reader(%s, buffer %d)", rc.name, bufSize), got, err)
					}
				}
				got, err = io.ReadAll(NewReader(iotest.HalfReader(strings.NewReader(in)), p, opts...))
				check("Reader.WriteTo(HalfReader)", got, err)
				for cut := 0; cut <= len(in); cut += cutStep {
					got, err = writeChunks(p, []byte(in), []int{cut, len(in)}, opts...)
					check(fmt.Sprintf("Writer(split at %d)", cut), got, err)
				}
				for size := 1; size <= 12; size++ {
					got, err = writeChunks(p, []byte(in), []int{size}, opts...)
					check(fmt.Sprintf("Writer(pieces of %d)", size), got, err)
				}
			}
		}
	}
}

// TestVariantsDense runs long inputs dense with what the options look at
// and with ill-formed bytes, which the block loop takes, against the
// oracle, through the Transformer, the Reader and the Writer; and checks
// the Stats and OnInvalid calls of one call against a byte at a time.
func TestVariantsDense(t *testing.T) {
	pieces := []string{"a", "é", "€", "\U0001F600", "\xED\xA0\xBD", "\xED\xB8\x80", "\xED\xA0", "\xFF", "\xE2\x82", "\xF0\x9F\x98", "\xC0", "\x80", "\xED", "\xED\x9F\xBF", "\xEE\xBE\x80", "\x00"}
	rng := textgen.Make("random", 1<<14)
	var b strings.Builder
	for i, r := range rng {
		if i%3 == 0 {
			b.WriteString(pieces[int(r)%len(pieces)])
		} else if r < 0xC0 {
			b.WriteString(strings.Repeat("k", int(r)%7))
		} else {
			b.WriteByte(r)
		}
	}
	size := 5000
	if testing.Short() {
		size = 1500
		if sampled {
			size = 500 // a sample: see sampled
		}
	}
	inputs := [][]byte{[]byte(b.String())[:3*size], textgen.Make("random", size), textgen.Make("emoji", size), textgen.Make("invalid1pct", size)}
	for _, combo := range variantCombos {
		opts, ro := fuzzOptions(combo.o)
		for _, p := range allPolicies {
			for i, in := range inputs {
				want, errOff, _ := refTransform(p, in, ro)
				got, _, err := transform.Bytes(NewTransformer(p, opts...), in)
				if !bytes.Equal(got, want) || (err != nil) != (errOff >= 0) {
					t.Fatalf("%s %v input %d: Transform differs from the oracle: %v", combo.name, p, i, err)
				}
				got, err = io.ReadAll(NewReader(bytes.NewReader(in), p, opts...))
				if !bytes.Equal(got, want) || (err != nil) != (errOff >= 0) {
					t.Fatalf("%s %v input %d: Reader differs from the oracle: %v", combo.name, p, i, err)
				}
				got, err = writeChunks(p, in, []int{1000, 333, 77}, opts...)
				if !bytes.Equal(got, want) || (err != nil) != (errOff >= 0) {
					t.Fatalf("%s %v input %d: Writer differs from the oracle: %v", combo.name, p, i, err)
				}
				if p == Reject {
					continue
				}
				// The OnInvalid calls and Stats of the block loop, in
				// one call, and of the general path, a byte at a time.
				var whole, bytewise []Error
				tw := NewTransformer(p, append(opts, OnInvalid(func(e Error) { whole = append(whole, e) }))...)
				tw.Transform(make([]byte, 16*len(in)), in, true)
				tb := NewTransformer(p, append(opts, OnInvalid(func(e Error) { bytewise = append(bytewise, e) }))...)
				io.Copy(io.Discard, transform.NewReader(iotest.OneByteReader(bytes.NewReader(in)), tb))
				tk := NewTransformer(p, opts...) // the repair kernel, where there is one
				tk.Transform(make([]byte, 16*len(in)), in, true)
				if tw.Stats() != tb.Stats() || tk.Stats() != tb.Stats() || !cmp.Equal(whole, bytewise) {
					t.Fatalf("%s %v input %d: Stats %+v (%+v without OnInvalid) and %d calls in one call, %+v and %d a byte at a time",
						combo.name, p, i, tw.Stats(), tk.Stats(), len(whole), tb.Stats(), len(bytewise))
				}
			}
		}
	}
}

// TestVariantsSpan checks that Span stops exactly at the first byte
// Transform changes under the options: it steps over WTF8's lone
// surrogates and stops at BMPOnly's characters above U+FFFF.
func TestVariantsSpan(t *testing.T) {
	for _, tc := range []struct {
		desc string
		o    uint8
		in   string
		n    int
		err  error
	}{
		{"lone surrogates", 32, "a\xED\xA0\x80b\xED\xBF\xBFc", 9, nil},
		{"pair", 32, "ab\xED\xA0\xBD\xED\xB8\x80", 2, transform.ErrEndOfSpan},
		{"lone high, more to come", 32, "ab\xED\xA0\xBD\xED", 2, transform.ErrShortSrc},
		{"truncated", 32, "ab\xED\xA0z", 2, transform.ErrEndOfSpan},
		{"SurrogateEscape's range", 32, "ab\xED\xB2\x80", 5, nil},
		{"4-byte character", 64, "abc\U0001F600", 3, transform.ErrEndOfSpan},
		{"4-byte character after long text", 64, strings.Repeat("é", 100) + "\U0001F600", 200, transform.ErrEndOfSpan},
		{"BMP only", 64, strings.Repeat("日本", 40), 240, nil},
		{"F5", 64, "ab\xF5", 2, transform.ErrEndOfSpan},
		{"both", 96, "\xED\xA0\x80\U0001F600", 3, transform.ErrEndOfSpan},
	} {
		opts, _ := fuzzOptions(tc.o)
		n, err := NewTransformer(Replace, opts...).Span([]byte(tc.in), false)
		if n != tc.n || err != tc.err {
			t.Errorf("%s: Span(%q) = %d, %v; want %d, %v", tc.desc, tc.in, n, err, tc.n, tc.err)
		}
	}
	// Every vector: Span never passes the first change, and stops at a
	// unit that Transform changes.
	for _, combo := range variantCombos {
		opts, _ := fuzzOptions(combo.o)
		for _, p := range allPolicies {
			for _, in := range variantVectors {
				for _, atEOF := range []bool{false, true} {
					n, err := NewTransformer(p, opts...).Span([]byte(in), atEOF)
					dst := make([]byte, 4*len(in)+100)
					nDst, _, _ := NewTransformer(p, opts...).Transform(dst, []byte(in), atEOF)
					if !bytes.HasPrefix(dst[:nDst], []byte(in[:n])) {
						t.Fatalf("%s %v atEOF=%v: Span(%q) = %d, %v, past the first change (%q)", combo.name, p, atEOF, in, n, err, dst[:nDst])
					}
				}
			}
		}
	}
}

// TestBMPOnlyRoundTrip checks that restoring SurrogateEscape and OPTU8
// output under BMPOnly gives back the input byte for byte: the vectors,
// characters above U+FFFF in steps, and random bytes.
func TestBMPOnlyRoundTrip(t *testing.T) {
	inputs := append([]string{}, variantVectors...)
	for _, tc := range vectors {
		inputs = append(inputs, tc.in)
	}
	for r := rune(0x10000); r <= utf8.MaxRune; r += 0x1FF {
		inputs = append(inputs, "x"+string(r)+"\xF0\x9F"+string(r-1))
	}
	inputs = append(inputs, string(textgen.Make("random", 4000)), string(textgen.Make("emoji", 4000)))
	for _, p := range reversiblePolicies {
		for _, opts := range [][]Option{{BMPOnly()}, {BMPOnly(), NoNUL()}, {BMPOnly(), CESU8()}} {
			for _, in := range inputs {
				esc, err := transformString(NewTransformer(p, opts...), in)
				if err != nil {
					t.Fatal(err)
				}
				if p == OPTU8 && !utf8.ValidString(esc) || valid.IndexHigh([]byte(esc)) < len(esc) {
					t.Fatalf("%v BMPOnly(%q) = %q: a character above U+FFFF, or not valid UTF-8", p, in, esc)
				}
				for _, rc := range readerCases(uint64(len(in))) {
					back, err := readAllErr(transform.NewReader(rc.mk(esc), NewUnescaper(p, opts...)))
					if string(back) != in || err != io.EOF {
						t.Fatalf("%v via %s: restore(escape(%q)) = %q, %v", p, rc.name, in, back, err)
					}
				}
			}
		}
	}
}

// TestVariantsAllocs checks that steady-state Transform, Read and Write
// allocate nothing under the options.
func TestVariantsAllocs(t *testing.T) {
	in := []byte(strings.Repeat("ok \xED\xA0\x80 \U0001F600 \xFF\xED\xA0\xBD\xED\xB8\x80 ", 500))
	dst := make([]byte, 16*len(in))
	for _, combo := range variantCombos[1:] {
		opts, _ := fuzzOptions(combo.o)
		for _, p := range repairPolicies {
			tr := NewTransformer(p, opts...)
			tr.Transform(dst, in, true)
			br := bytes.NewReader(in)
			r := NewReader(br, p, opts...)
			buf := make([]byte, 4096)
			io.CopyBuffer(io.Discard, struct{ io.Reader }{r}, buf)
			w := NewWriter(io.Discard, p, opts...)
			w.Write(in)
			runs := 10
			if testing.Short() && sampled {
				runs = 2 // a sample: see sampled
			}
			allocs := testing.AllocsPerRun(runs, func() {
				tr.Reset()
				tr.Transform(dst, in, true)
				br.Reset(in)
				r.Reset(br)
				for {
					if _, err := r.Read(buf); err != nil {
						break
					}
				}
				w.Reset(io.Discard)
				for i := 0; i < len(in); i += 1000 {
					w.Write(in[i:min(i+1000, len(in))])
				}
				w.Close()
			})
			if allocs != 0 {
				t.Errorf("%s %v: %v allocations per pass; want 0", combo.name, p, allocs)
			}
		}
	}
}

// TestIndexHigh checks indexHigh against a loop, with the first byte
// F0..FF at each offset of inputs of every length up to 200.
func TestIndexHigh(t *testing.T) {
	ref := func(p []byte) int {
		for i, b := range p {
			if b >= 0xF0 {
				return i
			}
		}
		return len(p)
	}
	// ASCII, mixed bytes, and ASCII up to a byte 80..EF at 100, so that
	// both of indexHigh's loops see the F0..FF.
	bases := [][]byte{
		[]byte(strings.Repeat("a", 200)),
		[]byte(strings.Repeat("aé€\x7F\x80\xBF\xEF\xC0", 25)),
		[]byte(strings.Repeat("a", 100) + "\xEF" + strings.Repeat("b", 99)),
	}
	for _, base := range bases {
		for n := 0; n <= 200; n++ {
			for at := -1; at < n; at++ {
				for _, c := range []byte{0xF0, 0xF4, 0xF5, 0xFF} {
					p := append([]byte{}, base[:n]...)
					if at >= 0 {
						p[at] = c
					}
					if got, want := valid.IndexHigh(p), ref(p); got != want {
						t.Fatalf("valid.IndexHigh(% X) = %d; want %d", p, got, want)
					}
				}
			}
		}
	}
}
