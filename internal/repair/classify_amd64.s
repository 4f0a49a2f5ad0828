//go:build gc && !purego

#include "textflag.h"

// The constants of classifyAVX2, each one byte in all 32 lanes. The kernel
// compares bytes as signed, where 80..FF come before 00..7F and keep their
// order (table_test.go builds each from the encodings of the scalar values
// that bound its range, and checks them):
//
//	bC1, bDF, bEF  one less than the first lead byte of the 2-, 3- and
//	               4-byte sequences (C2, E0, F0): x > bC1 holds for C2..FF
//	               and 00..7F
//	bF4            the last lead byte: x > bF4 holds for F5..FF and 00..7F,
//	               which lead no sequence; and F4 itself, by equality
//	bE0, bED, bF0  the other lead bytes that narrow the range of the
//	               second byte (Table 3-7), by equality
//	bC0, bA0, b90  one past the continuation bytes 80..BF, and the
//	               narrower ranges 80..9F and 80..8F: bC0 > x holds for
//	               80..BF
DATA bC1<>+0(SB)/8, $0xc1c1c1c1c1c1c1c1
DATA bC1<>+8(SB)/8, $0xc1c1c1c1c1c1c1c1
DATA bC1<>+16(SB)/8, $0xc1c1c1c1c1c1c1c1
DATA bC1<>+24(SB)/8, $0xc1c1c1c1c1c1c1c1
GLOBL bC1<>(SB), RODATA|NOPTR, $32
DATA bDF<>+0(SB)/8, $0xdfdfdfdfdfdfdfdf
DATA bDF<>+8(SB)/8, $0xdfdfdfdfdfdfdfdf
DATA bDF<>+16(SB)/8, $0xdfdfdfdfdfdfdfdf
DATA bDF<>+24(SB)/8, $0xdfdfdfdfdfdfdfdf
GLOBL bDF<>(SB), RODATA|NOPTR, $32
DATA bEF<>+0(SB)/8, $0xefefefefefefefef
DATA bEF<>+8(SB)/8, $0xefefefefefefefef
DATA bEF<>+16(SB)/8, $0xefefefefefefefef
DATA bEF<>+24(SB)/8, $0xefefefefefefefef
GLOBL bEF<>(SB), RODATA|NOPTR, $32
DATA bF4<>+0(SB)/8, $0xf4f4f4f4f4f4f4f4
DATA bF4<>+8(SB)/8, $0xf4f4f4f4f4f4f4f4
DATA bF4<>+16(SB)/8, $0xf4f4f4f4f4f4f4f4
DATA bF4<>+24(SB)/8, $0xf4f4f4f4f4f4f4f4
GLOBL bF4<>(SB), RODATA|NOPTR, $32
DATA bE0<>+0(SB)/8, $0xe0e0e0e0e0e0e0e0
DATA bE0<>+8(SB)/8, $0xe0e0e0e0e0e0e0e0
DATA bE0<>+16(SB)/8, $0xe0e0e0e0e0e0e0e0
DATA bE0<>+24(SB)/8, $0xe0e0e0e0e0e0e0e0
GLOBL bE0<>(SB), RODATA|NOPTR, $32
DATA bED<>+0(SB)/8, $0xedededededededed
DATA bED<>+8(SB)/8, $0xedededededededed
DATA bED<>+16(SB)/8, $0xedededededededed
DATA bED<>+24(SB)/8, $0xedededededededed
GLOBL bED<>(SB), RODATA|NOPTR, $32
DATA bF0<>+0(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA bF0<>+8(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA bF0<>+16(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA bF0<>+24(SB)/8, $0xf0f0f0f0f0f0f0f0
GLOBL bF0<>(SB), RODATA|NOPTR, $32
DATA bC0<>+0(SB)/8, $0xc0c0c0c0c0c0c0c0
DATA bC0<>+8(SB)/8, $0xc0c0c0c0c0c0c0c0
DATA bC0<>+16(SB)/8, $0xc0c0c0c0c0c0c0c0
DATA bC0<>+24(SB)/8, $0xc0c0c0c0c0c0c0c0
GLOBL bC0<>(SB), RODATA|NOPTR, $32
DATA bA0<>+0(SB)/8, $0xa0a0a0a0a0a0a0a0
DATA bA0<>+8(SB)/8, $0xa0a0a0a0a0a0a0a0
DATA bA0<>+16(SB)/8, $0xa0a0a0a0a0a0a0a0
DATA bA0<>+24(SB)/8, $0xa0a0a0a0a0a0a0a0
GLOBL bA0<>(SB), RODATA|NOPTR, $32
DATA b90<>+0(SB)/8, $0x9090909090909090
DATA b90<>+8(SB)/8, $0x9090909090909090
DATA b90<>+16(SB)/8, $0x9090909090909090
DATA b90<>+24(SB)/8, $0x9090909090909090
GLOBL b90<>(SB), RODATA|NOPTR, $32

// CLASSIFY_HALF classifies the 32 bytes at off(SI), reading up to
// off+34(SI), and leaves the bits of blockClass's m2, m3, m4 and v for them
// in m2, m3, m4 and v (32-bit registers). It needs bC0, bA0 and b90 in
// Y13, Y14 and Y15, and overwrites Y0 to Y9 and msb.
//
// A lead byte's unit holds its second byte if that is a continuation byte
// in the lead's range (ok1), its third if it needs one and that is a
// continuation byte, and its fourth likewise; it is well-formed where it
// holds all the bytes its lead needs, and an ASCII byte is a unit of its
// own, well-formed.
#define CLASSIFY_HALF(off, off1, off2, off3, m2, m3, m4, v, msb) \
	VMOVDQU  off(SI), Y0             \
	VMOVDQU  off1(SI), Y1            \
	VMOVDQU  off2(SI), Y2            \
	VMOVDQU  off3(SI), Y3            \
	VPCMPGTB Y2, Y13, Y2 /* the third bytes: continuation bytes */ \
	VPCMPGTB Y3, Y13, Y3 /* the fourth bytes: continuation bytes */ \
	VPCMPGTB Y1, Y14, Y4 /* the second bytes 80..9F */ \
	VPCMPGTB Y1, Y15, Y5 /* the second bytes 80..8F */ \
	VPCMPGTB Y1, Y13, Y1 /* the second bytes 80..BF */ \
	VPCMPEQB bE0<>(SB), Y0, Y6 /* bad: E0 and 80..9F, */ \
	VPAND    Y6, Y4, Y6              \
	VPCMPEQB bED<>(SB), Y0, Y7 /* ED and A0..BF, */ \
	VPANDN   Y1, Y4, Y4              \
	VPAND    Y7, Y4, Y4              \
	VPOR     Y4, Y6, Y6              \
	VPCMPEQB bF0<>(SB), Y0, Y7 /* F0 and 80..8F, */ \
	VPAND    Y7, Y5, Y7              \
	VPOR     Y7, Y6, Y6              \
	VPCMPEQB bF4<>(SB), Y0, Y7 /* F4 and 90..BF */ \
	VPANDN   Y1, Y5, Y5              \
	VPAND    Y7, Y5, Y5              \
	VPOR     Y5, Y6, Y6              \
	VPANDN   Y1, Y6, Y1 /* ok1: in range */ \
	VPCMPGTB bF4<>(SB), Y0, Y4 /* no lead: F5..FF and 00..7F */ \
	VPCMPGTB bC1<>(SB), Y0, Y5       \
	VPANDN   Y5, Y4, Y5 /* leads C2..F4 */ \
	VPAND    Y1, Y5, Y5 /* m2 */ \
	VPMOVMSKB Y5, m2                 \
	VPCMPGTB bDF<>(SB), Y0, Y6       \
	VPANDN   Y6, Y4, Y6 /* leads E0..F4 */ \
	VPAND    Y2, Y5, Y7              \
	VPAND    Y6, Y7, Y7 /* m3 */ \
	VPMOVMSKB Y7, m3                 \
	VPCMPGTB bEF<>(SB), Y0, Y8       \
	VPANDN   Y8, Y4, Y8 /* leads F0..F4 */ \
	VPAND    Y3, Y7, Y9              \
	VPAND    Y8, Y9, Y9 /* m4 */ \
	VPMOVMSKB Y9, m4                 \
	VPANDN   Y5, Y6, Y5 /* v: m2 under C2..DF, */ \
	VPANDN   Y7, Y8, Y7 /* m3 under E0..EF, */ \
	VPOR     Y7, Y5, Y5              \
	VPOR     Y9, Y5, Y5 /* m4, */ \
	VPMOVMSKB Y5, v                  \
	VPMOVMSKB Y0, msb                \
	NOTL     msb /* and ASCII */ \
	ORL      msb, v

// func classifyAVX2(src []byte, out []blockClass)
// Requires: AVX, AVX2
// For each i < len(out) it classifies the 64 bytes at src[64*i:], reading
// up to src[64*i+66]; len(src) must be at least 64*len(out)+3. See
// classifyGeneric.
TEXT ·classifyAVX2(SB), NOSPLIT, $0-48
	MOVQ    src_base+0(FP), SI
	MOVQ    out_base+24(FP), DI
	MOVQ    out_len+32(FP), CX
	TESTQ   CX, CX
	JZ      done
	VMOVDQU bC0<>(SB), Y13
	VMOVDQU bA0<>(SB), Y14
	VMOVDQU b90<>(SB), Y15

loop:
	CLASSIFY_HALF(0, 1, 2, 3, R8, R9, R10, R11, AX)
	CLASSIFY_HALF(32, 33, 34, 35, R12, R13, R14, R15, AX)
	SHLQ    $32, R12
	ORQ     R8, R12
	MOVQ    R12, 0(DI)
	SHLQ    $32, R13
	ORQ     R9, R13
	MOVQ    R13, 8(DI)
	SHLQ    $32, R14
	ORQ     R10, R14
	MOVQ    R14, 16(DI)
	SHLQ    $32, R15
	ORQ     R11, R15
	MOVQ    R15, 24(DI)
	ADDQ    $64, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     loop

done:
	VZEROUPPER
	RET
