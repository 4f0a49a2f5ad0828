package repair

import (
	"unicode/utf8"

	"github.com/utf8stream/utf8stream/internal/repair/repairtest"
)

// This file holds the tests' reference: Specs like those the root package
// builds for its policies, and a slow repairer built from nothing but Go's
// unicode/utf8 and the definitions: a sequence is well-formed if
// utf8.DecodeRune decodes all of it to a scalar value, and a maximal
// subpart is the longest proper prefix of some well-formed sequence.

// validPrefixes holds every proper prefix (1 to 3 bytes) of every
// well-formed multi-byte sequence, made by encoding every scalar value.
var validPrefixes = func() map[string]bool {
	m := make(map[string]bool)
	var b [4]byte
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		n := utf8.EncodeRune(b[:], r)
		for k := 1; k < n; k++ {
			m[string(b[:k])] = true
		}
	}
	return m
}()

// refUnit returns the length of the unit at the start of p, which must not
// be empty, and whether it is a well-formed sequence: otherwise it is a
// maximal ill-formed subpart.
func refUnit(p []byte) (n int, valid bool) {
	if r, n := utf8.DecodeRune(p); r != utf8.RuneError || n > 1 {
		return n, true
	}
	for k := min(3, len(p)); k > 1; k-- {
		if validPrefixes[string(p[:k])] {
			return k, false
		}
	}
	return 1, false
}

// A testSpec is a Spec with the name of the policy it stands for, as the
// root package's benchmarks name it.
type testSpec struct {
	name string
	Spec
}

// testSpecs are repairtest's Specs, which are those of the root package's
// policies that have a table.
var testSpecs = func() []testSpec {
	var specs []testSpec
	for _, s := range repairtest.Specs {
		specs = append(specs, testSpec{s.Name, Spec{Out: s.Out, PerByte: s.PerByte, Stops: s.Stops, Escaped: s.Escaped}})
	}
	return specs
}()

// specNamed returns the testSpec called name.
func specNamed(name string) testSpec {
	for _, s := range testSpecs {
		if s.name == name {
			return s
		}
	}
	panic("no spec " + name)
}

// refRepair writes what s makes of in, a whole stream, and the counts: each
// ill-formed subpart gets the Out of its first byte, and of every other
// byte where PerByte is set; a well-formed sequence that s escapes gets
// the Out of each of its bytes; every other sequence is copied. The
// bytes s stops at are taken as valid: the callers give none to a kernel.
func refRepair(s Spec, in []byte) (out []byte, c Counts) {
	c.First = -1
	var buf [16]byte
	put := func(b byte) { out = append(out, buf[:s.Out(buf[:], b)]...) }
	for i := 0; i < len(in); {
		n, valid := refUnit(in[i:])
		switch {
		case valid && n == 3 && in[i] == 0xEE && s.Escaped != nil && s.Escaped(in[i+1], in[i+2]):
			for _, b := range in[i : i+3] {
				put(b)
			}
			c.Escaped++
		case valid:
			out = append(out, in[i:i+n]...)
		default:
			if c.First < 0 {
				c.First = i
			}
			c.Subparts++
			c.Bytes += n
			put(in[i])
			for _, b := range in[i+1 : i+n] {
				if s.PerByte {
					put(b)
				}
			}
		}
		i += n
	}
	return out, c
}

// mustTable returns NewTable(s) for a Spec that has a table.
func mustTable(s Spec) *Table {
	t, err := NewTable(s)
	if err != nil {
		panic(err)
	}
	return t
}
