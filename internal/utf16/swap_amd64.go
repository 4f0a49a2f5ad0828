//go:build gc && !purego

package utf16

// swapVec swaps the bytes of the units of src into dst, as Swap does, 32
// bytes at a time while 32 are left, with AVX2, and returns the bytes it
// swapped: 0 without AVX2.
func swapVec(dst, src []byte) int {
	if !useAVX2 {
		return 0
	}
	return swapAVX2(dst, src)
}

//go:noescape
func swapAVX2(dst, src []byte) int
