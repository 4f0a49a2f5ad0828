package main

import (
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/utf8stream/utf8stream/_asm/gen"
)

// widenValidAVX2 writes widenValidAVX2(dst, src []byte) (nd, ns int),
// WidenValid with AVX2: widenAVX2 for text of ASCII with 2-, 3- or 4-byte
// characters that it also validates, 32 bytes a step, while 4 bytes more
// follow the step in src and dst has room for 64 (R9 and R8 are the last
// ns and nd at which a step fits).
//
// A step of ASCII is valid where no character of the step before goes on
// into it. Another is valid where its leads are all C2..DF, all E0..EF or
// all F0..FF, and where its continuation bytes (80..BF) are the one, two
// or three after each of its leads and those that end a character of the
// step before (R12), and no others. A lead E0..EF is valid unless it
// starts an overlong form (E0 80..9F) or a surrogate (ED A0..BF); one
// F0..FF where it makes with the 2 bytes after it a high surrogate
// (D800..DBFF), which rules out F5..FF, the overlong forms and those above
// U+10FFFF. It stops at a step that is not valid or that holds leads of
// two sizes; the bytes after the last step that end its last character
// are checked there, and that character taken back if they are not
// continuation bytes, as is the high surrogate of one that starts in the
// step's last byte (R15 is 1 where a 4-byte character started there).
func widenValidAVX2() {
	kernel("widenValidAVX2", "func(dst, src []byte) (nd, ns int)")
	args()
	f.XORQ(R11, R11)
	f.XORQ(RBX, RBX)
	f.XORL(R12L, R12L)
	f.XORL(R15L, R15L)
	f.SUBQ(U8(36), R9)
	f.SUBQ(U8(64), R8)
	f.LEAQ(gen.Static("widenPack", 0), R14)
	broadcastW(0x3F, Y15)
	broadcastW(0x3F1F, Y14)
	broadcastW(0x0140, Y13)
	broadcastW(0xBF, Y12)
	broadcastB(0xBF, Y10)
	broadcastW(0xFF, Y9)
	broadcastB(0xEF, Y8)

	f.Label("wv2loop")
	load2(R9, R8, "wv2done")
	f.TESTL(ECX, ECX)
	f.JNZ(label("wv2multi"))

	f.Label("wv2ascii")
	f.Comment("ASCII: valid where no character of the step before goes on into it.")
	f.TESTL(R12L, R12L)
	f.JNZ(label("wv2done"))
	widenASCII()
	f.JMP(label("wv2loop"))

	// AX: the bytes that are no continuation byte, ASCII and C0..FF, as
	// signed bytes above BF.
	f.Label("wv2multi")
	f.VPCMPGTB(Y10, Y0, Y4)
	f.VPMOVMSKB(Y4, EAX)

	f.Label("wv2kinds")
	f.VPCMPGTB(Y8, Y0, Y3)
	f.VPMOVMSKB(Y3, R10L) // ASCII and F0..FF
	f.CMPL(EAX, R10L)
	f.JNE(label("wv2three")) // a lead C0..EF
	f.ANDL(ECX, R10L)        // the leads, L
	// The three bytes after each lead, up to 3 past the step: 14L, the
	// sum of 2L, 4L and 8L, is their union where no two leads lie within
	// 3 bytes, and otherwise has the bit of the second lead, which no
	// continuation byte has.
	f.Comment("The three bytes after each lead: 14L.")
	f.IMUL3Q(U8(14), R10, R13)
	f.ORQ(R12, R13)
	f.NOTL(EAX) // the continuation bytes
	f.CMPL(R13L, EAX)
	f.JNE(label("wv2done"))
	f.NOTL(EAX)
	// The lanes kept: the starts, the lanes after leads and the first
	// after a lead in the step before.
	f.LEAL(gen.At(R10, R10, 0), EDX)
	f.ORL(EDX, EAX)
	f.ORL(R15L, EAX)
	f.VMOVDQU(gen.At(RSI, R11, 1), Y1)
	f.VMOVDQU(gen.At(RSI, R11, 2), Y2)
	f.VPSRLW(U8(8), Y2, Y3)
	fourUnits(Y0, Y2, Y5, planeFirst)
	fourUnits(Y1, Y3, Y6, planeNext)
	f.VPTEST(gen.Static("wordFC00", 0), Y11)
	f.JNZ(label("wv2done"))
	f.SHRQ(U8(32), R13)
	f.MOVL(R13L, R12L)
	f.MOVL(R10L, R15L)
	f.SHRL(U8(31), R15L)
	f.CMPL(ECX, I8(-1))
	f.JEQ(label("wv2fours"))
	storeBlock("wv2loop")

	// 4-byte characters alone: the first lead lies at lane p = 0..3 and
	// the others 4 lanes apart, so that each 4 lanes keep their lanes p
	// and (p+1)%4, 16 units in all, which widenFours moves to the front of
	// each 8.
	f.Label("wv2fours")
	f.Comment("4-byte characters alone: by widenFours.")
	f.VPUNPCKLWD(Y6, Y5, Y0)
	f.VPUNPCKHWD(Y6, Y5, Y1)
	f.BSFL(R10L, EDX)
	f.SHLL(U8(5), EDX)
	f.LEAQ(gen.Static("widenFours", 0), R13)
	f.VMOVDQU(gen.At(R13, RDX, 0), Y2)
	f.VPSHUFB(Y2, Y0, Y0)
	f.VPSHUFB(Y2, Y1, Y1)
	f.VPUNPCKLQDQ(Y1, Y0, Y0)
	f.VMOVDQU(Y0, gen.At(RDI, RBX, 0))
	f.ADDQ(U8(32), R11)
	f.ADDQ(U8(32), RBX)
	f.JMP(label("wv2loop"))

	// ASCII and 3-byte characters, after no 4-byte lead in the last byte
	// of the step before: no lead but E0..EF (b^20 at most CF), no
	// overlong form or surrogate, and as for 4-byte characters, the 2
	// bytes after each lead, 6L, and no other continuation bytes.
	f.Label("wv2three")
	f.TESTL(R15L, R15L)
	f.JNZ(label("wv2done"))
	threeKind(Y2)
	f.JNZ(label("wv2two"))

	f.Label("wv2threeok")
	f.Comment("No E0 80..9F or ED A0..BF.")
	f.VMOVDQU(gen.At(RSI, R11, 1), Y1)
	f.VPCMPEQB(gen.Static("byteE0", 0), Y0, Y4)
	f.VPCMPEQB(gen.Static("byteED", 0), Y0, Y5)
	f.VPCMPGTB(gen.Static("byte9F", 0), Y1, Y6)
	f.VPBLENDVB(Y6, Y5, Y4, Y4)
	f.VPTEST(Y4, Y4)
	f.JNZ(label("wv2done"))
	continuations(sixL)
	f.VMOVDQU(gen.At(RSI, R11, 2), Y2)
	f.VPSRLW(U8(8), Y2, Y3)
	asciiThreeUnits(Y0, Y2, Y5)
	asciiThreeUnits(Y1, Y3, Y6)
	storeBlock("wv2threenext")

	// The step after one of 3-byte characters is tested for that kind
	// first, and most often is one. (R15 is 0.)
	f.Label("wv2threenext")
	kindNext(func() { threeKind(Y2) }, "wv2threeok")

	// ASCII and 2-byte characters: no byte E0..FF (b-DF saturated is 0)
	// and no lead C0 or C1; and the byte after each lead, 2L, and no
	// other, continuation bytes. (R15 is 0.)
	f.Label("wv2two")
	twoKind()
	f.JNZ(label("wv2done"))

	f.Label("wv2twook")
	continuations(twoL)
	f.VMOVDQU(gen.At(RSI, R11, 1), Y1)
	twoUnits(Y0, Y5)
	twoUnits(Y1, Y6)
	storeBlock("wv2twonext")

	// The step after one of 2-byte characters is tested for that kind
	// first, and most often is one. (R15 is 0.)
	f.Label("wv2twonext")
	kindNext(twoKind, "wv2twook")

	// The character of the last step that ends at the bytes of R12: if it
	// has 4 bytes and started in the step's last byte, only its high
	// surrogate is written, which is taken back; otherwise all its units
	// are, and it is taken back unless those 1 or 2 bytes are
	// continuation bytes.
	f.Label("wv2done")
	f.TESTL(R15L, R15L)
	f.JNZ(label("wv2high"))
	f.TESTL(R12L, R12L)
	f.JZ(label("wv2ret"))
	runEnd(R11, "wv2")

	// Back to the character's lead, and its 2 or 4 bytes of units.
	f.Label("wv2back")
	f.DECQ(R11)
	isCont(R11)
	f.JEQ(label("wv2back"))
	f.SUBQ(U8(2), RBX)
	f.CMPB(gen.At(RSI, R11, 0), U8(0xF0))
	f.JB(label("wv2ret"))
	f.SUBQ(U8(2), RBX)
	f.JMP(label("wv2ret"))

	f.Label("wv2high")
	takeBackHigh(R11)

	f.Label("wv2ret")
	ret(R11, 48)
}

