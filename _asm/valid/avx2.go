package main

import (
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
	"github.com/utf8stream/utf8stream/_asm/gen"
)

// avx2 writes an AVX2 body of its kind. Its methods are the body's steps;
// the count hooks (count.go) write nothing where the kind does not count.
//
// The constants that setup loads stay in place for the whole body: Y15
// holds 0F in every byte, Y11 60 and Y10 70; Y14, Y13 and Y12 the lookup
// tables prevHigh, the variant's prevLow (from R12) and curHigh; Y8 80 in
// every byte, which each block's check uses (a register, where a memory
// operand would add a load to each block).
type avx2 struct {
	*gen.File
	kind
}

// body2 writes the AVX2 body of kind k, as the function checkAVX2,
// copyAVX2, countAVX2 or copyCountAVX2, which the entries enter by a JMP
// with SI = src, DX = len(src), DI = dst (the copying kinds), R12 = the
// address of the variant's prevLow table (prevLow, prevLowEE or
// prevLowBMP) and R13 = where the result goes. The variants differ in
// that table alone.
//
// It stores at (R13) n such that src[:n] holds no ill-formed sequence,
// except perhaps an unfinished or ill-formed last one that only the bytes
// from n on show (see validAVX2 in valid_amd64.go), and the counting kinds
// their counts after it (countResult). It overwrites AX, BX, CX, R8, R9,
// Y0 to Y15, and in the counting kinds R10, R11 and R14.
//
// Blocks are 32 bytes. The loop takes two at a time, with one test of each
// kind for the pair, then one; ASCII runs go four blocks at a time; the
// last block, where len(src) is not a multiple of 32, is checked again as
// the last 32 bytes of src, overlapping what was checked.
func body2(f *gen.File, k kind) {
	b := avx2{f, k}
	b.Function(k.name + "AVX2")
	b.Attributes(attr.NOSPLIT)
	b.SignatureExpr("func()")
	b.Comment("See body2 in _asm/valid/avx2.go.")

	b.XORL(EAX, EAX)
	b.initCount()
	b.CMPQ(RDX, u8(32))
	b.JB(label("done"))
	b.LEAQ(gen.Mem(RDX, -32), RBX) // start of the last whole block
	b.LEAQ(gen.Mem(RDX, -64), R9)  // start of the last whole pair of blocks; may be negative
	b.LEAQ(gen.Mem(RDX, -128), R8) // start of the last run of four blocks; may be negative
	b.setup()

	// The first block has nothing before it: shift zeros in.
	b.VMOVDQU(gen.Mem(RSI, 0), Y0)
	b.store(Y0, 0)
	b.VPMOVMSKB(Y0, ECX)
	b.TESTL(ECX, ECX)
	b.JZ(label("asciiFirst"))
	b.first()
	b.JMP(label("check"))

	// Two blocks at a time, with one test of each kind for the pair: the
	// first block in Y0, the second in Y9.
	b.Label("loop")
	b.CMPQ(RAX, R9)
	b.JGT(label("single"))
	b.loadPair()
	b.VPOR(Y0, Y9, Y4)
	b.VPMOVMSKB(Y4, ECX)
	b.TESTL(ECX, ECX)
	b.JZ(label("asciiPair"))
	b.Label("checkPair")
	b.prev()
	b.check()
	b.VMOVDQU(src(31), Y1)
	b.VMOVDQU(src(30), Y2)
	b.VMOVDQU(src(29), Y3)
	b.checkR(Y9, Y1, Y2, Y3, Y5, Y6, Y0)
	b.VPOR(Y4, Y5, Y6)
	b.VPTEST(Y6, Y6)
	b.JNZ(label("foundPair"))
	b.accPair()
	b.ADDQ(u8(64), RAX)
	b.JMP(label("loop"))

	// Y4 and Y5 flag the errors of the blocks at AX and AX+32.
	b.Label("foundPair")
	b.VPTEST(Y4, Y4)
	b.JNZ(label("found"))
	b.acc(src(0), gen.Mem(RAX, 32)) // the second checkR overwrote Y0
	b.ADDQ(u8(32), RAX)
	b.VMOVDQU(Y5, Y4)
	b.JMP(label("found"))

	// Two ASCII blocks are well-formed unless the block before them ended
	// inside a sequence.
	b.Label("asciiPair")
	b.unfinished(src(-32))
	b.JNZ(label("done"))
	b.accPair()
	b.ADDQ(u8(64), RAX)
	b.JMP(label("runEntry"))

	b.Label("single")
	b.CMPQ(RAX, RBX)
	b.JA(label("tail"))
	b.VMOVDQU(src(0), Y0)
	b.store(Y0, 0)
	b.VPMOVMSKB(Y0, ECX)
	b.TESTL(ECX, ECX)
	b.JZ(label("ascii"))
	b.prev()

	b.Label("check")
	b.check()
	b.VPTEST(Y4, Y4)
	b.JNZ(label("found"))
	b.acc(Y0, gen.Mem(RAX, 32))
	b.firstBlock("alignCheck")
	b.ADDQ(u8(32), RAX)
	b.JMP(label("loop"))

	// An ASCII block is well-formed unless the block before it ended
	// inside a sequence.
	b.Label("ascii")
	b.unfinished(src(-32))
	b.JNZ(label("done"))

	b.Label("asciiFirst")
	b.acc(Y0, gen.Mem(RAX, 32))
	b.firstBlock("alignASCII")
	b.ADDQ(u8(32), RAX)

	b.PCALIGN(32)
	b.Label("runEntry")
	b.runCount()

	// Skip ASCII four blocks at a time. A run ends at runTail, or in the
	// counting kinds at runExit, which counts the run (count.go).
	runExit := label("runTail")
	if k.count {
		runExit = label("runExit")
	}
	b.Label("asciiRun")
	b.CMPQ(RAX, R8)
	b.JGT(runExit)
	b.ascii() // Y0 = the OR of the four blocks at AX
	b.VPMOVMSKB(Y0, ECX)
	b.TESTL(ECX, ECX)
	b.JNZ(runExit)
	b.accRun()
	b.ADDQ(u32(128), RAX)
	b.JMP(label("asciiRun"))

	// In the kinds without a count, which would count the overlap twice, a
	// run of ASCII that ends with fewer than 128 bytes left ends src with a
	// test of its last 128 bytes, which overlap it, rather than a block or
	// a pair at a time. The counting kinds keep this code, which nothing
	// reaches there, so that the bodies share their layout.
	b.Label("runTail")
	b.CMPQ(RAX, R8)
	b.JLE(label("loop"))
	b.TESTQ(R8, R8)
	b.JL(label("loop"))
	b.MOVQ(RAX, RCX)
	b.MOVQ(R8, RAX)
	b.ascii()
	b.VPTEST(Y8, Y0)
	b.JNZ(label("runTailBack"))
	b.MOVQ(RDX, RAX)
	b.JMP(label("done"))

	b.Label("runTailBack")
	b.MOVQ(RCX, RAX)
	b.JMP(label("loop"))

	// AX > len-32. Check the last 32 bytes again, overlapping what was
	// checked, when at least 3 bytes lie before them.
	b.Label("tail")
	b.CMPQ(RAX, RDX)
	b.JEQ(label("end"))
	b.CMPQ(RBX, u8(3))
	b.JB(label("done"))
	b.MOVQ(RBX, RAX)
	b.VMOVDQU(src(0), Y0)
	b.store(Y0, 0)
	b.prev()
	b.check()
	b.VPTEST(Y4, Y4)
	b.JNZ(label("found"))
	b.tailCount()

	// All of src holds no error; it is well-formed unless it ends inside
	// a sequence. If it does, report one byte less: the caller backs up.
	b.Label("end")
	b.MOVQ(RDX, RAX)
	b.unfinished(gen.At(RSI, RDX, -32))
	b.JZ(label("done"))
	b.DECQ(RAX)
	b.JMP(label("done"))

	// Y4 flags the errors of the block at AX: return the offset of the
	// first. Positions before it were checked already, or are in an
	// earlier block.
	b.Label("found")
	b.found()

	b.Label("done")
	b.VZEROUPPER()
	if !k.count {
		b.MOVQ(RAX, gen.Mem(R13, 0))
		b.RET()
		if b.alignsDst() {
			b.alignFirst()
		}
		return
	}
	countResult(b.File, R10, R11)
	// Where the runs of ASCII blocks end, after the RET, so that the other
	// kinds keep their layout.
	b.Label("runExit")
	b.flush2("runExit")
	b.JMP(label("loop"))
}

