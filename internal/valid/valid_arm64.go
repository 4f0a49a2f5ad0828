//go:build gc && !purego

package valid

import "github.com/utf8stream/utf8stream/internal/registry"

// The implementations, by index in impls. Every arm64 CPU has NEON
// (ASIMD), so the NEON kernels need no feature check.
const (
	implGeneric = iota
	implNEON
)

var impls = []implInfo{
	implGeneric: {Impl: registry.Impl{Name: "generic"}},
	implNEON:    {registry.Impl{Name: "neon", Advertised: true}, validNEON, copyValidNEON, validBeforeEENEON, copyValidBeforeEENEON, validBMPNEON, copyValidBMPNEON},
}

// impl is the implementation in use: the fastest one supported.
var impl = implNEON

// minKernel is the shortest input Prefix hands to a kernel. From 32 bytes
// on the kernel costs no more instructions than Go on ASCII, and a
// quarter of them on other text; below, ASCII and binary data that stops
// it at once cost less in Go.
const minKernel = 32

// validNEON returns n such that p[:n] holds no ill-formed sequence, except
// perhaps an unfinished or ill-formed last one that only the bytes from n
// on show: n is the offset of the first byte flagged in an error, which is
// at most 3 bytes after the lead byte of the sequence at fault. n ==
// len(p) means that all of p is well-formed. It returns 0 for p shorter
// than 16 bytes, and may stop at 16 for p of 17 or 18 bytes. It does not
// read outside p.
//
//go:noescape
func validNEON(p []byte) int

// copyValidNEON returns what validNEON returns for src, and copies src[:n]
// to dst[:n] on the way. It may write anywhere in dst[:len(src)], never
// beyond, and does not read outside src. len(dst) must be at least
// len(src).
//
//go:noescape
func copyValidNEON(dst, src []byte) int

// validBeforeEENEON and copyValidBeforeEENEON are the kernels above that
// also stop at every EE byte: they flag the byte after it, through a
// variant of the lookup table at no cost per block, so that the n they
// return is at most one past the first EE (see finish).
//
//go:noescape
func validBeforeEENEON(p []byte) int

//go:noescape
func copyValidBeforeEENEON(dst, src []byte) int

// validBMPNEON and copyValidBMPNEON are the kernels above that also stop
// at every byte F0..FF: they flag the byte after it, through a variant of
// the lookup table at no cost per block, so that the n they return is at
// most one past the first (see finish).
//
//go:noescape
func validBMPNEON(p []byte) int

//go:noescape
func copyValidBMPNEON(dst, src []byte) int

// KernelPrefix returns the NEON kernel's n for p and true where Prefix
// would call that kernel, and false elsewhere. n == len(p) means that all
// of p is valid; otherwise the caller finishes with Finish. It is small
// enough to be inlined, so that a hot caller calls the kernel from its own
// frame. The caller calls QuickPrefix first, as Prefix does.
func KernelPrefix(p []byte) (n int, ok bool) {
	if impl != implNEON || len(p) < minKernel {
		return 0, false
	}
	return validNEON(p), true
}

// KernelCopy is KernelPrefix for CopyPrefix; the caller finishes with
// CopyFinish. len(dst) must be at least len(src); dst[:len(src)] keeps the
// kernel within dst's capacity even where it is not.
func KernelCopy(dst, src []byte) (n int, ok bool) {
	if impl != implNEON || len(src) < minKernel {
		return 0, false
	}
	return copyValidNEON(dst[:len(src)], src), true
}

// KernelCopyBeforeEE is KernelPrefix for CopyPrefixBeforeEE; the caller
// finishes with CopyFinishBeforeEE.
func KernelCopyBeforeEE(dst, src []byte) (n int, ok bool) {
	if impl != implNEON || len(src) < minKernel {
		return 0, false
	}
	return copyValidBeforeEENEON(dst[:len(src)], src), true
}

// KernelPrefixBMP is KernelPrefix for PrefixBMP; the caller finishes with
// FinishBMP.
func KernelPrefixBMP(p []byte) (n int, ok bool) {
	if impl != implNEON || len(p) < minKernel {
		return 0, false
	}
	return validBMPNEON(p), true
}

// KernelCopyBMP is KernelPrefix for CopyPrefixBMP; the caller finishes
// with CopyFinishBMP.
func KernelCopyBMP(dst, src []byte) (n int, ok bool) {
	if impl != implNEON || len(src) < minKernel {
		return 0, false
	}
	return copyValidBMPNEON(dst[:len(src)], src), true
}

