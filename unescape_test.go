package utf8stream

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/utf8stream/utf8stream/internal/textgen"
	"golang.org/x/text/transform"
)

// TestUnescaperRoundTrip escapes every vector and random bytes and restores
// them, whole and through every chunking reader.
func TestUnescaperRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := []string{}
	for _, tc := range vectors {
		inputs = append(inputs, tc.in)
	}
	for range 200 {
		b := make([]byte, rng.IntN(64))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		inputs = append(inputs, string(b))
	}
	for _, p := range reversiblePolicies {
		for _, opts := range [][]Option{nil, {NoNUL()}} {
			for _, in := range inputs {
				esc, err := transformString(NewTransformer(p, opts...), in)
				if err != nil {
					t.Fatal(err)
				}
				for _, rc := range readerCases(uint64(len(in))) {
					back, err := readAllErr(transform.NewReader(rc.mk(esc), NewUnescaper(p, opts...)))
					if string(back) != in || err.Error() != "EOF" {
						t.Fatalf("%v %d opts via %s: restore(escape(%q)) = %q, %v", p, len(opts), rc.name, in, back, err)
					}
				}
			}
		}
	}
}

// TestUnescaperNeverASCII checks that no escape yields a byte below 80,
// except U+DC00 and U+EF00 under NoNUL, by restoring every 3-byte string
// that starts with ED or EE.
func TestUnescaperNeverASCII(t *testing.T) {
	for _, p := range reversiblePolicies {
		for _, nul := range []bool{false, true} {
			var opts []Option
			if nul {
				opts = append(opts, NoNUL())
			}
			u := NewUnescaper(p, opts...)
			for lead := 0xED; lead <= 0xEE; lead++ {
				for i := range 1 << 16 {
					in := []byte{byte(lead), byte(i >> 8), byte(i)}
					out, _, err := transform.Bytes(u, in)
					if err != nil {
						t.Fatal(err)
					}
					if len(out) == 3 {
						if !bytes.Equal(out, in) {
							t.Fatalf("% X became % X", in, out)
						}
						continue
					}
					esc := []byte{0xED, 0xB0, 0x80} // U+DC00
					if p == OPTU8 {
						esc = []byte{0xEE, 0xBC, 0x80} // U+EF00
					}
					if len(out) != 1 || out[0] < 0x80 && !(nul && out[0] == 0 && bytes.Equal(in, esc)) {
						t.Fatalf("%v nul=%v: % X restored to % X", p, nul, in, out)
					}
				}
			}
		}
	}
}

func TestUnescaperOtherPoliciesCopy(t *testing.T) {
	in := "\xED\xB2\x80\xEE\xBE\x80 text \xFF"
	for _, p := range policiesWhere(func(p Policy) bool { return NewUnescaper(p).lead == 0 }) {
		out, _, err := transform.String(NewUnescaper(p), in)
		if err != nil || out != in {
			t.Errorf("%v: Unescaper changed %q to %q, %v", p, in, out, err)
		}
	}
}

func TestUnescaperContract(t *testing.T) {
	u := NewUnescaper(SurrogateEscape)
	for _, tc := range []struct {
		src     string
		atEOF   bool
		dstSize int
		want    string
		nSrc    int
		err     error
	}{
		{"ab\xED", false, 10, "ab", 2, transform.ErrShortSrc},
		{"ab\xED\xB2", false, 10, "ab", 2, transform.ErrShortSrc},
		{"ab\xED\xB2", true, 10, "ab\xED\xB2", 4, nil},
		{"ab\xED\x9F\xBF", false, 10, "ab\xED\x9F\xBF", 5, nil},
		{"\xED\xB3\xBFx", false, 1, "\xFF", 3, transform.ErrShortDst},
		{"xy\xED\xB2\x80", true, 2, "xy", 2, transform.ErrShortDst},
		{"\xED\xB2\x80\xED\xB3\xBF", true, 2, "\x80\xFF", 6, nil},
	} {
		dst := make([]byte, tc.dstSize)
		nDst, nSrc, err := u.Transform(dst, []byte(tc.src), tc.atEOF)
		if string(dst[:nDst]) != tc.want || nSrc != tc.nSrc || err != tc.err {
			t.Errorf("Transform(%q, %v, %d) = %q, %d, %v; want %q, %d, %v",
				tc.src, tc.atEOF, tc.dstSize, dst[:nDst], nSrc, err, tc.want, tc.nSrc, tc.err)
		}
	}
}

