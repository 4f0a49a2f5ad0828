//go:build gc && !purego

#include "textflag.h"

// BYTES broadcasts the byte c to all 64 bytes of z.
#define BYTES(c, z) \
	MOVL         $c, AX \
	VPBROADCASTB AX, z

// GE sets r to the mask of the bytes of Z0 that are c or more (unsigned),
// with c broadcast in z.
#define GE(z, src, r) \
	VPCMPUB $5, z, src, K1 \
	KMOVQ   K1, r

#define EQ(z, src, r) \
	VPCMPUB $0, z, src, K1 \
	KMOVQ   K1, r

// CONT sets r to the mask of the continuation bytes (80..BF) of src:
// src^80 < 40. It overwrites Z9.
#define CONT(src, r) \
	VPXORQ  Z16, src, Z9 \
	VPCMPUB $1, Z17, Z9, K1 \
	KMOVQ   K1, r

// func classifyAVX512(src []byte, out []blockClass)
// Requires AVX-512 F and BW. For each i < len(out) it classifies the 64
// bytes at src[64*i:], reading up to src[64*i+67]; len(src) must be at
// least 64*len(out)+3. See classifyGeneric.
TEXT ·classifyAVX512(SB), NOSPLIT, $0-48
	MOVQ src_base+0(FP), SI
	MOVQ out_base+24(FP), DI
	MOVQ out_len+32(FP), CX
	TESTQ CX, CX
	JZ    done

	BYTES(0xC2, Z10)
	BYTES(0xE0, Z11)
	BYTES(0xF0, Z12)
	BYTES(0xF5, Z13)
	BYTES(0xED, Z14)
	BYTES(0xF4, Z15)
	BYTES(0x80, Z16)
	BYTES(0x40, Z17)
	BYTES(0xA0, Z18)
	BYTES(0x90, Z19)

loop:
	VMOVDQU64 (SI), Z0
	VMOVDQU64 1(SI), Z1
	VMOVDQU64 2(SI), Z2
	VMOVDQU64 3(SI), Z3

	// The second byte, in the range its lead byte allows (Table 3-7):
	// R13 = the bytes where it is not (bad1), for the four special leads.
	GE(Z18, Z1, R9)  // second byte >= A0
	GE(Z19, Z1, R10) // second byte >= 90
	EQ(Z11, Z0, AX)  // E0: A0..BF
	MOVQ R9, BX
	NOTQ BX
	ANDQ BX, AX
	MOVQ AX, R13
	EQ(Z14, Z0, AX) // ED: 80..9F
	ANDQ R9, AX
	ORQ  AX, R13
	EQ(Z12, Z0, AX) // F0: 90..BF
	MOVQ R10, BX
	NOTQ BX
	ANDQ BX, AX
	ORQ  AX, R13
	EQ(Z15, Z0, AX) // F4: 80..8F
	ANDQ R10, AX
	ORQ  AX, R13

	// R13 = ok1: a continuation byte follows, within range.
	CONT(Z1, R11)
	NOTQ R13
	ANDQ R11, R13
	CONT(Z2, R11) // R11 = cont2
	CONT(Z3, R12) // R12 = cont3

	GE(Z10, Z0, AX)        // >= C2
	GE(Z11, Z0, BX)        // >= E0
	GE(Z12, Z0, DX)        // >= F0
	VPCMPUB $1, Z13, Z0, K1 // < F5
	KMOVQ   K1, R8

	// m2 = C2..F4 and ok1
	MOVQ AX, R9
	ANDQ R8, R9
	ANDQ R13, R9
	MOVQ R9, 0(DI)

	// m3 = E0..F4 and ok1 and cont2
	MOVQ BX, R9
	ANDQ R8, R9
	ANDQ R13, R9
	ANDQ R11, R9
	MOVQ R9, 8(DI)

	// m4 = F0..F4 and ok1 and cont2 and cont3
	MOVQ DX, R10
	ANDQ R8, R10
	ANDQ R13, R10
	ANDQ R11, R10
	ANDQ R12, R10
	MOVQ R10, 16(DI)

	// v = ASCII, or C2..DF and ok1, or E0..EF and m3, or m4
	VPMOVB2M Z0, K1
	KMOVQ    K1, R11
	NOTQ     R11
	MOVQ     BX, R12
	NOTQ     R12
	ANDQ     AX, R12
	ANDQ     R13, R12
	ORQ      R12, R11
	MOVQ     DX, R12
	NOTQ     R12
	ANDQ     BX, R12
	ANDQ     R9, R12
	ORQ      R12, R11
	ORQ      R10, R11
	MOVQ     R11, 24(DI)

	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop

done:
	VZEROUPPER
	RET
