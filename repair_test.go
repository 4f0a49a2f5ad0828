package utf8stream

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream/internal/repair"
	"github.com/utf8stream/utf8stream/internal/repair/repairtest"
	"github.com/utf8stream/utf8stream/internal/textgen"
	"golang.org/x/text/transform"
)

// The block repairer's own tests, of its tables, classification and
// kernel, are internal/repair's; these check it as the Transformer, Reader
// and Writer drive it.

// repairInputs are inputs where ill-formed bytes come at every density, long
// enough for the block repairer and its kernel to take whole blocks.
func repairInputs() [][]byte {
	rng := rand.New(rand.NewPCG(3, 4))
	bad := []byte{0x80, 0xBF, 0xC0, 0xC3, 0xE0, 0xE2, 0xED, 0xEE, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x00}
	var ins [][]byte
	sizes := []int{20, 70, 137, 1000, 5000}
	if testing.Short() {
		sizes = sizes[:4]
	}
	for _, size := range sizes {
		for _, per := range []int{1, 5, 30, 100} { // ill-formed bytes per 100
			for _, base := range []string{"latin1", "emoji", "random"} {
				b := textgen.Make(base, size)
				for i := range b {
					if rng.IntN(100) < per {
						b[i] = bad[rng.IntN(len(bad))]
					}
				}
				// Sequences that OPTU8 (and NoNUL) escape, and ones
				// next to them that it copies.
				for _, esc := range []string{"\uEF80", "\uEFFF", "\uEF00", "\uEE80", "\uEDFF"} {
					if i := rng.IntN(size); i+3 <= size && rng.IntN(100) < 5*per {
						copy(b[i:], esc)
					}
				}
				ins = append(ins, b)
			}
		}
	}
	return ins
}

// TestRepairImpls checks Transform, Reader and Writer against the oracle
// on repairInputs under every policy, each option of the fuzz target alone
// and all together, and every implementation, so that the block
// repairer's Go loop and its kernel are both covered, and checks that they
// agree on the Stats.
func TestRepairImpls(t *testing.T) {
	ins := repairInputs()
	for _, name := range implNames() {
		t.Run("impl="+name, func(t *testing.T) {
			defer setImpl(name)()
			combos := []uint8{0, 1, 2, 4, 8, 16, 31}
			if testing.Short() {
				combos = []uint8{0, 31} // no option, and all of them
			}
			for _, o := range combos {
				opts, ro := fuzzOptions(o)
				for _, p := range allPolicies {
					for _, in := range ins {
						want, errOff, _ := refTransform(p, in, ro)
						tr := NewTransformer(p, opts...)
						got, _, err := transform.Bytes(tr, in)
						if (err != nil) != (errOff >= 0) || !bytes.Equal(got, want) {
							t.Fatalf("%v opts %#x: Transform(%q) = %q, %v; want %q", p, o, in, got, err, want)
						}
						if p == Reject {
							continue
						}
						var buf bytes.Buffer
						wr := NewWriter(&buf, p, opts...)
						wr.Write(in[:len(in)/3])
						wr.Write(in[len(in)/3:])
						if err := wr.Close(); err != nil || !bytes.Equal(buf.Bytes(), want) {
							t.Fatalf("%v opts %#x: Writer(%q) = %q, %v; want %q", p, o, in, buf.Bytes(), err, want)
						}
						rgot, err := io.ReadAll(NewReader(bytes.NewReader(in), p, opts...))
						if err != nil || !bytes.Equal(rgot, want) {
							t.Fatalf("%v opts %#x: Reader(%q) = %q, %v; want %q", p, o, in, rgot, err, want)
						}
						// Reads of 300 bytes: dst has room for a
						// few blocks at a time.
						rgot, err = readSmall(NewReader(bytes.NewReader(in), p, opts...), 300)
						if err != io.EOF || !bytes.Equal(rgot, want) {
							t.Fatalf("%v opts %#x: Reader(%q), reads of 300 = %q, %v; want %q", p, o, in, rgot, err, want)
						}
						if tr.Stats() != wr.Stats() {
							t.Fatalf("%v opts %#x: Stats: Transformer %+v, Writer %+v", p, o, tr.Stats(), wr.Stats())
						}
					}
				}
			}
		})
	}
}

