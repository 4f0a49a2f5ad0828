package valid

// prefixSlow is Prefix without its shortcuts for short input: the kernel
// of impl whatever the length of p, finished in Go, or the implementation
// in Go where there is no kernel.
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
	switch v {
	case beforeEE:
		n = vecCopyBeforeEE(dst, src)
	case bmp:
		n = vecCopyBMP(dst, src)
	default:
		n = vecCopy(dst, src)
	}
	switch {
	case n == len(src):
		return n
	case n >= 0:
		return copyFinish(dst, src, n, v)
	case impl == implPortable && v == beforeEE:
		return copyPrefixBeforeEEPortable(dst, src)
	case impl == implPortable && v == bmp:
		return copyPrefixBMPPortable(dst, src)
	case impl == implPortable:
		return copyPrefixPortable(dst, src)
	case v == beforeEE:
		return copyPrefixBeforeEEGeneric(dst, src)
	case v == bmp:
		return copyPrefixBMPGeneric(dst, src)
	}
	return copyPrefixGeneric(dst, src)
}
