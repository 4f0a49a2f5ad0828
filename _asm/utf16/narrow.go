package main

import (
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/utf8stream/utf8stream/_asm/gen"
)

// narrowAVX2 writes narrowAVX2(dst, src []byte, stopLo, stopLast uint16,
// stop, stopASCII, stopPairs bool) (nd, ns int), Narrow on both paths:
// blocks of 16 units, while 2 bytes more follow the block in src and dst
// has room for 64 (R9 and R8 are the last ns and nd at which a block
// fits), with the stop range where stop is set (R12), looked for in
// blocks of ASCII too where stopASCII is set (R13).
//
// Its constants, each a word in every lane: Y15 FF80, Y14 D800 (u&F800
// of the surrogates), Y13 0, Y12 F800, Y11 3F, Y10 80, Y9 E0, Y8 C0. R14
// and R15 hold the addresses of narrowPack3 and narrowPack2, and R10 is 1
// where the last block ended with a high surrogate, whose low one's 2
// bytes are still to write.
func narrowAVX2() {
	kernel("narrowAVX2", "func(dst, src []byte, stopLo, stopLast uint16, stop, stopASCII, stopPairs bool) (nd, ns int)")
	args()
	f.XORQ(R11, R11)
	f.XORQ(RBX, RBX)
	f.XORL(R10L, R10L)
	f.SUBQ(U8(34), R9)
	f.SUBQ(U8(64), R8)
	f.MOVBLZX(gen.Param("stop", 52), R12L)
	f.MOVBLZX(gen.Param("stopASCII", 53), R13L)
	f.LEAQ(gen.Static("narrowPack3", 0), R14)
	f.LEAQ(gen.Static("narrowPack2", 0), R15)
	broadcastW(0xFF80, Y15)
	broadcastW(0xD800, Y14)
	f.VPXOR(Y13, Y13, Y13)
	broadcastW(0xF800, Y12)
	broadcastW(0x3F, Y11)
	broadcastW(0x80, Y10)
	broadcastW(0xE0, Y9)
	broadcastW(0xC0, Y8)

	f.Label("narrow2loop")
	loadNarrow()

	f.Label("narrow2block")
	f.TESTL(R13L, R13L)
	f.JNZ(label("narrow2multi"))
	f.VPTEST(Y15, Y0)
	f.JNZ(label("narrow2multi"))

	f.Label("narrow2ascii")
	f.Comment("ASCII: the low bytes are the output.")
	f.VEXTRACTI128(U8(1), Y0, X1)
	f.VPACKUSWB(X1, X0, X2)
	f.VMOVDQU(X2, gen.At(RDI, RBX, 0))
	f.ADDQ(U8(32), R11)
	f.ADDQ(U8(16), RBX)
	f.TESTL(R13L, R13L)
	f.JNZ(label("narrow2loop"))

	f.Label("narrow2ascii4")
	f.Comment("More ASCII: 4 blocks at a time while the 4th fits.")
	f.LEAQ(gen.Mem(R11, 96), RCX)
	f.CMPQ(RCX, R9)
	f.JGT(label("narrow2loop"))
	f.LEAQ(gen.Mem(RBX, 48), RCX)
	f.CMPQ(RCX, R8)
	f.JGT(label("narrow2loop"))
	f.VMOVDQU(gen.At(RSI, R11, 0), Y0)
	f.VMOVDQU(gen.At(RSI, R11, 32), Y1)
	f.VMOVDQU(gen.At(RSI, R11, 64), Y2)
	f.VMOVDQU(gen.At(RSI, R11, 96), Y3)
	f.VPOR(Y1, Y0, Y4)
	f.VPOR(Y3, Y2, Y5)
	f.VPOR(Y5, Y4, Y4)
	f.VPTEST(Y15, Y4)
	f.JNZ(label("narrow2loop"))
	f.VPACKUSWB(Y1, Y0, Y0)
	f.VPACKUSWB(Y3, Y2, Y2)
	f.VPERMQ(U8(0xD8), Y0, Y0)
	f.VPERMQ(U8(0xD8), Y2, Y2)
	f.VMOVDQU(Y0, gen.At(RDI, RBX, 0))
	f.VMOVDQU(Y2, gen.At(RDI, RBX, 32))
	f.ADDQ(U32(128), R11)
	f.ADDQ(U8(64), RBX)
	f.JMP(label("narrow2ascii4"))

	f.Label("narrow2multi")
	surrogateLanes()
	f.JNZ(label("narrow2sur"))
	f.TESTL(R12L, R12L)
	f.JZ(label("narrow2conv"))
	stop(Y13)
	f.VPTEST(Y15, Y0)
	f.JZ(label("narrow2ascii"))

	// The UTF-8 of each unit in the dwords of Y6 (its first 2 bytes) and
	// Y4 (its third), with the lanes of the units below 800 in Y2 and
	// below 80 in Y1.
	f.Label("narrow2conv")
	f.VPTEST(Y12, Y0)
	f.JZ(label("narrow2two"))
	narrowWords()
	lanes(Y12, Y13, Y2)
	f.VPBLENDVB(Y2, Y3, Y6, Y6)
	lanes(Y15, Y13, Y1)
	f.VPBLENDVB(Y1, Y0, Y6, Y6)

	// The dwords, units 0..3 and 8..11 in Y5, 4..7 and 12..15 in Y6, and
	// the keys of narrowPack3 for units 0..3, 4..7, 8..11 and 12..15 in
	// the bytes of AX, packed and stored one after the other.
	f.Label("narrow2pack3")
	f.VPUNPCKLWD(Y4, Y6, Y5)
	f.VPUNPCKHWD(Y4, Y6, Y6)
	f.VPACKSSWB(Y2, Y1, Y1)
	f.VPSHUFB(gen.Static("narrowKeys", 0), Y1, Y1)
	f.VPMOVMSKB(Y1, EAX)
	f.NOTL(EAX)
	pack4(R14, Y5, Y6, 4, 1)
	f.ADDQ(U8(32), R11)
	f.JMP(label("narrow2loop"))

	// Units below 800: in words, packed 8 at a time by narrowPack2, keyed
	// by the units of 2 bytes.
	f.Label("narrow2two")
	narrowTwo()

	f.Label("narrow2pack2")
	f.VPACKSSWB(Y1, Y1, Y1)
	f.VPMOVMSKB(Y1, EAX)
	f.NOTL(EAX)
	pack2()
	f.ADDQ(U8(32), R11)
	f.JMP(label("narrow2loop"))

	// Blocks of ASCII units and pairs of surrogates only take
	// narrow2pairs, while the stop range holds none of their units and
	// there is a unit before the block to read. Those with other units go
	// on here at the cost of a test of their ASCII lanes.
	f.Label("narrow2sur")
	f.CMPB(gen.Param("stopPairs", 54), U8(0))
	f.JNE(label("narrow2surgen"))
	f.TESTQ(R11, R11)
	f.JZ(label("narrow2surgen"))
	lanes(Y15, Y13, Y1)
	f.VPMOVMSKB(Y1, ECX)
	f.ORL(EDX, ECX)
	f.CMPL(ECX, I8(-1))
	f.JEQ(label("narrow2pairsblock"))
	f.JMP(label("narrow2surgen"))

	// The room of narrow2loop, then the next block, to narrow2block if it
	// holds no surrogate.
	f.Label("narrow2pairs")
	loadNarrow()
	surrogateLanes()
	f.JZ(label("narrow2block"))

	// Y2 and DX: the lanes of the surrogates (2 bits a lane in all these
	// masks); Y1 and R13: those of ASCII; Y3 those whose unit is above
	// DBFF as a signed word, ASCII and the low surrogates, which are in
	// AX. The high surrogates are the others, in DX, each with a low one
	// in the lane after it, or the unit after the block for the last
	// lane, and each low one a high one before it, or for the first lane
	// the block before ending with one (R10). CX: the lanes and units
	// that are not so. R13, the stopASCII flag, is 0 in narrow2pairs and
	// again when CX is.
	f.Label("narrow2pairsblock")
	lanes(Y15, Y13, Y1)
	f.VPMOVMSKB(Y1, R13L)
	f.VPCMPGTW(gen.Static("narrowPairs", 0), Y0, Y3)
	f.VPMOVMSKB(Y3, EAX)
	f.ORL(EDX, R13L)
	f.NOTL(R13L)
	f.ANDL(EDX, EAX)
	f.XORL(EAX, EDX)
	f.LEAL(scaled(R10, R10, 2, 0), ECX)
	f.LEAL(scaled(RCX, RDX, 4, 0), ECX)
	f.XORL(EAX, ECX)
	f.ORL(R13L, ECX)
	f.SARL(U8(31), EDX)
	f.MOVWLZX(gen.At(RSI, R11, 32), EAX)
	f.ANDL(U32(0xFC00), EAX)
	f.XORL(U32(0xDC00), EAX)
	f.ANDL(EDX, EAX)
	f.ORL(EAX, ECX)
	f.JNZ(label("narrow2pairsgen"))
	f.NEGL(EDX)
	f.MOVL(EDX, R10L)
	// The 2 bytes of each surrogate from v, 80|(v>>6)&word3F7F then
	// 80|v&3F: for a high one h, (h+word9840)>>2, which is 70|cp>>18 in
	// bits 6..12 and cp>>12 in bits 0..5 for its code point cp; for a low
	// one u after h, (h&3)<<10 | u-DC00, cp's bits 0..11. The ASCII units
	// in their lanes, packed by narrowPack2 keyed by the lanes of the
	// surrogates, which keep both bytes.
	f.Comment("The 2 bytes of each surrogate, and the ASCII units.")
	f.VMOVDQU(gen.At(RSI, R11, -2), Y4)
	f.VPADDW(gen.Static("narrowPairs", 32), Y0, Y5)
	f.VPSRLW(U8(2), Y5, Y5)
	f.VPAND(gen.Static("word3", 0), Y4, Y4)
	f.VPSLLW(U8(10), Y4, Y4)
	f.VPXOR(gen.Static("wordDC00", 0), Y0, Y6)
	f.VPOR(Y6, Y4, Y4)
	f.VPBLENDVB(Y3, Y4, Y5, Y4)
	f.VPSRLW(U8(6), Y4, Y5)
	f.VPSLLW(U8(8), Y4, Y4)
	f.VPOR(Y5, Y4, Y4)
	f.VPAND(gen.Static("narrowPairs", 64), Y4, Y4)
	f.VPOR(gen.Static("narrowPairs", 96), Y4, Y4)
	f.VPBLENDVB(Y1, Y0, Y4, Y3)
	f.VPACKSSWB(Y2, Y2, Y2)
	f.VPMOVMSKB(Y2, EAX)
	f.CMPL(EAX, I8(-1))
	f.JEQ(label("narrow2pairsall"))
	pack2()
	f.ADDQ(U8(32), R11)
	f.JMP(label("narrow2pairs"))

	f.Label("narrow2pairsall")
	f.Comment("Surrogates alone: each lane keeps its 2 bytes, in order.")
	f.VMOVDQU(Y3, gen.At(RDI, RBX, 0))
	f.ADDQ(U8(32), RBX)
	f.ADDQ(U8(32), R11)
	f.JMP(label("narrow2pairs"))

	f.Label("narrow2pairsgen")
	f.XORL(R13L, R13L)

	// Surrogates: each high one must have a low one after it, the unit
	// after the block for the last lane, and each low one a high one
	// before it, the last of the block before for the first lane (which
	// the block before took with the high one only so). Y2: the units a
	// lane on; Y3: a lane back, or at the start of src the block shifted
	// by a lane with a 0 in.
	f.Label("narrow2surgen")
	f.VMOVDQU(gen.At(RSI, R11, 2), Y2)
	before2(Y3, 2, "narrow2surfirst", "narrow2surcheck")
	f.VMOVDQU(gen.Static("wordFC00", 0), Y7)
	f.VPAND(Y7, Y0, Y4)
	f.VPCMPEQW(gen.Static("wordD800", 0), Y4, Y5) // high
	f.VPCMPEQW(gen.Static("wordDC00", 0), Y4, Y6) // low
	f.VPAND(Y7, Y2, Y2)
	f.VPCMPEQW(gen.Static("wordDC00", 0), Y2, Y2) // low after
	f.VPAND(Y7, Y3, Y4)
	f.VPCMPEQW(gen.Static("wordD800", 0), Y4, Y4) // high before
	f.VPANDN(Y5, Y2, Y2)
	f.VPANDN(Y6, Y4, Y1)
	f.VPOR(Y1, Y2, Y2)
	f.VPTEST(Y2, Y2)
	f.JNZ(label("narrow2done"))
	f.TESTL(R12L, R12L)
	f.JZ(label("narrow2surconv"))
	// The stop range, but for the low surrogates after a high one in the
	// block, as narrowGeneric does.
	f.Comment("The stop range, but for the low surrogates after a high one.")
	f.VPAND(Y4, Y6, Y7)
	f.VPAND(gen.Static("notLane0", 0), Y7, Y7)
	stop(Y7)

	// A high surrogate's 2 bytes in Y2, a low one's in Y3, those of
	// either in Y7; the lanes of both in Y5.
	f.Label("narrow2surconv")
	f.VPSUBW(gen.Static("wordD7C0", 0), Y0, Y1)
	f.VPSRLW(U8(8), Y1, Y2)
	f.VPOR(gen.Static("wordF0", 0), Y2, Y2)
	f.VPSRLW(U8(2), Y1, Y1)
	f.VPAND(Y11, Y1, Y1)
	f.VPOR(Y10, Y1, Y1)
	f.VPSLLW(U8(8), Y1, Y1)
	f.VPOR(Y1, Y2, Y2)
	f.VPAND(gen.Static("word3", 0), Y3, Y3)
	f.VPSLLW(U8(4), Y3, Y3)
	f.VPSRLW(U8(6), Y0, Y1)
	f.VPAND(gen.Static("word0F", 0), Y1, Y1)
	f.VPOR(Y1, Y3, Y3)
	f.VPOR(Y10, Y3, Y3)
	f.VPAND(Y11, Y0, Y1)
	f.VPOR(Y10, Y1, Y1)
	f.VPSLLW(U8(8), Y1, Y1)
	f.VPOR(Y1, Y3, Y3)
	f.VPBLENDVB(Y5, Y2, Y3, Y7)
	f.VPMOVMSKB(Y5, R10L)
	f.SHRL(U8(31), R10L)
	f.VPOR(Y6, Y5, Y5)
	f.Comment("The other units as in narrow2conv, the surrogates' 2 bytes in their lanes.")
	lanes(Y12, Y13, Y2)
	f.VPOR(Y5, Y2, Y2) // 1 or 2 bytes
	f.VPMOVMSKB(Y2, ECX)
	f.CMPL(ECX, I8(-1))
	f.JEQ(label("narrow2surtwo"))
	narrowWords()
	f.VPBLENDVB(Y2, Y3, Y6, Y6)
	lanes(Y15, Y13, Y1)
	f.VPBLENDVB(Y1, Y0, Y6, Y6)
	f.VPBLENDVB(Y5, Y7, Y6, Y6)
	f.JMP(label("narrow2pack3"))

	f.Label("narrow2surtwo")
	narrowTwo()
	f.VPBLENDVB(Y5, Y7, Y3, Y3)
	f.JMP(label("narrow2pack2"))

	// A pair of surrogates across the end of the last block taken: the
	// low one's 2 bytes, 80|(h&3)<<4|(u>>6)&0F and 80|u&3F.
	f.Label("narrow2done")
	f.TESTL(R10L, R10L)
	f.JZ(label("narrow2ret"))
	f.Comment("The low surrogate's 2 bytes of a pair across the end.")
	f.MOVWLZX(gen.At(RSI, R11, -2), ECX)
	f.ANDL(U8(3), ECX)
	f.SHLL(U8(4), ECX)
	f.MOVWLZX(gen.At(RSI, R11, 0), EDX)
	f.MOVL(EDX, R12L)
	f.SHRL(U8(6), EDX)
	f.ANDL(U8(0x0F), EDX)
	f.ORL(EDX, ECX)
	f.ORL(U32(0x80), ECX)
	f.MOVB(CL, gen.At(RDI, RBX, 0))
	f.ANDL(U8(0x3F), R12L)
	f.ORL(U32(0x80), R12L)
	f.MOVB(R12B, gen.At(RDI, RBX, 1))
	f.ADDQ(U8(2), RBX)
	f.ADDQ(U8(2), R11)

	f.Label("narrow2ret")
	ret(R11, 56)
}

