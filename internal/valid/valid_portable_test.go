package valid

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/utf8stream/utf8stream/internal/textgen"
)

// dfaBytes holds a byte of each class that the DFA tells apart: ASCII, the
// edges of the continuation ranges, and each kind of lead byte.
var dfaBytes = []byte{0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf,
	0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef,
	0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf7, 0xf8, 0xff}

// dfaVariants are the DFAs of the portable implementation, each with the
// generic function it stands for.
var dfaVariants = []struct {
	name   string
	dfa    *[256]uint64
	prefix func([]byte) int
}{
	{"dfa", &dfa, prefixGeneric},
	{"dfaBMP", &dfaBMP, prefixBMPGeneric},
}

// TestDFA checks each DFA against its generic function: it ends in
// stateAcc on every input that function accepts whole and only there, and
// in stateErr exactly where no bytes added at the end could make the input
// acceptable. It runs over every input of 1 or 2 bytes, and every one of 3
// and 4 bytes made of dfaBytes.
func TestDFA(t *testing.T) {
	for _, d := range dfaVariants {
		t.Run(d.name, func(t *testing.T) { testDFA(t, d.dfa, d.prefix) })
	}
}

func testDFA(t *testing.T, dfa *[256]uint64, prefix func([]byte) int) {
	check := func(p []byte) {
		t.Helper()
		s := tail(p, stateAcc, dfa) & 63
		n := prefix(p)
		if (s == stateAcc) != (n == len(p)) {
			t.Fatalf("DFA over %q ends in state %d; prefix = %d of %d", p, s, n, len(p))
		}
		// Ill-formed for good if even the longest completion fails.
		dead := prefix(append(bytes.Clone(p), 0x80, 0x80, 0x80)) < len(p) &&
			prefix(append(bytes.Clone(p), 0x90, 0x80, 0x80)) < len(p) &&
			prefix(append(bytes.Clone(p), 0xa0, 0x80, 0x80)) < len(p)
		if (s == stateErr) != dead {
			t.Fatalf("DFA over %q ends in state %d; ill-formed whatever follows: %v", p, s, dead)
		}
	}
	for b0 := range 256 {
		check([]byte{byte(b0)})
		for b1 := range 256 {
			check([]byte{byte(b0), byte(b1)})
		}
	}
	for _, b0 := range dfaBytes {
		for _, b1 := range dfaBytes {
			for _, b2 := range dfaBytes {
				check([]byte{b0, b1, b2})
				for _, b3 := range dfaBytes {
					check([]byte{b0, b1, b2, b3})
				}
			}
		}
	}
}

// TestDFARows checks the layout of each DFA that the loops rely on:
// stateErr absorbs, and a state of exactly stateAcc, with no bits above
// it, follows only an ASCII byte (prefixTwo looks for ASCII after it).
func TestDFARows(t *testing.T) {
	for _, d := range dfaVariants {
		for c, row := range d.dfa {
			if row&63 != stateErr {
				t.Errorf("%s[%#02x] leaves stateErr for state %d", d.name, c, row&63)
			}
			for s := uint64(6); s < 64; s += 6 {
				if row>>s == stateAcc && c >= 0x80 {
					t.Errorf("%s[%#02x] >> %d == stateAcc, for a byte that is not ASCII", d.name, c, s)
				}
			}
		}
		if got := d.dfa['a'] >> stateAcc; got != stateAcc {
			t.Errorf("%s['a'] >> stateAcc = %#x; want stateAcc", d.name, got)
		}
	}
}

// checkPortable checks every function of the portable implementation
// against the generic one on p.
func checkPortable(t *testing.T, p []byte) {
	t.Helper()
	want, wantStop, wantBMP := prefixGeneric(p), prefixBeforeEEGeneric(p), prefixBMPGeneric(p)
	if got := prefixPortable(p); got != want {
		t.Fatalf("prefixPortable(%q) = %d; want %d", p, got, want)
	}
	if got := prefixBeforeEEPortable(p); got != wantStop {
		t.Fatalf("prefixBeforeEEPortable(%q) = %d; want %d", p, got, wantStop)
	}
	if got := prefixBMPPortable(p); got != wantBMP {
		t.Fatalf("prefixBMPPortable(%q) = %d; want %d", p, got, wantBMP)
	}
	dst := make([]byte, len(p))
	if got := copyPrefixPortable(dst, p); got != want || !bytes.Equal(dst[:got], p[:got]) {
		t.Fatalf("copyPrefixPortable(%q) = %d, copied %q; want %d", p, got, dst[:got], want)
	}
	clear(dst)
	if got := copyPrefixBeforeEEPortable(dst, p); got != wantStop || !bytes.Equal(dst[:got], p[:got]) {
		t.Fatalf("copyPrefixBeforeEEPortable(%q) = %d, copied %q; want %d", p, got, dst[:got], wantStop)
	}
	clear(dst)
	if got := copyPrefixBMPPortable(dst, p); got != wantBMP || !bytes.Equal(dst[:got], p[:got]) {
		t.Fatalf("copyPrefixBMPPortable(%q) = %d, copied %q; want %d", p, got, dst[:got], wantBMP)
	}
}

