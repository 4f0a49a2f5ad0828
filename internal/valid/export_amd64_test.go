//go:build gc && !purego

package valid

// prefixSlow is Prefix without its shortcuts for short input: the kernel
// of impl whatever the length of p, finished in Go.
func prefixSlow(p []byte) int { return kernelPrefix(p, false) }

// copyPrefixSlow is CopyPrefix without its shortcuts for short input.
func copyPrefixSlow(dst, src []byte) int { return kernelCopy(dst, src, false) }

// prefixBeforeEESlow is PrefixBeforeEE without its shortcuts for short
// input.
func prefixBeforeEESlow(p []byte) int { return kernelPrefix(p, true) }

// copyPrefixBeforeEESlow is CopyPrefixBeforeEE without its shortcuts for
// short input.
func copyPrefixBeforeEESlow(dst, src []byte) int { return kernelCopy(dst, src, true) }

// kernelCopy is kernelPrefix with the copying kernels.
func kernelCopy(dst, src []byte, beforeEE bool) int {
	if len(dst) < len(src) {
		panic("valid: CopyPrefix: dst shorter than src")
	}
	var n int
	switch {
	case impl == implAVX512 && beforeEE:
		n = copyValidBeforeEEAVX512(dst, src)
	case impl == implAVX512:
		n = copyValidAVX512(dst, src)
	case impl == implAVX2 && beforeEE:
		n = copyValidBeforeEEAVX2(dst, src)
	case impl == implAVX2:
		n = copyValidAVX2(dst, src)
	case impl == implPortable && beforeEE:
		return copyPrefixBeforeEEPortable(dst, src)
	case impl == implPortable:
		return copyPrefixPortable(dst, src)
	}
	if n == len(src) {
		return n
	}
	return copyFinish(dst, src, n, beforeEE)
}
