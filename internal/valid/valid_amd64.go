//go:build gc && !purego

package valid

import (
	"github.com/utf8stream/utf8stream/internal/registry"
	"golang.org/x/sys/cpu"
)

// The implementations, by index in impls.
const (
	implGeneric = iota
	implPortable
	implAVX2
	implAVX512
)

var (
	// The features of the kernels, as their "Requires:" lines name them.
	avx2Needs = []registry.Feature{registry.Has("AVX", cpu.X86.HasAVX), registry.Has("AVX2", cpu.X86.HasAVX2)}
	// The AVX-512 kernel needs AVX-512 BW, VBMI (VPERMB does the lookups),
	// BMI1 (TZCNT) and BMI2 (BZHI makes the masks of the last block). It
	// also asks for AVX2, so that GODEBUG=cpu.avx2=off turns off both kernels.
	avx512Needs = append(avx2Needs[:len(avx2Needs):len(avx2Needs)],
		registry.Has("AVX512F", cpu.X86.HasAVX512F), registry.Has("AVX512BW", cpu.X86.HasAVX512BW),
		registry.Has("AVX512VBMI", cpu.X86.HasAVX512VBMI), registry.Has("BMI1", cpu.X86.HasBMI1),
		registry.Has("BMI2", cpu.X86.HasBMI2))

	useAVX2   = registry.All(avx2Needs)
	useAVX512 = registry.All(avx512Needs)
)

var impls = []implInfo{
	implGeneric:  {Impl: registry.Impl{Name: "generic"}},
	implPortable: {Impl: registry.Impl{Name: "portable"}},
	implAVX2: {registry.Impl{Name: "avx2", Needs: avx2Needs, Advertised: cpu.X86.HasAVX2},
		validAVX2, copyValidAVX2, validBeforeEEAVX2, copyValidBeforeEEAVX2, validBMPAVX2, copyValidBMPAVX2},
	implAVX512: {registry.Impl{Name: "avx512", Needs: avx512Needs, Advertised: cpu.X86.HasAVX512F},
		validAVX512, copyValidAVX512, validBeforeEEAVX512, copyValidBeforeEEAVX512, validBMPAVX512, copyValidBMPAVX512},
}

// impl is the implementation in use: the fastest one supported.
var impl = func() int {
	switch {
	case useAVX512:
		return implAVX512
	case useAVX2:
		return implAVX2
	}
	return implPortable
}()

// minKernel is the shortest input that the fronts other than Prefix and
// KernelPrefix hand to a kernel; shorter ones cost less in Go than the
// call. vecValid takes any length: below 32 bytes, validShortAVX2 on both
// paths. The AVX-512 kernels would take short input with masked loads
// past the end of p, which are slow where the masked-off bytes lie on
// another page.
const minKernel = 32

// validAVX2 returns n such that p[:n] holds no ill-formed sequence,
// except perhaps an unfinished or ill-formed last one that only the bytes
// from n on show: n is the offset of the first byte flagged in an error,
// which is at most 3 bytes after the lead byte of the sequence at fault.
// n == len(p) means that all of p is well-formed. It returns 0 for p
// shorter than 32 bytes, and may stop at a multiple of 32 for p shorter
// than 35. It does not read outside p.
//
//go:noescape
func validAVX2(p []byte) int

// validShortAVX2 returns what validAVX2 would return for p shorter than 32
// bytes if it took them: n == len(p) where p is well-formed, and otherwise
// the offset of the first byte flagged in an error, or len(p)-1 where p
// ends inside a sequence. It reads only the page that holds p.
//
//go:noescape
func validShortAVX2(p []byte) int

// copyValidAVX2 returns what validAVX2 returns for src, and copies src[:n]
// to dst[:n] on the way. It may write anywhere in dst[:len(src)], never
// beyond, and does not read outside src. len(dst) must be at least
// len(src).
//
//go:noescape
func copyValidAVX2(dst, src []byte) int

// validBeforeEEAVX2 and copyValidBeforeEEAVX2 are the kernels above that
// also stop at every EE byte. They flag the byte after it, through a
// variant of a lookup table at no cost per block, so that the n they
// return is at most one past the first EE (see finish).
//
//go:noescape
func validBeforeEEAVX2(p []byte) int