// refUnescape is Unescaper.Transform written with Span alone: the runs
// without an escape copied whole, and each escape after one.
func refUnescape(u *Unescaper, dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		v, serr := u.Span(src[nSrc:], atEOF)
		if room := len(dst) - nDst; v > room {
			v, serr = room, transform.ErrShortDst
		}
		nDst += copy(dst[nDst:], src[nSrc:nSrc+v])
		nSrc += v
		switch serr {
		case nil:
			return nDst, nSrc, nil
		case transform.ErrEndOfSpan:
		default:
			return nDst, nSrc, serr
		}
		if nDst == len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		dst[nDst] = (src[nSrc+1]&3)<<6 | src[nSrc+2]&0x3F
		nDst++
		nSrc += 3
	}
	return nDst, nSrc, nil
}

// TestUnescaperTransformAgainstSpan checks Transform, which looks at a few
// bytes itself before it calls IndexByte, against refUnescape: on escaped
// dense and sparse input, cut at every length, into every size of dst,
// before and at the end of the stream.
func TestUnescaperTransformAgainstSpan(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, p := range reversiblePolicies {
		for _, o := range []uint8{0, 1} { // and NoNUL
			opts, _ := fuzzOptions(o)
			u := NewUnescaper(p, opts...)
			for _, base := range []string{"random", "invalid1pct", "emoji", "leads"} {
				var in []byte
				if base == "leads" {
					// Bytes whose escapes put lead-like and
					// second-byte-like bytes next to each other.
					alphabet := []byte{0x80, 0xB2, 0xB3, 0xBE, 0xBF, 0xED, 0xEE, 'a'}
					for range 300 {
						in = append(in, alphabet[rng.IntN(len(alphabet))])
					}
				} else {
					in = textgen.Make(base, 300)
				}
				in[rng.IntN(len(in))] = 0
				esc, _ := transformString(NewTransformer(p, opts...), string(in))
				// Lead bytes that start no escape, and escapes cut short.
				esc += string([]byte{u.lead, 'x', u.lead, u.mid | 2, 'y', u.lead, u.mid | 3})
				for cut := range len(esc) + 1 {
					src := []byte(esc[:cut])
					for _, atEOF := range []bool{false, true} {
						for size := 0; size <= len(src)+1; size += 1 + size/8 {
							got, want := make([]byte, size), make([]byte, size)
							gd, gs, gerr := u.Transform(got, src, atEOF)
							wd, ws, werr := refUnescape(u, want, src, atEOF)
							if gd != wd || gs != ws || gerr != werr || !bytes.Equal(got[:gd], want[:wd]) {
								t.Fatalf("%v opts %#x: Transform(%q, %v) into %d = %d, %d, %v; want %d, %d, %v",
									p, o, src, atEOF, size, gd, gs, gerr, wd, ws, werr)
							}
						}
					}
				}
			}
		}
	}
}

// TestEscapedOutputValidity checks what the docs promise: OPTU8 output is
// valid UTF-8, SurrogateEscape output is not when it escaped anything.
func TestEscapedOutputValidity(t *testing.T) {
	in := "ok \xFF\xC0\xAF end"
	o, _ := transformString(NewTransformer(OPTU8), in)
	s, _ := transformString(NewTransformer(SurrogateEscape), in)
	if !validString(o) || validString(s) {
		t.Errorf("OPTU8 output valid = %v, SurrogateEscape output valid = %v; want true, false", validString(o), validString(s))
	}
	if !strings.Contains(s, "\xED\xB3\xBF") {
		t.Errorf("SurrogateEscape of FF is not ED B3 BF: %q", s)
	}
}

func validString(s string) bool {
	n, err := NewTransformer(Reject).Span([]byte(s), true)
	return err == nil && n == len(s)
}

func TestUnescaperOneByteReader(t *testing.T) {
	in := "a\xFFb\xEE\xBE\x80c"
	esc, _ := transformString(NewTransformer(OPTU8), in)
	r := transform.NewReader(iotest.OneByteReader(strings.NewReader(esc)), NewUnescaper(OPTU8))
	if err := iotest.TestReader(r, []byte(in)); err != nil {
		t.Fatal(err)
	}
}
