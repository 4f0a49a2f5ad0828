//go:build gc && !purego

package valid

import "github.com/utf8stream/utf8stream/internal/registry"

// The implementations, by index in impls. Every arm64 CPU has NEON
// (ASIMD), so the NEON kernels need no feature check.
const (
	implGeneric = iota
	implNEON
)

// implPortable is none: the portable implementation is for platforms
// without a kernel, and every arm64 CPU has NEON.
const implPortable = -1

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

// checkNEON and copyNEON are the bodies of the NEON kernels, which the
// entries above enter with their arguments in registers (valid_arm64.s).
// Go never calls them; they are declared so that their symbols are the
// package's, for tools that count the instructions of its code.
//
//lint:ignore U1000 the entries in the .s file jump to it
func checkNEON()

//lint:ignore U1000 the entries in the .s file jump to it
func copyNEON()

// vecValid and the rest run the NEON kernel of their kind and variant
// where impl is implNEON and p holds minKernel bytes or more, and return
// -1 otherwise.
func vecValid(p []byte) int {
	if impl != implNEON || len(p) < minKernel {
		return -1
	}
	return validNEON(p)
}

func vecCopy(dst, src []byte) int {
	if impl != implNEON || len(src) < minKernel {
		return -1
	}
	return copyValidNEON(dst, src)
}

func vecValidBeforeEE(p []byte) int {
	if impl != implNEON || len(p) < minKernel {
		return -1
	}
	return validBeforeEENEON(p)
}

func vecCopyBeforeEE(dst, src []byte) int {
	if impl != implNEON || len(src) < minKernel {
		return -1
	}
	return copyValidBeforeEENEON(dst, src)
}

func vecValidBMP(p []byte) int {
	if impl != implNEON || len(p) < minKernel {
		return -1
	}
	return validBMPNEON(p)
}

func vecCopyBMP(dst, src []byte) int {
	if impl != implNEON || len(src) < minKernel {
		return -1
	}
	return copyValidBMPNEON(dst, src)
}

// countNEON and copyCountNEON are the bodies of the counting kernels,
// declared as the others are.
//
//lint:ignore U1000 the entries in the .s file jump to it
func countNEON()

//lint:ignore U1000 the entries in the .s file jump to it
func copyCountNEON()

// vecValidLines and vecCopyLines are vecValid and vecCopy, plain variant,
// that also count newlines in the same pass, for Lines: they return n,
// then the newlines of p[:end], end, and the offset of the last of them,
// or -1 if there is none. end is len(p) where n is len(p) or one less,
// and otherwise at most n, and less by at most 64. n is -1 where impl is
// not implNEON or p is shorter than minKernel. They are the entries
// themselves, so that the fronts that call them inline and a hot caller
// calls the kernel from its own frame.
//
//go:noescape
func vecValidLines(p []byte) (int, int, int, int)

//go:noescape
func vecCopyLines(dst, src []byte) (int, int, int, int)
