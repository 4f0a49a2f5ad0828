package main

// The counting kinds also count the newline (0A) bytes of the blocks they
// accept, for the Lines option, in one pass with the validation. They
// store, after n at (R13): the newlines of src[:end] at 8(R13), end at
// 16(R13) and at 24(R13) where the last of them is: -1 for none; its
// offset where it was in a block accepted alone; and otherwise ^start,
// where it lies in the blocks from start on (start is never 0) and no
// newline lies after them. end is a block boundary at most n, or len(src)
// where n is len(src) or one less.
//
// They keep in R14 the newlines of the blocks accepted so far; in BX
// (AVX-512) or R10 (AVX2) the end of those blocks; and in R10 (AVX-512) or
// R11 (AVX2) where the last of them is. The hooks below count a block or
// group where the bodies accept it, and write nothing in the other kinds;
// POPCNT sets ZF for one without newlines, and CMOV keeps where the last
// was in one that had any. The end register is their scratch until they
// set it. In the AVX-512 body, Z24 holds 0A in every byte and K3 the bytes
// of a block not counted before: all of them, but for the last block,
// which may overlap the one before it.
//
// A run of ASCII blocks is counted in the bytes of vector registers, four
// blocks at a time, and added up where the run ends (flush2, flush4), in
// code after the body's RET, so that the other kinds keep their layout.

import (
	"github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
	"github.com/utf8stream/utf8stream/_asm/gen"
)

// countResult stores the results of a counting kind, whose body keeps the
// end of the blocks counted in end and the start of the last group with a
// newline in group, and returns.
func countResult(f *gen.File, end, group Register) {
	f.MOVQ(RAX, gen.Mem(R13, 0))
	f.MOVQ(R14, gen.Mem(R13, 8))
	f.MOVQ(end, gen.Mem(R13, 16))
	f.MOVQ(group, gen.Mem(R13, 24))
	f.RET()
}

// initCount clears the count and the end, and sets no last newline.
func (b avx2) initCount() {
	if !b.count {
		return
	}
	b.XORL(R14L, R14L)
	b.XORL(R10L, R10L)
	b.MOVQ(i32(-1), R11)
}

// acc counts the block block (a register or the block in memory) at AX,
// whose end is the address end.
func (b avx2) acc(block operand.Op, end operand.Mem) {
	if !b.count {
		return
	}
	b.VMOVDQU(gen.Static("nl", 0), Y1)
	b.VPCMPEQB(block, Y1, Y1)
	b.VPMOVMSKB(Y1, ECX)
	b.BSRL(ECX, R10L)
	b.ADDQ(RAX, R10)
	b.POPCNTL(ECX, ECX)
	b.CMOVQNE(R10, R11)
	b.ADDQ(RCX, R14)
	b.LEAQ(end, R10)
}

// accPair counts the two blocks at AX, from memory, and Y9, the second.
func (b avx2) accPair() {
	if !b.count {
		return
	}
	b.VMOVDQU(gen.Static("nl", 0), Y1)
	b.VPCMPEQB(src(0), Y1, Y2)
	b.VPCMPEQB(Y9, Y1, Y3)
	b.VPMOVMSKB(Y2, ECX)
	b.VPMOVMSKB(Y3, R10L)
	b.SHLQ(u8(32), R10)
	b.ORQ(R10, RCX)
	b.MOVQ(RAX, R10)
	b.NOTQ(R10)
	b.POPCNTQ(RCX, RCX)
	b.CMOVQNE(R10, R11)
	b.ADDQ(RCX, R14)
	b.LEAQ(gen.Mem(RAX, 64), R10)
}

// runCount starts a run of ASCII blocks, at R10 = AX, with Y7 clear: it
// loads 0A into Y9, and ends the run within 4 KiB (R8), so that no byte of
// the counts in Y7 overflows.
func (b avx2) runCount() {
	if !b.count {
		return
	}
	b.VMOVDQU(gen.Static("nl", 0), Y9)
	b.LEAQ(gen.Mem(RAX, 3968), R8)
	b.LEAQ(gen.Mem(RDX, -128), RCX)
	b.CMPQ(RCX, R8)
	b.CMOVQLT(RCX, R8)
}