// loadNarrow goes to narrow2done unless a block fits, with ns (R11) at
// most R9 and room in dst, at most R8, that counts the 2 bytes of a
// pair's low surrogate still to write (R10); it loads the block into Y0.
// It overwrites CX.
func loadNarrow() {
	f.CMPQ(R11, R9)
	f.JGT(label("narrow2done"))
	f.LEAQ(scaled(RBX, R10, 2, 0), RCX)
	f.CMPQ(RCX, R8)
	f.JGT(label("narrow2done"))
	f.VMOVDQU(gen.At(RSI, R11, 0), Y0)
}

// lanes sets out to the lanes of the units u of Y0 with u&mask == eq.
func lanes(mask, eq, out Register) {
	f.VPAND(mask, Y0, out)
	f.VPCMPEQW(eq, out, out)
}

// surrogateLanes sets Y2 and DX to the lanes of the surrogates of Y0 (2
// bits a lane in DX), and tests DX.
func surrogateLanes() {
	lanes(Y12, Y14, Y2)
	f.VPMOVMSKB(Y2, EDX)
	f.TESTL(EDX, EDX)
}

// pack2 stores the words of Y3, each the UTF-8 of a unit below U+0800
// from its low byte up, 8 at a time by narrowPack2 (R15), keyed by the
// bytes 0 and 2 of AX, whose bits are set for the units of 2 bytes. It
// overwrites X3, AX, CX, DX and X7.
func pack2() {
	pack(R15, AL, X3, 8, 1)
	f.SHRL(U8(16), EAX)
	f.VEXTRACTI128(U8(1), Y3, X3)
	pack(R15, AL, X3, 8, 1)
}

