package main

import (
	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/utf8stream/utf8stream/_asm/gen"
)

// classifyAVX2 writes classifyAVX2(src []byte, out []blockClass): for
// each i < len(out) it classifies the 64 bytes at src[64*i:], reading up
// to src[64*i+66]; len(src) must be at least 64*len(out)+3. See
// classifyGeneric.
func classifyAVX2() {
	f.Function("classifyAVX2")
	f.Attributes(attr.NOSPLIT)
	f.SignatureExpr("func(src []byte, out []byte)")
	f.MOVQ(gen.Param("src_base", 0), RSI)
	f.MOVQ(gen.Param("out_base", 24), RDI)
	f.MOVQ(gen.Param("out_len", 32), R15)
	f.TESTQ(R15, R15)
	f.JZ(label("done"))
	classifyConsts2()
	classifyLoop2("loop", false)
	f.Label("done")
	f.VZEROUPPER()
	f.RET()
}

// classifyConsts2 loads the constants that classifyHalf2 needs: bC0, bA0
// and b90 in Y13, Y14 and Y15.
func classifyConsts2() {
	f.VMOVDQU(gen.Static("bC0", 0), Y13)
	f.VMOVDQU(gen.Static("bA0", 0), Y14)
	f.VMOVDQU(gen.Static("b90", 0), Y15)
}

// classifyLoop2 classifies the R15 > 0 blocks at SI into the blockClass
// array at DI, advancing SI and DI and counting R15 down to 0, in a loop
// at the label loop. It overwrites what classifyBlock2 does.
func classifyLoop2(loop string, esc bool) {
	f.Label(loop)
	classifyBlock2(esc)
	f.ADDQ(U8(64), RSI)
	f.ADDQ(U8(32), RDI)
	f.DECQ(R15)
	f.JNZ(label(loop))
}

// classifyBlock2 classifies the block at SI into the blockClass at DI,
// reading up to 66(SI). It overwrites AX, BX, CX, DX, R8 to R12 and Y0 to
// Y9 (and Y10, Y11 and Y12 with esc).
func classifyBlock2(esc bool) {
	load4(0)
	classifyHalf2(R8, R9, R10, R11, RAX, esc)
	load4(32)
	classifyHalf2(R12, RBX, RDX, RCX, RAX, esc)
	storeClass2([4]GPPhysical{R8, R9, R10, R11}, [4]GPPhysical{R12, RBX, RDX, RCX})
}

// load4 loads the 32 bytes at off(SI) and the 32 bytes 1, 2 and 3 places
// on into Y0 to Y3, for classifyHalf2.
func load4(off int) {
	for i, y := range []Register{Y0, Y1, Y2, Y3} {
		f.VMOVDQU(gen.Mem(RSI, off+i), y)
	}
}

