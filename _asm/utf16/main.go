// Command utf16 writes internal/utf16/widen_amd64.s, the amd64 kernels of
// package utf16, with avo: widenAVX2 and widenAVX512 (Widen),
// widenValidAVX2 and widenValidAVX512 (WidenValid), narrowAVX2 (Narrow,
// on both paths) and swapAVX2 (Swap). go generate runs it from
// internal/utf16:
//
//	go -C ../../_asm run ./utf16 -out ../internal/utf16/widen_amd64.s
//
// The kernels name physical registers only, and each function here writes
// its instructions in the order they run, as the hand-written assembly
// this replaces did (see package gen). A function that writes a sequence
// that several kernels or paths share stands where that assembly had a
// macro; its doc says which registers it reads, sets and overwrites.
//
// # What the generated file includes
//
// The shuffles and constants of the AVX2 kernels (widenPack, narrowPack3,
// narrowPairs, wordD7C0, byteCF, ...) and the tables of the AVX-512 ones
// (widenHi, widenZip) are static symbols of tables_amd64.h, which
// internal/tablegen writes and describes entry by entry. The kernels need
// no go_asm.h: they take their arguments from the frame by name.
//
// # The kernels
//
// Every widening and narrowing kernel takes (dst, src []byte), returns
// (nd, ns int), the bytes written and read, and keeps dst in DI, src in
// SI, nd in BX and the lengths of dst and src, or the last nd and ns at
// which a block fits, in R8 and R9 (args, ret). The AVX2 ones keep ns in
// R11, the AVX-512 ones in AX.
//
// The AVX2 widening kernels (widen2.go) take blocks of 32 bytes in 16-byte
// lanes, in the manner of Lemire and Keiser's transcoder: for the low byte
// of each word of the block, and of the block a byte on, per-lane
// arithmetic computes the unit of the character that would start there
// (the units functions), and VPSHUFB by widenPack, keyed by the lanes
// where a character starts, packs the units to the front (storeBlock).
// Blocks of ASCII, of 1- and 2-byte, of 1- and 3-byte and of ASCII and
// 4-byte characters take shorter paths, and after a block of one of these
// kinds the next is tested for that kind first. narrowAVX2 (narrow.go)
// does the same the other way, 16 units a block, with narrowPack3 and
// narrowPack2.
//
// The AVX-512 widening kernels (widen512.go) take 64 bytes a step in two
// byte planes: for every byte, the low and the high byte of the unit of a
// character that would start there, from the byte and the two after it,
// loaded again at +1 and +2 (units5); VPCOMPRESSB keeps the bytes where a
// character starts, and VPERMI2B zips them into words (pack5).
package main

import (
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/utf8stream/utf8stream/_asm/gen"
)

// f is the file being written; the functions here add to it in order.
// The tables' GLOBL lines name flags of textflag.h, which must come
// before them.
var f = gen.NewFile("utf16", "textflag.h", "tables_amd64.h")

func main() {
	// avo parses the +build syntax, and prints //go:build gc && !purego.
	f.ConstraintExpr("gc,!purego")
	f.Header("The package doc of _asm/utf16 describes these kernels.")
	widenAVX2()
	widenValidAVX2()
	widenAVX512()
	widenValidAVX512()
	narrowAVX2()
	swapAVX2()
	f.Generate()
}

// scaled returns disp(base)(index*scale).
func scaled(base, index reg.Register, scale uint8, disp int) operand.Mem {
	return operand.Mem{Base: base, Index: index, Scale: scale, Disp: disp}
}

// label returns a reference to the label name, for a jump.
func label(name string) operand.LabelRef { return operand.LabelRef(name) }

// kernel starts the kernel name, NOSPLIT with no frame, of the Go
// signature sig.
func kernel(name, sig string) {
	f.Function(name)
	f.Attributes(attr.NOSPLIT)
	f.SignatureExpr(sig)
}

// args loads the arguments that the widening and narrowing kernels share:
// DI = dst, R8 = len(dst), SI = src and R9 = len(src).
func args() {
	f.MOVQ(gen.Param("dst_base", 0), reg.RDI)
	f.MOVQ(gen.Param("dst_len", 8), reg.R8)
	f.MOVQ(gen.Param("src_base", 24), reg.RSI)
	f.MOVQ(gen.Param("src_len", 32), reg.R9)
}

// ret returns nd (BX) and ns, whose results start at off in the frame,
// after VZEROUPPER.
func ret(ns reg.Register, off int) {
	f.VZEROUPPER()
	f.MOVQ(reg.RBX, gen.Param("nd", off))
	f.MOVQ(ns, gen.Param("ns", off+8))
	f.RET()
}

// isCont compares src[ns]&C0, in CX, with 80: equal where the byte at ns
// is a continuation byte.
func isCont(ns reg.Register) {
	f.MOVBLZX(gen.At(reg.RSI, ns, 0), reg.ECX)
	f.ANDL(operand.U32(0xC0), reg.ECX)
	f.CMPL(reg.ECX, operand.U32(0x80))
}

// takeBackHigh takes back the high surrogate written for a 4-byte
// character that starts in the last byte before ns: 2 bytes of dst, and
// ns to that byte.
func takeBackHigh(ns reg.Register) {
	f.SUBQ(operand.U8(2), reg.RBX)
	f.DECQ(ns)
}
