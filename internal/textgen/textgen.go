// Package textgen makes deterministic benchmark and test inputs that look
// like running text in several scripts, so that the project's benchmarks need
// no corpus files.
package textgen

import (
	"fmt"
	"math/rand/v2"
	"unicode/utf8"
)

// A script is a set of letter ranges, a typical word length and whether
// words are separated by spaces.
type script struct {
	ranges  [][2]rune
	wordLen int
	spaces  bool
}

var scripts = map[string]script{
	"ascii":    {[][2]rune{{'a', 'z'}}, 6, true},
	"latin1":   {[][2]rune{{'a', 'z'}, {'a', 'z'}, {'a', 'z'}, {0xE0, 0xFF}}, 7, true},
	"russian":  {[][2]rune{{0x0430, 0x044F}}, 7, true},
	"arabic":   {[][2]rune{{0x0627, 0x064A}}, 5, true},
	"hebrew":   {[][2]rune{{0x05D0, 0x05EA}}, 5, true},
	"hindi":    {[][2]rune{{0x0915, 0x0939}, {0x093E, 0x094C}}, 5, true},
	"chinese":  {[][2]rune{{0x4E00, 0x9FA5}}, 12, false},
	"japanese": {[][2]rune{{0x3041, 0x3093}, {0x30A1, 0x30F3}, {0x4E00, 0x9FA5}}, 10, false},
	"korean":   {[][2]rune{{0xAC00, 0xD7A3}}, 3, true},
	"emoji":    {[][2]rune{{0x1F600, 0x1F64F}, {0x1F300, 0x1F5FF}}, 3, true},
}

// Names lists the inputs Make knows, valid text first. "invalid1pct" is
// Latin-1-supplement text with about 1% of its bytes replaced by ill-formed
// ones; "random" is uniformly random bytes.
var Names = []string{
	"ascii", "latin1", "russian", "arabic", "hebrew", "hindi",
	"chinese", "japanese", "korean", "emoji", "invalid1pct", "random",
}

// Valid lists the inputs of Names that are valid UTF-8: all but the last
// two.
var Valid = Names[:len(Names)-2]

// Make returns exactly size bytes of the named input. The same name and size
// always give the same bytes. Every input but "invalid1pct" and "random" is
// valid UTF-8.
func Make(name string, size int) []byte {
	rng := rand.New(rand.NewPCG(uint64(size), uint64(len(name))))
	switch name {
	case "random":
		b := make([]byte, size)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	case "invalid1pct":
		b := Make("latin1", size)
		bad := []byte{0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xF0, 0xF5, 0xFF}
		for i := 0; i < size/100; i++ {
			b[rng.IntN(size)] = bad[rng.IntN(len(bad))]
		}
		return b
	}
	s, ok := scripts[name]
	if !ok {
		panic(fmt.Sprintf("textgen: unknown input %q", name))
	}
	b := make([]byte, 0, size+utf8.UTFMax)
	for len(b) < size {
		n := 1 + rng.IntN(2*s.wordLen)
		for range n {
			r := s.ranges[rng.IntN(len(s.ranges))]
			b = utf8.AppendRune(b, r[0]+rune(rng.IntN(int(r[1]-r[0]+1))))
		}
		switch x := rng.IntN(12); {
		case x == 0:
			b = append(b, ". "...)
		case x == 1:
			b = append(b, ", "...)
		case x == 2:
			b = append(b, '\n')
		case s.spaces:
			b = append(b, ' ')
		}
	}
	// Cut at a character boundary and pad with ASCII to the exact size.
	i := size
	for i < len(b) && i > 0 && !utf8.RuneStart(b[i]) {
		i--
	}
	b = b[:size]
	for ; i < size; i++ {
		b[i] = ' '
	}
	return b
}
