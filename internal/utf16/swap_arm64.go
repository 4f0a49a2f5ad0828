//go:build gc && !purego

package utf16

// swapVec swaps the bytes of the units of src into dst, as Swap does, 32
// bytes at a time while 32 are left, with NEON's REV16, and returns the
// bytes it swapped.
func swapVec(dst, src []byte) int { return swapNEON(dst, src) }

//go:noescape
func swapNEON(dst, src []byte) int