// narrowWords sets, for each unit u of Y0 below U+10000 and not a
// surrogate, Y4 to C1 = 80|u&3F, Y6 to the first 2 bytes of its UTF-8 if
// it has 3, E0|u>>12 then C2 = 80|(u>>6)&3F, and Y3 to them if it has 2,
// C0|u>>6 then C1. It uses Y8 to Y11 and overwrites Y1.
func narrowWords() {
	f.VPSRLW(U8(6), Y0, Y3)
	f.VPAND(Y11, Y0, Y4)
	f.VPOR(Y10, Y4, Y4)
	f.VPAND(Y11, Y3, Y6)
	f.VPOR(Y10, Y6, Y6)
	f.VPSLLW(U8(8), Y6, Y6)
	f.VPSRLW(U8(12), Y0, Y1)
	f.VPOR(Y9, Y1, Y1)
	f.VPOR(Y1, Y6, Y6)
	f.VPOR(Y8, Y3, Y3)
	f.VPSLLW(U8(8), Y4, Y1)
	f.VPOR(Y1, Y3, Y3)
}

// narrowTwo sets Y3 to the UTF-8 of each unit u of Y0 below U+0800 in a
// word, u or C0|u>>6 then 80|u&3F, and Y1 to the lanes of u < 80. It uses
// Y8, Y10, Y11, Y13 and Y15 and overwrites Y4.
func narrowTwo() {
	f.VPSRLW(U8(6), Y0, Y3)
	f.VPOR(Y8, Y3, Y3)
	f.VPAND(Y11, Y0, Y4)
	f.VPOR(Y10, Y4, Y4)
	f.VPSLLW(U8(8), Y4, Y4)
	f.VPOR(Y4, Y3, Y3)
	lanes(Y15, Y13, Y1)
	f.VPBLENDVB(Y1, Y0, Y3, Y3)
}

