//go:build gc && !purego

// NEON kernels for Widen and Narrow, a block at a time: ASCII blocks
// widen with ZIP and narrow with UZP; other blocks compute each unit, or
// each UTF-8 byte, in byte planes of 16 lanes and gather the ones to keep
// with TBL, by indexes from tables_arm64.h looked up by a bit mask of 8
// bytes of UTF-8 or of the lengths of 4 units of UTF-16, storing each
// group at the end of the one before. Runs of 3-byte characters widen
// from LD3's byte planes and blocks of 3-byte units narrow to ST3's.
// Text of ASCII and 3-byte characters widens two blocks at a time with
// indexes looked up by 9 start bits, which tell each character's length;
// text of ASCII and 4-byte characters, 64 bytes a step, four steps a
// loop, with 10 start bits of each 8 bytes, which LD4, CMGE, SRI and
// SHRN make for all 64, and which also find a character of 2 or 3 bytes.
// A lone surrogate stops narrowNEON. UTF-16 of ASCII and surrogate
// pairs narrows two blocks at a time, each unit's bytes gathered from
// four planes by indexes looked up by which units are high surrogates.
//
// Go's assembler has no UMAXV, CMHS, CMGE, CMHI, SHRN or LDR (register,
// LSL #4) for Q registers, which are WORD encodings here.

#include "textflag.h"

#include "tables_arm64.h"

// UMAXVB(d, n) is UMAXV Bd, Vn.16B; UMAXVH(d, n) is UMAXV Hd, Vn.8H.
#define UMAXVB(d, n) WORD $(0x6E30A800 | (n)<<5 | (d))
#define UMAXVH(d, n) WORD $(0x6E70A800 | (n)<<5 | (d))

// UMINVB(d, n) is UMINV Bd, Vn.16B.
#define UMINVB(d, n) WORD $(0x6E31A800 | (n)<<5 | (d))

// CMHS(d, n, m) is CMHS Vd.16B, Vn.16B, Vm.16B: FF where Vn >= Vm
// (unsigned); CMGE(d, n, m) the same, signed.
#define CMHS(d, n, m) WORD $(0x6E203C00 | (m)<<16 | (n)<<5 | (d))
#define CMGE(d, n, m) WORD $(0x4E203C00 | (m)<<16 | (n)<<5 | (d))

// CMHIH(d, n, m) is CMHI Vd.8H, Vn.8H, Vm.8H: FFFF where Vn > Vm
// (unsigned).
#define CMHIH(d, n, m) WORD $(0x6E603400 | (m)<<16 | (n)<<5 | (d))

// LDRQ(t, n, m) is LDR Qt, [Xn, Xm, LSL #4]: the 16 bytes of entry Xm of
// the table at Xn.
#define LDRQ(t, n, m) WORD $(0x3CE07800 | (m)<<16 | (n)<<5 | (t))

// WHALF sets lo and hi to the low and high bytes of the unit of the
// character that starts at each byte of b0 (16 bytes), whose next two
// bytes are in b1 and b2, and st to the lane's bit (laneBits, in V23)
// where a character starts there, that is where the byte is not 80..BF.
// Continuation bytes get garbage. It uses V12..V15 and wants C0, E0 and
// 07 in V20, V21, V22. With m2 for b0 >= C0 and m3 for b0 >= E0:
//
//	ASCII   lo = b0                    hi = 0
//	2 bytes lo = b0<<6 | b1&3F         hi = b0>>2 & 7
//	3 bytes lo = b1<<6 | b2&3F         hi = b0<<4 | b1>>2&0F
#define WHALF(b0, nb0, b1, b2, lo, hi, st, nst) \
	CMHS(12, nb0, 20)             \
	CMHS(13, nb0, 21)             \
	VMOV  b1.B16, V14.B16         \
	VSLI  $6, b0.B16, V14.B16     \
	VMOV  b2.B16, V15.B16         \
	VSLI  $6, b1.B16, V15.B16     \
	VMOV  b0.B16, lo.B16          \
	VBIT  V12.B16, V14.B16, lo.B16 \
	VBIT  V13.B16, V15.B16, lo.B16 \
	VUSHR $2, b1.B16, V14.B16     \
	VSLI  $4, b0.B16, V14.B16     \
	VUSHR $2, b0.B16, hi.B16      \
	VAND  V22.B16, hi.B16, hi.B16 \
	VBIT  V13.B16, V14.B16, hi.B16 \
	VAND  V12.B16, hi.B16, hi.B16 \
	CMGE(nst, nb0, 20)            \
	VAND  V23.B16, st.B16, st.B16

// WHALF2 is WHALF for blocks without a 3-byte character, which need no
// b2; it uses V24.
#define WHALF2(b0, nb0, b1, lo, hi, st, nst) \
	CMHS(24, nb0, 20)             \
	VMOV  b1.B16, lo.B16          \
	VSLI  $6, b0.B16, lo.B16      \
	VBIF  V24.B16, b0.B16, lo.B16 \
	VUSHR $2, b0.B16, hi.B16      \
	VAND  V22.B16, hi.B16, hi.B16 \
	VAND  V24.B16, hi.B16, hi.B16 \
	CMGE(nst, nb0, 20)            \
	VAND  V23.B16, st.B16, st.B16

// WASCII is WHALF for blocks whose characters have 1 or 4 bytes: it
// sets lo to b0, hi to 0, st and V15 (the low bytes of 3-byte units,
// which WFOUR takes for low surrogates).
#define WASCII(b0, nb0, b1, b2, lo, hi, st, nst) \
	VMOV  b0.B16, lo.B16          \
	VEOR  hi.B16, hi.B16, hi.B16  \
	VMOV  b2.B16, V15.B16         \
	VSLI  $6, b1.B16, V15.B16     \
	CMGE(nst, nb0, 20)            \
	VAND  V23.B16, st.B16, st.B16

// WFOUR follows WHALF of the same bytes where they may hold 4-byte
// characters (F0..FF in V26), whose two units it puts in the lane of the
// lead (m4) and the lane after it (a): the lanes after those of m4, with
// lane 15 of prev before them.
//
//	high lo = (b1<<2 | b2>>4&3) + C0   hi = D7 + b0&7 + (b1&30 != 0)
//	low  lo = b1<<6 | b2&3F (WHALF's V15)   hi = DC | b1>>2&3
//
// It wants 30, D7, DC and 03 in V27..V30, uses V24 and V25, and adds
// the lanes of a to st.
#define WFOUR(b0, nb0, b1, b2, lo, hi, st, m4, nm4, prev, a) \
	CMHS(nm4, nb0, 26)                  \
	VEXT   $15, m4.B16, prev.B16, a.B16 \
	VUSHR  $4, b2.B16, V24.B16          \
	VSLI   $2, b1.B16, V24.B16          \
	VADD   V20.B16, V24.B16, V24.B16    \
	VBIT   m4.B16, V24.B16, lo.B16      \
	VBIT   a.B16, V15.B16, lo.B16       \
	VAND   V22.B16, b0.B16, V24.B16     \
	VADD   V28.B16, V24.B16, V24.B16    \
	VCMTST V27.B16, b1.B16, V25.B16     \
	VSUB   V25.B16, V24.B16, V24.B16    \
	VBIT   m4.B16, V24.B16, hi.B16      \
	VUSHR  $2, b1.B16, V24.B16          \
	VAND   V30.B16, V24.B16, V24.B16    \
	VORR   V29.B16, V24.B16, V24.B16    \
	VBIT   a.B16, V24.B16, hi.B16       \
	VAND   V23.B16, a.B16, V24.B16      \
	VORR   V24.B16, st.B16, st.B16

