package main

import (
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/utf8stream/utf8stream/_asm/gen"
)

// The AVX2 widening kernels. Both keep these constants, each a word (or a
// byte) in every lane, from their start on: Y15 003F, Y14 3F1F, Y13 0140
// (64 and 1, by which VPMADDUBSW multiplies b0 and b1), Y12 00BF, Y9 00FF
// and Y8 bytes EF; Y10 holds bytes C0 in widenAVX2 and BF in
// widenValidAVX2, and Y11 word DF in widenAVX2. R14 holds the address of
// widenPack.

// broadcastW sets every word of y to c, through CX and X0.
func broadcastW(c uint32, y Register) {
	f.MOVL(U32(c), ECX)
	f.VMOVD(ECX, X0)
	f.VPBROADCASTW(X0, y)
}

// broadcastB sets every byte of y to c, through CX and X0.
func broadcastB(c uint32, y Register) {
	f.MOVL(U32(c), ECX)
	f.VMOVD(ECX, X0)
	f.VPBROADCASTB(X0, y)
}

// widenUnits sets out to the unit of the character that would start in
// the low byte b0 of each word of w, from b0, the high byte b1 and b2,
// the low byte of w2: b0 for ASCII; (b0&1F)<<6 | b1&3F after a 2-byte
// lead (C0..DF); (b0&0F)<<12 | (b1&3F)<<6 | b2&3F after a 3-byte one
// (E0..EF), whose b0&1F is b0&0F. It leaves b0 in w and that 3-byte form
// in w2, uses Y9 and Y11 to Y15 and overwrites t.
func widenUnits(w, w2, t, out Register) {
	f.VPAND(Y14, w, t)
	f.VPMADDUBSW(Y13, t, t)
	f.VPAND(Y15, w2, w2)
	f.VPSLLW(U8(6), t, out)
	f.VPOR(w2, out, w2)
	f.VPAND(Y9, w, w)
	f.VPCMPGTW(Y12, w, out)
	f.VPBLENDVB(out, t, w, t)
	f.VPCMPGTW(Y11, w, out)
	f.VPBLENDVB(out, w2, t, out)
}

// bmpUnits is widenUnits with Y4 for t, a units function of widenBlock.
func bmpUnits(w, w2, out Register) { widenUnits(w, w2, Y4, out) }

// twoUnits sets out to the unit of the character of 1 or 2 bytes that
// would start in the low byte b0 of each word of w, as widenUnits does.
// It uses Y9 and Y12 to Y14 and overwrites w and Y7.
func twoUnits(w, out Register) {
	f.VPAND(Y14, w, out)
	f.VPMADDUBSW(Y13, out, out)
	f.VPAND(Y9, w, w)
	f.VPCMPGTW(Y12, w, Y7)
	f.VPBLENDVB(Y7, out, w, out)
}

// threeUnits sets out to the unit of the 3-byte sequence whose lead is
// the low byte of each word of w, with the high byte and the low byte of
// w2 after it, as widenUnits does. It uses Y13 to Y15 and overwrites w2.
func threeUnits(w, w2, out Register) {
	f.VPAND(Y14, w, out)
	f.VPMADDUBSW(Y13, out, out)
	f.VPAND(Y15, w2, w2)
	f.VPSLLW(U8(6), out, out)
	f.VPOR(w2, out, out)
}

// asciiThreeUnits sets out to the unit of the character of 1 or 3 bytes
// that would start in the low byte b0 of each word of w, as widenUnits
// does. It uses Y9 and Y12 to Y15 and overwrites w, w2 and Y7.
func asciiThreeUnits(w, w2, out Register) {
	threeUnits(w, w2, out)
	f.VPAND(Y9, w, w)
	f.VPCMPGTW(Y12, w, Y7)
	f.VPBLENDVB(Y7, out, w, out)
}

