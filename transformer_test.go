package utf8stream

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/utf8stream/utf8stream/internal/textgen"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

var _ transform.SpanningTransformer = (*Transformer)(nil)
var _ transform.SpanningTransformer = (*Unescaper)(nil)

// allPolicies is every policy: each test that loops over policies takes
// them from here, or from the lists below made from it, so that a new
// policy is tested everywhere.
var allPolicies = Policies()

// repairPolicies are the policies that write output for ill-formed input:
// all but Reject.
var repairPolicies = policiesWhere(func(p Policy) bool { return p != Reject })

// reversiblePolicies are the policies whose escapes an Unescaper restores.
var reversiblePolicies = policiesWhere(func(p Policy) bool { return NewUnescaper(p).lead != 0 })

// policiesWhere returns the policies of allPolicies for which keep is true.
func policiesWhere(keep func(Policy) bool) []Policy {
	var ps []Policy
	for _, p := range allPolicies {
		if keep(p) {
			ps = append(ps, p)
		}
	}
	return ps
}

// vectors are the inputs every test of the package runs through every
// policy, every wrapper and every chunking.
var vectors = []struct {
	desc string
	in   string
}{
	{"empty", ""},
	{"ASCII", "Hello, world\n"},
	{"RFC 3629 A<NOT IDENTICAL TO><ALPHA>.", "\x41\xE2\x89\xA2\xCE\x91\x2E"},
	{"RFC 3629 Korean hangugeo", "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"},
	{"RFC 3629 Japanese nihongo", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"},
	{"RFC 3629 BOM and U+233B4", "\xEF\xBB\xBF\xF0\xA3\x8E\xB4"},
	{"RFC 2044 5-byte form", "\xF8\x88\x80\x80\x80"},
	{"RFC 2044 6-byte form", "\xFC\x84\x80\x80\x80\x80"},
	{"Table 3-8 example", "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"},
	{"E1 A0 20", "\xE1\xA0\x20"},
	{"boundaries 1 and 2 bytes", "\x00\x7F\xC2\x80\xDF\xBF"},
	{"boundaries 3 bytes", "\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80\xEF\xBF\xBD\xEF\xBF\xBE\xEF\xBF\xBF"},
	{"boundaries 4 bytes", "\xF0\x90\x80\x80\xF4\x8F\xBF\xBF"},
	{"noncharacters", "\xEF\xB7\x90\xEF\xBF\xBE\xF4\x8F\xBF\xBE"},
	{"overlong slash", "\xC0\xAF\xE0\x80\xAF\xF0\x80\x80\xAF"},
	{"overlong NUL", "\xC0\x80"},
	{"overlong max", "\xC1\xBF\xE0\x9F\xBF\xF0\x8F\xBF\xBF"},
	{"surrogates", "\xED\xA0\x80\xED\xBF\xBF"},
	{"surrogate pair CESU-8", "\xED\xA0\xBD\xED\xB8\x80"},
	{"above U+10FFFF", "\xF4\x90\x80\x80\xF5\x80\x80\x80\xF7\xBF\xBF\xBF"},
	{"FE FF", "\xFE\xFF"},
	{"lone continuation bytes", "\x80\xBF\x80"},
	{"lead bytes without continuation", "\xC2 \xE0 \xF0 \xF4 "},
	{"truncated 2 of 3", "a\xE2\x82"},
	{"truncated 3 of 4", "a\xF0\x9F\x98"},
	{"truncated 1 of 4", "\xF0"},
	{"truncated in the middle", "\xE2\x82a\xF0\x9F\x98b\xC3c"},
	{"escape range U+EF80..U+EFFF", "\xEE\xBE\x80\xEE\xBF\xBF\xEE\xBD\xBF"},
	{"U+EF00 and U+DC80 look-alikes", "\xEE\xBC\x80\xED\xB2\x80"},
	{"Latin-1 text", "caf\xE9 na\xEFve \xA9 \x80"},
	{"mixed scripts", "Привет, мир! 日本語 😀 ☃ \xFF end"},
	{"NUL inside", "a\x00b"},
}

func transformString(t *Transformer, in string) (string, error) {
	s, _, err := transform.String(t, in)
	return s, err
}

func TestTransformVectorsAgainstOracle(t *testing.T) {
	for _, tc := range vectors {
		for _, p := range allPolicies {
			t.Run(tc.desc+"/"+p.String(), func(t *testing.T) {
				want, errOff, errBytes := refTransform(p, []byte(tc.in), refOpts{})
				got, err := transformString(NewTransformer(p), tc.in)
				if errOff < 0 {
					if err != nil || got != string(want) {
						t.Fatalf("Transform(%q) = %q, %v; want %q, nil", tc.in, got, err, want)
					}
					return
				}
				var e *Error
				if !errors.As(err, &e) || !errors.Is(err, ErrInvalid) {
					t.Fatalf("Transform(%q) error = %v; want *Error", tc.in, err)
				}
				if got != string(want) || e.Offset != errOff || !bytes.Equal(e.Bytes, errBytes) {
					t.Fatalf("Transform(%q) = %q, offset %d bytes % X; want %q, offset %d bytes % X",
						tc.in, got, e.Offset, e.Bytes, want, errOff, errBytes)
				}
			})
		}
	}
}

// TestReplaceMatchesXText checks Replace against x/text's unicode.UTF8
// decoder, which follows the maximal-subpart practice.
func TestReplaceMatchesXText(t *testing.T) {
	for _, tc := range vectors {
		want, _, err := transform.String(unicode.UTF8.NewDecoder(), tc.in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := transformString(NewTransformer(Replace), tc.in)
		if err != nil || got != want {
			t.Errorf("%s: Transform(%q) = %q, %v; want %q", tc.desc, tc.in, got, err, want)
		}
	}
}

// TestReplaceDocumented checks the examples the documentation gives.
func TestReplaceDocumented(t *testing.T) {
	for _, tc := range []struct{ desc, in, want string }{
		// Unicode's Table 3-8: F1 80 80 | E1 80 | C2 are three maximal subparts.
		{"Table 3-8", "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64", "a\uFFFD\uFFFD\uFFFDb\uFFFDc\uFFFD\uFFFDd"},
		{"E1 A0 20", "\xE1\xA0\x20", "\uFFFD "},
		{"truncated tail", "ab\xF0\x9F\x98", "ab\uFFFD"},
		{"surrogate", "\xED\xA0\x80", "\uFFFD\uFFFD\uFFFD"},
		{"U+FFFD is valid", "\uFFFD", "\uFFFD"},
	} {
		got, err := transformString(NewTransformer(Replace), tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%s: Transform(%q) = %q, %v; want %q", tc.desc, tc.in, got, err, tc.want)
		}
	}
}

// TestEverySingleByte runs each byte 00..FF alone and between ASCII letters.
func TestEverySingleByte(t *testing.T) {
	for c := range 256 {
		for _, in := range []string{string([]byte{byte(c)}), "a" + string([]byte{byte(c)}) + "b"} {
			for _, p := range allPolicies {
				want, errOff, _ := refTransform(p, []byte(in), refOpts{})
				got, err := transformString(NewTransformer(p), in)
				if (err != nil) != (errOff >= 0) || got != string(want) {
					t.Errorf("%v: Transform(%q) = %q, %v; want %q (error at %d)", p, in, got, err, want, errOff)
				}
				if p == Reject && (err == nil) != utf8.ValidString(in) {
					t.Errorf("Reject(%q): error %v, but utf8.ValidString = %v", in, err, utf8.ValidString(in))
				}
			}
		}
	}
}

// TestEveryTwoAndThreeBytes checks validity against utf8.Valid for every
// two-byte string, and every three-byte string starting with a lead byte.
func TestEveryTwoAndThreeBytes(t *testing.T) {
	tr := NewTransformer(Reject)
	check := func(b []byte) {
		tr.Reset()
		n, err := tr.Span(b, true)
		if (err == nil) != utf8.Valid(b) {
			t.Fatalf("Span(% X, true) = %d, %v; utf8.Valid = %v", b, n, err, utf8.Valid(b))
		}
	}
	var b [3]byte
	for i := range 1 << 16 {
		b[0], b[1] = byte(i>>8), byte(i)
		check(b[:2])
		if b[0] >= 0xE0 {
			for c := 0x7F; c <= 0xC0; c++ {
				b[2] = byte(c)
				check(b[:3])
			}
		}
	}
}

// TestEveryScalarValue checks that every scalar value's encoding is valid
// and is copied unchanged by every policy but OPTU8's escape range.
func TestEveryScalarValue(t *testing.T) {
	var b [4]byte
	trs := make([]*Transformer, len(allPolicies))
	for i, p := range allPolicies {
		trs[i] = NewTransformer(p)
	}
	dst := make([]byte, 16)
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		n := utf8.EncodeRune(b[:], r)
		for i, tr := range trs {
			tr.Reset()
			nDst, nSrc, err := tr.Transform(dst, b[:n], true)
			escaped := tr.Policy() == OPTU8 && 0xEF80 <= r && r <= 0xEFFF
			if err != nil || nSrc != n || escaped != !bytes.Equal(dst[:nDst], b[:n]) {
				t.Fatalf("%v: Transform(U+%04X) = % X, %d, %v", allPolicies[i], r, dst[:nDst], nSrc, err)
			}
		}
	}
}

// TestTransformContract is the edge-case table of the Transformer contract:
// short destinations, unfinished sequences with and without atEOF.
func TestTransformContract(t *testing.T) {
	type tcase struct {
		desc    string
		p       Policy
		src     string
		atEOF   bool
		dstSize int
		want    string
		nSrc    int
		err     error
	}
	var errInvalid = errors.New("*Error")
	for _, tc := range []tcase{
		{"empty", Replace, "", false, 0, "", 0, nil},
		{"empty at EOF", Reject, "", true, 0, "", 0, nil},
		{"ASCII fits", Replace, "abc", false, 3, "abc", 3, nil},
		{"ASCII short dst", Replace, "abc", false, 2, "ab", 2, transform.ErrShortDst},
		{"no room at all", Replace, "abc", true, 0, "", 0, transform.ErrShortDst},
		{"short dst splits no sequence", Replace, "a\u00e9b", true, 2, "a", 1, transform.ErrShortDst},
		{"short dst before 4-byte", Replace, "ab😀", true, 5, "ab", 2, transform.ErrShortDst},
		{"unfinished 2 of 3", Replace, "a\xE2\x82", false, 10, "a", 1, transform.ErrShortSrc},
		{"unfinished 1 of 2", Reject, "a\xC3", false, 10, "a", 1, transform.ErrShortSrc},
		{"unfinished 3 of 4", SurrogateEscape, "\xF0\x9F\x98", false, 10, "", 0, transform.ErrShortSrc},
		{"unfinished at EOF replace", Replace, "a\xE2\x82", true, 10, "a\uFFFD", 3, nil},
		{"unfinished at EOF reject", Reject, "a\xE2\x82", true, 10, "a", 1, errInvalid},
		{"unfinished at EOF escape", SurrogateEscape, "\xE2\x82", true, 10, "\xED\xB3\xA2\xED\xB2\x82", 2, nil},
		{"ill-formed, not unfinished", Replace, "a\xE2\x41", false, 10, "a\uFFFDA", 3, nil},
		{"replacement does not fit", Replace, "a\xFF", true, 3, "a", 1, transform.ErrShortDst},
		{"replacement fits exactly", Replace, "a\xFF", true, 4, "a\uFFFD", 2, nil},
		{"escape does not fit", OPTU8, "\xFF\xFE", true, 5, "\xEE\xBF\xBF", 1, transform.ErrShortDst},
		{"reject after valid", Reject, "ab\xFFcd", true, 10, "ab", 2, errInvalid},
		{"reject first byte", Reject, "\x80", false, 10, "", 0, errInvalid},
		{"OPTU8 unfinished escape-range lead", OPTU8, "a\xEE", false, 10, "a", 1, transform.ErrShortSrc},
		{"OPTU8 escapes valid EE BE 80", OPTU8, "\xEE\xBE\x80", false, 10, "\xEE\xBF\xAE\xEE\xBE\xBE\xEE\xBE\x80", 3, nil},
		{"drop", Drop, "a\xFFb\xE2\x82", true, 10, "ab", 5, nil},
		{"windows-1252", Windows1252, "\x80\x81\xE9", true, 10, "€\uFFFDé", 3, nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dst := make([]byte, tc.dstSize)
			nDst, nSrc, err := NewTransformer(tc.p).Transform(dst, []byte(tc.src), tc.atEOF)
			got := string(dst[:nDst])
			errOK := err == tc.err
			if tc.err == errInvalid {
				var e *Error
				errOK = errors.As(err, &e) && e.Offset == int64(tc.nSrc)
			}
			if got != tc.want || nSrc != tc.nSrc || !errOK {
				t.Errorf("Transform(%q, atEOF=%v, dst %d) = %q, %d, %v; want %q, %d, %v",
					tc.src, tc.atEOF, tc.dstSize, got, nSrc, err, tc.want, tc.nSrc, tc.err)
			}
			if err == nil && nSrc != len(tc.src) {
				t.Errorf("nil error with nSrc %d != len(src) %d", nSrc, len(tc.src))
			}
			if err == transform.ErrShortSrc && (tc.atEOF || len(tc.src)-nSrc > 3) {
				t.Errorf("ErrShortSrc with atEOF=%v and %d bytes pending", tc.atEOF, len(tc.src)-nSrc)
			}
		})
	}
}

