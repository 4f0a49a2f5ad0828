package utf8stream

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream/internal/textgen"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// helperInputs are the vectors, every textgen input at a few sizes, and
// random bytes with a few valid characters mixed in.
func helperInputs() []string {
	var ins []string
	for _, tc := range vectors {
		ins = append(ins, tc.in)
	}
	for _, name := range textgen.Names {
		for _, size := range []int{1, 7, 63, 64, 65, 200, 4096, 70000} {
			ins = append(ins, string(textgen.Make(name, size)))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "é", "€", "😀", "\xff", "\x80", "\xe2\x82", "\xed\xa0\x80", "\xf0\x9f", "\xee\xbe\x80", "\xef\xbb\xbf"}
	for range 300 {
		var b []byte
		for range rng.IntN(100) {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
		ins = append(ins, string(b))
	}
	return ins
}

func TestValid(t *testing.T) {
	for _, in := range helperInputs() {
		if got, want := Valid([]byte(in)), utf8.ValidString(in); got != want {
			t.Errorf("Valid(%q) = %v; want %v", in, got, want)
		}
		if got, want := ValidString(in), utf8.ValidString(in); got != want {
			t.Errorf("ValidString(%q) = %v; want %v", in, got, want)
		}
	}
}

// TestValidShort checks the loop that Valid runs on input shorter than
// valid.Short against utf8.Valid: every input of one or two bytes, and
// every prefix and suffix of three sequences of a few kinds.
func TestValidShort(t *testing.T) {
	check := func(p []byte) {
		if got, want := Valid(p), utf8.Valid(p); got != want {
			t.Fatalf("Valid(%q) = %v; want %v", p, got, want)
		}
	}
	for a := range 256 {
		check([]byte{byte(a)})
		for b := range 256 {
			check([]byte{byte(a), byte(b)})
		}
	}
	pieces := []string{"a", "\u00e9", "\u4e2d", "\U0001F600", "\xed\xa0\x80", "\xe0\x80", "\xf4\x90\x80\x80", "\xc2", "\xe4\xb8", "\xf0\x9f\x98", "\xff", "\x80", "ab"}
	for _, a := range pieces {
		for _, b := range pieces {
			for _, c := range pieces {
				s := a + b + c
				for k := 0; k <= len(s) && k < 12; k++ {
					check([]byte(s[:k]))
					check([]byte(s[len(s)-k:]))
				}
			}
		}
	}
}

// TestHelpersAgainstOracle checks Bytes, String and Append under every
// policy against refTransform, the reference built from unicode/utf8.
func TestHelpersAgainstOracle(t *testing.T) {
	ins := helperInputs()
	for _, p := range allPolicies {
		for _, in := range ins {
			want, errOff, errBytes := refTransform(p, []byte(in), refOpts{})
			check := func(name string, got []byte, err error) {
				t.Helper()
				if !bytes.Equal(got, want) {
					t.Fatalf("%s(%q, %v) = %q; want %q", name, in, p, got, want)
				}
				if errOff < 0 {
					if err != nil {
						t.Fatalf("%s(%q, %v) error = %v; want nil", name, in, p, err)
					}
					return
				}
				var e *Error
				if !errors.As(err, &e) || e.Offset != errOff || !bytes.Equal(e.Bytes, errBytes) {
					t.Fatalf("%s(%q, %v) error = %v; want offset %d, bytes % X", name, in, p, err, errOff, errBytes)
				}
			}
			b, err := Bytes([]byte(in), p)
			check("Bytes", b, err)
			s, err := String(in, p)
			check("String", []byte(s), err)
			prefix := []byte("prefix")
			a, err := Append(prefix[:len(prefix):len(prefix)], []byte(in), p)
			if !bytes.HasPrefix(a, prefix) {
				t.Fatalf("Append(%q, %q, %v) = %q; lost dst", prefix, in, p, a)
			}
			check("Append", a[len(prefix):], err)
			roomy := make([]byte, 0, 4*len(in)+16)
			a, err = Append(roomy, []byte(in), p)
			check("Append with room", a, err)
		}
	}
}

// TestHelpersReplaceMatchesXText checks Replace against x/text's decoder.
func TestHelpersReplaceMatchesXText(t *testing.T) {
	for _, in := range helperInputs() {
		want, _, err := transform.String(unicode.UTF8.NewDecoder(), in)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := String(in, Replace); got != want || err != nil {
			t.Fatalf("String(%q, Replace) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestHelpersRoundTrip checks that the lossless policies' output, restored
// by an Unescaper, gives back the input.
func TestHelpersRoundTrip(t *testing.T) {
	for _, p := range reversiblePolicies {
		for _, in := range helperInputs() {
			out, err := String(in, p)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := transform.String(NewUnescaper(p), out)
			if err != nil || back != in {
				t.Fatalf("restore(String(%q, %v)) = %q, %v", in, p, back, err)
			}
		}
	}
}

// TestHelpersOptions checks that options reach the helpers, with stream
// offsets counted from the start of the input.
func TestHelpersOptions(t *testing.T) {
	in := "\uFEFFa\xFFb\x00c"
	o := refOpts{stripBOM: true, noNUL: true, replacement: "?"}
	for _, p := range allPolicies {
		want, errOff, _ := refTransform(p, []byte(in), o)
		var offs []int64
		opts := []Option{StripBOM(), NoNUL(), Replacement("?"), OnInvalid(func(e Error) { offs = append(offs, e.Offset) })}
		got, err := String(in, p, opts...)
		if got != string(want) || (err != nil) != (errOff >= 0) {
			t.Errorf("String(%q, %v, ...) = %q, %v; want %q", in, p, got, err, want)
		}
		wantOffs := []int64{4, 6}
		if p == Reject {
			wantOffs = wantOffs[:1]
		}
		if len(offs) != len(wantOffs) || offs[0] != wantOffs[0] || len(offs) > 1 && offs[1] != wantOffs[1] {
			t.Errorf("String(%q, %v): OnInvalid offsets %v; want %v", in, p, offs, wantOffs)
		}
	}
}

// TestStringReturnsInput checks that String returns s itself, not a copy,
// where the policy leaves s unchanged.
func TestStringReturnsInput(t *testing.T) {
	in := string(textgen.Make("russian", 4096))
	for _, p := range allPolicies {
		got, err := String(in, p)
		if err != nil || len(got) != len(in) || &stringBytes(got)[0] != &stringBytes(in)[0] {
			t.Errorf("String(valid, %v) did not return its input", p)
		}
	}
}

func TestHelpersAllocs(t *testing.T) {
	text := textgen.Make("japanese", 4096)
	s := string(text)
	buf := make([]byte, 0, len(text))
	for _, tc := range []struct {
		desc string
		f    func()
	}{
		{"Valid", func() { Valid(text) }},
		{"ValidString", func() { ValidString(s) }},
		{"String/replace", func() { String(s, Replace) }},
		{"String/optu8", func() { String(s, OPTU8) }},
		{"Append/replace", func() { Append(buf, text, Replace) }},
		{"Append/reject", func() { Append(buf, text, Reject) }},
	} {
		if n := testing.AllocsPerRun(100, tc.f); n != 0 {
			t.Errorf("%s: %v allocations; want 0", tc.desc, n)
		}
	}
}
