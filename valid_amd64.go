//go:build gc && !purego

package utf8stream

import (
	"golang.org/x/sys/cpu"
)

// The implementations of validPrefix, by index in impls.
const (
	implGeneric = iota
	implAVX2
	implAVX512
)

var (
	useAVX2 = cpu.X86.HasAVX2
	// The AVX-512 kernel needs AVX-512 BW, VBMI (VPERMB does the lookups),
	// BMI1 (TZCNT) and BMI2 (BZHI makes the masks of the last block). It
	// also asks for AVX2, so that GODEBUG=cpu.avx2=off turns off both kernels.
	useAVX512 = useAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW &&
		cpu.X86.HasAVX512VBMI && cpu.X86.HasBMI1 && cpu.X86.HasBMI2
)

var impls = []implInfo{
	implGeneric: {name: "generic", supported: true},
	implAVX2:    {"avx2", useAVX2, validAVX2, copyValidAVX2, validStopAVX2, copyValidStopAVX2},
	implAVX512:  {"avx512", useAVX512, validAVX512, copyValidAVX512, validStopAVX512, copyValidStopAVX512},
}

// impl is the implementation validPrefix and copyValidPrefix use: the
// fastest one supported.
var impl = func() int {
	switch {
	case useAVX512:
		return implAVX512
	case useAVX2:
		return implAVX2
	}
	return implGeneric
}()

// minKernel is the shortest input validPrefix hands to a kernel; shorter
// ones cost less in Go than the call. The AVX-512 kernel would take them
// with masked loads past the end of p, which are slow where the masked-off
// bytes lie on another page.
const minKernel = 64

// validAVX2 and validAVX512 return n such that p[:n] holds no ill-formed
// sequence, except perhaps an unfinished or ill-formed last one that only
// the bytes from n on show: n is the offset of the first byte flagged in
// an error, which is at most 3 bytes after the lead byte of the sequence
// at fault. n == len(p) means that all of p is well-formed. validAVX2
// returns 0 for p shorter than 32 bytes, and may stop at a multiple of 32
// for p shorter than 35; validAVX512 may stop at 64 for p of 65 or 66
// bytes. Neither reads outside p.
//
//go:noescape
func validAVX2(p []byte) int

//go:noescape
func validAVX512(p []byte) int

// copyValidAVX2 and copyValidAVX512 return what validAVX2 and validAVX512
// return for src, and copy src[:n] to dst[:n] on the way. They may write
// anywhere in dst[:len(src)], never beyond, and neither reads outside src.
// len(dst) must be at least len(src).
//
//go:noescape
func copyValidAVX2(dst, src []byte) int

//go:noescape
func copyValidAVX512(dst, src []byte) int

// validStopAVX2, validStopAVX512, copyValidStopAVX2 and copyValidStopAVX512
// are the kernels above that also stop at every EE byte. They flag the
// byte after it, through a variant of a lookup table at no cost per
// block, so that the n they return is at most one past the first EE (see
// kernelFinish).
//
//go:noescape
func validStopAVX2(p []byte) int

//go:noescape
func validStopAVX512(p []byte) int

//go:noescape
func copyValidStopAVX2(dst, src []byte) int

//go:noescape
func copyValidStopAVX512(dst, src []byte) int

// kernelValid returns validAVX512(p) and true where validPrefix would
// call that kernel, and false elsewhere; the caller finishes with
// kernelFinish where n < len(p). It is small enough to be inlined, so
// that Span's short path calls the kernel from its own frame: at 64 bytes
// the frame of validPrefix on the way costs a tenth of the time. The
// caller calls earlyStop first, as validPrefix does.
func kernelValid(p []byte) (n int, ok bool) {
	if impl != implAVX512 || len(p) < minKernel {
		return 0, false
	}
	return validAVX512(p), true
}

// kernelCopyValid is kernelValid for copyValidPrefix. len(dst) must be at
// least len(src); dst[:len(src)] keeps the kernel within dst's capacity
// even where it is not, at no cost that would keep this from inlining.
func kernelCopyValid(dst, src []byte) (n int, ok bool) {
	if impl != implAVX512 || len(src) < minKernel {
		return 0, false
	}
	return copyValidAVX512(dst[:len(src)], src), true
}

// kernelCopyValidStop is kernelValid for copyValidPrefixStop.
func kernelCopyValidStop(dst, src []byte) (n int, ok bool) {
	if impl != implAVX512 || len(src) < minKernel {
		return 0, false
	}
	return copyValidStopAVX512(dst[:len(src)], src), true
}