// W14PLANES sets, for 16 bytes b0 of text of 1- and 4-byte characters
// (register number nb0) with the bytes after them in b1 and b2, the
// planes that w14's table gathers from, each straight from the bytes
// with q = b1-10 (V16): m, the low bytes of ASCII characters and of the
// high surrogates of 4-byte ones (in their lead's lane), q<<2 | b2>>4&3;
// h, the high bytes of those, b0-19 + q>>7, that is D7 + b0&7, and 1
// more where b1 is 90 or more (where b1>>4&3, the low 2 bits of the
// plane, is not 0, so that taking 1 from the plane borrows nothing from
// b0&7); and in the lane after a lead, g and e, the high and low bytes of
// its low surrogate, DC | b1>>2&3 and b1<<6 | b2&3F, which it makes in
// b2's register. It wants 37 in V21, 19 in V31, 10 in V27 and F0 in V26,
// and uses V16 and V17.
#define W14PLANES(b0, nb0, b1, b2, m, h, g) \
	VSUB  V27.B16, b1.B16, V16.B16 \
	VUSHR $4, b2.B16, m.B16        \
	VSLI  $2, V16.B16, m.B16       \
	CMHS(17, nb0, 26)              \
	VBIF  V17.B16, b0.B16, m.B16   \
	VSUB  V31.B16, b0.B16, h.B16   \
	VUSRA $7, V16.B16, h.B16       \
	VUSHR $2, b1.B16, g.B16        \
	VSLI  $2, V21.B16, g.B16       \
	VSLI  $6, b1.B16, b2.B16

// W14GROUP stores the units in 8 bytes of text of 1- and 4-byte
// characters, gathered by the entry of the table at Rtab (widen14Idx,
// whose key is in R7) from the planes of W14PLANES, m, h, g and e (four
// registers in a row), and advances R2 past them.
#define W14GROUP(tab, m, h, g, e) \
	LDRQ(24, tab, 7)                                      \
	VTBL V24.B16, [m.B16, h.B16, g.B16, e.B16], V25.B16 \
	MOVBU (R21)(R7), R8                                   \
	VST1.P [V25.B16], (R2)(R8)

// SHRN4(d, n) is SHRN Vd.8B, Vn.8H, #4.
#define SHRN4(d, n) WORD $(0x0F0C8400 | (n)<<5 | (d))

// W14STEP widens the 64 bytes at R0 (text of 1- and 4-byte characters)
// with the bytes after them at R12 (R0+1) and R15 (R0+2), and advances
// R0, R12 and R15 by 64 and R2 past the units; or, if a character of 2 or
// 3 bytes starts in the byte before them or in their first 63, it writes
// nothing and goes to w14bad (R0 64 on). The start bits of bytes 2 to 65
// (bit i for byte i+2) go to t, from LD4's planes of bytes 4j+2 to 4j+5,
// whose top bits SRI packs into nibble j; p holds those of the step
// before (bits 61 to 63 for the byte before and bytes 0 and 1), and R14
// gets those of bytes -1 to 62. A character of 2 or 3 bytes is a start
// followed by a byte that starts none and then, one or two bytes on, a
// byte that does.
#define W14STEP(t, p) \
	VLD4   (R15), [V16.B16, V17.B16, V18.B16, V19.B16]   \
	VLD1.P 64(R15), [V8.B16, V9.B16, V10.B16, V11.B16]   \
	VLD1.P 64(R12), [V12.B16, V13.B16, V14.B16, V15.B16] \
	VLD1.P 64(R0), [V0.B16, V1.B16, V2.B16, V3.B16]      \
	CMGE(16, 16, 20)                                     \
	CMGE(17, 17, 20)                                     \
	CMGE(18, 18, 20)                                     \
	CMGE(19, 19, 20)                                     \
	VSRI   $1, V16.B16, V17.B16                          \
	VSRI   $1, V18.B16, V19.B16                          \
	VSRI   $2, V17.B16, V19.B16                          \
	VSRI   $4, V19.B16, V19.B16                          \
	SHRN4(19, 19)                                        \
	VMOV   V19.D[0], t                                   \
	EXTR   $61, p, t, R14                                \
	EXTR   $62, p, t, R7                                 \
	EXTR   $63, p, t, R8                                 \
	ORR    t, R8, R8                                     \
	AND    R14, R8, R8                                   \
	BICS   R7, R8, R8                                    \
	BNE    w14bad                                        \
	W14PLANES(V0, 0, V12, V8, V5, V6, V7)                \
	AND    $0x3FF, R14, R7                               \
	W14GROUP(16, V5, V6, V7, V8)                         \
	UBFX   $5, t, $10, R7                                \
	W14GROUP(17, V5, V6, V7, V8)                         \
	W14PLANES(V1, 1, V13, V9, V6, V7, V8)                \
	UBFX   $13, t, $10, R7                               \
	W14GROUP(16, V6, V7, V8, V9)                         \
	UBFX   $21, t, $10, R7                               \
	W14GROUP(17, V6, V7, V8, V9)                         \
	W14PLANES(V2, 2, V14, V10, V7, V8, V9)               \
	UBFX   $29, t, $10, R7                               \
	W14GROUP(16, V7, V8, V9, V10)                        \
	UBFX   $37, t, $10, R7                               \
	W14GROUP(17, V7, V8, V9, V10)                        \
	W14PLANES(V3, 3, V15, V11, V8, V9, V10)              \
	UBFX   $45, t, $10, R7                               \
	W14GROUP(16, V8, V9, V10, V11)                       \
	UBFX   $53, t, $10, R7                               \
	W14GROUP(17, V8, V9, V10, V11)

// WGATHER stores the units of the characters that start in the block,
// from the low and high bytes in V8..V11 and the start bits in V16 and
// V17 (by WGROUP), and advances R2 past them.
#define WGATHER \
	VADDP V17.B16, V16.B16, V16.B16 \
	VADDP V16.B16, V16.B16, V16.B16 \
	VADDP V16.B16, V16.B16, V16.B16 \
	VMOV  V16.S[0], R13             \
	AND   $0xFF, R13, R14           \
	WGROUP(10, V8, V9)              \
	UBFX  $8, R13, $8, R14          \
	WGROUP(12, V8, V9)              \
	UBFX  $16, R13, $8, R14         \
	WGROUP(10, V10, V11)            \
	UBFX  $24, R13, $8, R14         \
	WGROUP(12, V10, V11)

// WGROUP stores the units of the characters that start in 8 bytes,
// whose start bits are in R14, gathered by the entry of the table at Rtab
// from lo and hi, and advances R2 past them.
#define WGROUP(tab, lo, hi) \
	LDRQ(24, tab, 14)                             \
	VTBL V24.B16, [lo.B16, hi.B16], V25.B16 \
	MOVBU (R11)(R14), R15                         \
	VST1.P [V25.B16], (R2)(R15)

// W13GROUP stores the units of the characters that start in 8 bytes of
// text of 1- and 3-byte characters, whose start bits and the next byte's
// are in R7, gathered by the entry of the table at Rtab from lo, hi and
// b0 (see w13), and advances R2 past them.
#define W13GROUP(tab, lo, hi, b0) \
	LDRQ(24, tab, 7)                                   \
	VTBL V24.B16, [lo.B16, hi.B16, b0.B16], V25.B16 \
	MOVBU (R11)(R7), R8                                \
	VST1.P [V25.B16], (R2)(R8)