// TestTransformShortDstProgress transforms each vector with every small
// destination size, calling Transform the way transform.Reader does, and
// checks the output is the same.
func TestTransformShortDstProgress(t *testing.T) {
	for _, tc := range vectors {
		for _, p := range allPolicies {
			want, wantErr := transformString(NewTransformer(p), tc.in)
			// From 12 bytes, the longest output of one unit: a 3-byte
			// subpart under BackslashReplace.
			for size := 12; size <= 23; size++ {
				tr := NewTransformer(p)
				var out []byte
				src := []byte(tc.in)
				dst := make([]byte, size)
				var err error
				for {
					var nDst, nSrc int
					nDst, nSrc, err = tr.Transform(dst, src, true)
					out = append(out, dst[:nDst]...)
					src = src[nSrc:]
					if err != transform.ErrShortDst {
						break
					}
					if nDst == 0 {
						t.Fatalf("%v %s size %d: no progress", p, tc.desc, size)
					}
				}
				if string(out) != want || (err == nil) != (wantErr == nil) {
					t.Fatalf("%v %s size %d: got %q, %v; want %q, %v", p, tc.desc, size, out, err, want, wantErr)
				}
			}
		}
	}
}

// TestTransformShortDstFills checks that Transform returns ErrShortDst
// only after writing all that fits: for each prefix of a vector that ends
// on a unit (a character or a maximal subpart: where cutting the input
// changes nothing Replace writes), one call with a dst of exactly the
// length of that prefix's output writes all of it.
func TestTransformShortDstFills(t *testing.T) {
	replace := func(s string) string {
		out, _ := transformString(NewTransformer(Replace), s)
		return out
	}
	for _, tc := range vectors {
		whole := replace(tc.in)
		for _, p := range allPolicies {
			want, _ := transformString(NewTransformer(p), tc.in)
			for k := 0; k <= len(tc.in); k++ {
				part, _ := transformString(NewTransformer(p), tc.in[:k])
				if replace(tc.in[:k])+replace(tc.in[k:]) != whole || !strings.HasPrefix(want, part) {
					continue // k cuts a unit, or Reject stops before it
				}
				dst := make([]byte, len(part))
				nDst, _, err := NewTransformer(p).Transform(dst, []byte(tc.in), true)
				if nDst != len(part) {
					t.Fatalf("%v %s: Transform into %d bytes wrote %q, %v; want %q", p, tc.desc, len(dst), dst[:nDst], err, part)
				}
			}
		}
	}
}

