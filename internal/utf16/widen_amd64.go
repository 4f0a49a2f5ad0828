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
	// The AVX-512 kernels need AVX-512 BW, VL, VBMI (VPERMI2B) and VBMI2
	// (VPCOMPRESSW, VPCOMPRESSB) and BMI2 (PDEP); they also ask for AVX2,
	// so that GODEBUG=cpu.avx2=off turns off both.
	avx512Needs = append(avx2Needs[:len(avx2Needs):len(avx2Needs)],
		registry.Has("AVX512F", cpu.X86.HasAVX512F), registry.Has("AVX512BW", cpu.X86.HasAVX512BW),
		registry.Has("AVX512VL", cpu.X86.HasAVX512VL), registry.Has("AVX512VBMI", cpu.X86.HasAVX512VBMI),
		registry.Has("AVX512VBMI2", cpu.X86.HasAVX512VBMI2),
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
		widen: widenAVX512, narrow: narrow512},
}

// impl is the implementation in use: the AVX2 kernels wherever they run,
// AVX-512 machines included, where they are the faster ones on text that
// is not ASCII (BenchmarkKernels); and none without AVX2, where the
// callers' Go loops cost less than the generic block loop. The AVX-512
// kernels stay selectable, and tested.
var impl = func() int {
	if useAVX2 {
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
	case implAVX512:
		return narrow512(dst, src, stopLo, stopN)
	case implAVX2:
		return narrow2(dst, src, stopLo, stopN)
	case implGeneric:
		return narrowGeneric(dst, src, stopLo, stopN)
	}
	return 0, 0
}

// narrow512 is Narrow through narrowAVX512 for a stop range of units from
// U+E000 on, or none, the ranges callers use; for others, where the
// kernel and the reference differ (it does not look at blocks of ASCII,
// and it stops at a low surrogate of a pair in the range), through the
// AVX2 kernel, which the AVX-512 implementation also requires.
func narrow512(dst, src []byte, stopLo, stopN uint32) (int, int) {
	if stopN == 0 || stopLo > 0xFFFF && uint64(stopLo)+uint64(stopN) <= 1<<32 {
		return narrowAVX512(dst, src, 0, 0)
	}
	if stopLo < 0xE000 || stopLo > 0xFFFF || uint64(stopLo)+uint64(stopN) > 0x10000 {
		return narrow2(dst, src, stopLo, stopN)
	}
	return narrowAVX512(dst, src, stopLo, stopN)
}

// widenAVX2 is Widen.
//
//go:noescape
func widenAVX2(dst, src []byte) (nd, ns int)

// widenAVX512 is Widen.
//
//go:noescape
func widenAVX512(dst, src []byte) (nd, ns int)

// narrow2 is Narrow, by narrowAVX2.
func narrow2(dst, src []byte, stopLo, stopN uint32) (nd, ns int) {
	lo, n := stopUnits(stopLo, stopN)
	return narrowAVX2(dst, src, uint16(lo), uint16(n-1), n > 0, n > 0 && (lo < 0x80 || lo+n > 0x10000))
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
// ASCII too if stopASCII is set.
//
//go:noescape
func narrowAVX2(dst, src []byte, stopLo, stopLast uint16, stop, stopASCII bool) (nd, ns int)

// narrowAVX512 is Narrow.
//
//go:noescape
func narrowAVX512(dst, src []byte, stopLo, stopN uint32) (nd, ns int)
