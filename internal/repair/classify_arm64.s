//go:build gc && !purego

#include "textflag.h"

// The tables of classifyNEON are those of classifyAVX512 (repair_amd64.s
// describes them bit by bit; table_test.go builds them and checks the
// bytes below): leadC0 by lead byte less C0, which VTBL looks up as 0 for
// every byte below C0 (an index past 63), and cont1 by b>>2.
DATA leadC0<>+0(SB)/8, $0x0f0f0f0f0f0f0000
DATA leadC0<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA leadC0<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA leadC0<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA leadC0<>+32(SB)/8, $0x1f1f1f1f1f1f1f1c
DATA leadC0<>+40(SB)/8, $0x1f5f131f1f1f1f1f
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

// bitWeights is bit i%8 in byte i: ANDed with a vector of 00 and FF
// bytes, it leaves the bits that VADDP gathers into a mask.
DATA bitWeights<>+0(SB)/8, $0x8040201008040201
DATA bitWeights<>+8(SB)/8, $0x8040201008040201
GLOBL bitWeights<>(SB), RODATA|NOPTR, $16

// CLASSIFY16 classifies the 16 bytes at R4, with the bytes 1, 2 and 3
// places on at R5, R6 and R7, advances the four by 16, and leaves in the
// low 8 bytes of out the 16 bits each of m2, m3, m4 and v for them, in
// that order. It overwrites V0 to V9.
//
// m2 is where the lead table and the table of the byte after it share a
// bit; m3 is m2 where the lead asks for a third byte (Third) and it is a
// continuation byte; m4 likewise for a fourth (Fourth). v is m2, m3 or m4
// as the lead asks for 2, 3 or 4 bytes, and every ASCII byte.
#define CLASSIFY16(out) \
	VLD1.P  16(R4), [V0.B16]                                    \
	VLD1.P  16(R5), [V1.B16]                                    \
	VLD1.P  16(R6), [V2.B16]                                    \
	VLD1.P  16(R7), [V3.B16]                                    \
	VSUB    V24.B16, V0.B16, V4.B16                             \
	VTBL    V4.B16, [V16.B16, V17.B16, V18.B16, V19.B16], V4.B16 \
	VUSHR   $2, V1.B16, V5.B16                                  \
	VTBL    V5.B16, [V20.B16, V21.B16, V22.B16, V23.B16], V5.B16 \
	VCMTST  V4.B16, V5.B16, V5.B16 /* m2 */                     \
	VAND    V24.B16, V2.B16, V2.B16                             \
	VCMEQ   V25.B16, V2.B16, V2.B16 /* continuation bytes 2 on */ \
	VAND    V24.B16, V3.B16, V3.B16                             \
	VCMEQ   V25.B16, V3.B16, V3.B16 /* and 3 on */              \
	VCMTST  V26.B16, V4.B16, V6.B16 /* Third */                 \
	VCMTST  V27.B16, V4.B16, V7.B16 /* Fourth */                \
	VAND    V5.B16, V6.B16, V8.B16                              \
	VAND    V2.B16, V8.B16, V8.B16 /* m3 */                     \
	VAND    V8.B16, V7.B16, V9.B16                              \
	VAND    V3.B16, V9.B16, V9.B16 /* m4 */                     \
	VBSL    V5.B16, V8.B16, V6.B16 /* Third ? m3 : m2 */        \
	VBSL    V6.B16, V9.B16, V7.B16 /* Fourth ? m4 : that */     \
	VCMTST  V25.B16, V0.B16, V0.B16 /* not ASCII */             \
	VBSL    V28.B16, V7.B16, V0.B16 /* v */                     \
	VAND    V29.B16, V5.B16, V5.B16                             \
	VAND    V29.B16, V8.B16, V8.B16                             \
	VAND    V29.B16, V9.B16, V9.B16                             \
	VAND    V29.B16, V0.B16, V0.B16                             \
	VADDP   V8.B16, V5.B16, V5.B16                              \
	VADDP   V0.B16, V9.B16, V9.B16                              \
	VADDP   V9.B16, V5.B16, V5.B16                              \
	VADDP   V5.B16, V5.B16, out

// func classifyNEON(src []byte, out []blockClass)
// For each i < len(out) it classifies the 64 bytes at src[64*i:], reading
// up to src[64*i+66]; len(src) must be at least 64*len(out)+3. See
// classifyGeneric.
TEXT ·classifyNEON(SB), NOSPLIT, $0-48
	MOVD src_base+0(FP), R4
	MOVD out_base+24(FP), R1
	MOVD out_len+32(FP), R2
	CBZ  R2, done
	ADD  $1, R4, R5
	ADD  $2, R4, R6
	ADD  $3, R4, R7
	MOVD $leadC0<>(SB), R3
	VLD1 (R3), [V16.B16, V17.B16, V18.B16, V19.B16]
	MOVD $cont1<>(SB), R3
	VLD1 (R3), [V20.B16, V21.B16, V22.B16, V23.B16]
	MOVD $bitWeights<>(SB), R3
	VLD1 (R3), [V29.B16]
	VMOVI $0xc0, V24.B16
	VMOVI $0x80, V25.B16
	VMOVI $0x10, V26.B16
	VMOVI $0x20, V27.B16
	VMOVI $0xff, V28.B16

loop:
	CLASSIFY16(V12.B16)
	CLASSIFY16(V13.B16)
	CLASSIFY16(V14.B16)
	CLASSIFY16(V15.B16)
	// Each of V12..V15 holds m2, m3, m4 and v of its 16 bytes as 16-bit
	// lanes 0 to 3 (and again as lanes 4 to 7): transpose them, so that
	// each mask's four lanes lie in one 64-bit lane, in byte order.
	VTRN1 V13.H8, V12.H8, V0.H8 // m2 and m4 of bytes 0..31
	VTRN2 V13.H8, V12.H8, V1.H8 // m3 and v
	VTRN1 V15.H8, V14.H8, V2.H8 // m2 and m4 of bytes 32..63
	VTRN2 V15.H8, V14.H8, V3.H8 // m3 and v
	VTRN1 V2.S4, V0.S4, V4.S4   // m2
	VTRN2 V2.S4, V0.S4, V5.S4   // m4
	VTRN1 V3.S4, V1.S4, V6.S4   // m3
	VTRN2 V3.S4, V1.S4, V7.S4   // v
	VZIP1 V6.D2, V4.D2, V8.D2   // m2, m3
	VZIP1 V7.D2, V5.D2, V9.D2   // m4, v
	VST1.P [V8.D2, V9.D2], 32(R1)
	SUB  $1, R2
	CBNZ R2, loop

done:
	RET