// asciiFourUnits sets out to the unit that each word of w gives in a
// block of ASCII and 4-byte characters, by its low byte b0, its high
// byte b1 and b2, the low byte of w2: b0 for ASCII; for a lead (F0..F4),
// the high surrogate of its character, D7C0 + t>>4 with t the unit that
// threeUnits makes of the 3 bytes, (b0&0F)<<12 | (b1&3F)<<6 | b2&3F; for
// a continuation byte, the low surrogate of the character that it is the
// second byte of, DC00 | t&3FF. It uses Y9 and Y12 to Y15 and overwrites
// w, w2 and Y7.
func asciiFourUnits(w, w2, out Register) { fourUnits(w, w2, out, nil) }

// fourUnits is asciiFourUnits that hands check, if not nil, the high
// surrogates it makes (w2), in the lanes of leads (b0 > BF) where Y7 is
// set.
func fourUnits(w, w2, out Register, check func(h Register)) {
	threeUnits(w, w2, out)
	f.VPSRLW(U8(4), out, w2)
	f.VPADDW(gen.Static("wordD7C0", 0), w2, w2)
	f.VPAND(gen.Static("word3FF", 0), out, out)
	f.VPOR(gen.Static("wordDC00", 0), out, out)
	f.VPAND(Y9, w, w)
	f.VPCMPGTW(Y12, w, Y7)
	if check != nil {
		check(w2)
	}
	f.VPBLENDVB(Y7, w2, out, out)
	f.VPCMPGTW(gen.Static("word7F", 0), w, Y7)
	f.VPBLENDVB(Y7, out, w, out)
}

// widenBlock converts the block in Y0 with units (asciiThreeUnits,
// asciiFourUnits or bmpUnits): the units of the even lanes from the words
// of the block, with the words 2 bytes on; of the odd ones from the words
// a byte on, with the high bytes of those 2 bytes on. storeBlock stores
// them and goes on at next.
func widenBlock(units func(w, w2, out Register), next string) {
	f.VMOVDQU(gen.At(RSI, R11, 1), Y1)
	f.VMOVDQU(gen.At(RSI, R11, 2), Y2)
	f.VPSRLW(U8(8), Y2, Y3)
	units(Y0, Y2, Y5)
	units(Y1, Y3, Y6)
	storeBlock(next)
}

// storeBlock stores the units of the lanes of the block that AX selects,
// the even lanes' in Y5 and the odd ones' in Y6: in order (0..7 and
// 16..23 in Y0, 8..15 and 24..31 in Y1), 8 lanes at a time, packed to the
// front by widenPack (R14) and one after the other. Then on with the next
// block, at next.
func storeBlock(next string) {
	f.VPUNPCKLWD(Y6, Y5, Y0)
	f.VPUNPCKHWD(Y6, Y5, Y1)
	pack4(R14, Y0, Y1, 0, 2)
	f.ADDQ(U8(32), R11)
	f.JMP(label(next))
}

// pack stores the lanes of x that the byte key (AL or AH) selects at
// dst+nd, packed by the table at tab, and adds base and their count times
// scale to nd (BX). It overwrites CX, DX and X7.
func pack(tab, key, x Register, base int, scale uint8) {
	f.MOVBLZX(key, ECX)
	f.POPCNTL(ECX, EDX)
	f.SHLL(U8(4), ECX)
	f.VPSHUFB(gen.At(tab, RCX, 0), x, X7)
	f.VMOVDQU(X7, gen.At(RDI, RBX, 0))
	f.LEAQ(scaled(RBX, RDX, scale, base), RBX)
}

// pack4 stores the lanes of the low and the high halves of y0 and y1 that
// the bytes of AX select, with pack, in the order of the bytes: y0's low
// half, y1's, y0's high half, y1's. It overwrites y0 and y1 (and AX).
func pack4(tab Register, y0, y1 VecPhysical, base int, scale uint8) {
	x0, x1 := y0.AsX(), y1.AsX()
	pack(tab, AL, x0, base, scale)
	pack(tab, AH, x1, base, scale)
	f.SHRL(U8(16), EAX)
	f.VEXTRACTI128(U8(1), y0, x0)
	pack(tab, AL, x0, base, scale)
	f.VEXTRACTI128(U8(1), y1, x1)
	pack(tab, AH, x1, base, scale)
}

