//go:build gc && !purego

#include "textflag.h"

// BYTES broadcasts the byte c to all 64 bytes of z.
#define BYTES(c, z) \
	MOVL         $c, AX \
	VPBROADCASTB AX, z

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

	// The logic runs in mask registers; a masked compare ANDs its mask
	// in. K1 = bad1: the second byte is out of the range its lead byte
	// allows (Table 3-7), for the four special leads.
	VPCMPUB $0, Z11, Z0, K1     // E0
	VPCMPUB $1, Z18, Z1, K1, K1 // and the second byte < A0
	VPCMPUB $0, Z14, Z0, K2     // ED
	VPCMPUB $5, Z18, Z1, K2, K2 // and >= A0
	KORQ    K1, K2, K1
	VPCMPUB $0, Z12, Z0, K2     // F0
	VPCMPUB $1, Z19, Z1, K2, K2 // and < 90
	KORQ    K1, K2, K1
	VPCMPUB $0, Z15, Z0, K2     // F4
	VPCMPUB $5, Z19, Z1, K2, K2 // and >= 90
	KORQ    K1, K2, K1

	// K3 = ok1: a continuation byte follows, within range. K4 = cont2,
	// K5 = cont3: the bytes 2 and 3 places on are continuation bytes
	// (b^80 < 40).
	VPXORQ  Z16, Z1, Z9
	VPCMPUB $1, Z17, Z9, K2
	KANDNQ  K2, K1, K3
	VPXORQ  Z16, Z2, Z9
	VPCMPUB $1, Z17, Z9, K4
	VPXORQ  Z16, Z3, Z9
	VPCMPUB $1, Z17, Z9, K5

	// m2 = C2..F4 and ok1
	VPCMPUB $1, Z13, Z0, K6     // < F5
	VPCMPUB $5, Z10, Z0, K6, K2 // C2..F4
	KANDQ   K2, K3, K2
	KMOVQ   K2, 0(DI)

	// m3 = E0..F4 and ok1 and cont2
	VPCMPUB $5, Z11, Z0, K2, K1
	KANDQ   K1, K4, K1
	KMOVQ   K1, 8(DI)

	// m4 = F0..F4 and ok1 and cont2 and cont3
	VPCMPUB $5, Z12, Z0, K1, K7
	KANDQ   K7, K5, K7
	KMOVQ   K7, 16(DI)

	// v = ASCII, or C2..DF and ok1 (m2 below E0), or E0..EF and m3 (m3
	// below F0), or m4
	VPCMPUB $1, Z11, Z0, K2, K2
	VPCMPUB $1, Z12, Z0, K1, K1
	VPCMPUB $1, Z16, Z0, K6
	KORQ    K1, K2, K1
	KORQ    K1, K7, K1
	KORQ    K1, K6, K1
	KMOVQ   K1, 24(DI)

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
