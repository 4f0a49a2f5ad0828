//go:build gc && !purego

#include "go_asm.h"
#include "textflag.h"

// The AVX2 kernels: classifyAVX2, and repairAVX2, which classifies as it
// does and then repairs the blocks with the block loop of
// repair_loop_amd64.h, as repairAVX512 does.

#include "repair_amd64.h"

// The constants of the classification, each one byte in all 32 lanes. It
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
//	bEE, bBD       under OPTU8, the lead of the sequences it escapes, and
//	               one less than their second bytes BE..BF: x > bBD
//	               holds for BE..FF and 00..7F, of which only BE and BF
//	               continue EE
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
DATA bEE<>+0(SB)/8, $0xeeeeeeeeeeeeeeee
DATA bEE<>+8(SB)/8, $0xeeeeeeeeeeeeeeee
DATA bEE<>+16(SB)/8, $0xeeeeeeeeeeeeeeee
DATA bEE<>+24(SB)/8, $0xeeeeeeeeeeeeeeee
GLOBL bEE<>(SB), RODATA|NOPTR, $32
DATA bBD<>+0(SB)/8, $0xbdbdbdbdbdbdbdbd
DATA bBD<>+8(SB)/8, $0xbdbdbdbdbdbdbdbd
DATA bBD<>+16(SB)/8, $0xbdbdbdbdbdbdbdbd
DATA bBD<>+24(SB)/8, $0xbdbdbdbdbdbdbdbd
GLOBL bBD<>(SB), RODATA|NOPTR, $32

// CLASSIFY_HALF classifies 32 bytes, with the 32 bytes 1, 2 and 3 places
// on, in Y0, Y1, Y2 and Y3, and leaves the bits of blockClass's m2, m3, m4
// and v for them in m2, m3, m4 and v (32-bit registers). It needs bC0, bA0
// and b90 in Y13, Y14 and Y15, and overwrites Y0 to Y9 and msb. ESC_PRE
// and ESC_POST are instructions that the includer defines: empty, or for
// OPTU8 ESC_PRE_EE and ESC_POST_EE.
//
// A lead byte's unit holds its second byte if that is a continuation byte
// in the lead's range (ok1), its third if it needs one and that is a
// continuation byte, and its fourth likewise; it is well-formed where it
// holds all the bytes its lead needs, and an ASCII byte is a unit of its
// own, well-formed.
#define CLASSIFY_HALF(m2, m3, m4, v, msb) \
	ESC_PRE                          \
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
	ESC_POST                         \
	VPOR     Y7, Y5, Y5              \
	VPOR     Y9, Y5, Y5 /* m4, */ \
	VPMOVMSKB Y5, v                  \
	VPMOVMSKB Y0, msb                \
	NOTL     msb /* and ASCII */ \
	ORL      msb, v

// Under OPTU8 (tab.esc), a valid EE BE xx or EE BF xx is escaped byte by
// byte, as the table escapes ill-formed bytes: ESC_PRE_EE finds EE
// followed by BE..FF or 00..7F (Y10) and gathers them in Y12, and
// ESC_POST_EE clears v there, so that the block loop takes the sequence
// as a subpart of 3 bytes (those followed by C0..FF or 00..7F hold no
// third byte, so v is clear there already). ESC_SAVE stores in const_frameEscAny
// whether any block has one.
#define ESC_PRE_EE \
	VPCMPEQB bEE<>(SB), Y0, Y10 \
	VPCMPGTB bBD<>(SB), Y1, Y11 \
	VPAND    Y11, Y10, Y10      \
	VPOR     Y10, Y12, Y12
#define ESC_POST_EE \
	VPANDN Y7, Y10, Y7
#define ESC_SAVE \
	VPMOVMSKB Y12, AX \
	MOVQ      AX, const_frameEscAny(SP)

// LOAD4(off) loads the 32 bytes at off(SI) and the 32 bytes 1, 2 and 3
// places on into Y0 to Y3, for CLASSIFY_HALF.
#define LOAD4(off) \
	VMOVDQU off(SI), Y0     \
	VMOVDQU off+1(SI), Y1   \
	VMOVDQU off+2(SI), Y2   \
	VMOVDQU off+3(SI), Y3

