package utf8stream

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/utf8stream/utf8stream/internal/textgen"
	"golang.org/x/text/transform"
)

// optionVectors add to vectors what the options look at.
var optionVectors = []string{
	"\xEF\xBB\xBFbom first",
	"\xEF\xBB\xBF\xEF\xBB\xBFtwo marks",
	"late \xEF\xBB\xBF mark",
	"\xEF\xBB",
	"\xEF\xBB\xBF",
	"a\x00b\x00",
	"\x00",
	"\xEE\xBC\x80 is U+EF00, \xEE\xBC\x81 is not",
	"\xED\xA0\xBD\xED\xB8\x80",             // U+1F600 in CESU-8
	"\xED\xA0\x80\xED\xB0\x80",             // U+10000
	"\xED\xAF\xBF\xED\xBF\xBF",             // U+10FFFF
	"\xED\xA0\xBD x \xED\xB8\x80",          // unpaired high, unpaired low
	"\xED\xB8\x80\xED\xA0\xBD",             // low then high: not a pair
	"\xED\xA0\xBD\xED\xA0\xBD\xED\xB8\x80", // high, then a pair
	"\xED\xA0\xBD\xED\xB8",                 // a pair cut short
	"a\xC0\x80b",                           // Modified UTF-8 NUL
	"\xC0\x80\xC0\x81\xC0",
	"mixed \xC0\x80\x00\xEF\xBB\xBF\xED\xA0\xBD\xED\xB8\x80\xFF\xEE\xBE\x80",
	"\xED\xA0\x80",                         // lone high surrogate, WTF-8
	"\xED\xBF\xBF x",                       // lone low surrogate
	"\xED\xB2\x80\xED\xB3\xBF\xED\xB0\x80", // lone surrogates that look like escapes
	"\xED\xA0\x80\xED\xB2\x80",             // a pair whose low half looks like an escape
	"\xED\xA0",                             // truncated surrogate at the end
	"\xED\xA0A\xED\xBF\xC0",                // truncated surrogates
	"\xED\x9F\xBF\xED\x80",                 // U+D7FF, then ED 80 cut short
	"\xF0\x9F\x98\x80",                     // U+1F600
	"a\xF0\x90\x80\x80b\xF4\x8F\xBF\xBFc",  // U+10000 and U+10FFFF
	"\xF0\x9F\x98\x80\xF0\x9F\x98",         // a 4-byte character, then one cut short
	"\xEF\xBF\xBF\xF0\x90\x80\x80\xF5\x80", // U+FFFF, U+10000, F5
	"\xED\xA0\xBD\xED\xB8\x80\xF0\x9F\x98\x80\xED\xB8\x80\xED\xA0\xBD", // both forms, then low before high
}

type optCombo struct {
	name string
	o    uint8 // bits as fuzzOptions reads them
}

var optCombos = []optCombo{
	{"StripBOM", 8}, {"NoNUL", 1}, {"CESU8", 2}, {"ModifiedUTF8", 4},
	{"Replacement", 16}, {"CESU8+ModifiedUTF8", 6}, {"WTF8", 32}, {"BMPOnly", 64},
	{"WTF8+BMPOnly", 96}, {"CESU8+BMPOnly", 66}, {"WTF8+NoNUL", 33}, {"WTF8+CESU8", 34},
	{"all", 127},
}