// TestPortableEdges puts each ill-formed and well-formed sequence of
// valid_test.go at every offset of inputs of several lengths: across the
// blocks of 16 and 64 bytes, the first sequence after the ASCII prefix,
// the stretch that prefixPortable runs in one stream, and the two halves
// it splits the rest into, on either side of the point where they meet;
// and the same after an error, where a caller starts again.
func TestPortableEdges(t *testing.T) {
	seqs := append(append([]string{}, badSeqs...), goodSeqs...)
	sizes := []int{portableShort - 1, portableShort + 5, portableMin + 3, 2*portableMin + 40, 1100}
	step := 1
	if testing.Short() {
		sizes = []int{portableMin + 3, 1100}
		if raceEnabled {
			step = 7 // a sample: see raceEnabled
		}
	}
	for _, filler := range fillers {
		filler = strings.Repeat(filler, 8)
		for _, size := range sizes {
			for _, seq := range seqs {
				for off := 0; off < size; off += step {
					head := cutAt(filler, off)
					rest := cutAt(filler[len(head):], size-len(head))
					p := []byte(head + seq + rest)
					checkPortable(t, p)
					p = []byte(cutAt(filler, 20) + "\xff" + head + seq + rest)
					checkPortable(t, p[prefixGeneric(p)+1:])
				}
			}
		}
	}
}

// TestPortableASCIIRuns puts runs of ASCII of many lengths in text of
// each script, in the first half of the input and in the second, where
// the DFA switches to its ASCII loop: after a complete sequence or an
// unfinished one, and followed by a sequence or an error.
func TestPortableASCIIRuns(t *testing.T) {
	ascii := strings.Repeat("abcdefg ", 40)
	befores := []string{"", "\xc2", "\xe1\x80", "\xf1\x80\x80", "\xee\x80\x80"}
	afters := []string{"", "\xff", "\x80", "\xe1\x80A", "\xc2\x80", "\xf0\x90\x80\x80"}
	runs := []int{1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 200}
	step := 1
	if testing.Short() && raceEnabled {
		step = 7 // a sample: see raceEnabled
	}
	for _, filler := range fillers[1:] {
		filler = strings.Repeat(filler, 8)
		for _, pre := range []int{0, 300, 900} {
			for start := 0; start < 70; start += step {
				for _, run := range runs {
					for _, before := range befores {
						for _, after := range afters {
							head := cutAt(filler, pre+start)
							p := []byte(head + before + ascii[:run] + after + cutAt(filler, 300))
							checkPortable(t, p)
						}
					}
				}
			}
		}
	}
}

// TestPortableChunks checks copyPrefixPortable where a sequence or an
// error straddles the edge of its chunks of portableChunk bytes.
func TestPortableChunks(t *testing.T) {
	step := 1
	if testing.Short() && raceEnabled {
		step = 3 // a sample: see raceEnabled
	}
	for _, filler := range fillers {
		long := strings.Repeat(filler, 2*portableChunk/len(filler)+2)
		for _, seq := range append(append([]string{""}, badSeqs...), goodSeqs...) {
			for off := portableChunk - 5; off < portableChunk+5; off += step {
				head := cutAt(long, off)
				p := []byte(head + seq + cutAt(long[len(head):], 100))
				checkPortable(t, p)
				p = []byte(head + seq + long[len(head):])
				checkPortable(t, p)
			}
		}
	}
}

// TestPortableRandom checks the portable implementation on text of every
// script of up to 5000 bytes with a few bytes changed, and on random
// bytes.
func TestPortableRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var texts [][]byte
	for _, name := range textgen.Names {
		texts = append(texts, textgen.Make(name, 6000))
	}
	n := 5000
	if testing.Short() {
		n = 1000
	}
	for i := range n {
		src := texts[rng.IntN(len(texts))]
		size := rng.IntN(5000)
		start := rng.IntN(len(src) - size)
		p := bytes.Clone(src[start : start+size])
		for range rng.IntN(3) {
			if size > 0 {
				p[rng.IntN(size)] = dfaBytes[rng.IntN(len(dfaBytes))]
			}
		}
		if i%10 == 0 {
			for j := range p {
				p[j] = byte(rng.Uint32())
			}
		}
		checkPortable(t, p)
	}
}

// FuzzPortable checks the portable implementation against the generic one
// on each input, and on the input placed in valid text, after the stretch
// that prefixPortable runs in one stream, in the first and in the second
// of the halves it splits the rest into.
func FuzzPortable(f *testing.F) {
	for _, seq := range badSeqs {
		f.Add([]byte(cutAt(fillers[4], 61) + seq + cutAt(fillers[2], 70)))
	}
	for _, name := range textgen.Names {
		f.Add(textgen.Make(name, 200))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		checkPortable(t, p)
		filler := strings.Repeat(fillers[len(p)%len(fillers)], 8)
		pre := cutAt(filler, 300+len(p)%64)
		checkPortable(t, append(append([]byte(pre), p...), cutAt(filler, 600)...))
		pre = cutAt(filler, 700+len(p)%64)
		checkPortable(t, append([]byte(pre), p...))
	})
}