// validPrefix returns the length of the longest prefix of p made of complete,
// well-formed UTF-8 sequences.
func validPrefix(p []byte) int {
	// The kernel is called here rather than through kernelPrefix: on short
	// input, which is what most calls of Span see, each call on the way
	// costs as much as the kernel's work.
	var n int
	if len(p) < minKernel {
		return validPrefixGeneric(p)
	}
	if i := earlyStop(p); i >= 0 {
		return i
	}
	switch {
	case impl == implAVX512:
		n = validAVX512(p)
	case impl == implAVX2:
		n = validAVX2(p)
	default:
		return validPrefixGeneric(p)
	}
	if n == len(p) {
		return n
	}
	return kernelFinish(p, n, false)
}

// validPrefixSlow is validPrefix for inputs long enough for a kernel.
func validPrefixSlow(p []byte) int { return kernelPrefix(p, false) }

// kernelPrefix runs the kernel of impl on p, the stopping one if stop is
// set, and finishes in Go where it stopped.
func kernelPrefix(p []byte, stop bool) int {
	var n int
	switch {
	case impl == implAVX512 && stop:
		n = validStopAVX512(p)
	case impl == implAVX512:
		n = validAVX512(p)
	case impl == implAVX2 && stop:
		n = validStopAVX2(p)
	case impl == implAVX2:
		n = validAVX2(p)
	}
	if n == len(p) {
		return n
	}
	return kernelFinish(p, n, stop)
}

// copyValidPrefix copies the longest prefix of src made of complete,
// well-formed UTF-8 sequences to dst and returns its length n, which is
// validPrefix(src). len(dst) must be at least len(src), and dst and src
// must not overlap. It may also write to dst[n:len(src)] (the bytes there
// are unspecified), never beyond.
func copyValidPrefix(dst, src []byte) int {
	// The kernel is called here rather than through kernelCopy, as in
	// validPrefix: Transform's short path comes here for each short input.
	var n int
	switch {
	case len(src) < minKernel:
		return copyValidPrefixGeneric(dst, src)
	case len(dst) < len(src):
		panic("utf8stream: copyValidPrefix: dst shorter than src")
	}
	if i := earlyCopy(dst, src); i >= 0 {
		return i
	}
	switch {
	case impl == implAVX512:
		n = copyValidAVX512(dst, src)
	case impl == implAVX2:
		n = copyValidAVX2(dst, src)
	default:
		return copyValidPrefixGeneric(dst, src)
	}
	if n == len(src) {
		return n
	}
	return copyFinish(dst, src, n, false)
}

// copyValidPrefixSlow is copyValidPrefix for inputs long enough for a
// kernel.
func copyValidPrefixSlow(dst, src []byte) int { return kernelCopy(dst, src, false) }

// kernelCopy is kernelPrefix with the copying kernels.
func kernelCopy(dst, src []byte, stop bool) int {
	if len(dst) < len(src) {
		panic("utf8stream: copyValidPrefix: dst shorter than src")
	}
	var n int
	switch {
	case impl == implAVX512 && stop:
		n = copyValidStopAVX512(dst, src)
	case impl == implAVX512:
		n = copyValidAVX512(dst, src)
	case impl == implAVX2 && stop:
		n = copyValidStopAVX2(dst, src)
	case impl == implAVX2:
		n = copyValidAVX2(dst, src)
	}
	if n == len(src) {
		return n
	}
	return copyFinish(dst, src, n, stop)
}

// validPrefixStop returns validPrefix(p), or the offset of the first EE in
// that prefix if it is smaller: the valid text that OPTU8 can pass on
// without looking at it again.
func validPrefixStop(p []byte) int {
	if len(p) < minKernel || impl == implGeneric {
		return validPrefixStopGeneric(p)
	}
	if i := earlyStop(p); i >= 0 {
		return i // only ASCII comes before i: no EE
	}
	return validPrefixStopSlow(p)
}

// validPrefixStopSlow is validPrefixStop for inputs long enough for a
// kernel.
func validPrefixStopSlow(p []byte) int { return kernelPrefix(p, true) }

// copyValidPrefixStop is copyValidPrefix that stops where validPrefixStop
// does.
func copyValidPrefixStop(dst, src []byte) int {
	// The kernel is called here, as in copyValidPrefix: OPTU8's short
	// path in Transform comes here for each short input.
	var n int
	switch {
	case len(src) < minKernel:
		return copyValidPrefixStopGeneric(dst, src)
	case len(dst) < len(src):
		panic("utf8stream: copyValidPrefixStop: dst shorter than src")
	}
	if i := earlyCopy(dst, src); i >= 0 {
		return i // only ASCII comes before i: no EE
	}
	switch {
	case impl == implAVX512:
		n = copyValidStopAVX512(dst, src)
	case impl == implAVX2:
		n = copyValidStopAVX2(dst, src)
	default:
		return copyValidPrefixStopGeneric(dst, src)
	}
	if n == len(src) {
		return n
	}
	return copyFinish(dst, src, n, true)
}

// copyValidPrefixStopSlow is copyValidPrefixStop for inputs long enough
// for a kernel.
func copyValidPrefixStopSlow(dst, src []byte) int { return kernelCopy(dst, src, true) }
