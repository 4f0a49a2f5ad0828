package main

import (
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/utf8stream/utf8stream/_asm/gen"
)

// The AVX-512 widening kernels. Both keep these constants, each a byte in
// every lane, from their start on (consts5): C0 in Z13, E0 in Z14, F0 in
// Z15, 3F in Z16, 0F in Z17, 03 in Z19 and 01 in Z20; widenValidAVX512
// also 40 in Z21, C2 in Z22, A0 in Z23 and ED in Z24.

// bytes5 sets every byte of z to c, through CX.
func bytes5(c uint32, z Register) {
	f.MOVL(U32(c), ECX)
	f.VPBROADCASTB(ECX, z)
}

// consts5 loads the constants of widenAVX512 and widenValidAVX512 that
// both use, each in every byte: C0 in Z13, F0 in Z15, 3F in Z16, 03 in
// Z19 and 01 in Z20.
func consts5() {
	bytes5(0xC0, Z13)
	bytes5(0xF0, Z15)
	bytes5(0x3F, Z16)
	bytes5(0x03, Z19)
	bytes5(0x01, Z20)
}

// units5 sets Z0 and Z6 to the low and the high byte of the unit of the
// character that would start at each byte b0 of Z0, in byte planes, from
// b0 and b1 and b2, the byte after it and the one after that, in Z1 and
// Z2, with K2 (b0 >= C0) and K3 (b0 >= E0):
//
//	ASCII   lo = b0                    hi = 0
//	2 bytes lo = b0<<6 | b1&3F         hi = b0>>2 & 07
//	3 bytes lo = b1<<6 | b2&3F         hi = b0<<4 | b1>>2&0F
//
// widenHi holds hi for 2-byte leads and b0<<4 for 3-byte ones, by b0&3F;
// VPTERNLOGD $0xD8 takes the bits of its second operand where the first
// (a mask) has ones and keeps those of the third elsewhere. It leaves
// b1>>2 in Z8 and overwrites Z3, Z5 and Z7.
func units5() {
	f.VPERMB_Z(gen.Static("widenHi", 0), Z0, K2, Z6)
	f.VPSRLW(U8(2), Z1, Z8)
	f.VPANDQ(Z17, Z8, Z7)
	f.VPADDB(Z7, Z6, K3, Z6)
	f.VPBLENDMB(Z1, Z0, K3, Z3)
	f.VPBLENDMB(Z2, Z1, K3, Z5)
	f.VPSLLW(U8(6), Z3, Z3)
	f.VPTERNLOGD(U8(0xD8), Z16, Z5, Z3)
	f.VMOVDQU8(Z3, K2, Z0)
}

// pack5 stores the units of the characters that start in the step, the
// low bytes in Z0 and the high ones in Z6 at the lanes of K4, in order,
// as words: 64 bytes a block (one block where R10 is not 64, which skips
// to the label one), and adds twice their count to BX. It overwrites Z0,
// Z1, Z2, Z6 and DX.
func pack5(one string) {
	f.VPCOMPRESSB_Z(Z0, K4, Z0)
	f.VPCOMPRESSB_Z(Z6, K4, Z6)
	f.KMOVQ(K4, RDX)
	f.POPCNTQ(RDX, RDX)
	f.VMOVDQU64(gen.Static("widenZip", 0), Z1)
	f.VPERMI2B(Z6, Z0, Z1)
	f.VMOVDQU64(Z1, gen.At(RDI, RBX, 0))
	f.CMPL(R10L, U8(64))
	f.JNE(label(one))
	f.VMOVDQU64(gen.Static("widenZip", 64), Z2)
	f.VPERMI2B(Z6, Z0, Z2)
	f.VMOVDQU64(Z2, gen.At(RDI, RBX, 64))
	f.Label(one)
	f.LEAQ(scaled(RBX, RDX, 2, 0), RBX)
}

// planeBits5 sets each byte of Z9 to b0<<2 with the bits of b1>>4&3 (in
// Z10) in its low 2: for a 4-byte lead b0 (F0..F4), the bits 110 and
// then the plane of its character in 5 bits. It needs 03 in Z19.
func planeBits5() {
	f.VPSLLW(U8(2), Z0, Z9)
	f.VPSRLW(U8(4), Z1, Z10)
	f.VPTERNLOGD(U8(0xD8), Z19, Z10, Z9)
}