// STORE_CLASS writes the blockClass at DI from the bits of the block's
// two halves, lo and hi, and overwrites hi.
#define STORE_CLASS(lo2, lo3, lo4, lov, hi2, hi3, hi4, hiv) \
	SHLQ $32, hi2     \
	ORQ  lo2, hi2     \
	MOVQ hi2, 0(DI)   \
	SHLQ $32, hi3     \
	ORQ  lo3, hi3     \
	MOVQ hi3, 8(DI)   \
	SHLQ $32, hi4     \
	ORQ  lo4, hi4     \
	MOVQ hi4, 16(DI)  \
	SHLQ $32, hiv     \
	ORQ  lov, hiv     \
	MOVQ hiv, 24(DI)

// CLASSIFY_BLOCK classifies the block at SI into the blockClass at DI,
// reading up to 66(SI). It overwrites AX, BX, CX, DX, R8 to R12 and Y0 to
// Y9.
#define CLASSIFY_BLOCK \
	LOAD4(0)                                           \
	CLASSIFY_HALF(R8, R9, R10, R11, AX)                \
	LOAD4(32)                                          \
	CLASSIFY_HALF(R12, BX, DX, CX, AX)                 \
	STORE_CLASS(R8, R9, R10, R11, R12, BX, DX, CX)

#define ESC_PRE
#define ESC_POST

// func classifyAVX2(src []byte, out []blockClass)
// Requires: AVX, AVX2
// For each i < len(out) it classifies the 64 bytes at src[64*i:], reading
// up to src[64*i+66]; len(src) must be at least 64*len(out)+3. See
// classifyGeneric.
TEXT ·classifyAVX2(SB), NOSPLIT, $0-48
	MOVQ    src_base+0(FP), SI
	MOVQ    out_base+24(FP), DI
	MOVQ    out_len+32(FP), R15
	TESTQ   R15, R15
	JZ      done
	VMOVDQU bC0<>(SB), Y13
	VMOVDQU bA0<>(SB), Y14
	VMOVDQU b90<>(SB), Y15

loop:
	CLASSIFY_BLOCK
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ R15
	JNZ  loop

done:
	VZEROUPPER
	RET

// The constants of repairAVX2's paths:
//
//	iota      the bytes 0 to 63, to keep the first st.tail bytes of a tail
//	expandD8  the indexes for VPSHUFB that spread a 32-bit mask, broadcast
//	          to each 32-bit lane, over 32 bytes, a mask byte to 8 bytes:
//	          mask bytes 0 and 2 to the low 128-bit lane, 1 and 3 to the
//	          high one, the order of 32 bytes after VPERMQ $0xD8
//	bitsel    each 8 bytes 01 02 04 .. 80, to pick out one bit of the
//	          mask byte in each byte
//	two       32 bytes 02: cRest
DATA iota<>+0(SB)/8, $0x0706050403020100
DATA iota<>+8(SB)/8, $0x0f0e0d0c0b0a0908
DATA iota<>+16(SB)/8, $0x1716151413121110
DATA iota<>+24(SB)/8, $0x1f1e1d1c1b1a1918
DATA iota<>+32(SB)/8, $0x2726252423222120
DATA iota<>+40(SB)/8, $0x2f2e2d2c2b2a2928
DATA iota<>+48(SB)/8, $0x3736353433323130
DATA iota<>+56(SB)/8, $0x3f3e3d3c3b3a3938
GLOBL iota<>(SB), RODATA|NOPTR, $64
DATA expandD8<>+0(SB)/8, $0x0000000000000000
DATA expandD8<>+8(SB)/8, $0x0202020202020202
DATA expandD8<>+16(SB)/8, $0x0101010101010101
DATA expandD8<>+24(SB)/8, $0x0303030303030303
GLOBL expandD8<>(SB), RODATA|NOPTR, $32
DATA bitsel<>+0(SB)/8, $0x8040201008040201
DATA bitsel<>+8(SB)/8, $0x8040201008040201
DATA bitsel<>+16(SB)/8, $0x8040201008040201
DATA bitsel<>+24(SB)/8, $0x8040201008040201
GLOBL bitsel<>(SB), RODATA|NOPTR, $32
DATA two<>+0(SB)/8, $0x0202020202020202
DATA two<>+8(SB)/8, $0x0202020202020202
DATA two<>+16(SB)/8, $0x0202020202020202
DATA two<>+24(SB)/8, $0x0202020202020202
GLOBL two<>(SB), RODATA|NOPTR, $32