// alignsDst reports whether the body goes on from the first block at an
// offset where DI+AX is a multiple of 32, so that its stores do not cross
// cache lines: in the copying kind. Stores that cross lines cost more than
// loads that do (BenchmarkAlignment in bench/); the counting kinds would
// count the bytes checked again twice.
func (b avx2) alignsDst() bool { return b.copy && !b.count }

// firstBlock jumps to to after the first block (AX = 0) where the body
// aligns its stores. It writes nothing in the other kinds, so that the
// code before their loops is the same.
func (b avx2) firstBlock(to string) {
	if b.alignsDst() {
		b.TESTQ(RAX, RAX)
		b.JZ(label(to))
	}
}

// alignFirst writes the two ways on from the first block where the body
// aligns its stores, after its RET, out of the way of the loops: from a
// block checked (alignCheck) and from an ASCII block (alignASCII).
func (b avx2) alignFirst() {
	// The pair at AX with no ASCII test: the test of the block before
	// an ASCII one loads the 32 bytes before AX, which start before src
	// here.
	b.Label("alignCheck")
	b.alignDst("loop")
	b.loadPair()
	b.JMP(label("checkPair"))

	// After an ASCII block no sequence is unfinished at AX.
	b.Label("alignASCII")
	b.alignDst("runEntry")
	b.loadPair()
	b.VPOR(Y0, Y9, Y4)
	b.VPMOVMSKB(Y4, ECX)
	b.TESTL(ECX, ECX)
	b.JNZ(label("checkPair"))
	b.ADDQ(u8(64), RAX)
	b.JMP(label("runEntry"))
}