// func widenNEON(dst, src []byte) (nd, ns int)
// Requires: NEON.
TEXT ·widenNEON(SB), NOSPLIT, $0-64
	MOVD dst_base+0(FP), R2
	MOVD dst_len+8(FP), R6
	MOVD src_base+24(FP), R0
	MOVD src_len+32(FP), R4
	MOVD R2, R5      // dst
	ADD  R5, R6, R6
	SUB  $64, R6, R6 // the last dst position with Room bytes after it
	MOVD R0, R1      // src
	ADD  R1, R4, R4  // the end of src
	SUB  $34, R4, R3 // the last block start with 2 bytes after the block
	MOVD $widenIdx<>(SB), R10
	ADD  $4096, R10, R12
	MOVD $widenLen<>(SB), R11
	MOVD $laneBits<>(SB), R7
	VLD1 (R7), [V23.B16]
	VMOVI $0xC0, V20.B16
	VMOVI $0xE0, V21.B16
	VMOVI $0x07, V22.B16
	VEOR V31.B16, V31.B16, V31.B16
	VMOVI $0xF0, V26.B16
	VMOVI $0x30, V27.B16
	VMOVI $0xD7, V28.B16
	VMOVI $0xDC, V29.B16
	VMOVI $0x03, V30.B16
	SUB  $32, R3, R25 // the last start of 2 blocks with 2 bytes after them
	SUB  $64, R6, R24 // the last dst position with room for 2 blocks
	SUB  $50, R4, R21 // the last block start with a run of 48 bytes after it
	MOVD $runLanes<>(SB), R20
	SUB  $98, R4, R16 // the last start of 3 blocks with 2 bytes after them
	SUB  $44, R6, R17 // the last dst position with room for 3 blocks of 3-byte characters
	MOVD $0, R19
	MOVD $0, R23
	MOVD $widen13Idx<>(SB), R22
	ADD  $8192, R22, R9

wloop:
	CMP   R3, R0
	BHI   wdone
	CMP   R6, R2
	BHI   wdone
	VLD1  (R0), [V0.B16, V1.B16]
	VUMAX V1.B16, V0.B16, V2.B16
	UMAXVB(2, 2)
	VMOV  V2.B[0], R7
	TBZ   $7, R7, wascii
	CMP   $0xF0, R7
	BHS   wfour
	ADD   $1, R0, R8
	VLD1  (R8), [V2.B16, V3.B16]
	CMP   $0xE0, R7
	BLO   wtwo
	// A block without ASCII may start a run of 3-byte characters, which
	// LD3 splits into their first, second and third bytes: 3 blocks, 32
	// characters, at a time, where the run goes on and there is room for
	// them. After a block where that stopped (R19) the run is not tried
	// again.
	CMP   R19, R0
	BLO   w3gen
	VUMIN V1.B16, V0.B16, V4.B16
	UMINVB(4, 4)
	VMOV  V4.B[0], R8
	TBZ   $7, R8, wthree
	// R14: the continuation bytes at the start of the block.
	MOVD  $0, R14
	MOVBU (R0), R8
	AND   $0xC0, R8
	CMP   $0x80, R8
	BNE   wrun
	MOVD  $1, R14
	MOVBU 1(R0), R8
	AND   $0xC0, R8
	CMP   $0x80, R8
	BNE   wrun
	MOVD  $2, R14

wrun:
	CMP    R16, R0
	BHI    wrun1
	CMP    R17, R2
	BHI    wrun1
	ADD    R14, R0, R15
	VLD3.P 48(R15), [V4.B16, V5.B16, V6.B16]
	VLD3   (R15), [V7.B16, V8.B16, V9.B16]
	// Every first byte E0..EF.
	VEOR   V21.B16, V4.B16, V10.B16
	VEOR   V21.B16, V7.B16, V11.B16
	VUMAX  V11.B16, V10.B16, V10.B16
	UMAXVB(10, 10)
	VMOV   V10.B[0], R8
	CMP    $0x10, R8
	BHS    wrun1
	VMOV   V6.B16, V12.B16
	VSLI   $6, V5.B16, V12.B16
	VUSHR  $2, V5.B16, V13.B16
	VSLI   $4, V4.B16, V13.B16
	VMOV   V9.B16, V14.B16
	VSLI   $6, V8.B16, V14.B16
	VUSHR  $2, V8.B16, V15.B16
	VSLI   $4, V7.B16, V15.B16
	VST2.P [V12.B16, V13.B16], 32(R2)
	VST2.P [V14.B16, V15.B16], 32(R2)
	ADD    $96, R0
	B      wrun

wrun1:
	// The rest of the run a block at a time, its 10 or 11 characters
	// from the 16 that LD3 loads.
	CMP    R21, R0
	BHI    wrunend
	CMP    R6, R2
	BHI    wrunend
	ADD    R14, R0, R15
	VLD3   (R15), [V4.B16, V5.B16, V6.B16]
	LSR    $1, R14, R15
	LDRQ(7, 20, 15)
	VEOR   V21.B16, V4.B16, V10.B16
	VAND   V7.B16, V10.B16, V10.B16
	UMAXVB(10, 10)
	VMOV   V10.B[0], R8
	CMP    $0x10, R8
	BHS    wrunend
	VMOV   V6.B16, V12.B16
	VSLI   $6, V5.B16, V12.B16
	VUSHR  $2, V5.B16, V13.B16
	VSLI   $4, V4.B16, V13.B16
	VST2   [V12.B16, V13.B16], (R2)
	ADD    $22, R2
	SUB    R15<<1, R2, R2
	ADD    $32, R0
	// The next block's first character is one byte further on.
	ADD    $1, R14
	CMP    $3, R14
	CSEL   EQ, ZR, R14, R14
	B      wrun1

wrunend:
	ADD $32, R0, R19
	B   wloop

wthree:
	// A block with ASCII and characters of 3 bytes, not before R19.
	// Text of 1- and 3-byte characters goes on two blocks at a time
	// (w13) where no block with a lead of 2 bytes (C0..DF) came here
	// before in this call (R23 is 1 after one), src and dst have room
	// for both and the second block holds ASCII too. Then R23 holds the
	// start bits of the first two bytes, bit 0 for byte 0.
	CBNZ  R23, w3gen
	VSUB  V20.B16, V0.B16, V6.B16
	VSUB  V20.B16, V1.B16, V7.B16
	VUMIN V7.B16, V6.B16, V6.B16
	UMINVB(6, 6)
	VMOV  V6.B[0], R8
	CMP   $0x20, R8
	CSET  LO, R23
	CBNZ  R23, w3gen
	CMP   R25, R0
	BHI   w3gen
	ADD   $32, R0, R8
	VLD1  (R8), [V6.B16, V7.B16]
	VUMIN V7.B16, V6.B16, V6.B16
	UMINVB(6, 6)
	VMOV  V6.B[0], R8
	TBNZ  $7, R8, w3gen
	CMP   R24, R2
	BHI   w3gen
	MOVHU (R0), R7
	EOR   $0x8080, R7
	TST   $0xC0, R7
	CSET  NE, R23
	TST   $0xC000, R7
	CSET  NE, R8
	ORR   R8<<1, R23, R23
	// R16 and R17 point at b1 and b2 (see w13) until w13 ends.
	ADD   $1, R0, R16
	ADD   $2, R0, R17
	VLD1.P 16(R0), [V2.B16]
	VLD1.P 16(R0), [V5.B16]
	B     w13in

