// Package utf16 converts runs of valid text between UTF-8 and UTF-16LE a
// block at a time, for the UTF16 encoders and decoders of package
// utf8stream, which keep every decision and convert the rest in Go.
//
// Widen takes blocks of 32 bytes of UTF-8 (with the characters that start
// in each), Narrow blocks of 16 code units, each as long
// as the block is one the kernel converts and dst has room for 64 bytes
// more; they stop at the first block that is not, and return how far they
// got. Where no kernel runs they return 0, 0.
//
// The amd64 kernels (widen_amd64.go, swap_amd64.go) are in widen_amd64.s,
// which the generator in _asm/utf16 writes with avo and whose package doc
// describes them: edit that program, not the assembly. Their lookup tables and
// constants come from internal/tablegen, which go generate runs to write
// tables_amd64.h and tables_arm64.h; go generate then runs _asm/utf16 to
// write widen_amd64.s, which includes the first.
package utf16

//go:generate go run ../tablegen/gen.go
//go:generate go -C ../../_asm run ./utf16 -out ../internal/utf16/widen_amd64.s

import "github.com/utf8stream/utf8stream/internal/registry"

// Block sizes and the room each step needs.
const (
	// WidenBlock is the bytes of UTF-8 a step of Widen takes; it reads
	// 2 bytes past them.
	WidenBlock = 32
	// NarrowBlock is the bytes of UTF-16 a step of Narrow takes.
	NarrowBlock = 32
	// Room is the space a step needs in dst, which it may write
	// anywhere in, whatever it returns.
	Room = 64
)

// Widen converts a prefix of src, whole sequences of generalized UTF-8
// (valid UTF-8 and the 3-byte forms of surrogates), to UTF-16LE in dst: the
// unit or the surrogate pair of each code point, a block of WidenBlock
// bytes at a time, each with the characters that start in it, while 2 more
// bytes follow the block in src and dst has Room bytes left. The prefix
// ends after the last character it converts, which may lie a few bytes
// after the last block; a 4-byte character that starts in the last byte of
// the last block is left out. It returns the bytes written and read.
func Widen(dst, src []byte) (nd, ns int) {
	if len(src) < WidenBlock+2 || len(dst) < Room {
		return 0, 0
	}
	return widen(dst, src)
}

// WidenValid is Widen for src that may hold any bytes: it converts a
// prefix of src that is valid UTF-8, a step at a time (64 bytes with
// AVX-512, 32 with AVX2), where each step holds ASCII and 4-byte
// characters, or with AVX2 ASCII and 2-byte or ASCII and 3-byte
// characters, or with AVX-512 and src of 2 KiB or more characters of 1
// to 3 bytes. It stops at the first step that holds an ill-formed
// sequence or other characters, or that 4 more bytes in src and two
// steps' room in dst do not follow. src[:ns] is valid UTF-8 and ends
// after a whole character. Where no such kernel runs (all but amd64 with
// AVX2), it returns 0, 0. It saves the encoder a separate validation,
// which costs a third to a half of the widening.
func WidenValid(dst, src []byte) (nd, ns int) { return widenValid(dst, src) }

// Narrow converts a prefix of src, UTF-16LE, to UTF-8 in dst, a block of
// NarrowBlock bytes at a time, with the low surrogate after the block if
// the block ends with a high one, while the block holds no lone surrogate
// and no unit u with u-stopLo < stopN, 2 more bytes follow it in src, and
// dst has Room bytes left. It returns the bytes written and read. The low
// surrogate of a pair is not compared with the stop range.
func Narrow(dst, src []byte, stopLo, stopN uint32) (nd, ns int) {
	if len(src) < NarrowBlock+2 || len(dst) < Room {
		return 0, 0
	}
	return narrow(dst, src, stopLo, stopN)
}

// kernels is the package's entry in the registry of implementations.
var kernels = registry.Register("utf16", &impl, func() []registry.Impl {
	r := make([]registry.Impl, len(impls))
	for i, im := range impls {
		r[i] = im.Impl
	}
	return r
}()...)

// Enabled reports whether Widen and Narrow run a kernel, so that callers
// without one need not call them.
func Enabled() bool { return enabled() }

// ImplNames returns the names of the implementations this machine runs,
// "generic" first.
func ImplNames() []string { return kernels.Names() }

// SetImpl makes Widen and Narrow use the named implementation until
// restore is called. It panics if this machine does not support it. It is
// for tests and benchmarks.
func SetImpl(name string) (restore func()) { return kernels.Select(name) }

// implInfo is an entry of impls.
type implInfo struct {
	registry.Impl
	widen  func(dst, src []byte) (int, int)
	narrow func(dst, src []byte, stopLo, stopN uint32) (int, int)
}