// alignDst goes on from the first block at AX = 32, by a jump to old,
// where src is shorter than 1 KiB (on which the block it adds costs about
// what the stores gain) or DI, DI+1 or DI+2 is 32-byte aligned. Otherwise
// it sets AX to the offset from 3 to 31 at which DI+AX is, and goes on: the bytes from there to 32, checked and stored already, are
// checked and stored again, and the three before AX that a block's check
// loads lie in src.
func (b avx2) alignDst(old string) {
	b.MOVL(u32(32), EAX)
	b.CMPQ(RDX, u32(1024))
	b.JB(label(old))
	b.MOVL(EDI, ECX)
	b.NEGL(ECX)
	b.ANDL(u8(31), ECX)
	b.CMPL(ECX, u8(3))
	b.JB(label(old))
	b.MOVL(ECX, EAX)
}

// loadPair loads the blocks at AX and AX+32 into Y0 and Y9 (and in the
// copying kinds stores them).
func (b avx2) loadPair() {
	b.VMOVDQU(src(0), Y0)
	b.VMOVDQU(src(32), Y9)
	b.store(Y0, 0)
	b.store(Y9, 32)
}

// setup loads the constants of the AVX2 body and clears Y7.
func (b avx2) setup() {
	for _, c := range []struct {
		v    uint32
		x, y Register
	}{{0x0f0f0f0f, X15, Y15}, {0x60606060, X11, Y11}, {0x70707070, X10, Y10}} {
		b.MOVL(u32(c.v), ECX)
		b.VMOVD(ECX, c.x)
		b.VPBROADCASTD(c.x, c.y)
	}
	b.VMOVDQU(gen.Static("prevHigh", 0), Y14)
	b.VMOVDQU(gen.Mem(R12, 0), Y13)
	b.VMOVDQU(gen.Static("curHigh", 0), Y12)
	b.VMOVDQU(gen.Static("high", 0), Y8)
	b.VPXOR(Y7, Y7, Y7)
}