w13:
	// Bytes b0 of the two blocks (64), b1 after them and b2 after those,
	// 16 of each a half; for half h, V(3h) holds the low bytes of the
	// units of 3-byte characters, b1<<6 | b2&3F, V(3h+1) the high ones,
	// b0<<4 | b1>>2&0F, and V(3h+2) b0, whose ASCII characters are their
	// own low bytes.
	CMP    R25, R0
	BHI    w13end
	CMP    R24, R2
	BHI    w13end
	VLD1.P 16(R0), [V2.B16]
	VLD1.P 16(R0), [V5.B16]
	// A first block without ASCII starts a run of 3-byte characters,
	// which LD3 widens faster.
	VUMIN  V5.B16, V2.B16, V12.B16
	UMINVB(12, 12)
	VMOV   V12.B[0], R15
	TBNZ   $7, R15, w13none

w13in:
	VLD1.P 16(R0), [V8.B16]
	VLD1.P 16(R0), [V11.B16]
	VLD1.P 64(R16), [V16.B16, V17.B16, V18.B16, V19.B16]
	VLD1.P 16(R17), [V0.B16]
	VLD1.P 16(R17), [V3.B16]
	VLD1.P 16(R17), [V6.B16]
	VLD1.P 16(R17), [V9.B16]
	// The start bits of bytes 2 to 65, from b2.
	CMGE(12, 0, 20)
	CMGE(13, 3, 20)
	CMGE(14, 6, 20)
	CMGE(15, 9, 20)
	VAND   V23.B16, V12.B16, V12.B16
	VAND   V23.B16, V13.B16, V13.B16
	VAND   V23.B16, V14.B16, V14.B16
	VAND   V23.B16, V15.B16, V15.B16
	VSLI   $6, V16.B16, V0.B16
	VSLI   $6, V17.B16, V3.B16
	VSLI   $6, V18.B16, V6.B16
	VSLI   $6, V19.B16, V9.B16
	VUSHR  $2, V16.B16, V1.B16
	VSLI   $4, V2.B16, V1.B16
	VUSHR  $2, V17.B16, V4.B16
	VSLI   $4, V5.B16, V4.B16
	VUSHR  $2, V18.B16, V7.B16
	VSLI   $4, V8.B16, V7.B16
	VUSHR  $2, V19.B16, V10.B16
	VSLI   $4, V11.B16, V10.B16
	VADDP  V13.B16, V12.B16, V12.B16
	VADDP  V15.B16, V14.B16, V14.B16
	VADDP  V14.B16, V12.B16, V12.B16
	VADDP  V12.B16, V12.B16, V12.B16
	// Start bits: R13 of bytes 2 to 65, R14 of bytes 0 to 63, R15 of
	// bytes 1 to 64.
	VMOV   V12.D[0], R13
	ORR    R13<<2, R23, R14
	LSR    $1, R23, R15
	ORR    R13<<1, R15, R15
	// Stop at a 2-byte character (a start, then a byte that starts none,
	// then a start) and at a 4-byte one (three bytes in a row that start
	// none, or a lead of 4 bytes in byte 63). Where no ASCII character
	// (a start, then a start) starts in the second block, take the first
	// only: a run of 3-byte characters widens faster with LD3.
	AND    R13, R14, R7
	BIC    R15, R7, R7
	ORR    R15, R14, R8
	ORR    R13, R8, R8
	ORN    R8, R7, R7
	CBNZ   R7, w13stop
	MOVBU  -1(R0), R7
	CMP    $0xF0, R7
	BHS    w13stop
	// The first block's characters go out whichever way: the groups
	// set no flags, so the TST's decide after them. R23 is the next
	// step's, where both blocks are taken (w13end clears it otherwise).
	AND    R15, R14, R7
	TST    $0xFFFFFFFF00000000, R7
	LSR    $62, R13, R23
	AND    $0x1FF, R14, R7
	W13GROUP(22, V0, V1, V2)
	UBFX   $6, R13, $9, R7
	W13GROUP(9, V0, V1, V2)
	UBFX   $14, R13, $9, R7
	W13GROUP(22, V3, V4, V5)
	UBFX   $22, R13, $9, R7
	W13GROUP(9, V3, V4, V5)
	BEQ    w13none
	UBFX   $30, R13, $9, R7
	W13GROUP(22, V6, V7, V8)
	UBFX   $38, R13, $9, R7
	W13GROUP(9, V6, V7, V8)
	UBFX   $46, R13, $9, R7
	W13GROUP(22, V9, V10, V11)
	UBFX   $54, R13, $9, R7
	W13GROUP(9, V9, V10, V11)
	B      w13

w13none:
	SUB   $32, R0
	B     w13end

w13stop:
	// The first block of the two takes the general path.
	SUB   $64, R0
	ADD   $32, R0, R19

w13end:
	MOVD  $0, R23
	SUB   $98, R4, R16
	SUB   $44, R6, R17
	B     wloop

w3gen:
	ADD   $2, R0, R8
	VLD1  (R8), [V4.B16, V5.B16]
	WHALF(V0, 0, V2, V4, V8, V9, V16, 16)
	WHALF(V1, 1, V3, V5, V10, V11, V17, 17)

wgather:
	WGATHER
	ADD   $32, R0
	B     wloop

wfour:
	// A block with 4-byte characters. V19: FF if the byte before it
	// leads 4 bytes, whose low surrogate lane 0 holds.
	VEOR  V19.B16, V19.B16, V19.B16
	CMP   R1, R0
	BEQ   wfour1
	MOVBU -1(R0), R8
	CMP   $0xF0, R8
	BLO   wfour1
	VMOVI $0xFF, V19.B16

wfour1:
	ADD   $1, R0, R8
	VLD1  (R8), [V2.B16, V3.B16]
	ADD   $2, R0, R8
	VLD1  (R8), [V4.B16, V5.B16]
	// Without leads of 2 or 3 bytes (C0..EF), the other characters are
	// ASCII.
	VSUB  V20.B16, V0.B16, V12.B16
	VSUB  V20.B16, V1.B16, V13.B16
	VUMIN V13.B16, V12.B16, V12.B16
	UMINVB(12, 12)
	VMOV  V12.B[0], R8
	CMP   $0x30, R8
	BLO   wfourmix
	WASCII(V0, 0, V2, V4, V8, V9, V16, 16)
	WFOUR(V0, 0, V2, V4, V8, V9, V16, V18, 18, V19, V6)
	WASCII(V1, 1, V3, V5, V10, V11, V17, 17)
	WFOUR(V1, 1, V3, V5, V10, V11, V17, V7, 7, V18, V6)
	B     wfourgather

wfourmix:
	WHALF(V0, 0, V2, V4, V8, V9, V16, 16)
	WFOUR(V0, 0, V2, V4, V8, V9, V16, V18, 18, V19, V6)
	WHALF(V1, 1, V3, V5, V10, V11, V17, 17)
	WFOUR(V1, 1, V3, V5, V10, V11, V17, V7, 7, V18, V6)

wfourgather:
	WGATHER
	ADD   $32, R0
	// The next block goes on here if it has 4-byte characters too, or
	// if this one ends with a lead of 4 bytes, whose low surrogate the
	// next one holds; V7 has FF in lane 15 just where that is so.
	CMP   R3, R0
	BHI   wloop
	CMP   R6, R2
	BHI   wloop
	VLD1  (R0), [V0.B16, V1.B16]
	VMOV  V7.B16, V19.B16
	VUMAX V1.B16, V0.B16, V12.B16
	UMAXVB(12, 12)
	VMOV  V12.B[0], R8
	CMP   $0xF0, R8
	BHS   wfournext
	MOVBU -1(R0), R8
	CMP   $0xF0, R8
	BHS   wfournext
	B     wloop