// planeFirst and planeNext, the checks of widenValidAVX2's fourUnits for
// the first and the second half of a step, put into Y11 the high
// surrogates h of the lanes of leads (Y7) XOR D800, which have none of
// the bits FC00 set where the lead and the 2 bytes after it make a high
// surrogate. They overwrite Y4.
func planeFirst(h Register) {
	f.VPXOR(gen.Static("wordD800", 0), h, Y4)
	f.VPAND(Y7, Y4, Y11)
}

func planeNext(h Register) {
	f.VPXOR(gen.Static("wordD800", 0), h, Y4)
	f.VPAND(Y7, Y4, Y4)
	f.VPOR(Y4, Y11, Y11)
}

// twoKind leaves Y2 zero where the step in Y0 holds no lead but C2..DF
// (no byte E0..FF, b-DF saturated, and none C0 or C1, b&FE), and tests it
// (VPTEST Y2, Y2). It overwrites Y3.
func twoKind() {
	f.VPSUBUSB(gen.Static("byteDF", 0), Y0, Y2)
	f.VPAND(gen.Static("byteFE", 0), Y0, Y3)
	f.VPCMPEQB(gen.Static("byteC0", 0), Y3, Y3)
	f.VPOR(Y3, Y2, Y2)
	f.VPTEST(Y2, Y2)
}