// first sets Y1, Y2 and Y3 to the first block, in Y0, shifted by 1, 2 and
// 3 bytes with zeros shifted in: nothing lies before src.
func (b avx2) first() {
	b.VPERM2I128(u8(0x08), Y0, Y0, Y3)
	b.VPALIGNR(u8(15), Y3, Y0, Y1)
	b.VPALIGNR(u8(14), Y3, Y0, Y2)
	b.VPALIGNR(u8(13), Y3, Y0, Y3)
}

// prev loads the bytes 1, 2 and 3 places before the block at SI+AX into
// Y1, Y2 and Y3.
func (b avx2) prev() {
	b.VMOVDQU(src(-1), Y1)
	b.VMOVDQU(src(-2), Y2)
	b.VMOVDQU(src(-3), Y3)
}

// unfinished sets ZF, and leaves Y7 clear, unless the 32-byte block at addr
// ends inside a sequence (a lead in its last 3 bytes that needs more bytes
// than are left). The body tests the block before an ASCII block only
// where it meets one.
func (b avx2) unfinished(addr operand.Mem) {
	b.VMOVDQU(addr, Y7)
	b.VPSUBUSB(gen.Static("incompleteMax", 32), Y7, Y7)
	b.VPTEST(Y7, Y7)
}

// found adds to AX the offset of the first byte that Y4 flags.
func (b avx2) found() {
	b.VPXOR(Y5, Y5, Y5)
	b.VPCMPEQB(Y5, Y4, Y4)
	b.VPMOVMSKB(Y4, ECX)
	b.NOTL(ECX)
	b.BSFL(ECX, ECX)
	b.ADDQ(RCX, RAX)
}

// checkR sets out to flag the bytes that show an error in the 32-byte block
// in cur, with the bytes 1, 2 and 3 places before each of its bytes in p1,
// p2 and p3. It overwrites p2, p3, t1 and t2.
func (b avx2) checkR(cur, p1, p2, p3, out, t1, t2 Register) {
	b.VPSRLW(u8(4), p1, out)
	b.VPAND(Y15, out, out)
	b.VPSHUFB(out, Y14, out)
	b.VPAND(Y15, p1, t1)
	b.VPSHUFB(t1, Y13, t1)
	b.VPSRLW(u8(4), cur, t2)
	b.VPAND(Y15, t2, t2)
	b.VPSHUFB(t2, Y12, t2)
	b.VPAND(out, t1, out)
	b.VPAND(t2, out, out)
	b.VPSUBUSB(Y11, p2, p2)
	b.VPSUBUSB(Y10, p3, p3)
	b.VPOR(p2, p3, p2)
	b.VPAND(Y8, p2, p2)
	b.VPXOR(p2, out, out)
}

// check is checkR on the block in Y0, with the bytes before it in Y1, Y2
// and Y3, into Y4. It overwrites Y1 to Y6.
func (b avx2) check() { b.checkR(Y0, Y1, Y2, Y3, Y4, Y5, Y6) }

// store stores r at DI+AX+off in the copying kinds.
func (b avx2) store(r Register, off int) {
	if b.copy {
		b.VMOVDQU(r, dst(off))
	}
}

// ascii loads (and in the copying kinds stores) the four blocks of an
// ASCII run at AX, and ORs them into Y0. The counting kinds load them into
// Y1 to Y4, which accRun counts.
func (b avx2) ascii() {
	switch {
	case b.count:
		for i, y := range []Register{Y1, Y2, Y3, Y4} {
			b.VMOVDQU(src(32*i), y)
		}
		b.VPOR(Y2, Y1, Y0)
		b.VPOR(Y3, Y0, Y0)
		b.VPOR(Y4, Y0, Y0)
		for i, y := range []Register{Y1, Y2, Y3, Y4} {
			b.store(y, 32*i)
		}
	case b.copy:
		for i, y := range []Register{Y0, Y1, Y2, Y3} {
			b.VMOVDQU(src(32*i), y)
		}
		for i, y := range []Register{Y0, Y1, Y2, Y3} {
			b.store(y, 32*i)
		}
		b.VPOR(Y1, Y0, Y0)
		b.VPOR(Y3, Y2, Y2)
		b.VPOR(Y2, Y0, Y0)
	default:
		b.VMOVDQU(src(0), Y0)
		b.VPOR(src(32), Y0, Y0)
		b.VMOVDQU(src(64), Y1)
		b.VPOR(src(96), Y1, Y1)
		b.VPOR(Y1, Y0, Y0)
	}
}