wfournext:
	// Text of 1- and 4-byte characters goes on 64 bytes a step (w14)
	// where src and dst have room for it. R9: bit 61 set if the byte
	// before leads 4 bytes (whose low surrogate lane 0 holds; a lead of 2
	// or 3 bytes there is written already), bits 62 and 63 the start
	// bits of bytes 0 and 1.
	CMP   R25, R0
	BHI   wfour1
	CMP   R24, R2
	BHI   wfour1
	MOVBU -1(R0), R7
	CMP   $0xF0, R7
	CSET  HS, R9
	MOVHU (R0), R8
	EOR   $0x8080, R8
	TST   $0xC0, R8
	CSET  NE, R7
	ORR   R7<<1, R9, R9
	TST   $0xC000, R8
	CSET  NE, R7
	ORR   R7<<2, R9, R9
	LSL   $61, R9, R9
	MOVD  $widen14Idx<>(SB), R16
	ADD   $16384, R16, R17
	MOVD  $widen14Len<>(SB), R21
	VMOVI $0x37, V21.B16
	VMOVI $0x19, V31.B16
	VMOVI $0x10, V27.B16
	ADD   $1, R0, R12
	ADD   $2, R0, R15

w14count:
	// R20: the runs of 4 steps that src and dst have room for, each 258
	// bytes of src and 512 of dst.
	SUB   $192, R25, R7
	SUBS  R0, R7, R7
	BLT   w14one
	SUB   $384, R24, R8
	SUBS  R2, R8, R8
	BLT   w14one
	LSR   $8, R7, R7
	LSR   $9, R8, R8
	CMP   R8, R7
	CSEL  LO, R7, R8, R20
	ADD   $1, R20

w14:
	W14STEP(R13, R9)
	W14STEP(R9, R13)
	W14STEP(R13, R9)
	W14STEP(R9, R13)
	SUBS  $1, R20
	BNE   w14
	B     w14count

w14one:
	// The rest a step at a time, while src and dst have room.
	CMP   R25, R0
	BHI   w14end
	CMP   R24, R2
	BHI   w14end
	W14STEP(R13, R9)
	MOVD  R13, R9
	B     w14one

w14bad:
	// The step writes nothing: the general path takes its first block.
	SUB   $64, R0

w14end:
	SUB   $98, R4, R16
	SUB   $44, R6, R17
	SUB   $50, R4, R21
	ADD   $8192, R22, R9
	ADD   $4096, R10, R12
	MOVD  $runLanes<>(SB), R20
	VMOVI $0xE0, V21.B16
	VEOR  V31.B16, V31.B16, V31.B16
	VMOVI $0x30, V27.B16
	// A lead of 2 or 3 bytes in the byte before took, as lane 63 of the
	// step before, the 2 bytes of a high surrogate: its unit replaces
	// them. (Where the general path wrote it, the unit is the same.)
	MOVBU -1(R0), R7
	SUB   $0xC0, R7, R8
	CMP   $0x30, R8
	BHS   w14four
	MOVBU (R0), R8
	AND   $0x3F, R8
	CMP   $0xE0, R7
	BHS   w14three
	AND   $0x1F, R7
	ORR   R7<<6, R8, R8
	MOVH  R8, -2(R2)
	B     wloop

w14three:
	MOVBU 1(R0), R13
	AND   $0x3F, R13
	AND   $0x0F, R7
	ORR   R8<<6, R13, R13
	ORR   R7<<12, R13, R13
	MOVH  R13, -2(R2)
	B     wloop

w14four:
	// If the last block ends with a lead of 4 bytes, the next one, which
	// holds its low surrogate, takes the path of 4-byte characters.
	CMP   $0xF0, R7
	BLO   wloop
	CMP   R3, R0
	BHI   wdone
	CMP   R6, R2
	BHI   wdone
	VLD1  (R0), [V0.B16, V1.B16]
	B     wfour

wtwo:
	WHALF2(V0, 0, V2, V8, V9, V16, 16)
	WHALF2(V1, 1, V3, V10, V11, V17, 17)
	WGATHER
	ADD   $32, R0

wtwos:
	// Text without 3-byte characters goes on two blocks at a time, where
	// src and dst have room for both, until a block has one.
	CMP   R25, R0
	BHI   wloop
	CMP   R24, R2
	BHI   wloop
	VLD1  (R0), [V0.B16, V1.B16, V2.B16, V3.B16]
	VUMAX V1.B16, V0.B16, V4.B16
	VUMAX V3.B16, V2.B16, V5.B16
	VUMAX V5.B16, V4.B16, V4.B16
	UMAXVB(4, 4)
	VMOV  V4.B[0], R7
	CMP   $0xE0, R7
	BHS   wloop
	ADD   $1, R0, R8
	VLD1  (R8), [V4.B16, V5.B16, V6.B16, V7.B16]
	WHALF2(V0, 0, V4, V8, V9, V16, 16)
	WHALF2(V1, 1, V5, V10, V11, V17, 17)
	WHALF2(V2, 2, V6, V12, V13, V18, 18)
	WHALF2(V3, 3, V7, V14, V15, V19, 19)
	// Byte j of R13 for bytes 8j..8j+7.
	VADDP V17.B16, V16.B16, V16.B16
	VADDP V19.B16, V18.B16, V18.B16
	VADDP V18.B16, V16.B16, V16.B16
	VADDP V16.B16, V16.B16, V16.B16
	VMOV  V16.D[0], R13
	AND   $0xFF, R13, R14
	WGROUP(10, V8, V9)
	UBFX  $8, R13, $8, R14
	WGROUP(12, V8, V9)
	UBFX  $16, R13, $8, R14
	WGROUP(10, V10, V11)
	UBFX  $24, R13, $8, R14
	WGROUP(12, V10, V11)
	UBFX  $32, R13, $8, R14
	WGROUP(10, V12, V13)
	UBFX  $40, R13, $8, R14
	WGROUP(12, V12, V13)
	UBFX  $48, R13, $8, R14
	WGROUP(10, V14, V15)
	LSR   $56, R13, R14
	WGROUP(12, V14, V15)
	ADD   $64, R0
	B     wtwos

wascii:
	VZIP1 V31.B16, V0.B16, V4.B16
	VZIP2 V31.B16, V0.B16, V5.B16
	VZIP1 V31.B16, V1.B16, V6.B16
	VZIP2 V31.B16, V1.B16, V7.B16
	VST1.P [V4.B16, V5.B16, V6.B16, V7.B16], 64(R2)
	ADD   $32, R0
	B     wloop

wdone:
	// The run ends after the last character it wrote, past the bytes of
	// it that lie after the last block; or, if that character has 4
	// bytes and starts in the last byte of the block, before it, its
	// high surrogate taken back.
	CMP   R1, R0
	BEQ   wret
	MOVBU -1(R0), R8
	CMP   $0xF0, R8
	BLO   wskip
	SUB   $2, R2
	SUB   $1, R0
	B     wret

wskip:
	CMP   R4, R0
	BHS   wret
	MOVBU (R0), R7
	AND   $0xC0, R7
	CMP   $0x80, R7
	BNE   wret
	ADD   $1, R0
	B     wskip

wret:
	SUB  R5, R2, R2
	SUB  R1, R0, R0
	MOVD R2, nd+48(FP)
	MOVD R0, ns+56(FP)
	RET