// classifyHalf2 classifies 32 bytes, with the 32 bytes 1, 2 and 3 places
// on, in Y0, Y1, Y2 and Y3, and leaves the bits of blockClass's m2, m3,
// m4 and v for them in the low 32 bits of m2, m3, m4 and v. It needs bC0,
// bA0 and b90 in Y13, Y14 and Y15 (classifyConsts2), and overwrites Y0
// to Y9 and msb.
//
// A lead byte's unit holds its second byte if that is a continuation
// byte in the lead's range (ok1), its third if it needs one and that is
// a continuation byte, and its fourth likewise; it is well-formed where
// it holds all the bytes its lead needs, and an ASCII byte is a unit of
// its own, well-formed.
//
// With esc (OPTU8), it finds EE followed by BE..FF or 00..7F (Y10) and
// gathers them in Y12, which escSave2 reads, and clears v there, so that
// the block loop takes the sequence as a subpart of 3 bytes (those
// followed by C0..FF or 00..7F hold no third byte, so v is clear there
// already). It then overwrites Y10 and Y11 too.
func classifyHalf2(m2, m3, m4, v, msb GPPhysical, esc bool) {
	if esc {
		f.VPCMPEQB(gen.Static("bEE", 0), Y0, Y10)
		f.VPCMPGTB(gen.Static("bBD", 0), Y1, Y11)
		f.VPAND(Y11, Y10, Y10)
		f.VPOR(Y10, Y12, Y12)
	}
	f.VPCMPGTB(Y2, Y13, Y2) // the third bytes: continuation bytes
	f.VPCMPGTB(Y3, Y13, Y3) // the fourth bytes: continuation bytes
	f.VPCMPGTB(Y1, Y14, Y4) // the second bytes 80..9F
	f.VPCMPGTB(Y1, Y15, Y5) // the second bytes 80..8F
	f.VPCMPGTB(Y1, Y13, Y1) // the second bytes 80..BF
	// bad (Y6): E0 and 80..9F, ED and A0..BF, F0 and 80..8F, F4 and 90..BF.
	f.VPCMPEQB(gen.Static("bE0", 0), Y0, Y6)
	f.VPAND(Y6, Y4, Y6)
	f.VPCMPEQB(gen.Static("bED", 0), Y0, Y7)
	f.VPANDN(Y1, Y4, Y4)
	f.VPAND(Y7, Y4, Y4)
	f.VPOR(Y4, Y6, Y6)
	f.VPCMPEQB(gen.Static("bF0", 0), Y0, Y7)
	f.VPAND(Y7, Y5, Y7)
	f.VPOR(Y7, Y6, Y6)
	f.VPCMPEQB(gen.Static("bF4", 0), Y0, Y7)
	f.VPANDN(Y1, Y5, Y5)
	f.VPAND(Y7, Y5, Y5)
	f.VPOR(Y5, Y6, Y6)
	f.VPANDN(Y1, Y6, Y1)                     // ok1: in range
	f.VPCMPGTB(gen.Static("bF4", 0), Y0, Y4) // no lead: F5..FF and 00..7F
	f.VPCMPGTB(gen.Static("bC1", 0), Y0, Y5)
	f.VPANDN(Y5, Y4, Y5) // leads C2..F4
	f.VPAND(Y1, Y5, Y5)  // m2
	f.VPMOVMSKB(Y5, m2.As32())
	f.VPCMPGTB(gen.Static("bDF", 0), Y0, Y6)
	f.VPANDN(Y6, Y4, Y6) // leads E0..F4
	f.VPAND(Y2, Y5, Y7)
	f.VPAND(Y6, Y7, Y7) // m3
	f.VPMOVMSKB(Y7, m3.As32())
	f.VPCMPGTB(gen.Static("bEF", 0), Y0, Y8)
	f.VPANDN(Y8, Y4, Y8) // leads F0..F4
	f.VPAND(Y3, Y7, Y9)
	f.VPAND(Y8, Y9, Y9) // m4
	f.VPMOVMSKB(Y9, m4.As32())
	// v: m2 under C2..DF, m3 under E0..EF (not escaped), m4, and ASCII.
	f.VPANDN(Y5, Y6, Y5)
	f.VPANDN(Y7, Y8, Y7)
	if esc {
		f.VPANDN(Y7, Y10, Y7)
	}
	f.VPOR(Y7, Y5, Y5)
	f.VPOR(Y9, Y5, Y5)
	f.VPMOVMSKB(Y5, v.As32())
	f.VPMOVMSKB(Y0, msb.As32())
	f.NOTL(msb.As32())
	f.ORL(msb.As32(), v.As32())
}

// storeClass2 writes the blockClass at DI from the bits of the block's
// two halves, lo and hi (m2, m3, m4 and v each), and overwrites hi.
func storeClass2(lo, hi [4]GPPhysical) {
	for i := range 4 {
		f.SHLQ(U8(32), hi[i])
		f.ORQ(lo[i], hi[i])
		f.MOVQ(hi[i], gen.Mem(RDI, 8*i))
	}
}

// escSave2 stores in const_frameEscAny whether any block classified with
// esc since Y12 was cleared has an EE followed by BE or BF.
func escSave2() {
	f.VPMOVMSKB(Y12, EAX)
	f.MOVQ(RAX, frame("EscAny"))
}

// repairAVX2 writes repairAVX2(dst, src []byte, n int, tab *Table, st
// *state). It classifies the n <= const_batch blocks from st.p on into
// its frame, as classifyAVX2 does, and then repairs them: a block with a
// few ill-formed bytes as copies of the valid runs between them and a
// table word for each, one with const_perByteMinAVX2 or more in the
// per-byte path (perByte2), a table word for each of its bytes. See
// kernelBlocks.
func repairAVX2() {
	enter("repairAVX2")
	classifyConsts2()
	f.MOVQ(gen.Param("src_base", 24), RSI)
	f.LEAQ(gen.Mem(RSP, 0), RDI)
	f.CMPQ(st("tail"), U8(0))
	f.JNE(label("tail"))
	f.ADDQ(st("p"), RSI)
	f.CMPB(tab("esc", 0), U8(0))
	f.JNE(label("classifyEsc"))
	classifyLoop2("classifyLoop", false)
	f.JMP(label("classified"))

	f.Label("classifyEsc")
	f.VPXOR(Y12, Y12, Y12)
	classifyLoop2("classifyLoopEsc", true)
	escSave2()

	f.Label("classified")
	f.MOVQ(gen.Param("n", 48), R15)
	f.MOVQ(gen.Param("src_base", 24), RSI)
	blockLoop(avx2{})
	perByte2()
	tail2()
}

