//go:build gc && !purego

package valid

import (
	"strings"
	"testing"
	"unsafe"
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
		if !impls[tc.impl].Supported() {
			continue
		}
		restore := SetImpl(impls[tc.impl].Name)
		for _, v := range vecs {
			if got := v.f(); got != tc.want {
				t.Errorf("impl=%s: %s(65 bytes of ASCII) = %d; want %d", impls[tc.impl].Name, v.name, got, tc.want)
			}
		}
		restore()
	}
}

// TestValidShortAVX2 checks the short kernel against the reference on
// every input of up to 31 bytes made of a few kinds of sequence, with an
// ill-formed byte at each offset, at each position in a page where its
// 32-byte block starts at p and where it ends where p ends.
func TestValidShortAVX2(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	pieces := []string{"a", "\u00e9", "\u4e2d", "\U0001F600", "\xed\xa0\x80", "\xe0\x80", "\xf0\x9f\x98", "\xc2", "\xff", "\x80", "\xef\xbf\xbd"}
	buf := make([]byte, 3*4096)
	page := buf[4096-int(uintptr(unsafe.Pointer(&buf[0]))%4096):][:4096] // a whole page
	check := func(src []byte) {
		want := prefixGeneric(src)
		for _, at := range []int{0, 1, 4064 - len(src), 4064, 4065, 4096 - len(src) - 1, 4096 - len(src)} {
			if at < 0 || at+len(src) > 4096 {
				continue
			}
			p := page[at : at+len(src) : at+len(src)]
			copy(p, src)
			n := validShortAVX2(p)
			if n < len(p) {
				n = Finish(p, n)
			}
			if n != want {
				t.Fatalf("validShortAVX2(%q) at page offset %d, then Finish = %d; want %d", src, at, n, want)
			}
		}
	}
	for i, a := range pieces {
		for _, b := range pieces {
			for _, c := range pieces[i%3 : i%3+4] {
				for reps := range 8 {
					s := strings.Repeat(a, reps) + b + strings.Repeat(c, 7-reps)
					for k := 0; k <= len(s) && k < 32; k++ {
						check([]byte(s[:k]))
						check([]byte(s[len(s)-k:]))
					}
				}
			}
		}
	}
}