// fourPlane5 leaves in each byte of Z9 the plane of a 4-byte character
// that would start there, less one, after the bits 110 (C0..CF where the
// lead is F0..F4 and the plane 1..16, which is what makes the sequence
// valid given its continuation bytes), from b0 and b1 in Z0 and Z1. It
// needs 03 in Z19 and 01 in Z20, and overwrites Z10.
func fourPlane5() {
	planeBits5()
	f.VPSUBB(Z20, Z9, Z9)
}

// high5 makes, from Z9 (fourPlane5: the plane less one, u, in its low 4
// bits) and b1 and b2 in Z1 and Z2, the high surrogate of a 4-byte
// character that would start at each byte, D800 | u<<6 | (b1&0F)<<2 |
// b2>>4&3: its high byte D8 | u>>2 in Z10 and its low one in Z9. It needs
// 03 in Z19 and 3F in Z16, and overwrites Z11 and Z12.
func high5() {
	f.VPSRLW(U8(2), Z9, Z10)
	f.VPTERNLOGD(U8(0xE2), gen.Static("byteD8", 0), Z19, Z10)
	f.VPSLLW(U8(6), Z9, Z9)
	f.VPSLLW(U8(2), Z1, Z11)
	f.VPSRLW(U8(4), Z2, Z12)
	f.VPTERNLOGD(U8(0xD8), Z19, Z12, Z11)
	f.VPTERNLOGD(U8(0xD8), Z16, Z11, Z9)
}

// fourUnits5 sets Z0 and Z6 to the low and high bytes of each lane's unit
// in a step of ASCII and 4-byte characters, from Z9 (fourPlane5) and b0,
// b1 and b2 in Z0, Z1 and Z2, with K5 the 4-byte leads and K1 the bytes
// that are not ASCII: the high surrogate at a lead (high5), the low one,
// DC | b1>>2&3 and b1<<6 | b2&3F, at the other bytes of K1 (which a step
// keeps only at a lead's second byte), b0 and 0 at ASCII bytes. It needs
// 03 in Z19 and 3F in Z16, and overwrites Z9 to Z12.
func fourUnits5() {
	high5()
	f.VPSLLW(U8(6), Z1, Z11)
	f.VPTERNLOGD(U8(0xD8), Z16, Z2, Z11)
	f.VPSRLW(U8(2), Z1, Z12)
	f.VPTERNLOGD(U8(0xE2), gen.Static("byteDC", 0), Z19, Z12)
	f.VMOVDQU8(Z11, K1, Z0)
	f.VMOVDQU8(Z9, K5, Z0)
	f.VMOVDQU8_Z(Z12, K1, Z6)
	f.VMOVDQU8(Z10, K5, Z6)
}

// secondBytes5 sets K6 to the continuation bytes with 2 more after them
// (b1 and b2 below C0 as signed bytes), which in a step of ASCII and
// 4-byte characters only the second byte of a 4-byte sequence has, and
// adds them to the lanes kept, K4.
func secondBytes5() {
	f.VPCMPB(U8(1), Z13, Z1, K6)
	f.VPCMPB(U8(1), Z13, Z2, K6, K6)
	f.KORQ(K6, K4, K4)
}

