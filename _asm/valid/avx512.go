package main

import (
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
	"github.com/utf8stream/utf8stream/_asm/gen"
)

// avx512 writes an AVX-512 body of its kind, as avx2 does an AVX2 one.
//
// The constants that setup loads stay in place from there on: Z31, Z30
// and Z29 hold the lookup tables prevHigh, the variant's prevLow (from
// R12) and curHigh; Z28, Z27 and Z26 the bytes 60, 70 and 80 in every
// byte; Z25 incompleteMax.
type avx512 struct {
	*gen.File
	kind
}

// body4 writes the AVX-512 body of kind k, as the function checkAVX512,
// copyAVX512, countAVX512 or copyCountAVX512, which the entries enter as
// they enter body2's, with the same registers. It stores what body2 stores,
// with 64-byte blocks; it takes src shorter than 32 bytes too. The copying
// kinds store the first block of an input shorter than 64 bytes with the
// mask it is loaded with (never past the end of dst). Input that starts
// with ASCII goes without the set-up of the constants until its first
// block that is not ASCII. It overwrites AX, CX, R8, R9, R11, Z0 to Z14,
// Z20, Z25 to Z31, K1, K2 and K7, and in the counting kinds BX, R10, R14,
// Z24 and K3 to K5.
func body4(f *gen.File, k kind) {
	b := avx512{f, k}
	b.Function(k.name + "AVX512")
	b.Attributes(attr.NOSPLIT)
	b.SignatureExpr("func()")
	b.Comment("See body4 in _asm/valid/avx512.go.")

	// The labels where the runs of ASCII blocks end: in the counting
	// kinds, after the RET, where the run is counted.
	runExit, firstExit := label("loop512"), label("firstEnd512")
	if k.count {
		runExit, firstExit = label("runExit512"), label("firstExit512")
	}

	b.XORL(EAX, EAX)
	b.initCount()
	b.TESTQ(RDX, RDX)
	b.JZ(label("done512"))
	b.LEAQ(gen.Mem(RDX, -256), R8) // start of the last run of four blocks; may be negative
	b.MOVL(u32(64), R9L)           // size of the block being checked

	b.CMPQ(RDX, u8(64))
	b.JB(label("setup512"))
	b.VMOVDQU64(gen.Mem(RSI, 0), Z0)
	b.store(Z0, 0)
	b.VPMOVB2M(Z0, K1)
	b.KORTESTQ(K1, K1)
	b.JNZ(label("setup512"))
	b.acc(Z0, gen.Mem(RAX, 64))

	// The first block is ASCII. So are the runs of four blocks after it
	// that this loop takes, as in asciiRun512 but before the set-up of the
	// constants, which only a block that is not ASCII needs.
	b.MOVL(u32(64), EAX)
	b.runCount()

	b.Label("firstRun512")
	b.CMPQ(RAX, R8)
	b.JGT(firstExit)
	b.ascii()
	b.VPMOVB2M(Z0, K1)
	b.KORTESTQ(K1, K1)
	b.JNZ(firstExit)
	b.accRun()
	b.ADDQ(u32(256), RAX)
	b.JMP(label("firstRun512"))

	b.Label("firstEnd512")
	b.CMPQ(RAX, RDX)
	b.JAE(label("done512")) // all ASCII
	b.setup()
	b.JMP(label("loop512"))

	b.Label("setup512")
	b.setup()
	b.MOVQ(RDX, RCX)
	b.CMPQ(RDX, u8(64))
	b.JB(label("tail512"))
	b.JMP(label("first512"))

	b.Label("loop512")
	b.MOVQ(RDX, RCX)
	b.SUBQ(RAX, RCX)
	b.CMPQ(RCX, u32(128))
	b.JB(label("single512"))

	// Two blocks at a time.
	b.VMOVDQU64(src(0), Z0)
	b.store(Z0, 0)
	b.VMOVDQU64(src(64), Z7)
	b.store(Z7, 64)
	b.VPORQ(Z0, Z7, Z8)
	b.VPMOVB2M(Z8, K1)
	b.KORTESTQ(K1, K1)
	b.JZ(label("ascii512"))
	b.prev()
	b.VMOVDQU64(src(63), Z9)
	b.VMOVDQU64(src(62), Z10)
	b.VMOVDQU64(src(61), Z11)
	b.check(Z0, Z1, Z2, Z3, Z4, Z5, Z6, K1)
	b.check(Z7, Z9, Z10, Z11, Z12, Z13, Z14, K2)
	b.KORTESTQ(K1, K2)
	b.JNZ(label("found2"))
	b.accPair()
	b.ADDQ(u32(128), RAX)
	b.JMP(label("loop512"))

	b.Label("found2")
	b.KORTESTQ(K1, K1)
	b.JNZ(label("found512"))
	b.acc(Z0, gen.Mem(RAX, 64))
	b.ADDQ(u8(64), RAX)
	b.KMOVQ(K2, K1)
	b.JMP(label("found512"))

	b.Label("single512")
	b.CMPQ(RCX, u8(64))
	b.JB(label("tail512"))
	b.VMOVDQU64(src(0), Z0)
	b.store(Z0, 0)
	b.VPMOVB2M(Z0, K1)
	b.KORTESTQ(K1, K1)
	b.JZ(label("ascii512"))
	b.prev()

	b.Label("check512")
	b.check(Z0, Z1, Z2, Z3, Z4, Z5, Z6, K1)
	b.KORTESTQ(K1, K1)
	b.JNZ(label("found512"))
	b.acc(Z0, gen.At(RAX, R9, 0))
	b.ADDQ(R9, RAX)
	b.CMPQ(RAX, RDX)
	b.JAE(label("end512")) // the block was the last, as often in short input
	b.JMP(label("loop512"))

	// The block at AX is ASCII, and well-formed unless the block before it
	// (AX >= 64) ended inside a sequence.
	b.Label("ascii512")
	b.unfinished(src(-64))
	b.JNZ(label("done512"))
	b.acc(Z0, gen.Mem(RAX, 64))
	b.ADDQ(u8(64), RAX)
	b.runCount()

	b.Label("asciiRun512")
	b.CMPQ(RAX, R8)
	b.JGT(runExit)
	b.ascii() // Z0 = the OR of the four blocks at AX
	b.VPMOVB2M(Z0, K1)
	b.KORTESTQ(K1, K1)
	b.JNZ(runExit)
	b.accRun()
	b.ADDQ(u32(256), RAX)
	b.JMP(label("asciiRun512"))

	// CX = len-AX < 64 bytes are left.
	b.Label("tail512")
	b.TESTQ(RCX, RCX)
	b.JZ(label("end512"))
	b.MOVQ(RCX, R9)

	// Check the R9 bytes at AX. A masked load whose masked-off bytes lie
	// across a page boundary can cost hundreds of cycles, so only inputs
	// shorter than 64 bytes load past the end of src, and none before it.
	b.Label("masked512")
	b.MOVQ(i32(-1), RCX)
	b.BZHIQ(R9, RCX, R11)
	b.KMOVQ(R11, K2)
	b.TESTQ(RAX, RAX)
	b.JNZ(label("last512"))

	// The first block: shift in zeros for the bytes before src. Bytes past
	// the end of src are zeros too, so that an unfinished sequence at the
	// end shows as an error.
	b.VMOVDQU8_Z(gen.Mem(RSI, 0), K2, Z0)
	if k.copy {
		b.VMOVDQU8(Z0, K2, gen.Mem(RDI, 0))
	}

	// Z0 holds the first block, which is not ASCII.
	b.Label("first512")
	b.first()
	b.JMP(label("check512"))

	// Fewer than 64 bytes are left after AX >= 64. Check the last 64 bytes
	// of src again, overlapping what was checked, when at least 3 bytes lie
	// before them (the first flag cannot come before AX), and otherwise
	// leave the 1 or 2 bytes left to the caller.
	b.Label("last512")
	b.LEAQ(gen.Mem(RDX, -64), R11)
	b.CMPQ(R11, u8(3))
	b.JB(label("done512"))
	b.lastCount()
	b.MOVQ(R11, RAX)
	b.MOVL(u32(64), R9L)
	b.VMOVDQU64(src(0), Z0)
	b.store(Z0, 0)
	b.prev()
	b.JMP(label("check512"))

	// As in the AVX2 body. Input shorter than 64 bytes was checked as one
	// block padded with zeros, which flag an unfinished sequence as an
	// error.
	b.Label("end512")
	b.MOVQ(RDX, RAX)
	b.CMPQ(RDX, u8(64))
	b.JB(label("done512"))
	b.unfinished(gen.At(RSI, RDX, -64))
	b.JZ(label("done512"))
	b.DECQ(RAX)
	b.JMP(label("done512"))

	// K1 flags the errors of the block at AX. A flag in the padding of the
	// last block means that src ends inside a sequence.
	b.Label("found512")
	b.KMOVQ(K1, RCX)
	b.TZCNTQ(RCX, RCX)
	b.ADDQ(RCX, RAX)
	b.CMPQ(RAX, RDX)
	b.JB(label("done512"))
	b.LEAQ(gen.Mem(RDX, -1), RAX)

	b.Label("done512")
	b.VZEROUPPER()
	if !k.count {
		b.MOVQ(RAX, gen.Mem(R13, 0))
		b.RET()
		return
	}
	countResult(b.File, RBX, R10)
	// Where the runs of ASCII blocks end, after the RET, so that the other
	// kinds keep their layout.
	b.Label("firstExit512")
	b.flush4("firstExit512")
	b.JMP(label("firstEnd512"))
	b.Label("runExit512")
	b.flush4("runExit512")
	b.JMP(label("loop512"))
}

