package utf8stream

import (
	"math/rand/v2"
	"testing"

	"github.com/utf8stream/utf8stream/internal/textgen"
)

// refClassify is blockClass for the 64 bytes at src[:64], worked out one
// position at a time with scan, which reads the definition of Table 3-7.
func refClassify(src []byte) blockClass {
	var c blockClass
	for q := range 64 {
		n, st := scan(src[q : q+4])
		if st == short {
			panic("scan: 4 bytes always decide")
		}
		bit := uint64(1) << q
		if n >= 2 {
			c.m2 |= bit
		}
		if n >= 3 {
			c.m3 |= bit
		}
		if n >= 4 {
			c.m4 |= bit
		}
		if st == complete {
			c.v |= bit
		}
	}
	return c
}

// TestClassifyBlocks checks every implementation of classifyBlocks against
// refClassify, on random bytes, on text with errors, and on bytes drawn from
// the ones where Table 3-7 draws its lines.
func TestClassifyBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	edges := []byte{0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
		0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF}
	var inputs [][]byte
	for i := range 200 {
		b := make([]byte, 64*(1+i%9)+3+i%5)
		switch i % 3 {
		case 0:
			for k := range b {
				b[k] = byte(rng.Uint32())
			}
		case 1:
			for k := range b {
				b[k] = edges[rng.IntN(len(edges))]
			}
		default:
			copy(b, textgen.Make([]string{"russian", "chinese", "emoji", "latin1"}[i%4], len(b)))
			for range 1 + i%7 {
				b[rng.IntN(len(b))] = edges[rng.IntN(len(edges))]
			}
		}
		inputs = append(inputs, b)
	}
	for _, name := range implNames() {
		t.Run("impl="+name, func(t *testing.T) {
			defer setImpl(name)()
			for _, b := range inputs {
				// Every offset into the input, so that loads fall
				// everywhere in a cache line.
				for off := 0; off < 8 && off+64+3 <= len(b); off++ {
					src := b[off:]
					out := make([]blockClass, (len(src)-3)/64)
					classifyBlocks(src, out)
					for i, got := range out {
						if want := refClassify(src[64*i:]); got != want {
							t.Fatalf("block %d of % x:\ngot  %+v\nwant %+v", i, src[64*i:64*i+67], got, want)
						}
					}
				}
			}
		})
	}
}
