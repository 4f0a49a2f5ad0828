package utf8stream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream/internal/valid"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

func addSeeds(f *testing.F) {
	for i, tc := range vectors {
		f.Add([]byte(tc.in), uint8(i), uint8(i%7))
	}
	f.Add([]byte("\xEF\xBB\xBFa\xC0\x80b\xED\xA0\xBD\xED\xB8\x80\x00"), uint8(3), uint8(0xFF))
	f.Add([]byte("a\xED\xA0\xBD\xED\xA0\xBD\xED\xB8\x80\xED\xB2\x80\xED\xA0\xF0\x9F\x98\x80\xF4\x8F\xBF"), uint8(5), uint8(32))
	f.Add([]byte("\xF0\x9F\x98\x80\xED\xA0\xBD\xED\xB8\x80\xF0\x90\x80\xFFx\xF3\xA0\x80\x81"), uint8(2), uint8(96))
}

// fuzzOptions turns the bits of o into options and the matching oracle
// options.
func fuzzOptions(o uint8) ([]Option, refOpts) {
	var opts []Option
	var ro refOpts
	if o&1 != 0 {
		opts, ro.noNUL = append(opts, NoNUL()), true
	}
	if o&2 != 0 {
		opts, ro.cesu8 = append(opts, CESU8()), true
	}
	if o&4 != 0 {
		opts, ro.mutf8 = append(opts, ModifiedUTF8()), true
	}
	if o&8 != 0 {
		opts, ro.stripBOM = append(opts, StripBOM()), true
	}
	if o&16 != 0 {
		opts, ro.replacement = append(opts, Replacement("?")), "?"
	}
	if o&32 != 0 {
		opts, ro.wtf8 = append(opts, WTF8()), true
	}
	if o&64 != 0 {
		opts, ro.bmpOnly = append(opts, BMPOnly()), true
	}
	if o&128 != 0 {
		// Lines changes no output, only the Errors' Line and Column.
		opts = append(opts, Lines())
	}
	return opts, ro
}