// NSTORE stores the UTF-8 bytes of 4 units, whose length codes are in
// R14, gathered by the indexes in V12 from V8, V9 and V10, and advances
// R2 past them. NGROUP loads those of units 0..3, from narrowIdx (R10);
// NGROUPAT those of units 4g..4g+3, with 4g in off.
#define NSTORE \
	VTBL V12.B16, [V8.B16, V9.B16, V10.B16], V13.B16 \
	MOVBU (R11)(R14), R15                            \
	VST1.P [V13.B16], (R2)(R15)

#define NGROUP \
	LDRQ(12, 10, 14) \
	NSTORE

#define NGROUPAT(off) \
	LDRQ(12, 10, 14)                  \
	VADD off.B16, V12.B16, V12.B16    \
	NSTORE

// NPLANES sets, for the 16 units in V0 and V1, V8 to their first UTF-8
// bytes (L, C0|A or E0|H>>4), V9 to the second of 3 (80|A&3F) and V10 to
// the last of 2 or 3 (80|L&3F), with L and H, the low and high bytes of
// the units, in V2 and V3, A = u>>6 (its low byte) in V4, u >= 80 in V5
// and u >= 800 in V6. It uses V7.
#define NPLANES \
	VUZP1 V1.B16, V0.B16, V2.B16 \
	VUZP2 V1.B16, V0.B16, V3.B16 \
	VUSHR $6, V2.B16, V4.B16 \
	VSLI  $2, V3.B16, V4.B16 \
	VUSHR  $7, V2.B16, V5.B16 \
	VORR   V3.B16, V5.B16, V5.B16 \
	VCMTST V5.B16, V5.B16, V5.B16 \
	CMHS(6, 3, 28) \
	VORR  V26.B16, V4.B16, V8.B16 \
	VBIF  V5.B16, V2.B16, V8.B16 \
	VUSHR $4, V3.B16, V7.B16 \
	VORR  V27.B16, V7.B16, V7.B16 \
	VBIT  V6.B16, V7.B16, V8.B16 \
	VAND  V25.B16, V4.B16, V9.B16 \
	VORR  V24.B16, V9.B16, V9.B16 \
	VAND  V25.B16, V2.B16, V10.B16 \
	VORR  V24.B16, V10.B16, V10.B16

// NCODES stores the UTF-8 bytes of the 16 units whose planes NPLANES
// made, with V5 and V6 as their length codes (V6 with u >= 800 only
// where the unit takes 3 bytes), and advances R2 past them.
#define NCODES \
	VAND  V29.B16, V5.B16, V11.B16 \
	VAND  V30.B16, V6.B16, V12.B16 \
	VORR  V12.B16, V11.B16, V11.B16 \
	VADDP V11.B16, V11.B16, V11.B16 \
	VADDP V11.B16, V11.B16, V11.B16 \
	VMOV  V11.S[0], R13            \
	AND   $0xFF, R13, R14          \
	NGROUP                         \
	UBFX  $8, R13, $8, R14         \
	NGROUPAT(V17)                  \
	UBFX  $16, R13, $8, R14        \
	NGROUPAT(V18)                  \
	LSRW  $24, R13, R14            \
	NGROUPAT(V19)

// N14CHECK sets, for 16 units of UTF-16 whose low and high bytes are in
// l and h and the high bytes of the units after them in hn, e (t0's
// register) to FF in the lanes of units that are neither ASCII nor a
// surrogate, of high surrogates not before a low one and of low ones
// not after a high one (but lane 0), and hn to the lanes' bits
// (laneBits, V16) where the unit is a high surrogate. It wants 36 and
// 37 in V17 and V18 and uses t1.
#define N14CHECK(l, h, e, hn, t0, t1) \
	VUSHR  $2, h.B16, e.B16        \
	VUSHR  $2, hn.B16, hn.B16      \
	VCMEQ  V18.B16, hn.B16, hn.B16 \
	VCMEQ  V17.B16, e.B16, t0.B16  \
	VCMEQ  V18.B16, e.B16, e.B16   \
	VUSHR  $7, l.B16, t1.B16       \
	VORR   h.B16, t1.B16, t1.B16   \
	VCMTST t1.B16, t1.B16, t1.B16  \
	VORR   t0.B16, e.B16, e.B16    \
	VEOR   t1.B16, e.B16, e.B16    \
	VEOR   t0.B16, hn.B16, hn.B16  \
	VORR   hn.B16, e.B16, e.B16    \
	VAND   V16.B16, t0.B16, hn.B16

// N14FIRST sets f to the first UTF-8 bytes of 16 units whose low and
// high bytes are in l (number nl) and h, where na (N14CHECK's t1) is FF for those
// of 80 or more: l for ASCII, F0|v>>8 for a high surrogate, with v>>8 =
// (h&3) + (l >= C0). It wants 3C in V19 and C0 in V26 and uses V12.
#define N14FIRST(l, nl, h, na, f) \
	VMOV  h.B16, f.B16          \
	VSLI  $2, V19.B16, f.B16    \
	CMHS(12, nl, 26)            \
	VSUB  V12.B16, f.B16, f.B16 \
	VBIF  na.B16, l.B16, f.B16

// N14THIRD sets t to the third UTF-8 bytes of the low surrogates among
// 16 units whose low and high bytes are in l and h, where p holds the
// low bytes of the units before them: 80 | (p&3)<<4 | (h&3)<<2 | l>>6.
#define N14THIRD(l, h, p, t) \
	VUSHR $6, l.B16, t.B16 \
	VSLI  $2, h.B16, t.B16 \
	VSLI  $4, p.B16, t.B16 \
	VBIF  V25.B16, V24.B16, t.B16

// N14GROUP stores the UTF-8 bytes of 8 units, gathered by the entry of
// the table at Rtab (narrow14Idx, whose key is in R7) from the planes
// b1..b4, and advances R2 past them.
#define N14GROUP(tab, b1, b2, b3, b4) \
	LDRQ(12, tab, 7)                                             \
	VTBL V12.B16, [b1.B16, b2.B16, b3.B16, b4.B16], V13.B16 \
	MOVBU (R24)(R7), R8                                          \
	VST1.P [V13.B16], (R2)(R8)

// func narrowNEON(dst, src []byte, stopLo, stopN uint32) (nd, ns int)
// Requires: NEON.
TEXT ·narrowNEON(SB), NOSPLIT, $0-72
	MOVD  dst_base+0(FP), R2
	MOVD  dst_len+8(FP), R6
	MOVD  src_base+24(FP), R0
	MOVD  src_len+32(FP), R4
	MOVWU stopLo+48(FP), R7
	VDUP  R7, V20.H8
	MOVWU stopN+52(FP), R7
	VDUP  R7, V21.H8
	MOVD  R2, R5      // dst
	ADD   R5, R6, R6
	SUB   $64, R6, R6 // the last dst position with Room bytes after it
	MOVD  R0, R1      // src
	ADD   R1, R4, R4
	SUB   $34, R4, R3 // the last block start with 2 bytes after the block
	MOVD  $0xD800, R12
	VDUP  R12, V22.H8
	MOVD  $0x800, R7
	VDUP  R7, V23.H8
	MOVD  $narrowIdx<>(SB), R10
	MOVD  $narrowLen<>(SB), R11
	MOVD  $narrow2Idx<>(SB), R20
	ADD   $4096, R20, R22
	MOVD  $narrow2Len<>(SB), R21
	MOVD  $laneBits<>(SB), R7
	VLD1  (R7), [V16.B16]
	MOVD  $laneBits<>+16(SB), R7
	VLD1  (R7), [V29.B16, V30.B16]
	VMOVI $0x80, V24.B16
	VMOVI $0x3F, V25.B16
	VMOVI $0xC0, V26.B16
	VMOVI $0xE0, V27.B16
	VMOVI $0x08, V28.B16
	VMOVI $4, V17.B16
	VMOVI $8, V18.B16
	VMOVI $12, V19.B16
	MOVD  $0, R19

