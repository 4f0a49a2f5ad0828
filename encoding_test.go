package utf8stream

import (
	"errors"
	"io"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
)

var _ encoding.Encoding = Encoding(Replace)

func TestEncodingDecoder(t *testing.T) {
	for _, tc := range vectors {
		for _, p := range allPolicies {
			want, wantErr := transformString(NewTransformer(p), tc.in)
			dec := Encoding(p).NewDecoder()
			got, err := dec.String(tc.in)
			wantString := want
			if wantErr != nil {
				wantString = "" // encoding.Decoder.String drops the output on error
			}
			if got != wantString || (err == nil) != (wantErr == nil) {
				t.Errorf("%v %s: Decoder.String = %q, %v; want %q, %v", p, tc.desc, got, err, want, wantErr)
			}
			data, err := io.ReadAll(Encoding(p).NewDecoder().Reader(strings.NewReader(tc.in)))
			var e *Error
			if string(data) != want || (wantErr != nil) != errors.As(err, &e) {
				t.Errorf("%v %s: Decoder.Reader = %q, %v; want %q, %v", p, tc.desc, data, err, want, wantErr)
			}
		}
	}
}

func TestEncodingEncoderRestores(t *testing.T) {
	for _, p := range reversiblePolicies {
		for _, tc := range vectors {
			e := Encoding(p, NoNUL())
			esc, err := e.NewDecoder().String(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			back, err := e.NewEncoder().String(esc)
			if back != tc.in || err != nil {
				t.Errorf("%v %s: Encoder(Decoder(%q)) = %q, %v", p, tc.desc, tc.in, back, err)
			}
		}
	}
	// For the other policies the encoder applies the policy.
	got, err := Encoding(Replace).NewEncoder().String("a\xFF")
	if got != "a\uFFFD" || err != nil {
		t.Errorf("Replace encoder = %q, %v", got, err)
	}
	if s := Encoding(OPTU8).(interface{ String() string }).String(); s != "UTF-8 (optu8)" {
		t.Errorf("String() = %q", s)
	}
}

// TestEncodingComparable checks that Encoding values can be compared and
// used as map keys without a panic.
func TestEncodingComparable(t *testing.T) {
	if Encoding(Replace) != Encoding(Replace) {
		t.Error("Encoding(Replace) != Encoding(Replace)")
	}
	if Encoding(Replace) == Encoding(OPTU8) {
		t.Error("Encoding(Replace) == Encoding(OPTU8)")
	}
	a, b := Encoding(Replace, StripBOM()), Encoding(Replace, StripBOM())
	if a == b || a != a {
		t.Error("values made with options are not each distinct")
	}
	m := map[encoding.Encoding]string{Encoding(Replace): "r", a: "a"}
	if m[Encoding(Replace)] != "r" || m[a] != "a" || len(m) != 2 {
		t.Errorf("map = %v", m)
	}
}

// TestEncodingVariants runs WTF8, BMPOnly and BackslashReplace through
// Encoding: the decoder as the Transformer, the encoder restoring
// SurrogateEscape and OPTU8 under BMPOnly, and BackslashReplace's encoder
// leaving the decoder's output, which is valid, as it is.
func TestEncodingVariants(t *testing.T) {
	for _, in := range variantVectors {
		for _, combo := range variantCombos {
			opts, _ := fuzzOptions(combo.o)
			for _, p := range allPolicies {
				want, wantErr := transformString(NewTransformer(p, opts...), in)
				got, err := io.ReadAll(Encoding(p, opts...).NewDecoder().Reader(strings.NewReader(in)))
				if string(got) != want || (err == nil) != (wantErr == nil) {
					t.Fatalf("%s %v: Decoder.Reader(%q) = %q, %v; want %q, %v", combo.name, p, in, got, err, want, wantErr)
				}
			}
		}
		for _, p := range reversiblePolicies {
			e := Encoding(p, BMPOnly())
			esc, err := e.NewDecoder().String(in)
			back, berr := e.NewEncoder().String(esc)
			if err != nil || berr != nil || back != in {
				t.Errorf("%v BMPOnly: Encoder(Decoder(%q)) = %q, %v, %v", p, in, back, err, berr)
			}
		}
		e := Encoding(BackslashReplace, WTF8())
		out, _ := e.NewDecoder().String(in)
		if again, err := e.NewEncoder().String(out); again != out || err != nil {
			t.Errorf("BackslashReplace: Encoder(%q) = %q, %v", out, again, err)
		}
	}
}