// stop goes to narrow2done if a unit u of Y0 is in the stop range, with
// (u-stopLo)&FFFF <= stopLast, which makes their min u-stopLo, and is not
// in the lanes of excl. It overwrites Y1 and Y2.
func stop(excl Register) {
	f.VPBROADCASTW(gen.Param("stopLo", 48), Y1)
	f.VPSUBW(Y1, Y0, Y1)
	f.VPBROADCASTW(gen.Param("stopLast", 50), Y2)
	f.VPMINUW(Y2, Y1, Y2)
	f.VPCMPEQW(Y2, Y1, Y1)
	f.VPANDN(Y1, excl, Y1)
	f.VPTEST(Y1, Y1)
	f.JNZ(label("narrow2done"))
}

// swapAVX2 writes swapAVX2(dst, src []byte) int, the vector part of
// Swap: it swaps the bytes of each unit of src into dst by swapUnits, 32
// bytes at a time while 32 are left, and returns the bytes it swapped.
func swapAVX2() {
	kernel("swapAVX2", "func(dst, src []byte) int")
	f.MOVQ(gen.Param("dst_base", 0), RDI)
	f.MOVQ(gen.Param("src_base", 24), RSI)
	f.MOVQ(gen.Param("src_len", 32), RCX)
	f.XORQ(RAX, RAX)
	f.SUBQ(U8(32), RCX)
	f.JB(label("swapdone"))
	f.VMOVDQU(gen.Static("swapUnits", 0), Y1)

	f.Label("swaploop")
	f.VMOVDQU(gen.At(RSI, RAX, 0), Y0)
	f.VPSHUFB(Y1, Y0, Y0)
	f.VMOVDQU(Y0, gen.At(RDI, RAX, 0))
	f.ADDQ(U8(32), RAX)
	f.CMPQ(RAX, RCX)
	f.JLE(label("swaploop"))
	f.VZEROUPPER()

	f.Label("swapdone")
	f.MOVQ(RAX, gen.Param("ret", 48))
	f.RET()
}