// check sets k to the bytes that show an error in the 64-byte block in in,
// with the bytes 1, 2 and 3 places before each of its bytes in p1, p2 and
// p3. It overwrites p1, p2, p3, t1, t2 and t3.
func (b avx512) check(in, p1, p2, p3, t1, t2, t3, k Register) {
	b.VPSRLW(u8(4), p1, t1)
	b.VPERMB(Z31, t1, t1)
	b.VPERMB(Z30, p1, t2)
	b.VPSRLW(u8(4), in, t3)
	b.VPERMB(Z29, t3, t3)
	b.VPTERNLOGD(u8(0x80), t3, t2, t1)
	b.VPSUBUSB(Z28, p2, p2)
	b.VPSUBUSB(Z27, p3, p3)
	b.VPTERNLOGD(u8(0xa8), Z26, p3, p2)
	b.VPCMPUB(u8(4), p2, t1, k)
}

// unfinished is avx2's unfinished for the 64-byte block at addr, in K7.
func (b avx512) unfinished(addr operand.Mem) {
	b.VPCMPUB(u8(1), addr, Z25, K7)
	b.KORTESTQ(K7, K7)
}

// setup loads the constants of the AVX-512 body.
func (b avx512) setup() {
	b.VMOVDQU64(gen.Static("prevHigh", 0), Z31)
	b.VMOVDQU64(gen.Mem(R12, 0), Z30)
	b.VMOVDQU64(gen.Static("curHigh", 0), Z29)
	for _, c := range []struct {
		v uint32
		z Register
	}{{0x60, Z28}, {0x70, Z27}, {0x80, Z26}} {
		b.MOVL(u32(c.v), ECX)
		b.VPBROADCASTB(ECX, c.z)
	}
	b.VMOVDQU64(gen.Static("incompleteMax", 0), Z25)
}

