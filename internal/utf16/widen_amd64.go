//go:build gc && !purego

package utf16

import (
	"github.com/utf8stream/utf8stream/internal/registry"
	"golang.org/x/sys/cpu"
)

// The implementations, by index in impls.
const (
	implGeneric = iota
	implAVX2
	implAVX512
)

var (
	// The AVX2 kernels need POPCNT too, to count the lanes they pack.
	avx2Needs = []registry.Feature{registry.Has("AVX", cpu.X86.HasAVX), registry.Has("AVX2", cpu.X86.HasAVX2),
		registry.Has("POPCNT", cpu.X86.HasPOPCNT)}
	// The AVX-512 implementation is widenAVX512, which needs AVX-512 BW,
	// VBMI (VPERMB, VPERMI2B), VBMI2 (VPCOMPRESSB) and BMI2 (SHRX), and
	// narrowAVX2, as fast as a 512-bit narrowing on CPUs that split
	// 512-bit operations in two. It also asks for AVX2, so that
	// GODEBUG=cpu.avx2=off turns off both.
	avx512Needs = append(avx2Needs[:len(avx2Needs):len(avx2Needs)],
		registry.Has("AVX512F", cpu.X86.HasAVX512F), registry.Has("AVX512BW", cpu.X86.HasAVX512BW),
		registry.Has("AVX512VBMI", cpu.X86.HasAVX512VBMI), registry.Has("AVX512VBMI2", cpu.X86.HasAVX512VBMI2),
		registry.Has("BMI2", cpu.X86.HasBMI2))

	useAVX2 = registry.All(avx2Needs)
)

var impls = []implInfo{
	implGeneric: {Impl: registry.Impl{Name: "generic"},
		widen:  func(dst, src []byte) (int, int) { return widenGeneric(dst, src) },
		narrow: func(dst, src []byte, lo, n uint32) (int, int) { return narrowGeneric(dst, src, lo, n) }},
	implAVX2: {Impl: registry.Impl{Name: "avx2", Needs: avx2Needs, Advertised: cpu.X86.HasAVX2},
		widen: widenAVX2, narrow: narrow2},
	implAVX512: {Impl: registry.Impl{Name: "avx512", Needs: avx512Needs, Advertised: cpu.X86.HasAVX512F},
		widen: widenAVX512, narrow: narrow2},
}

// impl is the implementation in use: the fastest one supported, and none
// without AVX2, where the callers' Go loops cost less than the generic
// block loop.
var impl = func() int {
	switch {
	case registry.All(avx512Needs):
		return implAVX512
	case useAVX2:
		return implAVX2
	}
	return -1
}()

func enabled() bool { return impl >= 0 }

func widen(dst, src []byte) (int, int) {
	switch impl {
	case implAVX512:
		return widenAVX512(dst, src)
	case implAVX2:
		return widenAVX2(dst, src)
	case implGeneric:
		return widenGeneric(dst, src)
	}
	return 0, 0
}

func narrow(dst, src []byte, stopLo, stopN uint32) (int, int) {
	switch impl {
	case implAVX2, implAVX512:
		return narrow2(dst, src, stopLo, stopN)
	case implGeneric:
		return narrowGeneric(dst, src, stopLo, stopN)
	}
	return 0, 0
}

// widenAVX2 is Widen.
//
//go:noescape
func widenAVX2(dst, src []byte) (nd, ns int)

// widenAVX512 is Widen.
//
//go:noescape
func widenAVX512(dst, src []byte) (nd, ns int)

// widenValidAVX512 is WidenValid, which takes steps of characters of 1
// to 3 bytes where bmp is set.
//
//go:noescape
func widenValidAVX512(dst, src []byte, bmp bool) (nd, ns int)

// widenValidBMP is the least src on which WidenValid's AVX-512 kernel
// takes steps of characters of 1 to 3 bytes: on shorter input the span
// and the widening of the bytes it leaves at the end cost more than the
// validation it saves, which a separate pass does at about twice the
// speed of the widening.
var widenValidBMP = 2048

// SetWidenValidBMP sets the least src on which WidenValid takes steps of
// characters of 1 to 3 bytes on AVX-512 to n, so that tests can reach
// them on short input, and returns a function that restores it.
func SetWidenValidBMP(n int) (restore func()) {
	old := widenValidBMP
	widenValidBMP = n
	return func() { widenValidBMP = old }
}

// widenValidAVX2 is WidenValid, 32 bytes a step.
//
//go:noescape
func widenValidAVX2(dst, src []byte) (nd, ns int)

func widenValid(dst, src []byte) (int, int) {
	switch impl {
	case implAVX512:
		return widenValidAVX512(dst, src, len(src) >= widenValidBMP)
	case implAVX2:
		return widenValidAVX2(dst, src)
	}
	return 0, 0
}

// narrow2 is Narrow, by narrowAVX2.
func narrow2(dst, src []byte, stopLo, stopN uint32) (nd, ns int) {
	lo, n := stopUnits(stopLo, stopN)
	ascii := n > 0 && (lo < 0x80 || lo+n > 0x10000)
	return narrowAVX2(dst, src, uint16(lo), uint16(n-1), n > 0, ascii, ascii || n > 0 && lo < 0xE000 && lo+n > 0xD800)
}

// stopUnits returns the units u (below 0x10000) with u-stopLo < stopN
// as a range of n units from lo that may wrap around from FFFF to 0:
// those with (u-lo)&0xFFFF < n, n <= 0x10000. The units of a range that
// wraps around 1<<32 lie at both ends, so they are one such range.
func stopUnits(stopLo, stopN uint32) (lo, n uint32) {
	const units = 0x10000
	end := uint64(stopLo) + uint64(stopN) // one past the range, which may wrap
	if stopLo < units {
		lo, n = stopLo, uint32(min(end, units))-stopLo
	}
	if end > 1<<32 {
		// The part that wraps around: 0..end-1<<32-1.
		w := uint32(min(end-1<<32, units))
		if n == 0 {
			lo = 0
		}
		n += w
	}
	return lo, n
}

// narrowAVX2 is Narrow with the stop range, if stop is set, of the units
// u with (u-stopLo)&0xFFFF <= stopLast, which it looks for in blocks of
// ASCII too if stopASCII is set, and in blocks of ASCII and surrogate
// pairs if stopPairs is set, which stopASCII and a range that holds a
// surrogate need.
//
//go:noescape
func narrowAVX2(dst, src []byte, stopLo, stopLast uint16, stop, stopASCII, stopPairs bool) (nd, ns int)
