package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// randomBytes returns n random bytes, biased towards the bytes and
// sequences that the escapes are made of.
func randomBytes(rng *rand.Rand, n int) []byte {
	pieces := []string{"\xed\xb2\x80", "\xed\xb3\xbf", "\xed\xb0\x80", "\xee\xbe\x80", "\xee\xbf\xbf", "\xee\xbc\x80", "\xed", "\xee", "\xee\xbe", "é", "\n", "\x00"}
	b := make([]byte, 0, n+3)
	for len(b) < n {
		if rng.IntN(4) == 0 {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		} else {
			b = append(b, byte(rng.Uint32()))
		}
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, policy := range []string{"surrogateescape", "optu8"} {
		for _, nul := range [][]string{nil, {"-no-nul"}} {
			t.Run(fmt.Sprintf("policy=%s/flags=%q", policy, nul), func(t *testing.T) {
				for i := range 300 {
					in := randomBytes(rng, rng.IntN(1+i*i/10))
					fixArgs := append([]string{"fix", "-policy", policy}, nul...)
					restoreArgs := append([]string{"restore", "-policy", policy}, nul...)
					setBufSize(t, 1+rng.IntN(70))
					var fixed, back, stderr bytes.Buffer
					if code := run(fixArgs, iotest.HalfReader(bytes.NewReader(in)), &fixed, &stderr); code != exitOK {
						t.Fatalf("fix %q: exit %d, %s", in, code, stderr.String())
					}
					if policy == "optu8" && !utf8.Valid(fixed.Bytes()) {
						t.Fatalf("fix -policy optu8 %q = %q, which is not valid UTF-8", in, fixed.Bytes())
					}
					if code := run(restoreArgs, iotest.OneByteReader(&fixed), &back, &stderr); code != exitOK {
						t.Fatalf("restore: exit %d, %s", code, stderr.String())
					}
					if !bytes.Equal(back.Bytes(), in) {
						t.Fatalf("restore(fix(%q)) = %q", in, back.Bytes())
					}
				}
			})
		}
	}
}

// TestRoundTripFiles runs the round trip through files: with -o, and with
// -w on several files at once.
func TestRoundTripFiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	dir := t.TempDir()
	var files []string
	var orig [][]byte
	for i := range 4 {
		b := randomBytes(rng, 100<<10+i)
		orig = append(orig, b)
		files = append(files, writeFile(t, dir, fmt.Sprintf("f%d.bin", i), b))
	}
	for _, policy := range []string{"surrogateescape", "optu8"} {
		fixed := filepath.Join(dir, "fixed")
		back := filepath.Join(dir, "back")
		for _, args := range [][]string{
			{"fix", "-binary", "-policy", policy, "-o", fixed, files[0]},
			{"restore", "-binary", "-policy", policy, "-o", back, fixed},
			{"fix", "-binary", "-policy", policy, "-w"},
			{"restore", "-binary", "-policy", policy, "-w"},
		} {
			inPlace := args[len(args)-1] == "-w"
			if inPlace {
				args = append(args, files...)
			}
			if stdout, stderr, code := runCLI(t, nil, args...); stdout != "" || stderr != "" || code != exitOK {
				t.Fatalf("%q: %q, %q, %d", args, stdout, stderr, code)
			}
			if args[0] == "fix" && inPlace {
				for i, f := range files {
					if b, _ := os.ReadFile(f); bytes.Equal(b, orig[i]) {
						t.Fatalf("fix -w left %s unchanged", f)
					}
				}
			}
		}
		if b, _ := os.ReadFile(back); !bytes.Equal(b, orig[0]) {
			t.Errorf("%s: restore -o of fix -o differs from the original", policy)
		}
		for i, f := range files {
			if b, _ := os.ReadFile(f); !bytes.Equal(b, orig[i]) {
				t.Errorf("%s: restore -w of fix -w changed %s", policy, f)
			}
		}
	}
}