// TestOptionsEveryWrapper runs every option, alone and combined, under every
// policy, through the Transformer, the Reader (whole and a byte at a time)
// and the Writer (in pieces of 1 to 7 bytes), against the oracle.
func TestOptionsEveryWrapper(t *testing.T) {
	inputs := append([]string{}, optionVectors...)
	for _, tc := range vectors {
		inputs = append(inputs, tc.in)
	}
	for _, combo := range optCombos {
		opts, ro := fuzzOptions(combo.o)
		for _, p := range allPolicies {
			for _, in := range inputs {
				want, errOff, errBytes := refTransform(p, []byte(in), ro)
				check := func(how string, got []byte, err error) {
					t.Helper()
					if err == io.EOF {
						err = nil
					}
					var e *Error
					ok := bytes.Equal(got, want)
					if errOff >= 0 {
						ok = ok && errorsAs(err, &e) && e.Offset == errOff && bytes.Equal(e.Bytes, errBytes)
					} else {
						ok = ok && err == nil
					}
					if !ok {
						t.Fatalf("%s %v %s(%q) = %q, %v; want %q (error at %d)", combo.name, p, how, in, got, err, want, errOff)
					}
				}
				got, _, err := transform.Bytes(NewTransformer(p, opts...), []byte(in))
				check("Transform", got, err)
				got, err = readAllErr(NewReader(strings.NewReader(in), p, opts...))
				check("Reader", got, err)
				got, err = readSmall(NewReader(iotest.OneByteReader(strings.NewReader(in)), p, opts...), 1)
				check("Reader(one byte)", got, err)
				for size := 1; size <= 7; size++ {
					got, err = writeChunks(p, []byte(in), []int{size}, opts...)
					check(fmt.Sprintf("Writer(pieces of %d)", size), got, err)
				}
			}
		}
	}
}

func errorsAs(err error, e **Error) bool {
	if x, ok := err.(*Error); ok {
		*e = x
		return true
	}
	return false
}

func TestStripBOMSplit(t *testing.T) {
	in := "\xEF\xBB\xBFtext \xEF\xBB\xBF"
	for _, rc := range readerCases(1) {
		got, err := readAllErr(NewReader(rc.mk(in), Reject, StripBOM()))
		if string(got) != "text \uFEFF" || err != io.EOF {
			t.Errorf("%s: %q, %v; want the first mark removed, the second kept", rc.name, got, err)
		}
	}
	for cut := 0; cut <= 4; cut++ {
		got, err := writeChunks(Reject, []byte(in), []int{cut, 100}, StripBOM())
		if string(got) != "text \uFEFF" || err != nil {
			t.Errorf("Writer split at %d: %q, %v", cut, got, err)
		}
	}
}

func TestNoNULEscapes(t *testing.T) {
	for _, tc := range []struct {
		p    Policy
		want string
	}{
		{Replace, "a\uFFFDb"},
		{Drop, "ab"},
		{SurrogateEscape, "a\xED\xB0\x80b"},
		{OPTU8, "a\xEE\xBC\x80b"},
		{Windows1252, "a\uFFFDb"},
	} {
		got, err := transformString(NewTransformer(tc.p, NoNUL()), "a\x00b")
		if got != tc.want || err != nil {
			t.Errorf("%v: %q, %v; want %q", tc.p, got, err, tc.want)
		}
	}
	// OPTU8 escapes a U+EF00 already in the input, so restoring with the
	// same option gives it back.
	in := "\x00\xEE\xBC\x80"
	esc, _ := transformString(NewTransformer(OPTU8, NoNUL()), in)
	if want := "\xEE\xBC\x80\xEE\xBF\xAE\xEE\xBE\xBC\xEE\xBE\x80"; esc != want {
		t.Errorf("OPTU8+NoNUL(%q) = %q; want %q", in, esc, want)
	}
	back, _, _ := transform.String(NewUnescaper(OPTU8, NoNUL()), esc)
	if back != in {
		t.Errorf("restore = %q; want %q", back, in)
	}
	_, err := transformString(NewTransformer(Reject, NoNUL()), "ok\x00")
	var e *Error
	if !errorsAs(err, &e) || e.Offset != 2 || e.Reason() != "NUL byte" {
		t.Errorf("Reject+NoNUL: %v", err)
	}
}