// TestSpan checks that Span stops exactly at the first byte Transform would
// change, and reports an unfinished tail as ErrShortSrc.
func TestSpan(t *testing.T) {
	for _, tc := range vectors {
		for _, p := range allPolicies {
			for _, atEOF := range []bool{false, true} {
				in := []byte(tc.in)
				n, err := NewTransformer(p).Span(in, atEOF)
				// The first byte Transform changes: the longest prefix
				// whose output equals it and that ends on a unit.
				dst := make([]byte, 4*len(in)+100)
				nDst, nSrc, terr := NewTransformer(p).Transform(dst, in, atEOF)
				same := 0
				for same < nDst && same < nSrc && dst[same] == in[same] {
					same++
				}
				switch {
				case err == nil:
					if n != len(in) || !bytes.Equal(dst[:nDst], in) || terr != nil {
						t.Errorf("%v %s atEOF=%v: Span = %d, nil but Transform = %q, %d, %v", p, tc.desc, atEOF, n, dst[:nDst], nSrc, terr)
					}
				case err == transform.ErrShortSrc:
					if atEOF || terr != transform.ErrShortSrc || n != nSrc || len(in)-n > 3 {
						t.Errorf("%v %s: Span = %d, %v; Transform = %d, %v", p, tc.desc, n, err, nSrc, terr)
					}
				case err == transform.ErrEndOfSpan:
					if n > same {
						t.Errorf("%v %s atEOF=%v: Span = %d past the first change at %d", p, tc.desc, atEOF, n, same)
					}
					// Stop exactly there: the byte at n is changed or
					// starts a changed unit, and the prefix is valid.
					if !utf8.Valid(in[:n]) || n < len(in) && n < same && p != OPTU8 && utf8.Valid(in[:n+1]) {
						t.Errorf("%v %s atEOF=%v: Span = %d stops early (same %d)", p, tc.desc, atEOF, n, same)
					}
				default:
					t.Errorf("%v %s: Span error %v", p, tc.desc, err)
				}
			}
		}
	}
}