// widenASCII widens the block of ASCII at ns (R11), a byte a unit, and
// moves ns and nd past it.
func widenASCII() {
	f.VPMOVZXBW(gen.At(RSI, R11, 0), Y1)
	f.VPMOVZXBW(gen.At(RSI, R11, 16), Y2)
	f.VMOVDQU(Y1, gen.At(RDI, RBX, 0))
	f.VMOVDQU(Y2, gen.At(RDI, RBX, 32))
	f.ADDQ(U8(32), R11)
	f.ADDQ(U8(64), RBX)
}

// load2 goes to end unless a block fits, with ns (R11) at most nsMax and
// nd (BX) at most ndMax; it loads the block into Y0 and the mask of its
// bytes that are not ASCII into CX.
func load2(nsMax, ndMax Register, end string) {
	f.CMPQ(R11, nsMax)
	f.JGT(label(end))
	f.CMPQ(RBX, ndMax)
	f.JGT(label(end))
	f.VMOVDQU(gen.At(RSI, R11, 0), Y0)
	f.VPMOVMSKB(Y0, ECX)
}

// next2 loads the next block into Y0 (load2), where one fits, for the
// tests of a kind: it goes to ascii for a block of ASCII, and leaves the
// bytes that are not ASCII in CX and in AX those above Y10 as signed
// bytes, as the general dispatch has them: in widenAVX2 the lanes where a
// character starts, in widenValidAVX2 those that hold no continuation
// byte.
func next2(nsMax, ndMax Register, end, ascii string) {
	load2(nsMax, ndMax, end)
	f.TESTL(ECX, ECX)
	f.JZ(label(ascii))
	f.VPCMPGTB(Y10, Y0, Y4)
	f.VPMOVMSKB(Y4, EAX)
}

// threeKind sets y to the bytes b^20 of the block in Y0 less CF,
// saturated, and tests it (VPTEST y, y): ZF is set where the block holds
// no lead but E0..EF (b^20 at most CF).
func threeKind(y Register) {
	f.VPXOR(gen.Static("byte20", 0), Y0, y)
	f.VPSUBUSB(gen.Static("byteCF", 0), y, y)
	f.VPTEST(y, y)
}

// before2 loads into y the block n bytes before ns (R11), or at the start
// of src the block in Y0 shifted by n bytes, with zeros in; then on at
// done.
func before2(y Register, n int, first, done string) {
	f.TESTQ(R11, R11)
	f.JZ(label(first))
	f.VMOVDQU(gen.At(RSI, R11, -n), y)
	f.JMP(label(done))

	f.Label(first)
	f.VPERM2I128(U8(0x08), Y0, Y0, y)
	f.VPALIGNR(U8(16-n), y, Y0, y)
	f.Label(done)
}