// TestCESU8 checks the conversion against surrogate pairs computed from
// their definition, for every code point above U+FFFF in steps.
func TestCESU8(t *testing.T) {
	enc3 := func(u rune) []byte { // a surrogate as a 3-byte sequence, by hand
		return []byte{0xE0 | byte(u>>12), 0x80 | byte(u>>6)&0x3F, 0x80 | byte(u)&0x3F}
	}
	tr := NewTransformer(Reject, CESU8())
	for r := rune(0x10000); r <= utf8.MaxRune; r += 0x3F {
		v := r - 0x10000
		in := append(enc3(0xD800+v>>10), enc3(0xDC00+v&0x3FF)...)
		tr.Reset()
		got, _, err := transform.Bytes(tr, in)
		if err != nil || string(got) != string(r) {
			t.Fatalf("CESU8(% X) = % X, %v; want U+%X", in, got, err, r)
		}
	}
	// Without the option a pair is six ill-formed bytes.
	got, _ := transformString(NewTransformer(Replace), "\xED\xA0\xBD\xED\xB8\x80")
	if got != strings.Repeat("\uFFFD", 6) {
		t.Errorf("pair without CESU8 = %q", got)
	}
}

func TestReplacementOption(t *testing.T) {
	for _, r := range []string{"?", "", "[bad]", "\u2047"} {
		got, err := transformString(NewTransformer(Replace, Replacement(r)), "a\xFFb\xE2\x82")
		if want := "a" + r + "b" + r; got != want || err != nil {
			t.Errorf("Replacement(%q): %q, %v; want %q", r, got, err, want)
		}
	}
	// A replacement too long for the dense loop's table (more than 8
	// bytes) goes through the general path: the same output, on dense
	// errors too, through every wrapper.
	long := "<invalid byte>"
	in := textgen.Make("random", 5000)
	want, _, _ := refTransform(Replace, in, refOpts{replacement: long})
	got, _, err := transform.Bytes(NewTransformer(Replace, Replacement(long)), in)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("Transform with Replacement(%q) differs from the oracle", long)
	}
	got, err = io.ReadAll(NewReader(bytes.NewReader(in), Replace, Replacement(long)))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("Reader with Replacement(%q) differs from the oracle", long)
	}
	got, err = writeChunks(Replace, in, []int{7}, Replacement(long))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("Writer with Replacement(%q) differs from the oracle", long)
	}
	for _, bad := range []string{"\xFF", strings.Repeat("x", maxReplacement+1)} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Replacement(%q) did not panic", bad)
				}
			}()
			Replacement(bad)
		}()
	}
}

// TestStatsExactWhateverChunking checks Stats and the OnInvalid calls are
// the same for every chunking and wrapper.
func TestStatsExactWhateverChunking(t *testing.T) {
	in := "\uFFFD already here, then \xFF, \xE2\x82, \xF0\x9F\x98, \xEE\xBE\x80 and \xC0"
	for _, p := range repairPolicies {
		var wantCalls []Error
		tr := NewTransformer(p, OnInvalid(func(e Error) { wantCalls = append(wantCalls, e) }))
		transform.String(tr, in)
		want := tr.Stats()
		if want.Subparts != 4 || want.Bytes != 7 || want.First != int64(strings.Index(in, "\xFF")) {
			t.Fatalf("%v: Stats = %+v", p, want)
		}
		if p == OPTU8 && want.Escaped != 1 {
			t.Fatalf("OPTU8: Escaped = %d; want 1", want.Escaped)
		}
		for _, rc := range readerCases(5) {
			var calls []Error
			r := NewReader(rc.mk(in), p, OnInvalid(func(e Error) { calls = append(calls, e) }))
			readSmall(r, 3)
			if r.Stats() != want || !cmp.Equal(calls, wantCalls) {
				t.Errorf("%v via %s: Stats %+v, calls %v; want %+v, %v", p, rc.name, r.Stats(), calls, want, wantCalls)
			}
		}
		for size := 1; size <= 5; size++ {
			var calls []Error
			w := NewWriter(io.Discard, p, OnInvalid(func(e Error) { calls = append(calls, e) }))
			for i := 0; i < len(in); i += size {
				w.Write([]byte(in[i:min(i+size, len(in))]))
			}
			w.Close()
			if w.Stats() != want || !cmp.Equal(calls, wantCalls) {
				t.Errorf("%v Writer pieces of %d: Stats %+v, calls %v; want %+v, %v", p, size, w.Stats(), calls, want, wantCalls)
			}
		}
	}
	// Valid input, including U+FFFD, counts nothing.
	tr := NewTransformer(Replace)
	transform.String(tr, "\uFFFD\uFFFD")
	if tr.Stats() != (Stats{First: -1}) {
		t.Errorf("Stats on valid input = %+v", tr.Stats())
	}
}