// TestRepairEscapes checks OPTU8 on dense input that holds the valid
// sequences it escapes (EE BE xx, EE BF xx), and others like them that it
// copies or that are ill-formed, at every offset of the first few blocks.
// Under OPTU8 alone the repair kernel writes the escapes itself; with
// NoNUL it leaves them to the general path. The output must match the
// oracle's, and the Stats, Escaped among them, those of every other
// implementation. (internal/repair's TestRepairEscapeTable checks which
// tables the kernel writes escapes for.)
func TestRepairEscapes(t *testing.T) {
	seqs := []string{"\uEF80", "\uEFBF", "\uEFC0", "\uEFFF", "\uEF7F",
		"\xEE\xBE", "\xEE\xBF\x41", "\xEE\xBE\xBE\xBE"}
	rng := rand.New(rand.NewPCG(7, 8))
	var escaped int64
	for _, o := range []uint8{0, 1} {
		opts, ro := fuzzOptions(o)
		for _, base := range []string{"invalid1pct", "random"} {
			for at := range 300 {
				if testing.Short() && at%5 != 0 {
					continue
				}
				in := textgen.Make(base, 1000)
				copy(in[at:], seqs[at%len(seqs)])
				for range 3 {
					copy(in[rng.IntN(len(in)-4):], seqs[rng.IntN(len(seqs))])
				}
				want, _, _ := refTransform(OPTU8, in, ro)
				var first Stats
				for i, name := range implNames() {
					restore := setImpl(name)
					tr := NewTransformer(OPTU8, opts...)
					got, _, err := transform.Bytes(tr, in)
					restore()
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("opts %#x impl=%s: Transform(%q) = %q, %v; want %q", o, name, in, got, err, want)
					}
					if i == 0 {
						first = tr.Stats()
						escaped += first.Escaped
					} else if tr.Stats() != first {
						t.Fatalf("opts %#x: %q: Stats: impl=%s %+v, impl=%s %+v", o, in, name, tr.Stats(), implNames()[0], first)
					}
				}
			}
		}
	}
	if escaped == 0 {
		t.Error("no input held an escape")
	}
}

// TestRepairPairs checks the block loop on every lead byte followed by
// every continuation byte, with two continuation bytes after them, among
// random bytes at the start, the middle and the end of a block, against
// the oracle, under every policy that repairs: OPTU8's classification, for
// one, tells EE BE and EE BF, which it escapes, from every other pair by a
// bit of the lead byte's table and one of the second byte's, which random
// input alone seldom reaches.
func TestRepairPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	base := make([]byte, 300)
	for i := range base {
		base[i] = byte(rng.Uint32())
	}
	var seconds []int
	for c := 0x80; c <= 0xBF; c++ {
		// With -short, the bytes where a lead's accepted range begins or
		// ends (Table 3-7), and those just outside, and BC to BF, the
		// second bytes of what OPTU8 escapes.
		switch {
		case testing.Short() && sampled:
			// A sample (see sampled): the ends of the ranges.
			if c == 0x80 || c == 0x8F || c == 0x90 || c == 0x9F || c == 0xA0 || c == 0xBF {
				seconds = append(seconds, c)
			}
		case !testing.Short() || c&0x0F == 0 || c&0x0F == 0x0F || c >= 0xBC:
			seconds = append(seconds, c)
		}
	}
	for _, p := range repairPolicies {
		for _, name := range implNames() {
			restore := setImpl(name)
			for lead := 0xC0; lead <= 0xFF; lead++ {
				for _, second := range seconds {
					in := bytes.Clone(base)
					for _, at := range []int{64, 64 + 30, 128 - 2}[:shortLen(3, 1)] {
						copy(in[at:], []byte{byte(lead), byte(second), 0x80, 0xBF})
					}
					want, _, _ := refTransform(p, in, refOpts{})
					got, _, err := transform.Bytes(NewTransformer(p), in)
					if err != nil || !bytes.Equal(got, want) {
						restore()
						t.Fatalf("%v impl=%s, % x: got %q, %v; want %q", p, name, in[64:68], got, err, want)
					}
				}
			}
			restore()
		}
	}
}