// avx2 is the block loop's part of repairAVX2.
type avx2 struct{}

// setup keeps the per-byte path's constants in Y10 to Y12.
func (avx2) setup() {
	f.VMOVDQU(gen.Static("expandD8", 0), Y10)
	f.VMOVDQU(gen.Static("bitsel", 0), Y11)
	f.VMOVDQU(gen.Static("two", 0), Y12)
}

func (avx2) copy64(r Register) {
	f.VMOVDQU(gen.At(RSI, r, 0), Y0)
	f.VMOVDQU(gen.At(RSI, r, 32), Y1)
	f.VMOVDQU(Y0, gen.At(RDI, RBX, 0))
	f.VMOVDQU(Y1, gen.At(RDI, RBX, 32))
}

// escStarts finds every EE.
func (avx2) escStarts() {
	f.VMOVDQU(gen.Static("bEE", 0), Y0)
	f.VPCMPEQB(gen.At(RSI, RDX, 0), Y0, Y1)
	f.VPCMPEQB(gen.At(RSI, RDX, 32), Y0, Y0)
	f.VPMOVMSKB(Y1, EAX)
	f.VPMOVMSKB(Y0, R8L)
	f.SHLQ(U8(32), R8)
	f.ORQ(R8, RAX)
}

func (avx2) perByteTest() {
	f.POPCNTQ(R10, RAX)
	f.CMPQ(RAX, f.Const("const_perByteMinAVX2"))
	f.JAE(label("perByte"))
}

// perByte2 writes the per-byte path of repairAVX2, at perByte: the table
// index kind<<8|b of each byte of the block, 16 to a Y register, from
// start (R9) and bad (R10) and the bytes, each half in the order of
// VPERMQ $0xD8, which VPUNPCKLBW and VPUNPCKHBW, each within 128-bit
// lanes, put back in order; then the output of each. It ends with JMP
// next.
func perByte2() {
	f.Label("perByte")
	f.VMOVQ(R9, X0)
	f.VMOVQ(R10, X1)
	f.VPSRLQ(U8(32), X0, X2)
	f.VPSRLQ(U8(32), X1, X3)
	kinds2(X0, X1, Y0, Y1)
	kinds2(X2, X3, Y2, Y3)
	f.VPERMQ(U8(0xD8), gen.At(RSI, RDX, 0), Y4)
	f.VPERMQ(U8(0xD8), gen.At(RSI, RDX, 32), Y5)
	f.VPUNPCKLBW(Y1, Y4, Y6)
	f.VPUNPCKHBW(Y1, Y4, Y7)
	f.VPUNPCKLBW(Y3, Y5, Y8)
	f.VPUNPCKHBW(Y3, Y5, Y9)
	put16(X6, Y6)
	put16(X7, Y7)
	put16(X8, Y8)
	put16(X9, Y9)
	f.JMP(label("next"))
}

// kinds2 sets ys to the kinds of 32 bytes, in the order of VPERMQ $0xD8,
// from the low 32 bits of start in xs and of bad in xb: cStart (1) where
// start is set, cRest (2) where only bad is, cValid (0) elsewhere (start
// is within bad). yb and ys are the Y registers of xb and xs, which it
// overwrites; it needs the constants of avx2.setup in Y10 to Y12.
func kinds2(xs, xb, ys, yb Register) {
	f.VPBROADCASTD(xs, ys)
	f.VPSHUFB(Y10, ys, ys)
	f.VPAND(Y11, ys, ys)
	f.VPCMPEQB(Y11, ys, ys)
	f.VPBROADCASTD(xb, yb)
	f.VPSHUFB(Y10, yb, yb)
	f.VPAND(Y11, yb, yb)
	f.VPCMPEQB(Y11, yb, yb)
	f.VPAND(Y12, yb, yb)
	f.VPADDB(ys, yb, yb)
}

// put16 writes the output of the 16 bytes whose table indexes are the
// words of y, which it overwrites (x is its low half), 4 at a time
// through R8.
func put16(x, y Register) {
	f.VMOVQ(x, R8)
	put4()
	f.VPEXTRQ(U8(1), x, R8)
	put4()
	f.VEXTRACTI128(U8(1), y, x)
	f.VMOVQ(x, R8)
	put4()
	f.VPEXTRQ(U8(1), x, R8)
	put4()
}