//go:noescape
func copyValidBeforeEEAVX2(dst, src []byte) int

// validBMPAVX2 and copyValidBMPAVX2 are the kernels above that also stop
// at every byte F0..FF. They flag the byte after it, through a variant of
// a lookup table at no cost per block, so that the n they return is at
// most one past the first (see finish).
//
//go:noescape
func validBMPAVX2(p []byte) int

//go:noescape
func copyValidBMPAVX2(dst, src []byte) int

// validAVX512 and the rest are the AVX-512 kernels of each kind and
// variant. They return what the AVX2 kernels return, except that they may
// stop at 64 for p of 65 or 66 bytes, and take p shorter than 32 bytes too
// (with masked loads, which may read past p within its last 64 bytes'
// pages). The fronts reach them through the vec entries.
//
//go:noescape
func validAVX512(p []byte) int

//go:noescape
func copyValidAVX512(dst, src []byte) int

//go:noescape
func validBeforeEEAVX512(p []byte) int

//go:noescape
func copyValidBeforeEEAVX512(dst, src []byte) int

//go:noescape
func validBMPAVX512(p []byte) int

//go:noescape
func copyValidBMPAVX512(dst, src []byte) int

// vecValid, vecCopy and their variants run the AVX-512 kernel of their
// kind where impl is implAVX512 and p holds 64 bytes or more, the AVX2
// kernel where impl is implAVX2 or p is shorter, and return -1 where impl
// has no kernel: one call, with no test of impl before it, so that the
// fronts below inline and a hot caller calls the kernel from its own
// frame. vecValid sends p shorter than 32 bytes to validShortAVX2 on both
// paths.
//
//go:noescape
func vecValid(p []byte) int

//go:noescape
func vecCopy(dst, src []byte) int

//go:noescape
func vecValidBeforeEE(p []byte) int

//go:noescape
func vecCopyBeforeEE(dst, src []byte) int

//go:noescape
func vecValidBMP(p []byte) int

//go:noescape
func vecCopyBMP(dst, src []byte) int

// KernelPrefix returns the kernel's n for p and true where Prefix would
// call the AVX-512 or AVX2 kernel, and false elsewhere. n == len(p) means
// that all of p is valid; otherwise the caller finishes with Finish. It
// is small enough to be inlined, so that a hot caller calls the kernel
// from its own frame: at 64 bytes a frame on the way costs a tenth of the
// time. The caller calls QuickPrefix first, as Prefix does.
func KernelPrefix(p []byte) (n int, ok bool) {
	if len(p) < Short {
		return 0, false
	}
	n = vecValid(p)
	return n, n >= 0
}

// KernelCopy is KernelPrefix for CopyPrefix; the caller finishes with
// CopyFinish. len(dst) must be at least len(src); dst[:len(src)] keeps the
// kernel within dst's capacity even where it is not, at no cost that
// would keep this from inlining.
func KernelCopy(dst, src []byte) (n int, ok bool) {
	if len(src) < minKernel {
		return 0, false
	}
	n = vecCopy(dst[:len(src)], src)
	return n, n >= 0
}

// KernelCopyBeforeEE is KernelPrefix for CopyPrefixBeforeEE; the caller
// finishes with CopyFinishBeforeEE.
func KernelCopyBeforeEE(dst, src []byte) (n int, ok bool) {
	if len(src) < minKernel {
		return 0, false
	}
	n = vecCopyBeforeEE(dst[:len(src)], src)
	return n, n >= 0
}

// KernelPrefixBMP is KernelPrefix for PrefixBMP; the caller finishes with
// FinishBMP.
func KernelPrefixBMP(p []byte) (n int, ok bool) {
	if len(p) < minKernel {
		return 0, false
	}
	n = vecValidBMP(p)
	return n, n >= 0
}

// KernelCopyBMP is KernelPrefix for CopyPrefixBMP; the caller finishes
// with CopyFinishBMP.
func KernelCopyBMP(dst, src []byte) (n int, ok bool) {
	if len(src) < minKernel {
		return 0, false
	}
	n = vecCopyBMP(dst[:len(src)], src)
	return n, n >= 0
}

