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

// The fields of repairState, in bytes.
#define ST_C2 0
#define ST_C3 8
#define ST_C4 16
#define ST_CV 24
#define ST_P 32
#define ST_J 40
#define ST_JMAX 48
#define ST_SUBPARTS 56
#define ST_NBYTES 64
#define ST_FIRST 72
#define ST_CLEAN 80
#define ST_CLEANMAX 88

// The fields of denseTable: out [1024]uint64, then n [1024]uint8.
#define TAB_N 8192

// func repairAVX512(dst, src []byte, cls []blockClass, tab *denseTable, st *repairState)
// Requires AVX-512 F and BMI1 and 2. See repairBlocks.
TEXT ·repairAVX512(SB), NOSPLIT, $0-88
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ cls_base+48(FP), R12
	MOVQ cls_len+56(FP), R15
	MOVQ tab+72(FP), R13
	MOVQ st+80(FP), R14
	MOVQ ST_P(R14), DX
	MOVQ ST_J(R14), BX
	TESTQ R15, R15
	JZ    out

block:
	CMPQ BX, ST_JMAX(R14)
	JGT  out

	// own (AX): the bytes a unit that starts 1, 2 or 3 bytes before
	// holds; ownValid (CX): those of them whose unit is well-formed.
	MOVQ 0(R12), AX
	SHLQ $1, AX
	MOVQ ST_C2(R14), R8
	SHRQ $63, R8
	ORQ  R8, AX
	MOVQ 24(R12), CX
	SHLQ $1, CX
	MOVQ ST_CV(R14), R8
	SHRQ $63, R8
	ORQ  R8, CX
	ANDQ AX, CX

	MOVQ 8(R12), R8
	SHLQ $2, R8
	MOVQ ST_C3(R14), R9
	SHRQ $62, R9
	ORQ  R9, R8
	MOVQ 24(R12), R9
	SHLQ $2, R9
	MOVQ ST_CV(R14), R10
	SHRQ $62, R10
	ORQ  R10, R9
	ANDQ R8, R9
	ORQ  R8, AX
	ORQ  R9, CX

	MOVQ 16(R12), R8
	SHLQ $3, R8
	MOVQ ST_C4(R14), R9
	SHRQ $61, R9
	ORQ  R9, R8
	MOVQ 24(R12), R9
	SHLQ $3, R9
	MOVQ ST_CV(R14), R10
	SHRQ $61, R10
	ORQ  R10, R9
	ANDQ R8, R9
	ORQ  R8, AX
	ORQ  R9, CX

	// start (R9) = not (own or v); rest (R8) = own and not ownValid;
	// bad (R10) = start or rest.
	MOVQ 24(R12), R9
	ORQ  AX, R9
	NOTQ R9
	NOTQ CX
	ANDQ AX, CX
	MOVQ CX, R8
	MOVQ R9, R10
	ORQ  R8, R10

	// This block is the one before the next.
	MOVQ 0(R12), AX
	MOVQ AX, ST_C2(R14)
	MOVQ 8(R12), AX
	MOVQ AX, ST_C3(R14)
	MOVQ 16(R12), AX
	MOVQ AX, ST_C4(R14)
	MOVQ 24(R12), AX
	MOVQ AX, ST_CV(R14)

	TESTQ R10, R10
	JNZ   errors

	// No ill-formed byte: copy the block.
	VMOVDQU64 (SI)(DX*1), Z0
	VMOVDQU64 Z0, (DI)(BX*1)
	ADDQ      $64, BX
	ADDQ      $64, DX
	ADDQ      $32, R12
	MOVQ      ST_CLEAN(R14), AX
	INCQ      AX
	MOVQ      AX, ST_CLEAN(R14)
	CMPQ      AX, ST_CLEANMAX(R14)
	JGE       out
	DECQ      R15
	JNZ       block
	JMP       out

errors:
	MOVQ $0, ST_CLEAN(R14)
	POPCNTQ R9, AX
	ADDQ    AX, ST_SUBPARTS(R14)
	POPCNTQ R10, AX
	ADDQ    AX, ST_NBYTES(R14)
	CMPQ    ST_FIRST(R14), $0
	JGE     counted
	TESTQ   R9, R9
	JZ      counted
	TZCNTQ  R9, AX
	ADDQ    DX, AX
	MOVQ    AX, ST_FIRST(R14)

counted:
	XORL R11, R11 // q0: the start of the valid run before the next bad byte

bad:
	TZCNTQ R10, CX // q
	// Copy the valid run src[p+q0:p+q] a whole block at a time; dst
	// has room, and what lies past the run is overwritten.
	LEAQ      (DX)(R11*1), AX
	VMOVDQU64 (SI)(AX*1), Z0
	VMOVDQU64 Z0, (DI)(BX*1)
	ADDQ      CX, BX
	SUBQ      R11, BX
	// The output of the ill-formed byte b = src[p+q], of kind cStart
	// (1) or cRest (2): tab.out[kind<<8|b], of which tab.n[...] count.
	LEAQ    (DX)(CX*1), AX
	MOVBQZX (SI)(AX*1), AX
	MOVL    $2, R8
	BTQ     CX, R9
	SBBL    $0, R8
	SHLL    $8, R8
	ORL     AX, R8
	MOVQ    (R13)(R8*8), AX
	MOVQ    AX, (DI)(BX*1)
	MOVBQZX TAB_N(R13)(R8*1), AX
	ADDQ    AX, BX
	LEAQ    1(CX), R11
	BLSRQ   R10, R10
	JNZ     bad

	// The valid run after the last bad byte, to the end of the block.
	LEAQ      (DX)(R11*1), AX
	VMOVDQU64 (SI)(AX*1), Z0
	VMOVDQU64 Z0, (DI)(BX*1)
	ADDQ      $64, BX
	SUBQ      R11, BX
	ADDQ      $64, DX
	ADDQ      $32, R12
	DECQ      R15
	JNZ       block

out:
	MOVQ DX, ST_P(R14)
	MOVQ BX, ST_J(R14)
	VZEROUPPER
	RET