func TestParsePolicy(t *testing.T) {
	for _, p := range allPolicies {
		q, err := ParsePolicy(strings.ToUpper(p.String()))
		if q != p || err != nil {
			t.Errorf("ParsePolicy(%q) = %v, %v", p.String(), q, err)
		}
		text, err := p.MarshalText()
		var r Policy
		if err != nil || r.UnmarshalText(text) != nil || r != p {
			t.Errorf("%v: text round trip gave %v", p, r)
		}
	}
	for alias, want := range map[string]Policy{"ignore": Drop, "strict": Reject, "cp1252": Windows1252, "surrogate-escape": SurrogateEscape, "optu-8": OPTU8} {
		if p, err := ParsePolicy(alias); p != want || err != nil {
			t.Errorf("ParsePolicy(%q) = %v, %v; want %v", alias, p, err, want)
		}
	}
	if _, err := ParsePolicy("lenient"); err == nil || !strings.Contains(err.Error(), "replace") {
		t.Errorf("ParsePolicy(lenient) error = %v; want one that lists the policies", err)
	}
	if s := Policy(200).String(); s != "Policy(200)" {
		t.Errorf("Policy(200).String() = %q", s)
	}
	if _, err := Policy(200).MarshalText(); err == nil {
		t.Error("MarshalText of an unknown policy: nil error")
	}
}

// TestOnInvalidPanics checks that a panicking OnInvalid function leaves no
// value that loses or repeats bytes: every later call fails with an error
// that says so, the Stats count the subpart once, and Reset recovers.
func TestOnInvalidPanics(t *testing.T) {
	in := "valid \xFF more \xFE end"
	calls := 0
	boom := OnInvalid(func(Error) { calls++; panic("boom") })
	catch := func(f func()) (v any) {
		defer func() { v = recover() }()
		f()
		return nil
	}
	broken := func(err error) bool { return err != nil && strings.Contains(err.Error(), "panicked") }
	for _, p := range allPolicies {
		t.Run("Reader/"+p.String(), func(t *testing.T) {
			calls = 0
			r := NewReader(strings.NewReader(in), p, boom)
			buf := make([]byte, 64)
			// The valid bytes before the subpart may come first.
			panicked := false
			for i := 0; i < 3 && !panicked; i++ {
				panicked = catch(func() { r.Read(buf) }) != nil
			}
			if !panicked {
				t.Fatal("Read did not panic")
			}
			for range 2 {
				if n, err := r.Read(buf); n != 0 || !broken(err) {
					t.Fatalf("Read after a panic = %d, %v; want 0 and an error", n, err)
				}
			}
			if _, err := io.Copy(io.Discard, r); !broken(err) {
				t.Fatalf("WriteTo after a panic: %v", err)
			}
			if s := r.Stats(); s.Subparts != 1 || calls != 1 {
				t.Errorf("Stats %v after %d calls; want 1 subpart", s, calls)
			}
			r.Reset(strings.NewReader("fine"))
			if got, err := io.ReadAll(r); string(got) != "fine" || err != nil {
				t.Errorf("after Reset: %q, %v", got, err)
			}
		})
		t.Run("Writer/"+p.String(), func(t *testing.T) {
			calls = 0
			var out strings.Builder
			w := NewWriter(&out, p, boom)
			if catch(func() { w.Write([]byte(in)) }) == nil {
				t.Fatal("Write did not panic")
			}
			before := out.String()
			if n, err := w.Write([]byte(in)); n != 0 || !broken(err) {
				t.Fatalf("Write after a panic = %d, %v; want 0 and an error", n, err)
			}
			if err := w.Close(); !broken(err) {
				t.Fatalf("Close after a panic: %v", err)
			}
			if out.String() != before || w.Stats().Subparts != 1 {
				t.Errorf("wrote %q more, Stats %v; want nothing more, 1 subpart", out.String()[len(before):], w.Stats())
			}
		})
		t.Run("Transformer/"+p.String(), func(t *testing.T) {
			tr := NewTransformer(p, boom)
			dst := make([]byte, 256)
			if catch(func() { tr.Transform(dst, []byte(in), true) }) == nil {
				t.Fatal("Transform did not panic")
			}
			if nd, ns, err := tr.Transform(dst, []byte("ok"), true); nd != 0 || ns != 0 || !broken(err) {
				t.Fatalf("Transform after a panic = %d, %d, %v", nd, ns, err)
			}
			if n, err := tr.Span([]byte("ok"), true); n != 0 || !broken(err) {
				t.Fatalf("Span after a panic = %d, %v", n, err)
			}
			tr.Reset()
			if got, _, err := transform.String(tr, "ok"); got != "ok" || err != nil {
				t.Errorf("after Reset: %q, %v", got, err)
			}
		})
	}
}