// TestRepairTail checks Transform on tails of up to repair.TailMax bytes
// after a valid byte, into a dst that holds the worst case and 64 bytes
// more, as BenchmarkTransform gives it (too little for the repair
// kernel's room for whole blocks, enough for its room for a tail), against
// the oracle, and its Stats against the generic implementation's.
// (internal/repair's TestRepairTail checks the kernel on such tails.)
func TestRepairTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, p := range allPolicies[1:] {
		for n := 1; n <= repair.TailMax; n++ {
			src := make([]byte, n+1)
			src[0] = 'a'
			for i := 1; i < len(src); i++ {
				src[i] = byte(rng.IntN(256))
			}
			if rng.IntN(2) == 0 {
				copy(src[1+rng.IntN(n):], "\uEF80")
			}
			want, _, _ := refTransform(p, src, refOpts{})
			tr := NewTransformer(p)
			dst := make([]byte, 3*len(src)+64)
			nd, ns, err := tr.Transform(dst, src, true)
			if err != nil || ns != len(src) || !bytes.Equal(dst[:nd], want) {
				t.Fatalf("%v: Transform(%q) = %q, %d, %v; want %q", p, src, dst[:nd], ns, err, want)
			}
			ref := NewTransformer(p)
			restore := setImpl("generic")
			_, _, err = transform.Bytes(ref, src)
			restore()
			if err != nil || tr.Stats() != ref.Stats() {
				t.Fatalf("%v: Transform(%q): Stats %+v; the generic implementation's %+v", p, src, tr.Stats(), ref.Stats())
			}
		}
	}
}

// TestDenseHint checks when a Transformer takes errors to be dense: after a
// short valid run that an ill-formed unit ends, and not after valid text
// passed in short pieces, whole or cut inside a sequence, or under OPTU8
// with the EE sequences that it copies, which would send a stream of such
// pieces to the block loop. The hint changes only the speed, so only this
// test sees it.
func TestDenseHint(t *testing.T) {
	// With U+E000 for each space: EE 80 80, which OPTU8 copies.
	text := bytes.ReplaceAll(textgen.Make("korean", 4096), []byte(" "), []byte("\uE000"))
	dst := make([]byte, 3*len(text))
	for _, p := range allPolicies {
		for _, piece := range []int{1, 7, 64, 100} {
			for _, api := range []string{"Span", "Transform"} {
				tr := NewTransformer(p)
				feed := func(b []byte, atEOF bool) (int, error) {
					if api == "Span" {
						return tr.Span(b, atEOF)
					}
					_, n, err := tr.Transform(dst, b, atEOF)
					return n, err
				}
				for off, size := 0, piece; off < len(text); {
					end := min(off+size, len(text))
					n, err := feed(text[off:end], end == len(text))
					if err != nil && err != transform.ErrShortSrc {
						t.Fatalf("%v %s, pieces of %d: %v", p, api, piece, err)
					}
					if tr.dense {
						t.Fatalf("%v %s, pieces of %d: dense after valid text up to offset %d", p, api, piece, off+n)
					}
					if n == 0 {
						// An unfinished sequence: take it with the next piece.
						if size > piece {
							t.Fatalf("%v %s: no progress at offset %d", p, api, off)
						}
						size = piece + utf8.UTFMax
						continue
					}
					off, size = off+n, piece
				}
			}
		}
		// A short run that an ill-formed unit ends sets the hint, and a long
		// one clears it.
		tr := NewTransformer(p)
		short := append([]byte("ab\xffcdefgh"), text[:enterDense]...)
		if n, _ := tr.Span(short, true); n != 2 || !tr.dense {
			t.Errorf("%v: Span(%q...) = %d, dense %v; want 2, true", p, short[:4], n, tr.dense)
		}
		if n, _ := tr.Span(short[3:], true); n != len(short)-3 || tr.dense {
			t.Errorf("%v: Span of %d valid bytes = %d, dense %v; want all, false", p, len(short)-3, n, tr.dense)
		}
	}
}