// Prefix returns the length of the longest prefix of p made of complete,
// well-formed UTF-8 sequences.
func Prefix(p []byte) int {
	// The kernel is called here rather than through kernelPrefix: on
	// short input each call on the way costs as much as the kernel's work.
	if len(p) < minKernel || impl != implNEON {
		return prefixGeneric(p)
	}
	if i, ok := QuickPrefix(p); ok {
		return i
	}
	n := validNEON(p)
	if n == len(p) {
		return n
	}
	return finish(p, n, plain)
}

// kernelPrefix runs the NEON kernel of variant v on p, whatever its
// length, and finishes in Go where it stopped.
func kernelPrefix(p []byte, v variant) int {
	var n int
	switch {
	case impl != implNEON && v == beforeEE:
		return prefixBeforeEEGeneric(p)
	case impl != implNEON && v == bmp:
		return prefixBMPGeneric(p)
	case impl != implNEON:
		return prefixGeneric(p)
	case v == beforeEE:
		n = validBeforeEENEON(p)
	case v == bmp:
		n = validBMPNEON(p)
	default:
		n = validNEON(p)
	}
	if n == len(p) {
		return n
	}
	return finish(p, n, v)
}

// CopyPrefix copies the longest prefix of src made of complete,
// well-formed UTF-8 sequences to dst and returns its length n, which is
// Prefix(src). len(dst) must be at least len(src), and dst and src must
// not overlap. It may also write to dst[n:len(src)] (the bytes there are
// unspecified), never beyond.
func CopyPrefix(dst, src []byte) int {
	// The kernel is called here, with no frame on the way, as in
	// Prefix: a hot caller's short path comes here for short input.
	switch {
	case len(src) < minKernel || impl != implNEON:
		return copyPrefixGeneric(dst, src)
	case len(dst) < len(src):
		panic("valid: CopyPrefix: dst shorter than src")
	}
	if i, ok := QuickCopy(dst, src); ok {
		return i
	}
	n := copyValidNEON(dst, src)
	if n == len(src) {
		return n
	}
	return copyFinish(dst, src, n, plain)
}

// PrefixBeforeEE returns Prefix(p), or the offset of the first EE in that
// prefix if it is smaller: the valid text that OPTU8 can pass on without
// looking at it again.
func PrefixBeforeEE(p []byte) int {
	if len(p) < minKernel || impl != implNEON {
		return prefixBeforeEEGeneric(p)
	}
	if i, ok := QuickPrefix(p); ok {
		return i // only ASCII comes before i: no EE
	}
	return kernelPrefix(p, beforeEE)
}

// CopyPrefixBeforeEE is CopyPrefix that stops where PrefixBeforeEE does.
func CopyPrefixBeforeEE(dst, src []byte) int {
	// The kernel is called here, as in CopyPrefix.
	switch {
	case len(src) < minKernel || impl != implNEON:
		return copyPrefixBeforeEEGeneric(dst, src)
	case len(dst) < len(src):
		panic("valid: CopyPrefixBeforeEE: dst shorter than src")
	}
	if i, ok := QuickCopy(dst, src); ok {
		return i // only ASCII comes before i: no EE
	}
	n := copyValidBeforeEENEON(dst, src)
	if n == len(src) {
		return n
	}
	return copyFinish(dst, src, n, beforeEE)
}

// PrefixBMP returns Prefix(p), or the offset of the first byte F0..FF in
// that prefix if it is smaller: the valid text that holds no character
// above U+FFFF.
func PrefixBMP(p []byte) int {
	// The kernel is called here, as in Prefix.
	if len(p) < minKernel || impl != implNEON {
		return prefixBMPGeneric(p)
	}
	if i, ok := QuickPrefix(p); ok {
		return i // only ASCII comes before i: no byte F0..FF
	}
	n := validBMPNEON(p)
	if n == len(p) {
		return n
	}
	return finish(p, n, bmp)
}

// CopyPrefixBMP is CopyPrefix that stops where PrefixBMP does.
func CopyPrefixBMP(dst, src []byte) int {
	// The kernel is called here, as in CopyPrefix.
	switch {
	case len(src) < minKernel || impl != implNEON:
		return copyPrefixBMPGeneric(dst, src)
	case len(dst) < len(src):
		panic("valid: CopyPrefixBMP: dst shorter than src")
	}
	if i, ok := QuickCopy(dst, src); ok {
		return i // only ASCII comes before i: no byte F0..FF
	}
	n := copyValidBMPNEON(dst, src)
	if n == len(src) {
		return n
	}
	return copyFinish(dst, src, n, bmp)
}