// widenAVX512 writes widenAVX512(dst, src []byte) (nd, ns int), Widen
// with AVX-512: a step takes R10 = 64 bytes (two blocks), the lanes of K7,
// while they fit with the 2 bytes after them and dst has room for 128;
// then 32 (one block), with K7 its 32 lanes, while those fit with room
// for 64, and loads masked by K7, which read no byte past them. R11 is
// R10-1, the step's last lane; R13 is 1 where a 4-byte sequence started
// in the last byte of the step before. The function starts on a cache
// line (PCALIGN), so that where the branches of its loop fall does not
// move with the code before it.
func widenAVX512() {
	kernel("widenAVX512", "func(dst, src []byte) (nd, ns int)")
	f.PCALIGN(64)
	args()
	f.XORQ(RAX, RAX)
	f.XORQ(RBX, RBX)
	f.XORL(R13L, R13L)
	consts5()
	bytes5(0xE0, Z14)
	bytes5(0x0F, Z17)
	f.MOVL(U32(64), R10L)
	f.MOVL(U32(63), R11L)
	f.KXNORQ(K7, K7, K7)

	f.Label("widen5loop")
	f.CMPL(R10L, U8(64))
	f.JNE(label("widen5one"))
	fits5(66, 128, "widen5half")
	load5(func(m, z Op) { f.VMOVDQU64(m, z) })

	f.Label("widen5half")
	f.MOVL(U32(32), R10L)
	f.MOVL(U32(31), R11L)
	f.KSHIFTRQ(U8(32), K7, K7)

	f.Label("widen5one")
	fits5(34, 64, "widen5end")
	load5(func(m, z Op) { f.VMOVDQU8_Z(m, K7, z) })

	// ASCII: each byte is a unit. (The block after a 4-byte lead in the
	// last byte before it starts with a continuation byte.)
	f.Label("widen5ascii")
	f.Comment("ASCII: each byte is a unit.")
	f.VPMOVZXBW(Y0, Z1)
	f.VMOVDQU64(Z1, gen.At(RDI, RBX, 0))
	f.CMPL(R10L, U8(64))
	f.JNE(label("widen5asciione"))
	f.VPMOVZXBW(gen.At(RSI, RAX, 32), Z2)
	f.VMOVDQU64(Z2, gen.At(RDI, RBX, 64))
	f.Label("widen5asciione")
	f.ADDQ(R10, RAX)
	f.LEAQ(scaled(RBX, R10, 2, 0), RBX)
	f.JMP(label("widen5loop"))

	f.Label("widen5two")
	f.VPCMPUB(U8(5), Z13, Z0, K2)    // b0 >= C0: a lead
	f.VPCMPB(U8(5), Z13, Z0, K7, K4) // not 80..BF, which are below C0 as signed bytes: a character starts
	f.VPCMPUB(U8(5), Z15, Z0, K5)    // b0 >= F0: a 4-byte lead
	f.KMOVQ(R13, K6)
	f.KORTESTQ(K5, K6)
	f.JNZ(label("widen5four"))
	f.VPCMPUB(U8(5), Z14, Z0, K3) // b0 >= E0: a lead of 3 bytes or more
	units5()

	f.Label("widen5pack")
	pack5("widen5packone")
	f.ADDQ(R10, RAX)
	f.JMP(label("widen5loop"))

	// Steps whose characters are ASCII or 4 bytes long (no lead below F0:
	// K2 in K5) take the path of widen5asciifour.
	f.Label("widen5four")
	f.KTESTQ(K2, K5)
	f.JCS(label("widen5asciifour"))
	f.VPCMPUB(U8(5), Z14, Z0, K3)
	// A 4-byte lead b0 (F0..F4) gets the high surrogate of its character
	// in its lane, D800 | u<<6 | (b1&0F)<<2 | b2>>4&3 with u the plane
	// less one, (b0&7)<<2 | b1>>4&3 - 1; the lane after it (K6) the low
	// one, DC00 | (b2&0F)<<6 | b3&3F, whose low byte is that of the lane's
	// 3-byte form. So does the first lane after a 4-byte lead in the last
	// byte of the step before (R13).
	f.Comment("The high surrogate at a 4-byte lead, the low one after it.")
	planeBits5()
	f.VPTERNLOGD(U8(0xFF), Z10, Z10, Z10)
	f.VPADDB(Z10, Z9, Z9) // 1100, then u in 4 bits
	high5()
	f.KSHIFTLQ(U8(1), K5, K1)
	f.KORQ(K1, K6, K6)
	f.KANDQ(K7, K6, K6) // the step's lanes: K7 is still the mask of the loads
	f.KMOVQ(K5, R13)
	f.SHRXQ(R11, R13, R13) // the last lane's, the lanes past the step clear
	f.KORQ(K6, K4, K4)
	f.KORQ(K6, K3, K3)
	f.KORQ(K6, K2, K2)
	units5()
	f.VPTERNLOGD(U8(0xE2), gen.Static("byteDC", 0), Z19, Z8) // DC | b1>>2&3: low surrogates' hi
	f.VMOVDQU8(Z9, K5, Z0)
	f.VMOVDQU8(Z8, K6, Z6)
	f.VMOVDQU8(Z10, K5, Z6)
	f.JMP(label("widen5pack"))

	// As widen5four, for ASCII and 4-byte characters only: the lanes kept
	// are the starts and the continuation bytes with 2 more after them
	// (K6), which in such a step only the second byte of a 4-byte
	// sequence has, and which get its low surrogate, DC | b1>>2&3 and
	// b1<<6 | b2&3F with b1 and b2 the bytes after them. Leads get the
	// high surrogate, as in widen5four; ASCII bytes b0 and 0.
	f.Label("widen5asciifour")
	secondBytes5()
	f.KMOVQ(K5, R13)
	f.SHRXQ(R11, R13, R13)
	fourPlane5()
	fourUnits5()
	f.JMP(label("widen5pack"))

	// The run ends after the last character it wrote: past the bytes of
	// the last block's last character that lie after the block, or, if
	// that character has 4 bytes and started in the block's last byte,
	// before it, its high surrogate taken back.
	f.Label("widen5end")
	f.TESTL(R13L, R13L)
	f.JZ(label("widen5cont"))
	takeBackHigh(RAX)
	f.JMP(label("widen5done"))

	f.Label("widen5cont")
	f.TESTQ(RAX, RAX)
	f.JZ(label("widen5done"))

	f.Label("widen5skip")
	f.CMPQ(RAX, R9)
	f.JAE(label("widen5done"))
	isCont(RAX)
	f.JNE(label("widen5done"))
	f.INCQ(RAX)
	f.JMP(label("widen5skip"))

	f.Label("widen5done")
	ret(RAX, 48)
}