nloop:
	CMP   R3, R0
	BHI   ndone
	CMP   R6, R2
	BHI   ndone
	VLD1  (R0), [V0.H8, V1.H8]
	VUMAX V1.H8, V0.H8, V2.H8
	UMAXVH(2, 2)
	VMOV  V2.H[0], R7
	CMP   $0x80, R7
	BLO   nascii
	CMP   R12, R7
	BLO   nbmp
	MOVD  $0, R23

nsurr:
	// UTF-16 of ASCII and surrogate pairs only goes on two blocks at a
	// time (n14) from a block not before R19 and without units from E000
	// on (R7 holds the block's greatest), where src and dst have room for
	// both (dst for the low surrogate the block starts with too, R23 1),
	// and lane 0 holds a low surrogate just where R23 is 1.
	CMP   $0xE000, R7
	BHS   nsurrg
	CMP   R19, R0
	BLO   nsurrg
	SUB   $32, R3, R16 // the last start of 2 blocks with 2 bytes after them
	SUB   $64, R6, R17 // the last dst position with room for 2 blocks
	CMP   R16, R0
	BHI   nsurrg
	ADD   R23<<1, R2, R8
	CMP   R17, R8
	BHI   nsurrg
	VMOV  V0.H[0], R8
	LSRW  $10, R8, R8
	CMPW  $0x37, R8
	CSET  EQ, R8
	CMP   R23, R8
	BNE   nsurrg
	MOVD  $narrow14Idx<>(SB), R25
	ADD   $8192, R25, R9
	MOVD  $narrow14Len<>(SB), R24
	VMOVI $0x36, V17.B16
	VMOVI $0x37, V18.B16
	VMOVI $0x3C, V19.B16
	// V31: lane 15 holds the low byte of the unit before, a high
	// surrogate where R23 is 1.
	MOVD  $0, R8
	CBZ   R23, 2(PC)
	MOVBU -2(R0), R8
	VDUP  R8, V31.B16

n14:
	// The low and high bytes of 32 units (L and H: V8, V9 for units 0
	// to 15, V10, V11 for 16 to 31) and the high ones of the units after
	// them (V13, V15). Each unit must be ASCII, a high surrogate (H>>2
	// 36) before a low one (37), or a low one after a high one; R23 is 1
	// where unit 0 is a low one.
	CMP    R16, R0
	BHI    n14out
	ADD    R23<<1, R2, R8
	CMP    R17, R8
	BHI    n14out
	ADD    $2, R0, R8
	VLD2.P 32(R0), [V8.B16, V9.B16]
	VLD2.P 32(R0), [V10.B16, V11.B16]
	VLD2.P 32(R8), [V12.B16, V13.B16]
	VLD2   (R8), [V14.B16, V15.B16]
	N14CHECK(V8, V9, V12, V13, V0, V1)
	N14CHECK(V10, V11, V14, V15, V2, V3)
	VORR   V14.B16, V12.B16, V12.B16
	UMAXVB(12, 12)
	VMOV   V12.B[0], R8
	CBNZ   R8, n14stop
	// R13: the bits of the high surrogates, bit i for unit i.
	VADDP  V15.B16, V13.B16, V13.B16
	VADDP  V13.B16, V13.B16, V13.B16
	VADDP  V13.B16, V13.B16, V13.B16
	VMOV   V13.S[0], R13
	// The UTF-8 bytes, first to fourth, of units 0 to 15 in V0..V3 and
	// of units 16 to 31 in V4..V7: an ASCII unit's L in the first; a
	// high surrogate h's F0|v>>8 and 80|v>>2&3F, with v = h-D7C0, in the
	// first and second; a low one's 80|(v&3)<<4|l>>6&0F and 80|l&3F in
	// the third and fourth, v&3 being the low bits of the unit before.
	N14FIRST(V8, 8, V9, V1, V0)
	N14FIRST(V10, 10, V11, V3, V4)
	VSUB   V26.B16, V8.B16, V1.B16
	VUSHR  $2, V1.B16, V1.B16
	VORR   V24.B16, V1.B16, V1.B16
	VSUB   V26.B16, V10.B16, V5.B16
	VUSHR  $2, V5.B16, V5.B16
	VORR   V24.B16, V5.B16, V5.B16
	VEXT   $15, V8.B16, V31.B16, V12.B16
	N14THIRD(V8, V9, V12, V2)
	VEXT   $15, V10.B16, V8.B16, V12.B16
	N14THIRD(V10, V11, V12, V6)
	VMOV   V8.B16, V3.B16
	VBIF   V25.B16, V24.B16, V3.B16
	VMOV   V10.B16, V7.B16
	VBIF   V25.B16, V24.B16, V7.B16
	VMOV   V10.B16, V31.B16
	// R14: the bits of the units that are no high surrogate, bit i+1
	// for unit i and bit 0 for the unit before.
	ORR    R13<<1, R23, R14
	MVN    R14, R14
	LSRW   $31, R13, R23
	AND    $0x1FF, R14, R7
	N14GROUP(25, V0, V1, V2, V3)
	UBFX   $8, R14, $9, R7
	N14GROUP(9, V0, V1, V2, V3)
	UBFX   $16, R14, $9, R7
	N14GROUP(25, V4, V5, V6, V7)
	UBFX   $24, R14, $9, R7
	N14GROUP(9, V4, V5, V6, V7)
	B      n14

n14stop:
	// The first block of the two takes the general path.
	SUB   $64, R0
	ADD   $32, R0, R19
	VLD1  (R0), [V0.H8, V1.H8]
	VMOVI $4, V17.B16
	VMOVI $8, V18.B16
	VMOVI $12, V19.B16
	B     nsurrg

n14out:
	VMOVI $4, V17.B16
	VMOVI $8, V18.B16
	VMOVI $12, V19.B16
	CBNZ  R23, nloopc
	B     nloop

nsurrg:
	// Units from D800 on, and R23 1 where the block before ended with a
	// high surrogate. Stop at a unit in the stop range, which starts at
	// D800 or later, if there is one.
	MOVWU stopN+52(FP), R8
	CBZ   R8, nsurrs
	VSUB  V20.H8, V0.H8, V4.H8
	VSUB  V20.H8, V1.H8, V5.H8
	CMHIH(4, 21, 4)
	CMHIH(5, 21, 5)
	VORR  V5.B16, V4.B16, V4.B16
	UMAXVH(4, 4)
	VMOV  V4.H[0], R8
	CBNZ  R8, nstop