// put4 writes the output of the 4 bytes whose table indexes are the words
// of R8, a byte at a time: tab.out[i] at DI+BX, and advances BX by tab.n[i].
func put4() {
	for range 4 {
		f.MOVWQZX(R8W, RAX)
		f.SHRQ(U8(16), R8)
		f.MOVQ(Mem{Base: R13, Index: RAX, Scale: 8}, RCX)
		f.MOVQ(RCX, gen.At(RDI, RBX, 0))
		f.MOVBQZX(tab("n", 0).Idx(RAX, 1), RCX)
		f.ADDQ(RCX, RBX)
	}
}

// tail2 writes the tail path of repairAVX2, at tail, with SI = src: a
// tail of st.tail <= 64 bytes of input, the whole of src, which
// kernelTail sends as one block (R15 is 1) and the kernel pads with zeros
// itself. The 64 bytes from src's start lie on one page (tailReadable):
// they are loaded whole, and those past the tail zeroed. The block and 64
// zeros, which the block loop reads its valid runs from, go at R8: 128
// bytes in the frame from 32 on, aligned, past the one blockClass that
// the classification writes. It ends with JMP classifiedSI.
func tail2() {
	f.Label("tail")
	f.MOVQ(st("tail"), RAX)
	f.VMOVDQU(gen.Mem(RSI, 0), Y4)
	f.VMOVDQU(gen.Mem(RSI, 32), Y5)
	f.VMOVQ(RAX, X6)
	f.VPBROADCASTB(X6, Y6)
	f.VPCMPGTB(gen.Static("iota", 0), Y6, Y7)
	f.VPCMPGTB(gen.Static("iota", 32), Y6, Y8)
	f.VPAND(Y7, Y4, Y4)
	f.VPAND(Y8, Y5, Y5)

	f.Comment("The block and 64 zeros at R8")
	f.LEAQ(gen.Mem(RSP, 63), R8)
	f.ANDQ(I8(-32), R8)
	f.VPXOR(Y6, Y6, Y6)
	f.VMOVDQA(Y4, gen.Mem(R8, 0))
	f.VMOVDQA(Y5, gen.Mem(R8, 32))
	f.VMOVDQA(Y6, gen.Mem(R8, 64))
	f.VMOVDQA(Y6, gen.Mem(R8, 96))
	f.CMPB(tab("esc", 0), U8(0))
	f.JNE(label("tailEsc"))
	classifyTail2(false)
	f.JMP(label("tailClassified"))

	f.Label("tailEsc")
	f.VPXOR(Y12, Y12, Y12)
	classifyTail2(true)
	escSave2()

	f.Label("tailClassified")
	f.LEAQ(gen.Mem(RSP, 63), RSI)
	f.ANDQ(I8(-32), RSI)
	f.MOVQ(U32(1), R15)
	f.JMP(label("classifiedSI"))
}

// classifyTail2 classifies the block at R8, 32-byte aligned and followed
// by 32 zeros, into the blockClass at DI, making the bytes 1, 2 and 3
// places on with VPALIGNR rather than loading them across the stores
// that just wrote the block. It overwrites AX, BX, CX, DX, R9 to R12, R15
// and Y0 to Y9 (and Y10, Y11 and Y12 with esc).
func classifyTail2(esc bool) {
	f.VMOVDQA(gen.Mem(R8, 0), Y0)
	f.VPERM2I128(U8(0x21), gen.Mem(R8, 32), Y0, Y9)
	align3()
	classifyHalf2(R9, R10, R11, R12, RAX, esc)
	f.VMOVDQA(gen.Mem(R8, 32), Y0)
	f.VPERM2I128(U8(0x81), Y0, Y0, Y9)
	align3()
	classifyHalf2(RBX, RCX, RDX, R15, RAX, esc)
	storeClass2([4]GPPhysical{R9, R10, R11, R12}, [4]GPPhysical{RBX, RCX, RDX, R15})
}

// align3 sets Y1, Y2 and Y3 to the 32 bytes 1, 2 and 3 places on in Y0
// and then Y9.
func align3() {
	f.VPALIGNR(U8(1), Y0, Y9, Y1)
	f.VPALIGNR(U8(2), Y0, Y9, Y2)
	f.VPALIGNR(U8(3), Y0, Y9, Y3)
}