// TestSpanThenTransform interleaves Span and Transform, as the contract
// allows, and checks output and offsets match a Transform of the whole.
func TestSpanThenTransform(t *testing.T) {
	for _, tc := range vectors {
		for _, p := range allPolicies {
			want, wantErr := transformString(NewTransformer(p), tc.in)
			tr := NewTransformer(p)
			in := []byte(tc.in)
			n, err := tr.Span(in, true)
			got := string(in[:n])
			if err == transform.ErrEndOfSpan {
				rest, _, terr := transform.Append(transformerNoReset{tr}, nil, in[n:])
				got += string(rest)
				err = terr
			}
			if got != want || !sameError(err, wantErr) {
				t.Errorf("%v %s: Span+Transform = %q, %v; want %q, %v", p, tc.desc, got, err, want, wantErr)
			}
		}
	}
}

// transformerNoReset hides Reset, which transform.Append does not call but
// transform.String does, so that a test can continue a stream.
type transformerNoReset struct{ *Transformer }

func (transformerNoReset) Reset() {}

// sameError reports whether two errors are both nil, or both *Error with the
// same offset and bytes, or equal.
func sameError(a, b error) bool {
	var ea, eb *Error
	if errors.As(a, &ea) && errors.As(b, &eb) {
		return ea.Offset == eb.Offset && bytes.Equal(ea.Bytes, eb.Bytes)
	}
	return a == b
}