// kindNext tests the next step (next2) for a kind first (kind, which sets
// ZF where the step is one), goes on at ok if it is one and at wv2kinds
// otherwise.
func kindNext(kind func(), ok string) {
	next2(R9, R8, "wv2done", "wv2ascii")
	kind()
	f.JZ(label(ok))
	f.JMP(label("wv2kinds"))
}

// continuations ends the run at wv2done unless the continuation bytes of
// the step, those that are no start (AX), are exactly those that after
// sets in R13 from the leads, R10 (AX&CX), and the carry of the step
// before, R12: sixL for 3-byte leads, twoL for 2-byte ones. Then it
// leaves in R12 the carry into the next step. It overwrites DX.
func continuations(after func()) {
	f.MOVL(EAX, R10L)
	f.ANDL(ECX, R10L)
	after()
	f.MOVL(EAX, EDX)
	f.NOTL(EDX)
	f.CMPL(R13L, EDX)
	f.JNE(label("wv2done"))
	f.SHRQ(U8(32), R13)
	f.MOVL(R13L, R12L)
}

// sixL sets R13 to 6L | R12: the 2 bytes after each lead.
func sixL() {
	f.IMUL3Q(U8(6), R10, R13)
	f.ORQ(R12, R13)
}

// twoL sets R13 to 2L + R12: the byte after each lead.
func twoL() {
	f.LEAQ(scaled(R12, R10, 2, 0), R13)
}

// runEnd moves ns past the 1 or 2 bytes at ns that end the last character
// of a run of valid steps, R12 (1 or 3), and goes on at the label
// prefix+"ret", or at prefix+"back" if they are not continuation bytes.
// It overwrites CX.
func runEnd(ns Register, prefix string) {
	f.MOVWLZX(gen.At(RSI, ns, 0), ECX)
	f.ANDL(U32(0xC0C0), ECX)
	f.XORL(U32(0x8080), ECX)
	f.CMPL(R12L, U8(1))
	f.JNE(label(prefix + "endtwo"))
	f.MOVBLZX(CL, ECX)
	f.Label(prefix + "endtwo")
	f.TESTL(ECX, ECX)
	f.JNZ(label(prefix + "back"))
	f.POPCNTL(R12L, ECX)
	f.ADDQ(RCX, ns)
	f.JMP(label(prefix + "ret"))
}