// func repairAVX2(dst, src []byte, n int, tab *Table, st *state)
// Requires: AVX, AVX2, BMI1, POPCNT
// It classifies the n <= const_batch blocks from st.p on into its frame, as classifyAVX2 does, and then
// repairs them: a block with a few ill-formed bytes as copies of the
// valid runs between them and a table word for each, one with const_denseMin
// or more in the dense path, a table word for each of its bytes. See
// kernelBlocks.
TEXT ·repairAVX2(SB), $1048-72
	REPAIR_ENTER
	VMOVDQU bC0<>(SB), Y13
	VMOVDQU bA0<>(SB), Y14
	VMOVDQU b90<>(SB), Y15
	MOVQ    src_base+24(FP), SI
	LEAQ    (SP), DI
	CMPQ    state_tail(R14), $0
	JNE     tail
	ADDQ    state_p(R14), SI
	CMPB    Table_esc(R13), $0
	JNE     classifyEsc

classifyLoop:
	CLASSIFY_BLOCK
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ R15
	JNZ  classifyLoop
	JMP  classified

classifyEsc:
	VPXOR Y12, Y12, Y12
#undef ESC_PRE
#undef ESC_POST
#define ESC_PRE ESC_PRE_EE
#define ESC_POST ESC_POST_EE

classifyLoopEsc:
	CLASSIFY_BLOCK
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ R15
	JNZ  classifyLoopEsc
	ESC_SAVE

classified:
	MOVQ n+48(FP), R15
	MOVQ src_base+24(FP), SI

// The block loop keeps the dense path's constants in Y10 to Y12.
#define REPAIR_SETUP \
	VMOVDQU expandD8<>(SB), Y10 \
	VMOVDQU bitsel<>(SB), Y11   \
	VMOVDQU two<>(SB), Y12
#define COPY64(r) \
	VMOVDQU (SI)(r*1), Y0     \
	VMOVDQU 32(SI)(r*1), Y1   \
	VMOVDQU Y0, (DI)(BX*1)    \
	VMOVDQU Y1, 32(DI)(BX*1)
#define ESC_STARTS \
	VMOVDQU   bEE<>(SB), Y0        \
	VPCMPEQB  (SI)(DX*1), Y0, Y1   \
	VPCMPEQB  32(SI)(DX*1), Y0, Y0 \
	VPMOVMSKB Y1, AX               \
	VPMOVMSKB Y0, R8               \
	SHLQ      $32, R8              \
	ORQ       R8, AX
#define DENSE_TEST \
	POPCNTQ R10, AX         \
	CMPQ    AX, $const_denseMin  \
	JAE     dense
#include "repair_loop_amd64.h"

// KINDS sets y to the kinds of 32 bytes, in the order of VPERMQ $0xD8,
// from the low 32 bits of start in xs and of bad in xb: cStart (1) where
// start is set, cRest (2) where only bad is, cValid (0) elsewhere (start
// is within bad). It overwrites xs and xb and their Y registers.
#define KINDS(xs, xb, ys, yb) \
	VPBROADCASTD xs, ys     \
	VPSHUFB      Y10, ys, ys \
	VPAND        Y11, ys, ys \
	VPCMPEQB     Y11, ys, ys \
	VPBROADCASTD xb, yb     \
	VPSHUFB      Y10, yb, yb \
	VPAND        Y11, yb, yb \
	VPCMPEQB     Y11, yb, yb \
	VPAND        Y12, yb, yb \
	VPADDB       ys, yb, yb

// PUT writes the output of the byte whose table index i is the low word of
// R8, tab.out[i], counts tab.n[i] of it, and shifts the next index down.
// PUT4 does so for the 4 bytes whose indexes are in R8, and PUT16 for the
// 16 in y, which it overwrites (x is its low half).
#define PUT \
	MOVWQZX R8, AX               \
	SHRQ    $16, R8              \
	MOVQ    (R13)(AX*8), CX      \
	MOVQ    CX, (DI)(BX*1)       \
	MOVBQZX Table_n(R13)(AX*1), CX \
	ADDQ    CX, BX
#define PUT4 \
	PUT \
	PUT \
	PUT \
	PUT
#define PUT16(x, y) \
	VMOVQ        x, R8     \
	PUT4                   \
	VPEXTRQ      $1, x, R8 \
	PUT4                   \
	VEXTRACTI128 $1, y, x  \
	VMOVQ        x, R8     \
	PUT4                   \
	VPEXTRQ      $1, x, R8 \
	PUT4