// accRun counts the four blocks in Y1 to Y4 that ascii loads, in the bytes
// of Y7.
func (b avx2) accRun() {
	if !b.count {
		return
	}
	b.VPCMPEQB(Y1, Y9, Y1)
	b.VPCMPEQB(Y2, Y9, Y2)
	b.VPCMPEQB(Y3, Y9, Y3)
	b.VPCMPEQB(Y4, Y9, Y4)
	b.VPADDB(Y1, Y2, Y1)
	b.VPADDB(Y3, Y4, Y3)
	b.VPADDB(Y1, Y3, Y1)
	b.VPSUBB(Y1, Y7, Y7)
}

// flush2, at the end of each run, adds Y7 to R14 and, if the run held a
// newline, looks for the last one from the run's end, a block at a time,
// into R11; it sets R10 to AX and clears Y7, as the body wants it after an
// ASCII block, and does nothing where the run took no block. R8, the end of
// the run, is its scratch. Its labels start with at.
func (b avx2) flush2(at string) {
	b.CMPQ(RAX, R10)
	b.JEQ(label(at + "Done"))
	sumBytes(b.File, Y7)
	b.VPXOR(Y7, Y7, Y7)
	b.TESTQ(RCX, RCX)
	b.JEQ(label(at + "End"))
	b.ADDQ(RCX, R14)
	b.LEAQ(gen.Mem(RAX, -32), R8)
	b.Label(at + "Search")
	b.VPCMPEQB(gen.At(RSI, R8, 0), Y9, Y1)
	b.VPMOVMSKB(Y1, ECX)
	b.BSRL(ECX, ECX)
	b.JNE(label(at + "Found"))
	b.SUBQ(u8(32), R8)
	b.JMP(label(at + "Search"))
	b.Label(at + "Found")
	b.ADDQ(RCX, R8)
	b.MOVQ(R8, R11)
	b.Label(at + "End")
	b.MOVQ(RAX, R10)
	b.Label(at + "Done")
}

// tailCount counts the last block, in Y0 at BX, which overlaps the blocks
// counted before, up to R10: only its bytes from R10 on.
func (b avx2) tailCount() {
	if !b.count {
		return
	}
	b.VPCMPEQB(gen.Static("nl", 0), Y0, Y1)
	b.MOVQ(R10, RCX)
	b.SUBQ(RBX, RCX)
	b.VPMOVMSKB(Y1, R10L)
	b.SHRL(CL, R10L)
	b.MOVQ(RBX, RCX)
	b.NOTQ(RCX)
	b.POPCNTL(R10L, R10L)
	b.CMOVQNE(RCX, R11)
	b.ADDQ(R10, R14)
	b.MOVQ(RDX, R10)
}

// initCount clears the count and the end, sets no last newline, and loads
// Z24 and K3.
func (b avx512) initCount() {
	if !b.count {
		return
	}
	b.XORL(R14L, R14L)
	b.XORL(EBX, EBX)
	b.MOVQ(i32(-1), R10)
	b.VPBROADCASTB(gen.Static("nl", 0), Z24)
	b.KXNORQ(K3, K3, K3)
}

// acc counts the block in z, at AX, whose end is the address end.
func (b avx512) acc(z Register, end operand.Mem) {
	if !b.count {
		return
	}
	b.VPCMPEQB(z, Z24, K3, K4)
	b.KMOVQ(K4, RCX)
	b.BSRQ(RCX, RBX)
	b.ADDQ(RAX, RBX)
	b.POPCNTQ(RCX, RCX)
	b.CMOVQNE(RBX, R10)
	b.ADDQ(RCX, R14)
	b.LEAQ(end, RBX)
}

// accPair counts the blocks in Z0 and Z7, at AX and AX+64.
func (b avx512) accPair() {
	if !b.count {
		return
	}
	b.VPCMPEQB(Z0, Z24, K4)
	b.VPCMPEQB(Z7, Z24, K5)
	b.MOVQ(RAX, RBX)
	b.NOTQ(RBX)
	b.KMOVQ(K4, RCX)
	b.KMOVQ(K5, R11)
	b.POPCNTQ(RCX, RCX)
	b.POPCNTQ(R11, R11)
	b.ADDQ(R11, RCX)
	b.CMOVQNE(RBX, R10)
	b.ADDQ(RCX, R14)
	b.LEAQ(gen.Mem(RAX, 128), RBX)
}

