//go:build gc && !purego

package utf16

import "github.com/utf8stream/utf8stream/internal/registry"

// The implementations, by index in impls. Every arm64 CPU has NEON
// (ASIMD), so the NEON kernels need no feature check.
const (
	implGeneric = iota
	implNEON
)

var impls = []implInfo{
	implGeneric: {Impl: registry.Impl{Name: "generic"},
		widen:  func(dst, src []byte) (int, int) { return widenGeneric(dst, src) },
		narrow: func(dst, src []byte, lo, n uint32) (int, int) { return narrowGeneric(dst, src, lo, n) }},
	implNEON: {Impl: registry.Impl{Name: "neon", Advertised: true},
		widen: widenNEONChecked, narrow: narrowNEONChecked},
}

// impl is the implementation in use: the fastest one supported.
var impl = implNEON

func enabled() bool { return impl >= 0 }

func widen(dst, src []byte) (int, int) {
	if impl == implNEON {
		return widenNEONChecked(dst, src)
	}
	return widenGeneric(dst, src)
}

func narrow(dst, src []byte, stopLo, stopN uint32) (int, int) {
	if impl == implNEON {
		return narrowNEONChecked(dst, src, stopLo, stopN)
	}
	return narrowGeneric(dst, src, stopLo, stopN)
}

// widenNEONChecked is widenNEON for any src and dst.
func widenNEONChecked(dst, src []byte) (int, int) {
	if len(src) < WidenBlock+2 || len(dst) < Room {
		return 0, 0
	}
	return widenNEON(dst, src)
}

// narrowNEONChecked is narrowNEON for any src, dst and stop range: the
// kernel compares units less stopLo with stopN in 16 bits and takes
// ranges from U+E000 on (it would stop at the low surrogate of a pair in
// the range, which the reference does not compare); for other ranges the
// reference runs, which no caller asks for.
func narrowNEONChecked(dst, src []byte, stopLo, stopN uint32) (int, int) {
	if len(src) < NarrowBlock+2 || len(dst) < Room {
		return 0, 0
	}
	if stopN == 0 || stopLo > 0xFFFF && uint64(stopLo)+uint64(stopN) <= 1<<32 {
		// No unit lies in the range, which does not wrap around to 0.
		return narrowNEON(dst, src, 0, 0)
	}
	if stopLo < 0xE000 || stopLo > 0xFFFF || uint64(stopLo)+uint64(stopN) > 0x10000 {
		return narrowGeneric(dst, src, stopLo, stopN)
	}
	return narrowNEON(dst, src, stopLo, stopN)
}

// widenNEON is Widen, for src of WidenBlock+2 bytes or more and dst of
// Room bytes or more.
//
//go:noescape
func widenNEON(dst, src []byte) (nd, ns int)

// narrowNEON is Narrow, for src of NarrowBlock+2 bytes or more, dst of
// Room bytes or more, and a stop range from U+E000 on that ends by
// U+FFFF, or none (stopN 0): blocks of ASCII and surrogate pairs, which
// hold no unit of such a range, it takes without comparing.
//
//go:noescape
func narrowNEON(dst, src []byte, stopLo, stopN uint32) (nd, ns int)

func widenValid(dst, src []byte) (int, int) { return 0, 0 }

// SetWidenValidBMP does nothing here, where no kernel of WidenValid runs;
// see the amd64 one.
func SetWidenValidBMP(n int) (restore func()) { return func() {} }