// refPosition returns the line and column of offset off in in, as the
// utf8stream command counts them: newlines (0A) from 1, and the 1-based
// byte column after the last of them.
func refPosition(in []byte, off int64) (line, col int64) {
	before := in[:off]
	return int64(bytes.Count(before, []byte("\n"))) + 1, off - int64(bytes.LastIndexByte(before, '\n')+1) + 1
}

// linesInputs are vectors with newlines, CR LF and lone CRs around their
// ill-formed bytes, and long inputs whose units the block loop takes.
func linesInputs() []string {
	inputs := []string{
		"\xFF",
		"\n\xFF",
		"a\nb\n\xFFc\n",
		"\r\n\xFF\r\n\r\xFE\r\r\n\n\xC3",
		"caf\xE9\r\nna\xEFve\rx\xA9\n\n\n\x80",
		"\n\n\xE2\x82\n\xF0\x9F\x98\n\xED\xA0\x80\n",
		"line 1\nline 2\nline 3 \xFF here\n",
	}
	for _, tc := range vectors {
		inputs = append(inputs, tc.in, "x\n"+tc.in+"\n"+tc.in, strings.ReplaceAll(tc.in, " ", "\r\n"))
	}
	for _, in := range optionVectors {
		inputs = append(inputs, "\n"+strings.ReplaceAll(in, " ", "\n"))
	}
	random := textgen.Make("random", 3000) // a newline every 256 bytes or so
	latin := textgen.Make("invalid1pct", 6000)
	for i := 37; i < len(latin); i += 37 + i%50 {
		latin[i] = '\n'
	}
	// Valid text over more than one spanChunk, where the kernels count,
	// then an error; and one long line after a newline.
	text := strings.Repeat("a line of text, caf\u00e9\n", 700)
	long := "\n" + strings.Repeat("x", 20000)
	return append(inputs, string(random), string(latin), text+"\xFF tail\n", long+"\xFF", text+long+"\xC3")
}