// runCount starts a run of ASCII blocks, at BX = AX: it ends the run within
// 4 KiB (R8), so that no byte of the counts in Y12 and Y13 overflows, and
// loads 0A into every byte of Y14.
func (b avx512) runCount() {
	if !b.count {
		return
	}
	b.LEAQ(gen.Mem(RAX, 3840), R8)
	b.LEAQ(gen.Mem(RDX, -256), RCX)
	b.CMPQ(RCX, R8)
	b.CMOVQLT(RCX, R8)
	b.VPBROADCASTB(gen.Static("nl", 0), Y14)
	b.VPXOR(Y12, Y12, Y12)
	b.VPXOR(Y13, Y13, Y13)
}

// accRun counts the newlines of the four blocks that ascii loads into Z4 to
// Z7 in the bytes of Y12 and Y13, with VEX compares, which leave -1 in each
// byte that matches: AVX-512's compares write mask registers, which fewer
// units take.
func (b avx512) accRun() {
	if !b.count {
		return
	}
	b.VPCMPEQB(Y4, Y14, Y8)
	b.VPCMPEQB(src(32), Y14, Y9)
	b.VPCMPEQB(Y5, Y14, Y10)
	b.VPCMPEQB(src(96), Y14, Y11)
	b.VPADDB(Y8, Y9, Y8)
	b.VPADDB(Y10, Y11, Y10)
	b.VPCMPEQB(Y6, Y14, Y9)
	b.VPCMPEQB(src(160), Y14, Y11)
	b.VPSUBB(Y8, Y12, Y12)
	b.VPSUBB(Y10, Y13, Y13)
	b.VPCMPEQB(Y7, Y14, Y8)
	b.VPCMPEQB(src(224), Y14, Y10)
	b.VPADDB(Y9, Y11, Y9)
	b.VPADDB(Y8, Y10, Y8)
	b.VPSUBB(Y9, Y12, Y12)
	b.VPSUBB(Y8, Y13, Y13)
}

// flush4, at the end of each run, adds Y12 and Y13 to R14 and, if the run
// held a newline, looks for the last one from the run's end, a block at a
// time, into R10; it sets BX to AX, and does nothing where the run took no
// block. Its labels start with at.
func (b avx512) flush4(at string) {
	b.CMPQ(RAX, RBX)
	b.JEQ(label(at + "Done"))
	b.VPADDB(Y13, Y12, Y12)
	sumBytes(b.File, Y12)
	b.TESTQ(RCX, RCX)
	b.JEQ(label(at + "End"))
	b.ADDQ(RCX, R14)
	b.LEAQ(gen.Mem(RAX, -64), R11)
	b.Label(at + "Search")
	b.VPCMPEQB(gen.At(RSI, R11, 0), Z24, K4)
	b.KMOVQ(K4, RCX)
	b.BSRQ(RCX, RCX)
	b.JNE(label(at + "Found"))
	b.SUBQ(u8(64), R11)
	b.JMP(label(at + "Search"))
	b.Label(at + "Found")
	b.ADDQ(RCX, R11)
	b.MOVQ(R11, R10)
	b.Label(at + "End")
	b.MOVQ(RAX, RBX)
	b.Label(at + "Done")
}

// lastCount sets K3 to the bytes of the last block, at R11, from AX on:
// those before AX were counted with the block before.
func (b avx512) lastCount() {
	if !b.count {
		return
	}
	b.MOVQ(RAX, RCX)
	b.SUBQ(R11, RCX)
	b.MOVQ(i32(-1), R9)
	b.SHLQ(CL, R9)
	b.KMOVQ(R9, K3)
}

// sumBytes sets CX to the sum of the 32 byte counters in y, with Y1 and
// Y2 (VPSADBW adds each 8 bytes into a word; the rest adds the words).
func sumBytes(f *gen.File, y Register) {
	f.VPXOR(Y1, Y1, Y1)
	f.VPSADBW(Y1, y, Y1)
	f.VEXTRACTI128(u8(1), Y1, X2)
	f.VPADDQ(X2, X1, X1)
	f.VPSHUFD(u8(0x4e), X1, X2)
	f.VPADDQ(X2, X1, X1)
	f.VMOVQ(X1, RCX)
}