// fits5 goes to full unless the step, with need bytes of src from ns
// (AX), fits in src and room bytes from nd (BX) in dst. It overwrites CX.
func fits5(need, room int, full string) {
	f.LEAQ(gen.Mem(RAX, need), RCX)
	f.CMPQ(RCX, R9)
	f.JA(label(full))
	f.LEAQ(gen.Mem(RBX, room), RCX)
	f.CMPQ(RCX, R8)
	f.JA(label(full))
}

// load5 loads the step of widenAVX512 at ns (AX) into Z0 with load (a
// VMOVDQU64, or a VMOVDQU8.Z masked by K7), and K1 with its bytes that
// are not ASCII; it goes to widen5ascii for a step of ASCII, and
// otherwise loads the bytes 1 and 2 on into Z1 and Z2 and goes to
// widen5two.
func load5(load func(m, z Op)) {
	load(gen.At(RSI, RAX, 0), Z0) // b0
	f.VPMOVB2M(Z0, K1)
	f.KORTESTQ(K1, K1)
	f.JZ(label("widen5ascii"))
	load(gen.At(RSI, RAX, 1), Z1)
	load(gen.At(RSI, RAX, 2), Z2)
	f.JMP(label("widen5two"))
}

// widenValidAVX512 writes widenValidAVX512(dst, src []byte, bmp bool)
// (nd, ns int), WidenValid with AVX-512: widenAVX512 for text that it
// also validates, 64 bytes a step, while 4 bytes more follow the step in
// src and dst has room for 128 (R9 and R8 are the last ns and nd at which
// a step fits).
//
// A step of ASCII is valid where no character of the step before goes on
// into it (R12, the bytes at the step's start that end a character of
// the step before). A step whose leads are F0..FF is valid where every
// continuation byte, and no other, is one of the three after a lead in
// the step or ends a character of the step before, where the bytes after
// the step that end its own characters are continuation bytes, and where
// each lead and the byte after it make a plane of 1 to 16 (fourPlane5:
// that also rules out F5..FF). Where bmp is set, a step of characters of
// 1 to 3 bytes is valid where its continuation bytes are the one or two
// after each lead and those of R12, and it holds no lead C0, C1 or
// F0..FF, no E0 80..9F and no ED A0..BF (wvbmp, and wvtwo without 3-byte
// leads); the bytes after it are checked by the next step or where the
// run ends, and its last character is taken back if they are not
// continuation bytes. It stops at a step that is not valid or that holds
// leads of 4 bytes and of fewer, or of fewer where bmp is not set, past
// the bytes at the step's start that end a character of the step before.
func widenValidAVX512() {
	kernel("widenValidAVX512", "func(dst, src []byte, bmp bool) (nd, ns int)")
	args()
	f.XORQ(RAX, RAX)
	f.XORQ(RBX, RBX)
	f.XORL(R12L, R12L)
	f.MOVL(U32(64), R10L) // the step, for pack5
	f.SUBQ(U8(68), R9)
	f.SUBQ(U32(128), R8)
	consts5()
	bytes5(0x40, Z21)
	bytes5(0xE0, Z14)
	bytes5(0x0F, Z17)
	bytes5(0xC2, Z22)
	bytes5(0xA0, Z23)
	bytes5(0xED, Z24)

	f.Label("wvloop")
	f.CMPQ(RAX, R9)
	f.JGT(label("wvdone"))
	f.CMPQ(RBX, R8)
	f.JGT(label("wvdone"))
	f.VMOVDQU64(gen.At(RSI, RAX, 0), Z0) // b0
	f.VPMOVB2M(Z0, K1)
	f.KORTESTQ(K1, K1)
	f.JZ(label("wvascii"))
	f.VMOVDQU64(gen.At(RSI, RAX, 1), Z1)
	f.VMOVDQU64(gen.At(RSI, RAX, 2), Z2)
	f.VPCMPUB(U8(5), Z13, Z0, K2) // b0 >= C0: a lead
	f.VPCMPUB(U8(5), Z15, Z0, K5) // b0 >= F0
	f.KTESTQ(K2, K5)
	f.JCC(label("wvbmp"))        // a lead below F0
	f.VPCMPB(U8(5), Z13, Z0, K4) // not 80..BF, which are below C0 as signed bytes: a character starts
	f.KMOVQ(K5, R14)
	f.KMOVQ(K4, R11)
	f.NOTQ(R11) // the continuation bytes
	f.Comment("The three bytes after each lead.")
	f.LEAQ(gen.At(R14, R14, 0), RCX)
	f.LEAQ(gen.At(RCX, RCX, 0), RDX)
	f.ORQ(RDX, RCX)
	f.SHLQ(U8(1), RDX)
	f.ORQ(RDX, RCX)
	f.ORQ(R12, RCX)
	f.CMPQ(RCX, R11)
	f.JNE(label("wvdone"))
	f.Comment("R13: the first 3 bytes after the step that end its characters.")
	f.MOVQ(R14, R13)
	f.SHRQ(U8(61), R13)
	f.MOVQ(R13, RCX)
	f.SHRQ(U8(1), RCX)
	f.ORQ(RCX, R13)
	f.SHRQ(U8(1), RCX)
	f.ORQ(RCX, R13)
	// They are continuation bytes; and the step's last two bytes, whose
	// units depend on the two bytes after them, keep the units of text
	// that ends there: the first byte after the step is no continuation
	// byte where R13 is 0, nor the second where R13 is 1 (a lead 3 bytes
	// before the step's end).
	f.Comment("They are continuation bytes, and those after them none.")
	f.MOVL(gen.At(RSI, RAX, 64), ECX)
	f.XORL(U32(0x808080), ECX)
	f.NOTL(ECX)
	f.MOVL(ECX, EDX)
	f.SHLL(U8(1), EDX)
	f.ANDL(EDX, ECX) // bit 7 of each continuation byte
	f.MOVL(U32(0x808080), EDX)
	f.PDEPL(EDX, R13L, R11L) // bit 7 of each byte that must be one
	f.LEAL(gen.At(R13, R13, 1), R14L)
	f.MOVL(R13L, EDX)
	f.NOTL(EDX)
	f.ANDL(EDX, R14L)
	f.ANDL(U8(3), R14L) // the bytes that must not be one
	f.MOVL(U32(0x808080), EDX)
	f.PDEPL(EDX, R14L, R14L)
	f.ANDL(ECX, R14L)
	f.NOTL(ECX)
	f.ANDL(R11L, ECX)
	f.ORL(R14L, ECX)
	f.JNZ(label("wvdone"))
	fourPlane5()
	f.VPADDB(Z21, Z9, Z10) // C0..CF to 00..0F
	f.VPTESTMB(Z15, Z10, K5, K3)
	f.KORTESTQ(K3, K3)
	f.JNZ(label("wvdone"))
	f.MOVQ(R13, R12)
	secondBytes5()
	fourUnits5()
	pack5("wvfourone")
	f.ADDQ(U8(64), RAX)
	f.JMP(label("wvloop"))

	// Characters of 1 to 3 bytes, after no 4-byte lead in the last byte
	// of the step before: no lead F0..FF, C0 or C1 (below C2), no E0
	// before 80..9F (an overlong form) or ED before A0..BF (a surrogate);
	// and the continuation bytes the one after each lead, the one more
	// after each lead E0..EF, and those of R12. The units kept are those
	// of the starts, which the bytes after the step do not change: the
	// next step checks those that end its characters, or wvdone.
	f.Label("wvbmp")
	f.CMPB(gen.Param("bmp", 48), U8(0))
	f.JEQ(label("wvdone"))
	f.CMPQ(R12, U8(7))
	f.JEQ(label("wvdone"))
	f.VPCMPUB(U8(5), Z14, Z0, K3) // b0 >= E0
	f.KORTESTQ(K3, K3)
	f.JZ(label("wvtwo"))
	f.VPCMPB(U8(5), Z13, Z0, K4)      // a character starts
	f.VPCMPUB(U8(1), Z22, Z0, K2, K1) // C0, C1
	f.KORQ(K5, K1, K1)                // F0..FF
	f.VPCMPEQB(Z14, Z0, K6)
	f.VPCMPUB(U8(1), Z23, Z1, K6, K6) // E0 80..9F
	f.KORQ(K6, K1, K1)
	f.VPCMPEQB(Z24, Z0, K6)
	f.VPCMPUB(U8(5), Z23, Z1, K6, K6) // ED A0..BF
	f.KORQ(K6, K1, K1)
	f.KORTESTQ(K1, K1)
	f.JNZ(label("wvdone"))
	f.KMOVQ(K2, R14)
	f.KMOVQ(K3, R13)
	f.KMOVQ(K4, R11)
	f.NOTQ(R11) // the continuation bytes
	f.LEAQ(gen.At(R14, R14, 0), RCX)
	f.LEAQ(scaled(R12, R13, 4, 0), RDX)
	f.ORQ(RDX, RCX)
	f.CMPQ(RCX, R11)
	f.JNE(label("wvdone"))
	// R12: the first 2 bytes after the step that end its characters,
	// after a lead in its last byte or an E0..EF in the one before.
	f.SHRQ(U8(63), R14)
	f.SHRQ(U8(62), R13)
	f.ORQ(R14, R13)
	f.MOVQ(R13, R12)
	units5()
	pack5("wvbmpone")
	f.ADDQ(U8(64), RAX)
	f.JMP(label("wvloop"))

	// Characters of 1 and 2 bytes: as wvbmp without leads E0..FF (none
	// is, K3), and the units of 2-byte leads only: lo = b0<<6 | b1&3F, hi
	// from widenHi.
	f.Label("wvtwo")
	f.VPCMPB(U8(5), Z13, Z0, K4)      // a character starts
	f.VPCMPUB(U8(1), Z22, Z0, K2, K1) // C0, C1
	f.KORTESTQ(K1, K1)
	f.JNZ(label("wvdone"))
	f.KMOVQ(K2, R14)
	f.KMOVQ(K4, R11)
	f.NOTQ(R11) // the continuation bytes
	f.LEAQ(scaled(R12, R14, 2, 0), RCX)
	f.CMPQ(RCX, R11)
	f.JNE(label("wvdone"))
	f.SHRQ(U8(63), R14)
	f.MOVQ(R14, R12)
	f.VPERMB_Z(gen.Static("widenHi", 0), Z0, K2, Z6)
	f.VPSLLW(U8(6), Z0, Z3)
	f.VPTERNLOGD(U8(0xD8), Z16, Z1, Z3)
	f.VMOVDQU8(Z3, K2, Z0)
	pack5("wvtwoone")
	f.ADDQ(U8(64), RAX)
	f.JMP(label("wvloop"))

	f.Label("wvascii")
	f.Comment("Valid where no character of the step before goes on into it.")
	f.TESTQ(R12, R12)
	f.JNZ(label("wvdone"))
	f.VPMOVZXBW(Y0, Z1)
	f.VMOVDQU64(Z1, gen.At(RDI, RBX, 0))
	f.VPMOVZXBW(gen.At(RSI, RAX, 32), Z2)
	f.VMOVDQU64(Z2, gen.At(RDI, RBX, 64))
	f.ADDQ(U8(64), RAX)
	f.ADDQ(U32(128), RBX)
	f.JMP(label("wvloop"))

	// A 4-byte character that started in the last byte of the step before
	// has only its high surrogate written (the next step writes the low
	// one, at its second byte): it is taken back. The others end at the 1
	// or 2 bytes of R12, which a step of 4-byte characters has checked;
	// one of other characters is taken back unless they are continuation
	// bytes.
	f.Label("wvdone")
	f.CMPQ(R12, U8(7))
	f.JNE(label("wvend"))
	takeBackHigh(RAX)
	f.JMP(label("wvret"))

	f.Label("wvend")
	f.TESTQ(R12, R12)
	f.JZ(label("wvret"))
	runEnd(RAX, "wv")

	f.Label("wvback")
	f.Comment("Back to the character's lead, and its unit.")
	f.DECQ(RAX)
	isCont(RAX)
	f.JEQ(label("wvback"))
	f.SUBQ(U8(2), RBX)

	f.Label("wvret")
	ret(RAX, 56)
}