// Prefix returns the length of the longest prefix of p made of complete,
// well-formed UTF-8 sequences.
func Prefix(p []byte) int {
	// The kernel is called here rather than through kernelPrefix: on
	// short input each call on the way costs as much as the kernel's work.
	var n int
	if len(p) < Short {
		return prefixShort(p)
	}
	if i, ok := QuickPrefix(p); ok {
		return i
	}
	switch {
	case impl >= implAVX2:
		n = vecValid(p)
	case impl == implPortable && len(p) >= minKernel:
		return prefixPortable(p)
	default:
		return prefixGeneric(p)
	}
	if n == len(p) {
		return n
	}
	return finish(p, n, plain)
}

// kernelPrefix runs the kernel of impl and variant v on p, whatever its
// length, and finishes in Go where it stopped.
func kernelPrefix(p []byte, v variant) int {
	var n int
	switch {
	case impl >= implAVX2 && v == beforeEE:
		n = vecValidBeforeEE(p)
	case impl >= implAVX2 && v == bmp:
		n = vecValidBMP(p)
	case impl >= implAVX2:
		n = vecValid(p)
	case impl == implPortable && v == beforeEE:
		return prefixBeforeEEPortable(p)
	case impl == implPortable && v == bmp:
		return prefixBMPPortable(p)
	case impl == implPortable:
		return prefixPortable(p)
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
	var n int
	switch {
	case len(src) < minKernel:
		return copyPrefixGeneric(dst, src)
	case len(dst) < len(src):
		panic("valid: CopyPrefix: dst shorter than src")
	}
	if i, ok := QuickCopy(dst, src); ok {
		return i
	}
	switch {
	case impl >= implAVX2:
		n = vecCopy(dst, src)
	case impl == implPortable:
		return copyPrefixPortable(dst, src)
	default:
		return copyPrefixGeneric(dst, src)
	}
	if n == len(src) {
		return n
	}
	return copyFinish(dst, src, n, plain)
}

// PrefixBeforeEE returns Prefix(p), or the offset of the first EE in that
// prefix if it is smaller: the valid text that OPTU8 can pass on without
// looking at it again.
func PrefixBeforeEE(p []byte) int {
	if len(p) < minKernel || impl == implGeneric {
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
	var n int
	switch {
	case len(src) < minKernel:
		return copyPrefixBeforeEEGeneric(dst, src)
	case len(dst) < len(src):
		panic("valid: CopyPrefixBeforeEE: dst shorter than src")
	}
	if i, ok := QuickCopy(dst, src); ok {
		return i // only ASCII comes before i: no EE
	}
	switch {
	case impl >= implAVX2:
		n = vecCopyBeforeEE(dst, src)
	case impl == implPortable:
		return copyPrefixBeforeEEPortable(dst, src)
	default:
		return copyPrefixBeforeEEGeneric(dst, src)
	}
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
	var n int
	if len(p) < minKernel {
		return prefixBMPGeneric(p)
	}
	if i, ok := QuickPrefix(p); ok {
		return i // only ASCII comes before i: no byte F0..FF
	}
	switch {
	case impl >= implAVX2:
		n = vecValidBMP(p)
	case impl == implPortable:
		return prefixBMPPortable(p)
	default:
		return prefixBMPGeneric(p)
	}
	if n == len(p) {
		return n
	}
	return finish(p, n, bmp)
}

// CopyPrefixBMP is CopyPrefix that stops where PrefixBMP does.
func CopyPrefixBMP(dst, src []byte) int {
	// The kernel is called here, as in CopyPrefix.
	var n int
	switch {
	case len(src) < minKernel:
		return copyPrefixBMPGeneric(dst, src)
	case len(dst) < len(src):
		panic("valid: CopyPrefixBMP: dst shorter than src")
	}
	if i, ok := QuickCopy(dst, src); ok {
		return i // only ASCII comes before i: no byte F0..FF
	}
	switch {
	case impl >= implAVX2:
		n = vecCopyBMP(dst, src)
	case impl == implPortable:
		return copyPrefixBMPPortable(dst, src)
	default:
		return copyPrefixBMPGeneric(dst, src)
	}
	if n == len(src) {
		return n
	}
	return copyFinish(dst, src, n, bmp)
}