// widenAVX2 writes widenAVX2(dst, src []byte) (nd, ns int), Widen: blocks
// of 32 bytes, while 2 bytes more follow the block in src and dst has
// room for 64. R15 is 1 where a 4-byte sequence started in the last lane
// of the block before, whose low surrogate the block's first lane keeps;
// R12 and R13 are the last ns and nd at which a block fits.
func widenAVX2() {
	kernel("widenAVX2", "func(dst, src []byte) (nd, ns int)")
	args()
	f.XORQ(R11, R11)
	f.XORQ(RBX, RBX)
	f.XORL(R15L, R15L)
	f.LEAQ(gen.Mem(R9, -34), R12)
	f.LEAQ(gen.Mem(R8, -64), R13)
	f.LEAQ(gen.Static("widenPack", 0), R14)
	broadcastW(0x3F, Y15)
	broadcastW(0x3F1F, Y14)
	broadcastW(0x0140, Y13)
	broadcastW(0xBF, Y12)
	broadcastW(0xDF, Y11)
	broadcastB(0xC0, Y10)
	broadcastW(0xFF, Y9)
	broadcastB(0xEF, Y8)

	f.Label("widen2loop")
	load2(R12, R13, "widen2end")
	f.TESTL(ECX, ECX)
	f.JNZ(label("widen2multi"))

	f.Label("widen2ascii")
	f.Comment("ASCII: each byte is a unit.")
	widenASCII()
	f.JMP(label("widen2loop"))

	// The lanes where a character starts, Y4 and AX: those above C0 as
	// signed bytes, which C0 is not the lead of, and 80..BF are not.
	f.Label("widen2multi")
	f.VPCMPGTB(Y10, Y0, Y4)
	f.VPMOVMSKB(Y4, EAX)

	// Blocks with no lead but E0..EF, whose bytes b^20 are at most CF,
	// take the path of widen2asciithree; after a 4-byte sequence that
	// started in the last lane of the block before (R15), that of
	// widen2four. Blocks of 3-byte characters alone take it too: a
	// branch on the lane where their first starts goes wrong wherever
	// ASCII comes between them.
	f.Label("widen2starts")
	threeKind(Y1)
	f.JNZ(label("widen2other"))
	f.TESTL(R15L, R15L)
	f.JZ(label("widen2asciithree"))
	f.JMP(label("widen2four"))

	// Blocks of 1- and 2-byte characters (no byte above DF) take the path
	// of widen2two, or after R15, of widen2four.
	f.Label("widen2other")
	f.VPSUBUSB(gen.Static("byteDF", 0), Y0, Y1)
	f.VPTEST(Y1, Y1)
	f.JNZ(label("widen2fours"))
	f.TESTL(R15L, R15L)
	f.JZ(label("widen2two"))
	f.JMP(label("widen2four"))

	// With the starts of ASCII and of leads above EF, R10: blocks with no
	// other take the path of widen2asciifour, which takes the low
	// surrogate after R15 too; the others after R15 or with leads above
	// EF, of widen2four.
	f.Label("widen2fours")
	f.VPCMPGTB(Y8, Y0, Y3)
	f.VPMOVMSKB(Y3, R10L)
	f.CMPL(EAX, R10L)
	f.JEQ(label("widen2asciifour"))
	f.TESTL(R15L, R15L)
	f.JNZ(label("widen2four"))
	f.TESTL(ECX, R10L)
	f.JNZ(label("widen2four"))
	f.JMP(label("widen2bmp"))

	f.Label("widen2asciithree")
	f.Comment("As widen2bmp, without 2-byte sequences.")
	widenBlock(asciiThreeUnits, "widen2threenext")

	// The block after one of 1- and 3-byte characters is tested for that
	// kind first, and most often is one. (R15 is 0.)
	f.Label("widen2threenext")
	next2(R12, R13, "widen2end", "widen2ascii")
	threeKind(Y1)
	f.JZ(label("widen2asciithree"))
	f.JMP(label("widen2other"))

	// As widen2four, for ASCII and 4-byte characters: the lanes kept are
	// the starts, the lanes after leads (CX&R10) and the first lane after
	// a lead in the block before.
	f.Label("widen2asciifour")
	f.MOVL(ECX, EDX)
	f.ANDL(R10L, EDX)
	f.ORL(R15L, EAX)
	f.MOVL(EDX, R15L)
	f.SHRL(U8(31), R15L)
	f.ADDL(EDX, EDX)
	f.ORL(EDX, EAX)
	widenBlock(asciiFourUnits, "widen2fournext")

	// The block after one of ASCII and 4-byte characters is tested for
	// that kind first, and most often is one.
	f.Label("widen2fournext")
	load2(R12, R13, "widen2end")
	f.VPCMPGTB(Y10, Y0, Y4)
	f.VPMOVMSKB(Y4, EAX)
	f.VPCMPGTB(Y8, Y0, Y3)
	f.VPMOVMSKB(Y3, R10L)
	f.CMPL(EAX, R10L)
	f.JEQ(label("widen2asciifour"))
	f.TESTL(ECX, ECX)
	f.JZ(label("widen2ascii"))
	f.JMP(label("widen2starts"))

	f.Label("widen2bmp")
	f.Comment("Characters of 1, 2 and 3 bytes.")
	widenBlock(bmpUnits, "widen2loop")

	f.Label("widen2two")
	f.Comment("As widen2bmp, without 3-byte sequences.")
	f.VMOVDQU(gen.At(RSI, R11, 1), Y1)
	twoUnits(Y0, Y5)
	twoUnits(Y1, Y6)
	storeBlock("widen2twonext")

	// The block after one of 1- and 2-byte characters is tested for that
	// kind first, and most often is one. (R15 is 0.)
	f.Label("widen2twonext")
	next2(R12, R13, "widen2end", "widen2ascii")
	f.VPSUBUSB(gen.Static("byteDF", 0), Y0, Y1)
	f.VPTEST(Y1, Y1)
	f.JZ(label("widen2two"))
	f.JMP(label("widen2starts"))

	// As widen2bmp, and for a 4-byte lead, the high surrogate in its lane
	// and the low one in the lane after it, which is kept too.
	f.Label("widen2four")
	f.Comment("The leads' lanes, L.")
	f.VPSUBUSB(Y8, Y0, Y1)
	f.VPXOR(Y4, Y4, Y4)
	f.VPCMPEQB(Y4, Y1, Y1)
	f.VPMOVMSKB(Y1, EDX)
	f.NOTL(EDX)
	f.VPCMPGTB(Y0, Y10, Y1)
	f.VPMOVMSKB(Y1, EAX)
	f.NOTL(EAX)
	f.ORL(R15L, EAX) // the lane after a lead in the block before
	f.MOVL(EDX, R15L)
	f.SHRL(U8(31), R15L)
	f.SHLL(U8(1), EDX)
	f.ORL(EDX, EAX) // the lanes after leads
	// The bytes before the even lanes, in the low bytes of the words of
	// Y7: the block a byte back, or at the start of src, the block
	// shifted by a byte, with a 0 in.
	before2(Y7, 1, "widen2first", "widen2units")
	f.VPAND(Y9, Y7, Y7)
	f.VPCMPGTW(gen.Static("wordEF", 0), Y7, Y7) // the even lanes after a lead
	f.VMOVDQU(gen.At(RSI, R11, 1), Y1)
	f.VMOVDQU(gen.At(RSI, R11, 2), Y2)
	f.VPSRLW(U8(8), Y2, Y3)
	f.Comment("Even lanes: the 3-byte form's unit in Y2, b0 in Y0.")
	widenUnits(Y0, Y2, Y4, Y5)
	f.VPCMPGTW(gen.Static("wordEF", 0), Y0, Y4) // even leads; the odd lanes after a lead
	surrogates2(Y2, Y0, Y4, Y7, Y5)
	f.Comment("Odd lanes.")
	widenUnits(Y1, Y3, Y0, Y6)
	f.VPCMPGTW(gen.Static("wordEF", 0), Y1, Y7) // odd leads
	surrogates2(Y3, Y1, Y7, Y4, Y6)
	storeBlock("widen2loop")

	// The run ends after the last character it wrote: past the bytes of
	// the last block's last character that lie after the block, or before
	// it, its high surrogate taken back, if it has 4 bytes and starts in
	// the block's last byte.
	f.Label("widen2end")
	f.TESTL(R15L, R15L)
	f.JZ(label("widen2skip"))
	takeBackHigh(R11)
	f.JMP(label("widen2done"))

	f.Label("widen2skip")
	f.CMPQ(R11, R9)
	f.JAE(label("widen2done"))
	isCont(R11)
	f.JNE(label("widen2done"))
	f.INCQ(R11)
	f.JMP(label("widen2skip"))

	f.Label("widen2done")
	ret(R11, 48)
}

// surrogates2 blends the surrogates of widenAVX2's 4-byte sequences into
// out, the units of one parity of lanes: with t3 the 3-byte form's unit
// of each lane, the high surrogate D7C0 + t3>>4 where leads is set and
// the low one DC00 | t3&3FF where after is set. It overwrites t3 and t.
func surrogates2(t3, t, leads, after, out Register) {
	f.VPSRLW(U8(4), t3, t)
	f.VPADDW(gen.Static("wordD7C0", 0), t, t)
	f.VPBLENDVB(leads, t, out, out)
	f.VPAND(gen.Static("word3FF", 0), t3, t3)
	f.VPOR(gen.Static("wordDC00", 0), t3, t3)
	f.VPBLENDVB(after, t3, out, out)
}
