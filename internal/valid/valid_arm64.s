//go:build gc && !purego

// UTF-8 validation kernels for arm64 NEON, after Keiser and Lemire,
// "Validating UTF-8 in less than one instruction per byte" (2021), as
// valid_amd64.s; see there for the method. Every byte is checked against
// the three bytes before it, which are loaded again from memory at offsets
// -1, -2 and -3. The kernels check two blocks of 64 bytes (four registers)
// an iteration, with one test for errors, and skip runs of ASCII 128 bytes
// at a time; input shorter than 64 bytes, and what is left after the last
// whole block, they check 16 bytes at a time.
//
// Two changes cut the work per byte below that of the amd64 kernels:
//
//   - The two lookups by the nibbles of the earlier byte are one lookup by
//     the whole byte. Only lead bytes (C0..FF) differ from each other
//     there, so TBX looks them up in a 64-byte table (lead, below) by the
//     byte XOR C0, and leaves every other earlier byte with the
//     TwoConts bit it starts from (VMOVI): that byte leads nothing, so a
//     continuation byte after it is an error unless the byte two or three
//     places before it leads a 3- or 4-byte sequence.
//   - That exception is added, not XORed: CMHS gives FF (-1) where the
//     byte two places before is E0 or above and where the byte three
//     places before is F0 or above, and TwoConts is the bit 0x01, so that
//     the sum is zero exactly where a continuation byte is wanted and
//     found. No entry holds 0x02, so two such -1s cannot cancel an error
//     either (they come only after an error in an earlier byte).
//
// That makes 10 instructions a register, against 13 for three TBL lookups
// and the masked XOR. One of them is TBX of four registers, which some
// cores (Cortex-A57 and its kin) split into several micro-ops.
//
// A kernel returns n, a prefix length: n == len(p) means that all of p is
// well-formed; otherwise p[:n] holds no error, but its last sequence may be
// unfinished or wrong in a way that only the bytes from n on show, and the
// caller backs up to the start of that sequence and finishes in Go.
//
// Go's assembler has no UMAXV or CMHS, which are WORD encodings here:
//
//	UMAXV Bd, Vn.16B          0x6E30A800 | n<<5 | d
//	CMHS  Vd.16B, Vn.16B, Vm.16B  0x6E203C00 | m<<16 | n<<5 | d

#include "textflag.h"

// The entries load their arguments as the bodies take them.
#define CHECKARGS(table) \
	MOVD p_base+0(FP), R0 \
	MOVD p_len+8(FP), R1  \
	MOVD $table(SB), R10  \
	MOVD $ret+24(FP), R19

#define COPYARGS(table) \
	MOVD dst_base+0(FP), R8  \
	MOVD src_base+24(FP), R0 \
	MOVD src_len+32(FP), R1  \
	SUB  R0, R8, R14         \
	MOVD $table(SB), R10     \
	MOVD $ret+48(FP), R19

// The error bits of the tables, by the names of valid_amd64.s, in an order
// of their own (table_neon_test.go builds the tables from them and checks
// the bytes below):
//
//	TwoConts   0x01  a continuation byte after a byte that leads nothing
//	                 (ASCII or a continuation byte: valid_amd64.s's
//	                 TooLong and TwoConts), wanted only 2 or 3 bytes after
//	                 a 3- or 4-byte lead
//	TooShort   0x04  a lead byte not followed by a continuation byte
//	Overlong3  0x08  E0 followed by 80..9F
//	TooLarge   0x10  F4 followed by 90..BF, or F5..FF followed by 90..BF
//	Surrogate  0x20  ED followed by A0..BF
//	Overlong2  0x40  C0 or C1 followed by a continuation byte
//	Overlong4  0x80  F0 followed by 80..8F; also F5..FF followed by 80..8F
//
// A byte shows an error where the lookup by the byte before it and the
// lookup by its own high nibble share a bit, other than TwoConts where a
// continuation byte is wanted there.

// lead, by the earlier byte less C0:
//
//	C0..C1  TooShort|Overlong2            44
//	C2..DF  TooShort                      04
//	E0      TooShort|Overlong3            0c
//	E1..EC  TooShort                      04
//	ED      TooShort|Surrogate            24
//	EE..EF  TooShort                      04
//	F0      TooShort|Overlong4            84
//	F1..F3  TooShort                      04
//	F4      TooShort|TooLarge             14
//	F5..FF  TooShort|TooLarge|Overlong4   94
DATA lead<>+0x00(SB)/8, $0x0404040404044444
DATA lead<>+0x08(SB)/8, $0x0404040404040404
DATA lead<>+0x10(SB)/8, $0x0404040404040404
DATA lead<>+0x18(SB)/8, $0x0404040404040404
DATA lead<>+0x20(SB)/8, $0x040404040404040c
DATA lead<>+0x28(SB)/8, $0x0404240404040404
DATA lead<>+0x30(SB)/8, $0x9494941404040484
DATA lead<>+0x38(SB)/8, $0x9494949494949494
GLOBL lead<>(SB), RODATA|NOPTR, $64