// shortLen returns n, or with -short the smaller m: how many of a test's
// cases to run.
func shortLen(n, m int) int {
	if testing.Short() {
		return m
	}
	return n
}

// TestPolicySpecs checks that repairtest, whose Specs internal/repair's
// tests run, lists every policy that has a table under its name, each with
// the Spec that this package builds the table from, and nothing else: so a
// new policy is tested in both packages, or this test fails.
func TestPolicySpecs(t *testing.T) {
	listed := map[Policy]bool{}
	for _, s := range repairtest.Specs {
		p, err := ParsePolicy(s.Policy)
		if err != nil || p.String() != s.Policy || p == Reject {
			t.Errorf("repairtest.Specs: %s: policy %q is not one with a table", s.Name, s.Policy)
			continue
		}
		listed[p] = listed[p] || !s.NoNUL && s.Replacement == ""
		var opts []Option
		if s.NoNUL {
			opts = append(opts, NoNUL())
		}
		if s.Replacement != "" {
			opts = append(opts, Replacement(s.Replacement))
		}
		var c core
		c.init(p, opts)
		want := specFor(&c)
		for b := 0x80; b <= 0xFF; b++ {
			var got, w [16]byte
			ng, nw := s.Out(got[:], byte(b)), want.Out(w[:], byte(b))
			if !bytes.Equal(got[:ng], w[:nw]) {
				t.Errorf("%s: Out(%02X) = %q; the package writes %q", s.Name, b, got[:ng], w[:nw])
			}
		}
		if s.PerByte != want.PerByte || !bytes.Equal(s.Stops, want.Stops) || want.Four || (s.Escaped == nil) != (want.Escaped == nil) {
			t.Errorf("%s: PerByte %v, Stops % X, Escaped %v; the package's Spec has %v, % X, %v",
				s.Name, s.PerByte, s.Stops, s.Escaped != nil, want.PerByte, want.Stops, want.Escaped != nil)
		}
		for b1 := 0x80; s.Escaped != nil && want.Escaped != nil && b1 <= 0xBF; b1++ {
			for b2 := 0x80; b2 <= 0xBF; b2++ {
				if got, w := s.Escaped(byte(b1), byte(b2)), want.Escaped(byte(b1), byte(b2)); got != w {
					t.Errorf("%s: Escaped(%02X, %02X) = %v; the package's is %v", s.Name, b1, b2, got, w)
				}
			}
		}
	}
	for _, p := range repairPolicies {
		if !listed[p] {
			t.Errorf("repairtest.Specs has no Spec for %v without options", p)
		}
	}
}

// TestTableForLongOutput checks that a replacement longer than the block
// repairer takes gets no table, and its units the general path, whose
// output the oracle confirms, on input dense with ill-formed bytes.
func TestTableForLongOutput(t *testing.T) {
	in := textgen.Make("random", 2000)
	for _, r := range []string{"12345678", "123456789", strings.Repeat("é", 32)} {
		var c core
		c.init(Replace, []Option{Replacement(r)})
		if tab := tableFor(&c); (tab == nil) != (len(r) > repair.MaxOut) {
			t.Errorf("Replacement(%q): tableFor = %v; want a table only for up to %d bytes", r, tab, repair.MaxOut)
		}
		got, err := Bytes(in, Replace, Replacement(r))
		want, _, _ := refTransform(Replace, in, refOpts{replacement: r})
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Replacement(%q): Bytes differs from the oracle, %v", r, err)
		}
	}
}