// short writes shortAVX2, checkAVX2 for src shorter than 32 bytes, in one
// 32-byte block, with the registers of body2 (setup's constants, from the
// table at R12). The block is the 32 bytes from src where they lie on its
// page, with the bytes past src zeroed, and otherwise the 32 bytes that
// end where src ends, with the bytes before src zeroed: it reads only
// src's page. Zeros after src make an unfinished last sequence show an
// error at len(src) to len(src)+2; zeros before src make its first bytes
// follow ASCII.
func short(f *gen.File) {
	b := avx2{f, check}
	b.Function("shortAVX2")
	b.Attributes(attr.NOSPLIT)
	b.SignatureExpr("func()")
	b.Comment("See short in _asm/valid/avx2.go.")
	b.XORL(EAX, EAX)
	b.TESTQ(RDX, RDX)
	b.JZ(label("ret"))
	b.setup()
	b.MOVL(ESI, ECX)
	b.ANDL(u32(4095), ECX)
	b.CMPL(ECX, u32(4064))
	b.JA(label("atEnd"))

	// The block starts at src.
	b.VMOVDQU(gen.Mem(RSI, 0), Y0)
	b.VMOVD(EDX, X6)
	b.VPBROADCASTB(X6, Y6)
	b.VPCMPGTB(gen.Static("iota", 0), Y6, Y6) // FF at the offsets below len(src)
	b.VPAND(Y6, Y0, Y0)
	b.shortFlags()
	b.MOVQ(RDX, RAX)
	b.TESTL(ECX, ECX)
	b.JZ(label("done"))
	b.BSFL(ECX, EAX)
	b.CMPQ(RAX, RDX)
	b.JB(label("done"))
	b.LEAQ(gen.Mem(RDX, -1), RAX) // an unfinished last sequence: one byte less
	b.JMP(label("done"))

	// The block ends where src ends, at BX = 32-len(src) bytes from src.
	b.Label("atEnd")
	b.MOVL(u32(32), EBX)
	b.SUBL(EDX, EBX)
	b.VMOVDQU(gen.At(RSI, RDX, -32), Y0)
	b.VMOVD(EBX, X6)
	b.VPBROADCASTB(X6, Y6)
	b.VPCMPGTB(gen.Static("iota", 0), Y6, Y6) // FF at the offsets before src
	b.VPANDN(Y0, Y6, Y0)
	b.shortFlags()
	b.TESTL(ECX, ECX)
	b.JZ(label("whole"))
	b.BSFL(ECX, EAX)
	b.SUBQ(RBX, RAX)
	b.JMP(label("done"))

	b.Label("whole")
	b.MOVQ(RDX, RAX)
	b.VPTEST(Y7, Y7)
	b.JZ(label("done"))
	b.DECQ(RAX)

	b.Label("done")
	b.VZEROUPPER()

	b.Label("ret")
	b.MOVQ(RAX, gen.Mem(R13, 0))
	b.RET()
}

// shortFlags sets CX to a bit for each byte of the block in Y0 that shows
// an error, with zeros before the block, and leaves in Y7 the bytes of an
// unfinished last sequence. It overwrites Y1 to Y6.
func (b avx2) shortFlags() {
	b.first()
	b.check()
	b.VPSUBUSB(gen.Static("incompleteMax", 32), Y0, Y7)
	b.VPXOR(Y5, Y5, Y5)
	b.VPCMPEQB(Y5, Y4, Y4)
	b.VPMOVMSKB(Y4, ECX)
	b.NOTL(ECX)
}