// first sets Z1, Z2 and Z3 to the first block, in Z0, shifted by 1, 2 and 3
// bytes with zeros shifted in: nothing lies before src. Z20 is Z0 shifted
// by one 16-byte lane, from which VPALIGNR takes the bytes that cross into
// each lane, as avx2's first does with VPERM2I128.
func (b avx512) first() {
	b.VPXORQ(Z20, Z20, Z20)
	b.VALIGNQ(u8(6), Z20, Z0, Z20)
	b.VPALIGNR(u8(15), Z20, Z0, Z1)
	b.VPALIGNR(u8(14), Z20, Z0, Z2)
	b.VPALIGNR(u8(13), Z20, Z0, Z3)
}

// prev loads the bytes 1, 2 and 3 places before the block at SI+AX into
// Z1, Z2 and Z3.
func (b avx512) prev() {
	b.VMOVDQU64(src(-1), Z1)
	b.VMOVDQU64(src(-2), Z2)
	b.VMOVDQU64(src(-3), Z3)
}

// store stores r at DI+AX+off in the copying kinds.
func (b avx512) store(r Register, off int) {
	if b.copy {
		b.VMOVDQU64(r, dst(off))
	}
}

// ascii loads (and in the copying kinds stores) the four blocks of an
// ASCII run at AX, and ORs them into Z0. The counting kinds load them into
// Z4 to Z7, which accRun counts.
func (b avx512) ascii() {
	switch {
	case b.count:
		for i, z := range []Register{Z4, Z5, Z6, Z7} {
			b.VMOVDQU64(src(64*i), z)
		}
		b.VPORQ(Z5, Z4, Z0)
		b.VPTERNLOGD(u8(0xfe), Z7, Z6, Z0)
		for i, z := range []Register{Z4, Z5, Z6, Z7} {
			b.store(z, 64*i)
		}
	case b.copy:
		for i, z := range []Register{Z0, Z1, Z2, Z3} {
			b.VMOVDQU64(src(64*i), z)
		}
		for i, z := range []Register{Z0, Z1, Z2, Z3} {
			b.store(z, 64*i)
		}
		b.VPTERNLOGD(u8(0xfe), Z2, Z1, Z0)
		b.VPORQ(Z3, Z0, Z0)
	default:
		b.VMOVDQU64(src(0), Z0)
		b.VMOVDQU64(src(64), Z1)
		b.VPTERNLOGD(u8(0xfe), src(128), Z1, Z0)
		b.VPORQ(src(192), Z0, Z0)
	}
}
