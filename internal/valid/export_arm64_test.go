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
	case impl != implNEON && v == beforeEE:
		return copyPrefixBeforeEEGeneric(dst, src)
	case impl != implNEON && v == bmp:
		return copyPrefixBMPGeneric(dst, src)
	case impl != implNEON:
		return copyPrefixGeneric(dst, src)
	case v == beforeEE:
		n = copyValidBeforeEENEON(dst, src)
	case v == bmp:
		n = copyValidBMPNEON(dst, src)
	default:
		n = copyValidNEON(dst, src)
	}
	if n == len(src) {
		return n
	}
	return copyFinish(dst, src, n, v)
}
