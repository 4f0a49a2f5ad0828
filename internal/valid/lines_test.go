package valid

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/utf8stream/utf8stream/internal/textgen"
)

// TestPrefixLines checks the counting kernels on text with newlines at
// every density, cut at every length around the block edges and with an
// ill-formed byte at every offset around them, through checkValidPrefix.
func TestPrefixLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var texts [][]byte
	for _, every := range []int{1, 2, 7, 31, 63, 64, 65, 100, 255, 300, 1000} {
		for _, name := range []string{"ascii", "russian", "chinese"} {
			p := textgen.Make(name, 2000)
			for i := every - 1; i < len(p); i += every {
				if p[i] < 0x80 {
					p[i] = '\n'
				}
			}
			texts = append(texts, p)
		}
	}
	// A newline and then a long line: the last newline lies far back.
	texts = append(texts, []byte("\n"+strings.Repeat("x", 1999)), []byte(strings.Repeat("\n", 600)+strings.Repeat("\u00e9", 700)))
	// The kernels take blocks of 32 and 64 bytes, pairs, and runs of four
	// after a first block.
	edges := []int{32, 64, 96, 128, 160, 192, 256, 320, 384, 448, 512, 576}
	lengths := []int{0, 1, 31, 33, 63, 65, 66, 67, 127, 129, 255, 257, 300, 511, 513, 1000, 2000}
	lengths = append(lengths, edges...)
	step := 1
	if testing.Short() {
		lengths = []int{31, 33, 64, 67, 129, 257, 320, 513, 2000}
		edges = []int{64, 128, 256, 320}
		if raceEnabled {
			step = 3 // a sample: see raceEnabled
		}
	}
	bad := []string{"\xff", "\xc3", "\xe4\xb8", "\xed\xa0\x80", "\xf0\x9f\x98"}
	for ti := 0; ti < len(texts); ti += step {
		text := texts[ti]
		for _, n := range lengths {
			p := text[:min(n, len(text))]
			checkValidPrefix(t, p)
			for i := max(0, len(p)-70); i < len(p); i++ {
				q := bytes.Clone(p)
				copy(q[i:], bad[rng.IntN(len(bad))])
				checkValidPrefix(t, q)
			}
		}
		for _, edge := range edges {
			for i := edge - 3; i <= edge+3 && i < len(text); i++ {
				q := bytes.Clone(text)
				copy(q[i:], bad[rng.IntN(len(bad))])
				checkValidPrefix(t, q)
			}
		}
	}
}

// TestPrefixLinesLong checks the counting kernels on runs of ASCII longer
// than the 4 KiB after which they add up their counts, which would
// overflow a byte of them on newlines alone if they did not, and with an
// error after such runs.
func TestPrefixLinesLong(t *testing.T) {
	texts := [][]byte{
		bytes.Repeat([]byte{'\n'}, 40000),
		bytes.Repeat([]byte("a line of text\n"), 2700),
		append(bytes.Repeat([]byte("\u00e9\n"), 3000), bytes.Repeat([]byte("\n"), 20000)...),
		append([]byte("\n"), bytes.Repeat([]byte("x"), 40000)...),
	}
	for _, text := range texts {
		for _, n := range []int{4095, 4096, 4097, 4160, 8191, 8192, 8256, 16384, 20000, len(text)} {
			p := text[:min(n, len(text))]
			checkLines(t, p, prefixGeneric(p))
			for _, at := range []int{len(p) - 1, len(p) - 70, len(p) / 2} {
				q := bytes.Clone(p)
				q[at] = 0xFF
				checkLines(t, q, prefixGeneric(q))
			}
		}
	}
}

func TestLastNewline(t *testing.T) {
	for n := range 700 {
		p := bytes.Repeat([]byte{'a'}, n)
		for _, at := range []int{-1, 0, 1, 7, 8, 9, n / 2, n - 257, n - 256, n - 255, n - 9, n - 8, n - 1} {
			if at >= n {
				continue
			}
			q := bytes.Clone(p)
			if at >= 0 {
				q[at] = '\n'
			}
			// A byte above 0x80 beside it tests that no borrow crosses.
			if at > 0 {
				q[at-1] = 0x8b
			}
			if got, want := LastNewline(q), bytes.LastIndexByte(q, '\n'); got != want {
				t.Fatalf("LastNewline(%d bytes, newline at %d) = %d; want %d", n, at, got, want)
			}
		}
	}
}

// BenchmarkPrefixLines measures what counting newlines costs beside the
// validation alone, in each implementation, on text with a newline every
// 60 bytes or so. Compare with benchstat -col /op.
func BenchmarkPrefixLines(b *testing.B) {
	for _, name := range []string{"ascii", "russian"} {
		for _, size := range []int{64, 4096, 1 << 20} {
			src := textgen.Make(name, size)
			last := 0
			for i, c := range src {
				if c == ' ' && i-last >= 60 {
					src[i], last = '\n', i
				}
			}
			dst := make([]byte, size)
			for _, im := range ImplNames() {
				ops := []struct {
					name string
					run  func() int
				}{
					{"prefix", func() int { return Prefix(src) }},
					{"lines", func() int { n, _, _ := PrefixLines(src); return n }},
					{"copy", func() int { return CopyPrefix(dst, src) }},
					{"copylines", func() int { n, _, _ := CopyPrefixLines(dst, src); return n }},
				}
				for _, op := range ops {
					b.Run("input="+name+"/size="+strconv.Itoa(size)+"/impl="+im+"/op="+op.name, func(b *testing.B) {
						defer SetImpl(im)()
						b.SetBytes(int64(size))
						for b.Loop() {
							if op.run() != size {
								b.Fatal("input is not valid")
							}
						}
					})
				}
			}
		}
	}
}