// leadEE, lead for the kernels that stop before EE, has EE as
// TooShort|Overlong3|Surrogate (2c), so that EE followed by anything
// shows an error at the byte after it.
DATA leadEE<>+0x00(SB)/8, $0x0404040404044444
DATA leadEE<>+0x08(SB)/8, $0x0404040404040404
DATA leadEE<>+0x10(SB)/8, $0x0404040404040404
DATA leadEE<>+0x18(SB)/8, $0x0404040404040404
DATA leadEE<>+0x20(SB)/8, $0x040404040404040c
DATA leadEE<>+0x28(SB)/8, $0x042c240404040404
DATA leadEE<>+0x30(SB)/8, $0x9494941404040484
DATA leadEE<>+0x38(SB)/8, $0x9494949494949494
GLOBL leadEE<>(SB), RODATA|NOPTR, $64

// leadBMP, lead for the kernels that stop before each byte F0..FF, has
// F0..F4 as TooShort|TooLarge|Overlong4 (94), as F5..FF: curHigh has one
// of TooLarge and Overlong4 for each continuation byte, so that F0..F4
// followed by anything show an error at the byte after the lead.
DATA leadBMP<>+0x00(SB)/8, $0x0404040404044444
DATA leadBMP<>+0x08(SB)/8, $0x0404040404040404
DATA leadBMP<>+0x10(SB)/8, $0x0404040404040404
DATA leadBMP<>+0x18(SB)/8, $0x0404040404040404
DATA leadBMP<>+0x20(SB)/8, $0x040404040404040c
DATA leadBMP<>+0x28(SB)/8, $0x0404240404040404
DATA leadBMP<>+0x30(SB)/8, $0x9494949494949494
DATA leadBMP<>+0x38(SB)/8, $0x9494949494949494
GLOBL leadBMP<>(SB), RODATA|NOPTR, $64

// curHigh, by the high nibble of the later byte:
//
//	0..7  TooShort                                 04
//	8     TwoConts|Overlong3|Overlong2|Overlong4   c9
//	9     TwoConts|Overlong3|TooLarge|Overlong2    59
//	A..B  TwoConts|TooLarge|Surrogate|Overlong2    71
//	C..F  TooShort                                 04
DATA curHigh<>+0x00(SB)/8, $0x0404040404040404
DATA curHigh<>+0x08(SB)/8, $0x04040404717159c9
GLOBL curHigh<>(SB), RODATA|NOPTR, $16

// UMAXV(d, n) is UMAXV Bd, Vn.16B: the greatest byte of Vn into Vd.
#define UMAXV(d, n) WORD $(0x6E30A800 | (n)<<5 | (d))

// CMHS(d, n, m) is CMHS Vd.16B, Vn.16B, Vm.16B: FF in each byte of Vd where
// the byte of Vn is at least that of Vm (unsigned), 00 elsewhere.
#define CMHS(d, n, m) WORD $(0x6E203C00 | (m)<<16 | (n)<<5 | (d))

// SETUP loads the tables, the one at R10 (lead or leadEE) into V24..V27
// and curHigh into V28, and the bytes C0, E0 and F0 into V29, V30, V31.
#define SETUP \
	VLD1  (R10), [V24.B16, V25.B16, V26.B16, V27.B16] \
	MOVD  $curHigh<>(SB), R4                         \
	VLD1  (R4), [V28.B16]                             \
	VMOVI $0xC0, V29.B16                              \
	VMOVI $0xE0, V30.B16                              \
	VMOVI $0xF0, V31.B16

// FIRST sets V4..V7, V8..V11 and V12..V15 to the first block, in V0..V3,
// shifted by 1, 2 and 3 bytes with zeros shifted in: nothing lies before p.
#define FIRST \
	VEOR V20.B16, V20.B16, V20.B16     \
	VEXT $15, V0.B16, V20.B16, V4.B16  \
	VEXT $15, V1.B16, V0.B16, V5.B16   \
	VEXT $15, V2.B16, V1.B16, V6.B16   \
	VEXT $15, V3.B16, V2.B16, V7.B16   \
	VEXT $14, V0.B16, V20.B16, V8.B16  \
	VEXT $14, V1.B16, V0.B16, V9.B16   \
	VEXT $14, V2.B16, V1.B16, V10.B16  \
	VEXT $14, V3.B16, V2.B16, V11.B16  \
	VEXT $13, V0.B16, V20.B16, V12.B16 \
	VEXT $13, V1.B16, V0.B16, V13.B16  \
	VEXT $13, V2.B16, V1.B16, V14.B16  \
	VEXT $13, V3.B16, V2.B16, V15.B16

