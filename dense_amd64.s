//go:build gc && !purego

#include "textflag.h"

// BYTES broadcasts the byte c to all 64 bytes of z.
#define BYTES(c, z) \
	MOVL         $c, AX \
	VPBROADCASTB AX, z

// The tables of classifyAVX512. leadC0 gives, for each lead byte C0..FF,
// the high nibbles its second byte may have (bits 0..3 for 8..B; Table
// 3-7), bit 4 when a third byte must be a continuation byte, bit 5 when a
// fourth must, bit 6 for a 2-byte lead and bit 7 for a 3-byte one; it is 0
// for the bytes that never start a sequence. cont1, cont2 and cont3 give,
// for each byte b by b>>2, bit 0..3 for the high nibble of a continuation
// byte, bit 4 and bit 5 for any continuation byte.
DATA leadC0<>+0(SB)/8, $0x4f4f4f4f4f4f0000
DATA leadC0<>+8(SB)/8, $0x4f4f4f4f4f4f4f4f
DATA leadC0<>+16(SB)/8, $0x4f4f4f4f4f4f4f4f
DATA leadC0<>+24(SB)/8, $0x4f4f4f4f4f4f4f4f
DATA leadC0<>+32(SB)/8, $0x9f9f9f9f9f9f9f9c
DATA leadC0<>+40(SB)/8, $0x9f9f939f9f9f9f9f
DATA leadC0<>+48(SB)/8, $0x000000313f3f3f3e
DATA leadC0<>+56(SB)/8, $0x0000000000000000
GLOBL leadC0<>(SB), RODATA|NOPTR, $64
DATA cont1<>+0(SB)/8, $0x0000000000000000
DATA cont1<>+8(SB)/8, $0x0000000000000000
DATA cont1<>+16(SB)/8, $0x0000000000000000
DATA cont1<>+24(SB)/8, $0x0000000000000000
DATA cont1<>+32(SB)/8, $0x0202020201010101
DATA cont1<>+40(SB)/8, $0x0808080804040404
DATA cont1<>+48(SB)/8, $0x0000000000000000
DATA cont1<>+56(SB)/8, $0x0000000000000000
GLOBL cont1<>(SB), RODATA|NOPTR, $64
DATA cont2<>+0(SB)/8, $0x0000000000000000
DATA cont2<>+8(SB)/8, $0x0000000000000000
DATA cont2<>+16(SB)/8, $0x0000000000000000
DATA cont2<>+24(SB)/8, $0x0000000000000000
DATA cont2<>+32(SB)/8, $0x1010101010101010
DATA cont2<>+40(SB)/8, $0x1010101010101010
DATA cont2<>+48(SB)/8, $0x0000000000000000
DATA cont2<>+56(SB)/8, $0x0000000000000000
GLOBL cont2<>(SB), RODATA|NOPTR, $64
DATA cont3<>+0(SB)/8, $0x0000000000000000
DATA cont3<>+8(SB)/8, $0x0000000000000000
DATA cont3<>+16(SB)/8, $0x0000000000000000
DATA cont3<>+24(SB)/8, $0x0000000000000000
DATA cont3<>+32(SB)/8, $0x2020202020202020
DATA cont3<>+40(SB)/8, $0x2020202020202020
DATA cont3<>+48(SB)/8, $0x0000000000000000
DATA cont3<>+56(SB)/8, $0x0000000000000000
GLOBL cont3<>(SB), RODATA|NOPTR, $64

// func classifyAVX512(src []byte, out []blockClass)
// Requires AVX-512 F, BW and VBMI. For each i < len(out) it classifies the
// 64 bytes at src[64*i:], reading up to src[64*i+67]; len(src) must be at
// least 64*len(out)+3. See classifyGeneric.
TEXT ·classifyAVX512(SB), NOSPLIT, $0-48
	MOVQ  src_base+0(FP), SI
	MOVQ  out_base+24(FP), DI
	MOVQ  out_len+32(FP), CX
	TESTQ CX, CX
	JZ    done
#include "classify_amd64.h"

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

// REPAIR_BATCH is the most blocks repairAVX512 takes: its frame holds
// their blockClass, 32 bytes each.
#define REPAIR_BATCH 32

// func repairAVX512(dst, src []byte, n int, tab *denseTable, st *repairState)
// Requires AVX-512 F, BW and VBMI, and BMI1 and 2. It classifies the n <=
// REPAIR_BATCH blocks from st.p on into its frame, as classifyAVX512 does,
// and then repairs them. See repairBlocks.
TEXT ·repairAVX512(SB), $1024-72
	MOVQ  n+48(FP), R15
	TESTQ R15, R15
	JZ    none
	CMPQ  R15, $REPAIR_BATCH
	JA    none
	MOVQ  st+64(FP), R14
	MOVQ  src_base+24(FP), SI
	ADDQ  ST_P(R14), SI
	LEAQ  (SP), DI
	MOVQ  R15, CX
#include "classify_amd64.h"

	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	LEAQ (SP), R12
	MOVQ tab+56(FP), R13
	MOVQ ST_P(R14), DX
	MOVQ ST_J(R14), BX

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

none:
	RET