// FuzzTransform checks every policy against the oracles, and that chunking
// changes nothing: the Reader with small reads, and the Writer split at an
// arbitrary point, give what Transform gives on the whole.
func FuzzTransform(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte, split, o uint8) {
		opts, ro := fuzzOptions(o)
		for _, p := range allPolicies {
			want, errOff, errBytes := refTransform(p, in, ro)
			got, _, err := transform.Bytes(NewTransformer(p, opts...), in)
			if errOff >= 0 {
				var e *Error
				if !errors.As(err, &e) || e.Offset != errOff || !bytes.Equal(e.Bytes, errBytes) || !bytes.Equal(got, want) {
					t.Fatalf("%v opts %#x: Transform(%q) = %q, %v; want %q, error at %d (% X)", p, o, in, got, err, want, errOff, errBytes)
				}
			} else if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%v opts %#x: Transform(%q) = %q, %v; want %q", p, o, in, got, err, want)
			}
			if p == Reject && ro == (refOpts{}) && (err == nil) != utf8.Valid(in) {
				t.Fatalf("Reject(%q): %v, but utf8.Valid = %v", in, err, utf8.Valid(in))
			}
			if p != SurrogateEscape && !ro.wtf8 && !utf8.Valid(got) {
				t.Fatalf("%v output %q is not valid UTF-8", p, got)
			}
			if p != SurrogateEscape && ro.wtf8 {
				// The output is generalized UTF-8, which WTF8 accepts;
				// under BMPOnly without pairs, but that Drop may write
				// the halves of one that only dropped bytes kept apart.
				if _, errOff, _ := refTransform(Reject, got, refOpts{wtf8: true, bmpOnly: ro.bmpOnly && p != Drop}); errOff >= 0 {
					t.Fatalf("%v opts %#x: output %q is not WTF-8", p, o, got)
				}
			}
			if ro.bmpOnly && valid.IndexHigh(got) < len(got) {
				t.Fatalf("%v opts %#x: output %q holds a byte F0..FF under BMPOnly", p, o, got)
			}
			if p != Reject {
				// One call into a dst with room for 4 bytes of output
				// for each of input and 64 more, as BenchmarkTransform
				// gives it: tails go to the repair kernel with no
				// room to spare.
				dst := make([]byte, 4*len(in)+64)
				nd, ns, derr := NewTransformer(p, opts...).Transform(dst, in, true)
				if derr != transform.ErrShortDst && (derr != nil || ns != len(in) || !bytes.Equal(dst[:nd], want)) {
					t.Fatalf("%v opts %#x: Transform(%q) in one call = %q, %d, %v; want %q", p, o, in, dst[:nd], ns, derr, want)
				}
			}
			// Chunked equals whole.
			size := 1 + int(split)%7
			rgot, rerr := readSmall(NewReader(iotestChunkReader(string(in), size), p, opts...), 1+int(split)%20)
			if rerr == io.EOF {
				rerr = nil
			}
			if !bytes.Equal(rgot, got) || !sameError(rerr, err) {
				t.Fatalf("%v opts %#x: Reader(chunks of %d) = %q, %v; want %q, %v", p, o, size, rgot, rerr, got, err)
			}
			cut := min(int(split), len(in))
			wgot, werr := writeChunks(p, in, []int{cut, len(in)}, opts...)
			if !bytes.Equal(wgot, got) || !sameError(werr, err) {
				t.Fatalf("%v opts %#x: Writer split at %d = %q, %v; want %q, %v", p, o, cut, wgot, werr, got, err)
			}
		}
		if ro.replacement == "" && !ro.cesu8 && !ro.mutf8 && !ro.noNUL && !ro.stripBOM {
			// Stats against the oracle: each subpart becomes one U+E000
			// under Replace, and its bytes are what Drop removes.
			marked, _, _ := refTransform(Replace, in, refOpts{replacement: "\uE000"})
			dropped, _, _ := refTransform(Drop, in, refOpts{})
			wantStats := Stats{
				Subparts: int64(bytes.Count(marked, []byte("\uE000")) - bytes.Count(in, []byte("\uE000"))),
				Bytes:    int64(len(in) - len(dropped)),
				First:    -1,
			}
			if wantStats.Subparts > 0 {
				wantStats.First = int64(bytes.Index(marked, []byte("\uE000")))
				if k := bytes.Index(in, []byte("\uE000")); k >= 0 && int64(k) <= wantStats.First {
					wantStats.First = -2 // the input's own U+E000 hides it: skip
				}
			}
			for _, p := range repairPolicies {
				tr := NewTransformer(p)
				transform.Bytes(tr, in)
				rd := NewReader(iotestChunkReader(string(in), 1+int(split)%5), p)
				io.ReadAll(rd)
				wr := NewWriter(io.Discard, p)
				for i := 0; i < len(in); i += 1 + int(split)%7 {
					wr.Write(in[i:min(len(in), i+1+int(split)%7)])
				}
				wr.Close()
				for _, got := range []Stats{tr.Stats(), rd.Stats(), wr.Stats()} {
					if got.Subparts != wantStats.Subparts || got.Bytes != wantStats.Bytes || wantStats.First != -2 && got.First != wantStats.First {
						t.Fatalf("%v: Stats(%q) = %+v; oracle says %+v", p, in, got, wantStats)
					}
				}
			}
			want, _, _ := transform.Bytes(unicode.UTF8.NewDecoder(), in)
			got, _, _ := transform.Bytes(NewTransformer(Replace), in)
			if !bytes.Equal(got, want) {
				t.Fatalf("Replace(%q) = %q; x/text decoder gives %q", in, got, want)
			}
			// Drop is Replace with the replacements removed, where the
			// input held no U+FFFD of its own.
			if !bytes.Contains(in, []byte("\uFFFD")) {
				drop, _, _ := transform.Bytes(NewTransformer(Drop), in)
				if string(drop) != strings.ReplaceAll(string(got), "\uFFFD", "") {
					t.Fatalf("Drop(%q) = %q; Replace gives %q", in, drop, got)
				}
			}
		}
	})
}