nsurrs:
	VSUB  V22.H8, V0.H8, V6.H8
	VSUB  V22.H8, V1.H8, V7.H8
	CMHIH(2, 23, 6)
	CMHIH(3, 23, 7)
	VORR  V3.B16, V2.B16, V2.B16
	UMAXVH(2, 2)
	VMOV  V2.H[0], R8
	CBZ   R8, nmulti
	// Surrogates: every high one (V6, V7) must come before a low one,
	// the unit after it (V2, V3), and lane 0 hold a low one just where
	// the block before ended with a high one; else stop.
	MOVD  $0x400, R8
	VDUP  R8, V13.H8
	CMHIH(6, 13, 6)
	CMHIH(7, 13, 7)
	ADD   $2, R0, R8
	VLD1  (R8), [V2.H8, V3.H8]
	MOVD  $0xDC00, R8
	VDUP  R8, V11.H8
	VSUB  V11.H8, V2.H8, V2.H8
	VSUB  V11.H8, V3.H8, V3.H8
	CMHIH(2, 13, 2)
	CMHIH(3, 13, 3)
	// The unit after the block counts only after a high surrogate: a
	// lone low one there is the next block's to stop at.
	VAND  V7.B16, V3.B16, V12.B16
	VMOV  V12.H[7], V3.H[7]
	VEOR  V6.B16, V2.B16, V2.B16
	VEOR  V7.B16, V3.B16, V3.B16
	VORR  V3.B16, V2.B16, V2.B16
	UMAXVH(2, 2)
	VMOV  V2.H[0], R8
	CBNZ  R8, nstop
	VMOV  V0.H[0], R8
	LSRW  $10, R8, R8
	CMPW  $0x37, R8
	CSET  EQ, R8
	CMP   R23, R8
	BNE   nstop
	// V14: FF for high surrogates, V15 for low ones, R24 not 0 if the
	// block ends with a high one.
	VMOV  V7.H[7], R24
	VUZP1 V7.B16, V6.B16, V14.B16
	NEG   R23, R8
	VDUP  R8, V15.B16
	VEXT  $15, V14.B16, V15.B16, V15.B16
	// A pair c makes F0|v>>8, 80|v>>2&3F from the high surrogate h,
	// with v = h-D7C0 = c>>10, in V12 and V11 ...
	MOVD  $0xD7C0, R8
	VDUP  R8, V11.H8
	VSUB  V11.H8, V0.H8, V12.H8
	VSUB  V11.H8, V1.H8, V13.H8
	VUZP1 V13.B16, V12.B16, V11.B16
	VUZP2 V13.B16, V12.B16, V12.B16
	VMOVI $0xF0, V13.B16
	VORR  V13.B16, V12.B16, V12.B16
	VUSHR $2, V11.B16, V11.B16
	VORR  V24.B16, V11.B16, V11.B16
	NPLANES
	// ... and 80|(h&3)<<4|l>>6&0F, 80|l&3F from the low one l: the
	// low byte of h is in the lane before, or, for lane 0, at R0-2.
	MOVD  $0, R8
	CBZ   R23, 2(PC)
	MOVBU -2(R0), R8
	VDUP  R8, V13.B16
	VEXT  $15, V2.B16, V13.B16, V13.B16
	VMOVI $0x0F, V7.B16
	VAND  V7.B16, V4.B16, V7.B16
	VSLI  $4, V13.B16, V7.B16
	VMOV  V24.B16, V13.B16
	VBIT  V25.B16, V7.B16, V13.B16
	VBIT  V14.B16, V12.B16, V8.B16
	VBIT  V14.B16, V11.B16, V10.B16
	VBIT  V15.B16, V13.B16, V8.B16
	// Each surrogate takes 2 bytes: first and last.
	VORR  V15.B16, V14.B16, V7.B16
	VEOR  V7.B16, V6.B16, V6.B16
	NCODES
	ADD   $32, R0
	CBZ   R24, nloop

nloopc:
	// The block after one that ended with a high surrogate, whose low
	// one it starts with, which it writes. Where it stops, the low one
	// is written and read, as the reference does in the block before.
	MOVD  $1, R23
	CMP   R3, R0
	BHI   nstopc
	ADD   $2, R2, R8
	CMP   R6, R8
	BHI   nstopc
	VLD1  (R0), [V0.H8, V1.H8]
	VUMAX V1.H8, V0.H8, V2.H8
	UMAXVH(2, 2)
	VMOV  V2.H[0], R7
	B     nsurr

nstop:
	CBZ   R23, ndone

nstopc:
	MOVHU -2(R0), R8
	MOVHU (R0), R9
	AND   $3, R8
	LSL   $4, R8
	UBFX  $6, R9, $4, R10
	ORR   R10, R8
	ORR   $0x80, R8
	MOVB  R8, (R2)
	AND   $0x3F, R9
	ORR   $0x80, R9
	MOVB  R9, 1(R2)
	ADD   $2, R2
	ADD   $2, R0
	B     ndone

nbmp:
	MOVD  $0x800, R8
	CMP   R8, R7
	BLO   ntwo

nmulti:
	NPLANES
	// All 3 bytes?
	VAND  V29.B16, V5.B16, V11.B16
	VAND  V30.B16, V6.B16, V12.B16
	VORR  V12.B16, V11.B16, V11.B16
	VADDP V11.B16, V11.B16, V11.B16
	VADDP V11.B16, V11.B16, V11.B16
	VMOV  V11.S[0], R13
	CMNW  $1, R13
	BEQ   nthree
	AND   $0xFF, R13, R14
	NGROUP
	UBFX  $8, R13, $8, R14
	NGROUPAT(V17)
	UBFX  $16, R13, $8, R14
	NGROUPAT(V18)
	LSRW  $24, R13, R14
	NGROUPAT(V19)
	ADD   $32, R0
	B     nloop


ntwo:
	// Units below 800. L and H in V2 and V3, A = u>>6 in V4, u >= 80 in
	// V5; the first bytes (V8): L or C0|A; the last of 2 (V9): 80|L&3F.
	VUZP1  V1.B16, V0.B16, V2.B16
	VUZP2  V1.B16, V0.B16, V3.B16
	VUSHR  $6, V2.B16, V4.B16
	VSLI   $2, V3.B16, V4.B16
	VUSHR  $7, V2.B16, V5.B16
	VORR   V3.B16, V5.B16, V5.B16
	VCMTST V5.B16, V5.B16, V5.B16
	VORR   V26.B16, V4.B16, V8.B16
	VBIF   V5.B16, V2.B16, V8.B16
	VAND   V25.B16, V2.B16, V9.B16
	VORR   V24.B16, V9.B16, V9.B16
	// The bits of the units of 2 bytes, byte h of R13 for units
	// 8h..8h+7.
	VAND   V16.B16, V5.B16, V11.B16
	VADDP  V11.B16, V11.B16, V11.B16
	VADDP  V11.B16, V11.B16, V11.B16
	VADDP  V11.B16, V11.B16, V11.B16
	VMOV   V11.H[0], R13
	AND    $0xFF, R13, R14
	LDRQ(12, 20, 14)
	VTBL   V12.B16, [V8.B16, V9.B16], V13.B16
	MOVBU  (R21)(R14), R15
	VST1.P [V13.B16], (R2)(R15)
	LSRW   $8, R13, R14
	LDRQ(12, 22, 14)
	VTBL   V12.B16, [V8.B16, V9.B16], V13.B16
	MOVBU  (R21)(R14), R15
	VST1.P [V13.B16], (R2)(R15)
	ADD    $32, R0
	B      nloop

nthree:
	// 16 units of 3 bytes.
	VST3.P [V8.B16, V9.B16, V10.B16], 48(R2)
	ADD    $32, R0
	B      nloop

nascii:
	VUZP1  V1.B16, V0.B16, V2.B16
	VST1.P [V2.B16], 16(R2)
	ADD    $32, R0
	B      nloop

ndone:
	SUB  R5, R2, R2
	SUB  R1, R0, R0
	MOVD R2, nd+56(FP)
	MOVD R0, ns+64(FP)
	RET