// CHECK sets V16..V19 to flag the bytes that show an error in the 64-byte
// block in V0..V3 (a byte is flagged where it is not zero), with the bytes
// 1, 2 and 3 places before each of its bytes in V4..V7, V8..V11 and
// V12..V15. It overwrites V0..V19.
#define CHECK \
	VMOVI $1, V16.B16                                               \
	VMOVI $1, V17.B16                                               \
	VMOVI $1, V18.B16                                               \
	VMOVI $1, V19.B16                                               \
	VEOR  V29.B16, V4.B16, V4.B16                                   \
	VEOR  V29.B16, V5.B16, V5.B16                                   \
	VEOR  V29.B16, V6.B16, V6.B16                                   \
	VEOR  V29.B16, V7.B16, V7.B16                                   \
	VTBX  V4.B16, [V24.B16, V25.B16, V26.B16, V27.B16], V16.B16     \
	VTBX  V5.B16, [V24.B16, V25.B16, V26.B16, V27.B16], V17.B16     \
	VTBX  V6.B16, [V24.B16, V25.B16, V26.B16, V27.B16], V18.B16     \
	VTBX  V7.B16, [V24.B16, V25.B16, V26.B16, V27.B16], V19.B16     \
	VUSHR $4, V0.B16, V0.B16                                        \
	VUSHR $4, V1.B16, V1.B16                                        \
	VUSHR $4, V2.B16, V2.B16                                        \
	VUSHR $4, V3.B16, V3.B16                                        \
	VTBL  V0.B16, [V28.B16], V0.B16                                 \
	VTBL  V1.B16, [V28.B16], V1.B16                                 \
	VTBL  V2.B16, [V28.B16], V2.B16                                 \
	VTBL  V3.B16, [V28.B16], V3.B16                                 \
	VAND  V0.B16, V16.B16, V16.B16                                  \
	VAND  V1.B16, V17.B16, V17.B16                                  \
	VAND  V2.B16, V18.B16, V18.B16                                  \
	VAND  V3.B16, V19.B16, V19.B16                                  \
	CMHS(8, 8, 30)                                                  \
	CMHS(9, 9, 30)                                                  \
	CMHS(10, 10, 30)                                                \
	CMHS(11, 11, 30)                                                \
	CMHS(12, 12, 31)                                                \
	CMHS(13, 13, 31)                                                \
	CMHS(14, 14, 31)                                                \
	CMHS(15, 15, 31)                                                \
	VADD  V8.B16, V16.B16, V16.B16                                  \
	VADD  V9.B16, V17.B16, V17.B16                                  \
	VADD  V10.B16, V18.B16, V18.B16                                 \
	VADD  V11.B16, V19.B16, V19.B16                                 \
	VADD  V12.B16, V16.B16, V16.B16                                 \
	VADD  V13.B16, V17.B16, V17.B16                                 \
	VADD  V14.B16, V18.B16, V18.B16                                 \
	VADD  V15.B16, V19.B16, V19.B16

// LOAD loads the block at R0 into V0..V3, stores it in the copying
// kernels, and loads the bytes 1, 2 and 3 places before it into V4..V15.
// It advances R0, R5, R6, R7 (and R8) by 64.
#define LOAD \
	VLD1.P 64(R0), [V0.B16, V1.B16, V2.B16, V3.B16]     \
	STORE(V0, V1, V2, V3)                               \
	VLD1.P 64(R5), [V4.B16, V5.B16, V6.B16, V7.B16]     \
	VLD1.P 64(R6), [V8.B16, V9.B16, V10.B16, V11.B16]   \
	VLD1.P 64(R7), [V12.B16, V13.B16, V14.B16, V15.B16]

// LASTASCII sets bit 7 of R9 where the last 16 bytes of the block in
// V0..V3 are not all ASCII. It overwrites V22.
#define LASTASCII \
	UMAXV(22, 3) \
	VMOV V22.B[0], R9

