package utf16

import "encoding/binary"

// Swap writes to dst the 16-bit units of src with their two bytes swapped,
// which turns UTF-16LE into UTF-16BE and back: dst[i], dst[i+1] =
// src[i+1], src[i] for each even i below len(src)-1; a last odd byte is
// left out. dst must be at least as long as src, and dst and src must be
// the same slice or not overlap.
func Swap(dst, src []byte) {
	n := len(src) &^ 1
	dst = dst[:n]
	i := swapVec(dst, src[:n])
	for ; i+8 <= n; i += 8 {
		x := binary.LittleEndian.Uint64(src[i:])
		binary.LittleEndian.PutUint64(dst[i:], x>>8&0x00FF00FF00FF00FF|x&0x00FF00FF00FF00FF<<8)
	}
	for ; i < n; i += 2 {
		dst[i], dst[i+1] = src[i+1], src[i]
	}
}
