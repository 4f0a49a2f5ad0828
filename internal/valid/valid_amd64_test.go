//go:build gc && !purego

package valid

import (
	"strings"
	"testing"
)

// TestVecDispatch checks that each vec function runs the kernel of impl:
// in 65 bytes of ASCII the AVX-512 kernels stop at 64, at the start of
// their last, masked block, and the AVX2 kernels go on to the end; where
// impl has no kernel they return -1.
func TestVecDispatch(t *testing.T) {
	src := []byte(strings.Repeat("a", 65))
	dst := make([]byte, len(src))
	vecs := []struct {
		name string
		f    func() int
	}{
		{"vecValid", func() int { return vecValid(src) }},
		{"vecCopy", func() int { return vecCopy(dst, src) }},
		{"vecValidBeforeEE", func() int { return vecValidBeforeEE(src) }},
		{"vecCopyBeforeEE", func() int { return vecCopyBeforeEE(dst, src) }},
		{"vecValidBMP", func() int { return vecValidBMP(src) }},
		{"vecCopyBMP", func() int { return vecCopyBMP(dst, src) }},
	}
	for _, tc := range []struct {
		impl int
		want int
	}{{implGeneric, -1}, {implPortable, -1}, {implAVX2, 65}, {implAVX512, 64}} {
		if !impls[tc.impl].supported {
			continue
		}
		restore := SetImpl(impls[tc.impl].name)
		for _, v := range vecs {
			if got := v.f(); got != tc.want {
				t.Errorf("impl=%s: %s(65 bytes of ASCII) = %d; want %d", impls[tc.impl].name, v.name, got, tc.want)
			}
		}
		restore()
	}
}