// CHECK1 is CHECK for the 16 bytes in V0, with the bytes before them in
// V4, V8 and V12; it sets V16 and overwrites V4, V8, V12 and V20.
#define CHECK1 \
	VMOVI $1, V16.B16                                           \
	VEOR  V29.B16, V4.B16, V4.B16                               \
	VTBX  V4.B16, [V24.B16, V25.B16, V26.B16, V27.B16], V16.B16 \
	VUSHR $4, V0.B16, V20.B16                                   \
	VTBL  V20.B16, [V28.B16], V20.B16                           \
	VAND  V20.B16, V16.B16, V16.B16                             \
	CMHS(8, 8, 30)                                              \
	CMHS(12, 12, 31)                                            \
	VADD  V8.B16, V16.B16, V16.B16                              \
	VADD  V12.B16, V16.B16, V16.B16

// OR4 sets d to the OR of V16..V19. It overwrites t.
#define OR4(d, t) \
	VORR V16.B16, V17.B16, d.B16 \
	VORR V18.B16, V19.B16, t.B16 \
	VORR d.B16, t.B16, d.B16

// ANY sets R4 to the greatest byte of register number n, which is zero
// only where all of them are, through register number d, named v.
#define ANY(d, v, n) \
	UMAXV(d, n) \
	VMOV v.B[0], R4

// FIRST1 is FIRST for the 16 bytes in V0.
#define FIRST1 \
	VEOR V20.B16, V20.B16, V20.B16     \
	VEXT $15, V0.B16, V20.B16, V4.B16  \
	VEXT $14, V0.B16, V20.B16, V8.B16  \
	VEXT $13, V0.B16, V20.B16, V12.B16

// FIND adds to R4 the offset in v of its 8 bytes that hold its first
// byte that is not zero, if there is one, and goes to lane with them in
// R6, and adds 16 otherwise.
#define FIND(v) \
	VMOV v.D[0], R6 \
	CBNZ R6, lane   \
	ADD  $8, R4     \
	VMOV v.D[1], R6 \
	CBNZ R6, lane   \
	ADD  $8, R4

// The bodies, one per kind, entered by a JMP from the entries below with
// R0 = src, R1 = len(src), R8 = dst and R14 = dst-src (the copying
// kernel), R10 = the address of the variant's lead table (lead, leadEE or
// leadBMP), and R19 = where the result goes. The stop variants differ from
// the plain kernels in that table alone.

// checkNEON returns in (R19) n such that src[:n] holds no ill-formed
// sequence, except perhaps an unfinished or ill-formed last one that only
// the bytes from n on show (see validNEON in valid_arm64.go).
// Requires: NEON (ASIMD), which every arm64 CPU has.
TEXT ·checkNEON(SB), NOSPLIT, $0-0
#define STORE(a, b, c, d)
#define STORE1(a)
#define DSTBACK
#define DSTSYNC
#include "valid_arm64.h"
	MOVD R11, (R19)
	RET

// copyNEON is checkNEON that stores every block it loads from src to dst.
// Requires: NEON.
TEXT ·copyNEON(SB), NOSPLIT, $0-0
#define STORE(a, b, c, d) VST1.P [a.B16, b.B16, c.B16, d.B16], 64(R8)
#define STORE1(a) VST1.P [a.B16], 16(R8)
#define DSTBACK SUB $128, R8
#define DSTSYNC ADD R14, R0, R8
#include "valid_arm64.h"
	MOVD R11, (R19)
	RET

// func validNEON(p []byte) int
TEXT ·validNEON(SB), NOSPLIT, $0-32
	CHECKARGS(lead<>)
	JMP ·checkNEON(SB)

// func copyValidNEON(dst, src []byte) int
TEXT ·copyValidNEON(SB), NOSPLIT, $0-56
	COPYARGS(lead<>)
	JMP ·copyNEON(SB)

// func validBeforeEENEON(p []byte) int
TEXT ·validBeforeEENEON(SB), NOSPLIT, $0-32
	CHECKARGS(leadEE<>)
	JMP ·checkNEON(SB)

// func copyValidBeforeEENEON(dst, src []byte) int
TEXT ·copyValidBeforeEENEON(SB), NOSPLIT, $0-56
	COPYARGS(leadEE<>)
	JMP ·copyNEON(SB)

// func validBMPNEON(p []byte) int
TEXT ·validBMPNEON(SB), NOSPLIT, $0-32
	CHECKARGS(leadBMP<>)
	JMP ·checkNEON(SB)

// func copyValidBMPNEON(dst, src []byte) int
TEXT ·copyValidBMPNEON(SB), NOSPLIT, $0-56
	COPYARGS(leadBMP<>)
	JMP ·copyNEON(SB)