dense:
	// The table index kind<<8|b of each byte of the block, 16 to a Y
	// register: the kinds from start (R9) and bad (R10), and the bytes,
	// each half in the order of VPERMQ $0xD8, which VPUNPCKLBW and
	// VPUNPCKHBW, each within 128-bit lanes, put back in order.
	VMOVQ      R9, X0
	VMOVQ      R10, X1
	VPSRLQ     $32, X0, X2
	VPSRLQ     $32, X1, X3
	KINDS(X0, X1, Y0, Y1)
	KINDS(X2, X3, Y2, Y3)
	VPERMQ     $0xD8, (SI)(DX*1), Y4
	VPERMQ     $0xD8, 32(SI)(DX*1), Y5
	VPUNPCKLBW Y1, Y4, Y6
	VPUNPCKHBW Y1, Y4, Y7
	VPUNPCKLBW Y3, Y5, Y8
	VPUNPCKHBW Y3, Y5, Y9
	PUT16(X6, Y6)
	PUT16(X7, Y7)
	PUT16(X8, Y8)
	PUT16(X9, Y9)
	JMP        next

// CLASSIFY_TAIL classifies the block at R8, 32-byte aligned and followed
// by 32 zeros, into the blockClass at DI, making the bytes 1, 2 and 3
// places on with VPALIGNR rather than loading them across the stores
// that just wrote the block. It overwrites AX, BX, CX, DX, R9 to R12, R15
// and Y0 to Y9.
#define CLASSIFY_TAIL \
	VMOVDQA    (R8), Y0                     \
	VPERM2I128 $0x21, 32(R8), Y0, Y9        \
	VPALIGNR   $1, Y0, Y9, Y1               \
	VPALIGNR   $2, Y0, Y9, Y2               \
	VPALIGNR   $3, Y0, Y9, Y3               \
	CLASSIFY_HALF(R9, R10, R11, R12, AX)    \
	VMOVDQA    32(R8), Y0                   \
	VPERM2I128 $0x81, Y0, Y0, Y9            \
	VPALIGNR   $1, Y0, Y9, Y1               \
	VPALIGNR   $2, Y0, Y9, Y2               \
	VPALIGNR   $3, Y0, Y9, Y3               \
	CLASSIFY_HALF(BX, CX, DX, R15, AX)      \
	STORE_CLASS(R9, R10, R11, R12, BX, CX, DX, R15)

tail:
	// A tail of st.tail <= 64 bytes of input, the whole of src, which
	// kernelTail sends as one block (R15 is 1) and the kernel pads with
	// zeros itself. The 64 bytes from src's start lie on one page
	// (tailReadable): they are loaded whole, and those past the tail
	// zeroed.
	MOVQ         state_tail(R14), AX
	VMOVDQU      (SI), Y4
	VMOVDQU      32(SI), Y5
	VMOVQ        AX, X6
	VPBROADCASTB X6, Y6
	VPCMPGTB     iota<>(SB), Y6, Y7
	VPCMPGTB     iota<>+32(SB), Y6, Y8
	VPAND        Y7, Y4, Y4
	VPAND        Y8, Y5, Y5

	// The block and 64 zeros, which the block loop reads its valid runs
	// from, at R8: 128 bytes in the frame from 32 on, aligned, past the
	// one blockClass that the classification writes.
	LEAQ    63(SP), R8
	ANDQ    $-32, R8
	VPXOR   Y6, Y6, Y6
	VMOVDQA Y4, (R8)
	VMOVDQA Y5, 32(R8)
	VMOVDQA Y6, 64(R8)
	VMOVDQA Y6, 96(R8)
	CMPB    Table_esc(R13), $0
	JNE     tailEsc
#undef ESC_PRE
#undef ESC_POST
#define ESC_PRE
#define ESC_POST
	CLASSIFY_TAIL
	JMP tailClassified

tailEsc:
	VPXOR Y12, Y12, Y12
#undef ESC_PRE
#undef ESC_POST
#define ESC_PRE ESC_PRE_EE
#define ESC_POST ESC_POST_EE
	CLASSIFY_TAIL
	ESC_SAVE

tailClassified:
	LEAQ 63(SP), SI
	ANDQ $-32, SI
	MOVQ $1, R15
	JMP  classifiedSI
