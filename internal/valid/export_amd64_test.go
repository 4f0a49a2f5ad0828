//go:build gc && !purego

package valid

// prefixSlow is Prefix without its shortcuts for short input: the kernel
// of impl whatever the length of p, finished in Go.
func prefixSlow(p []byte) int { return kernelPrefix(p, plain) }

// copyPrefixSlow is CopyPrefix without its shortcuts for short input.
func copyPrefixSlow(dst, src []byte) int { return kernelCopy(dst, src, plain) }

// prefixBeforeEESlow is PrefixBeforeEE without its shortcuts for short
// input.
func prefixBeforeEESlow(p []byte) int { return kernelPrefix(p, beforeEE) }

// copyPrefixBeforeEESlow is CopyPrefixBeforeEE without its shortcuts for
// short input.
func copyPrefixBeforeEESlow(dst, src []byte) int { return kernelCopy(dst, src, beforeEE) }

// prefixBMPSlow is PrefixBMP without its shortcuts for short input.
func prefixBMPSlow(p []byte) int { return kernelPrefix(p, bmp) }

// copyPrefixBMPSlow is CopyPrefixBMP without its shortcuts for short
// input.
func copyPrefixBMPSlow(dst, src []byte) int { return kernelCopy(dst, src, bmp) }

// kernelCopy is kernelPrefix with the copying kernels.
func kernelCopy(dst, src []byte, v variant) int {
	if len(dst) < len(src) {
		panic("valid: CopyPrefix: dst shorter than src")
	}
	var n int
	switch {
	case impl >= implAVX2 && v == beforeEE:
		n = vecCopyBeforeEE(dst, src)
	case impl >= implAVX2 && v == bmp:
		n = vecCopyBMP(dst, src)
	case impl >= implAVX2:
		n = vecCopy(dst, src)
	case impl == implPortable && v == beforeEE:
		return copyPrefixBeforeEEPortable(dst, src)
	case impl == implPortable && v == bmp:
		return copyPrefixBMPPortable(dst, src)
	case impl == implPortable:
		return copyPrefixPortable(dst, src)
	}
	if n == len(src) {
		return n
	}
	return copyFinish(dst, src, n, v)
}
