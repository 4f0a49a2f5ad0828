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
	// POPCNT is the counting kernels' (every CPU with AVX2 has it).
	avx2Needs = []registry.Feature{registry.Has("AVX", cpu.X86.HasAVX), registry.Has("AVX2", cpu.X86.HasAVX2),
		registry.Has("POPCNT", cpu.X86.HasPOPCNT)}
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

// minKernel is the shortest input that the fronts hand to the copying and
// stopping entries; shorter ones cost less in Go than the call. vecValid
// takes any length: below 32 bytes, validShortAVX2 on both paths.
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

// checkAVX2, copyAVX2, checkAVX512, copyAVX512 and shortAVX2 are the
// bodies of the kernels, which the entries enter with their arguments in
// registers (valid_amd64.s, which _asm/valid writes: see body2, body4 and
// entries there). Go never calls them; they are declared so that their
// symbols are the package's, for tools that count the instructions of its
// code.
//
//lint:ignore U1000 the entries in the .s file jump to it
func checkAVX2()

//lint:ignore U1000 the entries in the .s file jump to it
func copyAVX2()

//lint:ignore U1000 the entries in the .s file jump to it
func checkAVX512()

//lint:ignore U1000 the entries in the .s file jump to it
func copyAVX512()

//lint:ignore U1000 the entries in the .s file jump to it
func shortAVX2()

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

// vecValidLines and vecCopyLines are vecValid and vecCopy, plain variant,
// that also count newlines in one pass, for Lines: n, then the newlines of
// p[:end], end, and where the last of them is: -1 for none, its offset, or
// ^start where it is the last from start on.
// end is at most a block past n, or as far before it (see fixLines); n is
// -1 where impl has no counting kernel. They take p of any length, and
// count nothing below 32 bytes.
//
//go:noescape
func vecValidLines(p []byte) (int, int, int, int)

//go:noescape
func vecCopyLines(dst, src []byte) (int, int, int, int)

// countAVX2, copyCountAVX2, countAVX512 and copyCountAVX512 are the bodies
// of the counting kernels, declared as the others are.
//
//lint:ignore U1000 the entries in the .s file jump to it
func countAVX2()

//lint:ignore U1000 the entries in the .s file jump to it
func copyCountAVX2()

//lint:ignore U1000 the entries in the .s file jump to it
func countAVX512()

//lint:ignore U1000 the entries in the .s file jump to it
func copyCountAVX512()