func TestTransformerReset(t *testing.T) {
	tr := NewTransformer(Reject)
	if _, err := transformString(tr, "abc\xFF"); err == nil {
		t.Fatal("no error")
	}
	// "abc" was consumed; the ill-formed byte at 3 stops the stream.
	if tr.Offset() != 3 || tr.Stats() != (Stats{Subparts: 1, Bytes: 1, First: 3}) {
		t.Fatalf("offset %d, Stats %+v; want 3, one subpart of 1 byte at 3", tr.Offset(), tr.Stats())
	}
	tr.Reset()
	if tr.Offset() != 0 || tr.Stats() != (Stats{First: -1}) {
		t.Fatalf("after Reset: offset %d, stats %+v", tr.Offset(), tr.Stats())
	}
	_, err := transformString(tr, "\xFF")
	var e *Error
	if !errors.As(err, &e) || e.Offset != 0 {
		t.Fatalf("after Reset: %v; want offset 0", err)
	}
}

// TestOffsetsCountFromStreamStart feeds a stream in chunks through one
// Transformer and checks the error offset counts from the stream start.
func TestOffsetsCountFromStreamStart(t *testing.T) {
	in := strings.Repeat("héllo ", 1000) + "\xC0" + "tail"
	want := int64(strings.Index(in, "\xC0"))
	for _, chunk := range []int{1, 2, 3, 7, 100, 4096} {
		r := transform.NewReader(iotestChunkReader(in, chunk), NewTransformer(Reject))
		_, err := readAllErr(r)
		var e *Error
		if !errors.As(err, &e) || e.Offset != want {
			t.Errorf("chunk %d: err %v; want offset %d", chunk, err, want)
		}
	}
}