// TestLines checks the Line and Column of every Error, from OnInvalid and
// from Reject, against the offsets, in the Transformer (whole and a byte at
// a time), the Reader (whole, a byte at a time, and WriteTo), the Writer
// (split at every point and in pieces of 1 to 5 bytes) and the helpers,
// under every policy and option; and that without Lines they are 0.
func TestLines(t *testing.T) {
	combos := append([]optCombo{{"none", 0}}, optCombos...)
	cutStep := 1
	if testing.Short() {
		combos = []optCombo{{"none", 0}, {"all", 127}}
		cutStep = 3
		if sampled {
			cutStep = 11 // a sample: see sampled
		}
	}
	for _, in := range linesInputs() {
		for _, combo := range combos {
			opts, _ := fuzzOptions(combo.o)
			for _, p := range allPolicies {
				desc := fmt.Sprintf("%s %v %.40q", combo.name, p, in)
				var want []Error
				wantOut, wantErr := transformString(NewTransformer(p, append(opts, OnInvalid(func(e Error) { want = append(want, e) }))...), in)
				var got []Error
				onInvalid := OnInvalid(func(e Error) { got = append(got, e) })
				lopts := append(append(opts[:len(opts):len(opts)], Lines()), onInvalid)
				check := func(how string, out []byte, err error) {
					t.Helper()
					if err == io.EOF {
						err = nil
					}
					if string(out) != wantOut || !sameError(err, wantErr) || len(got) != len(want) {
						t.Fatalf("%s %s: %q, %v, %d errors; want %q, %v, %d", desc, how, out, err, len(got), wantOut, wantErr, len(want))
					}
					var e *Error
					if errorsAs(err, &e) {
						got = append(got, *e)
					}
					for i, g := range got {
						line, col := refPosition([]byte(in), g.Offset)
						if (i < len(want) && g.Offset != want[i].Offset) || g.Line != line || g.Column != col {
							t.Fatalf("%s %s: error %d at offset %d, line %d, column %d; want line %d, column %d", desc, how, i, g.Offset, g.Line, g.Column, line, col)
						}
					}
					got = got[:0]
				}
				out, err := transformString(NewTransformer(p, lopts...), in)
				check("Transform", []byte(out), err)
				out2, err := io.ReadAll(transform.NewReader(iotest.OneByteReader(strings.NewReader(in)), NewTransformer(p, lopts...)))
				check("transform.Reader(one byte)", out2, err)
				out2, err = readAllErr(NewReader(strings.NewReader(in), p, lopts...))
				check("Reader", out2, err)
				out2, err = readSmall(NewReader(iotest.OneByteReader(strings.NewReader(in)), p, lopts...), 1)
				check("Reader(one byte)", out2, err)
				var buf bytes.Buffer
				_, err = NewReader(iotest.OneByteReader(strings.NewReader(in)), p, lopts...).WriteTo(&buf)
				check("Reader.WriteTo(one byte)", buf.Bytes(), err)
				out2, err = Bytes([]byte(in), p, lopts...)
				check("Bytes", out2, err)
				out, err = String(in, p, lopts...)
				check("String", []byte(out), err)
				out2, err = Append([]byte{}, []byte(in), p, lopts...)
				check("Append", out2, err)
				step := cutStep
				if len(in) > 200 {
					step = 97 * cutStep
				}
				for cut := 0; cut <= len(in); cut += step {
					out2, err = writeChunks(p, []byte(in), []int{cut, len(in)}, lopts...)
					check(fmt.Sprintf("Writer(cut at %d)", cut), out2, err)
				}
				for size := 1; size <= 5; size++ {
					out2, err = writeChunks(p, []byte(in), []int{size}, lopts...)
					check(fmt.Sprintf("Writer(pieces of %d)", size), out2, err)
				}
				for _, e := range want {
					if e.Line != 0 || e.Column != 0 {
						t.Fatalf("%s without Lines: error at offset %d has line %d, column %d", desc, e.Offset, e.Line, e.Column)
					}
				}
				if p == Reject {
					var e *Error
					if errorsAs(wantErr, &e) && (e.Line != 0 || e.Column != 0) {
						t.Fatalf("%s without Lines: %v", desc, e)
					}
				}
			}
		}
	}
}