// FuzzRoundTrip checks that restoring SurrogateEscape and OPTU8 output
// gives back the input, for every input, and so does decoding the UTF-16
// and UTF-32 that UTF16 and UTF32 encode it to: OPTU8 escapes U+EF80..U+EFFF
// already in the input, so there is no precondition. So does BMPOnly, whose
// characters above U+FFFF are escaped. WTF8 without BMPOnly gives back the
// input with its surrogate pairs joined; under SurrogateEscape it does so
// only for input without a surrogate that looks like an escape (ED B2 xx,
// ED B3 xx, and ED B0 80 under NoNUL), which passes as every lone
// surrogate does and restores as a byte.
func FuzzRoundTrip(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte, split, o uint8) {
		var opts []Option
		if o&1 != 0 {
			opts = append(opts, NoNUL())
		}
		if o&2 != 0 {
			opts = append(opts, BMPOnly())
		}
		want := in
		if o&4 != 0 {
			opts = append(opts, WTF8())
			if o&2 == 0 {
				want = joinPairs(in)
			}
		}
		for _, p := range reversiblePolicies {
			if p == SurrogateEscape && o&4 != 0 && (bytes.Contains(in, []byte{0xED, 0xB2}) || bytes.Contains(in, []byte{0xED, 0xB3}) || o&1 != 0 && bytes.Contains(in, []byte{0xED, 0xB0, 0x80})) {
				continue
			}
			esc, _, err := transform.Bytes(NewTransformer(p, opts...), in)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := transform.Bytes(NewUnescaper(p, opts...), esc)
			if err != nil || !bytes.Equal(back, want) {
				t.Fatalf("%v opts %#x: restore(escape(%q)) = %q, %v; want %q", p, o, in, back, err, want)
			}
			size := 1 + int(split)%5
			back, err = io.ReadAll(transform.NewReader(iotestChunkReader(string(esc), size), NewUnescaper(p, opts...)))
			if err != nil || !bytes.Equal(back, want) {
				t.Fatalf("%v opts %#x chunks of %d: restore(escape(%q)) = %q, %v; want %q", p, o, size, in, back, err, want)
			}
			if o&4 == 0 {
				checkWideRoundTrip(t, p, in, int(split), opts)
			}
			if o&2 != 0 {
				wesc, werr := writeChunks(p, in, []int{1 + int(split)%7}, opts...)
				if werr != nil || !bytes.Equal(wesc, esc) || valid.IndexHigh(esc) < len(esc) {
					t.Fatalf("%v opts %#x: Writer(%q) = %q, %v; Transform gives %q, and no byte F0..FF may remain", p, o, in, wesc, werr, esc)
				}
			}
		}
	})
}

// checkWideRoundTrip checks that the decoders of UTF16 and UTF32 give back
// in from what their encoders make of it under p, a restoring policy: in
// one call, and with the input and the output in pieces of 1 to 11 bytes,
// and through the functions on slices. (Not under WTF8, whose lone high
// surrogates an escape after them would pair with.)
func checkWideRoundTrip(t *testing.T, p Policy, in []byte, split int, opts []Option) {
	t.Helper()
	size := 1 + split%11
	for _, f := range wideForms {
		e := wideEncodingOf(f, p, opts...)
		wide, _, err := transform.Bytes(e.NewEncoder(), in)
		if err != nil {
			t.Fatalf("%v %v: encode(%q): %v", f, p, in, err)
		}
		back, _, err := transform.Bytes(e.NewDecoder(), wide)
		if err != nil || !bytes.Equal(back, in) {
			t.Fatalf("%v %v: decode(encode(%q)) = %q, %v", f, p, in, back, err)
		}
		w2, err := io.ReadAll(transform.NewReader(iotestChunkReader(string(in), size), e.NewEncoder()))
		if err != nil || !bytes.Equal(w2, wide) {
			t.Fatalf("%v %v: encode(%q) in pieces of %d = % X, %v; in one call % X", f, p, in, size, w2, err, wide)
		}
		back, err = io.ReadAll(transform.NewReader(iotestChunkReader(string(wide), size), e.NewDecoder()))
		if err != nil || !bytes.Equal(back, in) {
			t.Fatalf("%v %v: decode(encode(%q)) in pieces of %d = %q, %v", f, p, in, size, back, err)
		}
	}
	u, err := AppendUTF16(nil, in, p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	back, err := AppendFromUTF16(nil, u, p, opts...)
	if err != nil || !bytes.Equal(back, in) {
		t.Fatalf("%v: AppendFromUTF16(AppendUTF16(%q)) = %q, %v", p, in, back, err)
	}
	r, err := AppendRunes(nil, in, p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	back, err = AppendFromRunes(nil, r, p, opts...)
	if err != nil || !bytes.Equal(back, in) {
		t.Fatalf("%v: AppendFromRunes(AppendRunes(%q)) = %q, %v", p, in, back, err)
	}
}

// joinPairs returns p with each surrogate pair, a high surrogate's 3 bytes
// followed by a low one's, replaced by the 4 bytes of their character.
// (ED is never a continuation byte, so a pair always starts a unit.)
func joinPairs(p []byte) []byte {
	var out []byte
	for i := 0; i < len(p); {
		if hi, lo := refSurrogate(p[i:]), refSurrogate(p[min(i+3, len(p)):]); 0xD800 <= hi && hi <= 0xDBFF && 0xDC00 <= lo && lo <= 0xDFFF {
			out = utf8.AppendRune(out, utf16.DecodeRune(hi, lo))
			i += 6
			continue
		}
		out = append(out, p[i])
		i++
	}
	return out
}