// TestChain composes the Transformer with x/text's UTF-16 decoder and NFC.
func TestChain(t *testing.T) {
	// UTF-16LE for "e" + U+0301 (combining acute) + "x", then raw bytes are
	// impossible in UTF-16 output, so put the ill-formed byte after decoding:
	// decode UTF-16, repair, normalise.
	utf16le := []byte{'e', 0, 0x01, 0x03, 'x', 0}
	dec := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder()
	chain := transform.Chain(dec, NewTransformer(Replace), norm.NFC)
	got, _, err := transform.Bytes(chain, utf16le)
	if want := "\u00e9x"; err != nil || string(got) != want {
		t.Errorf("Chain(UTF-16, Replace, NFC) = %q, %v; want %q", got, err, want)
	}
	// Ill-formed input first, then NFC: the replacement survives NFC and
	// the combining sequence is composed.
	chain = transform.Chain(NewTransformer(Replace), norm.NFC)
	got, _, err = transform.Bytes(chain, []byte("e\u0301\xFFA\u030a"))
	if want := "\u00e9\uFFFD\u00c5"; err != nil || string(got) != want {
		t.Errorf("Chain(Replace, NFC) = %q, %v; want %q", got, err, want)
	}
	// Reject inside a chain stops with an *Error.
	chain = transform.Chain(NewTransformer(Reject), norm.NFC)
	_, _, err = transform.Bytes(chain, []byte("ok\xC1\xBF"))
	var e *Error
	if !errors.As(err, &e) || e.Offset != 2 {
		t.Errorf("Chain(Reject, NFC) error = %v; want *Error at offset 2", err)
	}
}

func TestErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{Offset: 7, Bytes: []byte{0xE0}}, "utf8stream: invalid UTF-8 at offset 7: bytes E0: E0 must be followed by A0..BF (overlong encoding, or a sequence cut short)"},
		{Error{Offset: 0, Bytes: []byte{0x80}}, "utf8stream: invalid UTF-8 at offset 0: bytes 80: unexpected continuation byte"},
		{Error{Offset: 3, Bytes: []byte{0xE1, 0x80}}, "utf8stream: invalid UTF-8 at offset 3: bytes E1 80: E1 80 must be followed by 80..BF"},
		{Error{Offset: 57, Bytes: []byte{0xE9}, Line: 3, Column: 5}, "utf8stream: invalid UTF-8 at line 3, column 5 (offset 57): bytes E9: E9 must be followed by 80..BF"},
		{Error{Offset: 6, Bytes: []byte{0x00, 0xD8}, Form: "UTF-16LE"}, "utf8stream: invalid UTF-16LE at offset 6: bytes 00 D8: lone surrogate U+D800"},
		{Error{Offset: 2, Bytes: []byte{0x00, 0xD8, 0x41}, Form: "UTF-16LE"}, "utf8stream: invalid UTF-16LE at offset 2: bytes 00 D8 41: high surrogate followed by a truncated code unit at the end of the input"},
		{Error{Offset: 8, Bytes: []byte{0x41}, Form: "UTF-16BE"}, "utf8stream: invalid UTF-16BE at offset 8: bytes 41: truncated code unit at the end of the input"},
		{Error{Offset: 4, Bytes: []byte{0x00, 0x00, 0x11, 0x00}, Form: "UTF-32LE"}, "utf8stream: invalid UTF-32LE at offset 4: bytes 00 00 11 00: 0x110000 is above U+10FFFF"},
		{Error{Offset: 1, Bytes: []byte{0x00, 0x00, 0xDC, 0x00}, Form: "UTF-32BE"}, "utf8stream: invalid UTF-32BE at offset 1: bytes 00 00 DC 00: surrogate U+DC00"},
		{Error{Offset: 3, Bytes: []byte{0xDC, 0x00}, Form: "UTF-16"}, "utf8stream: invalid UTF-16 at unit 3: bytes DC 00: lone surrogate U+DC00"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("Error() = %q; want %q", got, tc.want)
		}
	}
	for c := 0x80; c < 0x100; c++ {
		if c >= 0xC2 && c <= 0xF4 {
			continue
		}
		e := Error{Bytes: []byte{byte(c)}}
		if r := e.Reason(); r == "" || strings.Contains(r, "followed by") {
			t.Errorf("Reason(%02X) = %q", c, r)
		}
	}
}

func TestErrorIsAs(t *testing.T) {
	_, err := transformString(NewTransformer(Reject), "ok\xED\xA0\x80")
	wrapped := fmt.Errorf("loading: %w", err)
	var e *Error
	if !errors.Is(wrapped, ErrInvalid) || !errors.As(wrapped, &e) {
		t.Fatalf("errors.Is/As failed on %v", wrapped)
	}
	if diff := cmp.Diff(&Error{Offset: 2, Bytes: []byte{0xED}}, e); diff != "" {
		t.Errorf("error mismatch (-want +got):\n%s", diff)
	}
}

// TestTransformAllocs checks that steady-state Transform allocates nothing,
// on valid text and on dense errors, where the dense loop's table is used.
func TestTransformAllocs(t *testing.T) {
	for _, name := range []string{"japanese", "invalid1pct", "random"} {
		in := textgen.Make(name, 64<<10)
		dst := make([]byte, 3*len(in)+64)
		for _, p := range allPolicies {
			if p == Reject && name != "japanese" {
				continue // the *Error that ends the stream is allocated, once
			}
			tr := NewTransformer(p)
			tr.Transform(dst, in, true) // look up the table
			allocs := testing.AllocsPerRun(20, func() {
				tr.Reset()
				tr.Transform(dst, in, true)
			})
			if allocs != 0 {
				t.Errorf("%v %s: %v allocations per Transform; want 0", p, name, allocs)
			}
		}
	}
}
