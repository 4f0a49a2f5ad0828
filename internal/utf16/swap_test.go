package utf16

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// swapRef is Swap a byte pair at a time.
func swapRef(src []byte) []byte {
	out := make([]byte, len(src)&^1)
	for i := 0; i+1 < len(src); i += 2 {
		out[i], out[i+1] = src[i+1], src[i]
	}
	return out
}

func TestSwap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		want := swapRef(src)
		dst := bytes.Repeat([]byte{0xAA}, n+8)
		Swap(dst, src)
		if !bytes.Equal(dst[:len(want)], want) {
			t.Fatalf("Swap of %d bytes: % x; want % x", n, dst[:len(want)], want)
		}
		for i := len(want); i < len(dst); i++ {
			if dst[i] != 0xAA {
				t.Fatalf("Swap of %d bytes wrote dst[%d]", n, i)
			}
		}
		in := bytes.Clone(src)
		Swap(in, in)
		if !bytes.Equal(in[:len(want)], want) || n%2 == 1 && in[n-1] != src[n-1] {
			t.Fatalf("Swap in place of %d bytes: % x; want % x", n, in, want)
		}
	}
}
