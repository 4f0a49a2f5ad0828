//go:build gc && !purego

// UTF-8 validation kernels, after Keiser and Lemire, "Validating UTF-8 in
// less than one instruction per byte" (2021). Every byte is checked against
// the three bytes before it: three nibble lookups flag the errors a pair of
// bytes can show (the two high nibbles and the low nibble of the earlier
// byte), and a byte two or three places after a 3- or 4-byte lead must be a
// continuation byte. The bytes before the current block are loaded again from
// memory at offsets -1, -2 and -3, so blocks do not depend on each other.
//
// A kernel returns n, a prefix length: n == len(p) means that all of p is
// well-formed; otherwise p[:n] holds no error, but its last sequence may be
// unfinished or wrong in a way that only the bytes from n on show, and the
// caller backs up to the start of that sequence and finishes in Go.
//
// The copying kernels are the same kernels that also store every block
// they load from src to the same offset in dst, so that one pass validates
// and copies. They return what the others return, with dst[:n] ==
// src[:n]; they may have written to the rest of dst[:len(src)], never
// beyond it.
//
// There is one body per instruction set and kind (check, copy):
// checkAVX2, copyAVX2, checkAVX512 and copyAVX512, and shortAVX2 for
// input shorter than 32 bytes. The stop variants (BeforeEE, BMP) differ
// from the plain kernels in one lookup table, whose address the entries
// pass to the body in R12. Each vec entry loads its arguments, compares
// impl and jumps to the body that runs, so that a caller makes one call
// whichever kernel runs. A new stop variant is a table and two entries;
// a new instruction set is two bodies and its branch in VEC.

#include "go_asm.h"
#include "textflag.h"

// The entries load their arguments as the bodies take them.
#define CHECKARGS(table) \
	MOVQ p_base+0(FP), SI \
	MOVQ p_len+8(FP), DX  \
	LEAQ table(SB), R12   \
	LEAQ ret+24(FP), R13

#define COPYARGS(table) \
	MOVQ dst_base+0(FP), DI  \
	MOVQ src_base+24(FP), SI \
	MOVQ src_len+32(FP), DX  \
	LEAQ table(SB), R12      \
	LEAQ ret+48(FP), R13

// VEC jumps to the AVX-512 body where impl is implAVX512 and src holds
// 64 bytes or more, to the AVX2 body where impl is implAVX2 or src is
// shorter (so that no masked load reads past src), and returns -1 where
// impl has no kernel.
#define VEC(avx512, avx2) \
	CMPQ ·impl(SB), $const_implAVX512 \
	JNE  not512                       \
	CMPQ DX, $64                      \
	JB   short                        \
	JMP  avx512(SB)                   \
not512:                               \
	CMPQ ·impl(SB), $const_implAVX2   \
	JNE  none                         \
short:                                \
	JMP  avx2(SB)                     \
none:                                 \
	MOVQ $-1, (R13)                   \
	RET

// The error bits of the lookup tables, after simdjson's lookup4 (the
// names are simdjson's; table_test.go builds every table from them and
// checks the bytes below):
//
//	TooShort   0x01  a lead byte not followed by a continuation byte
//	TooLong    0x02  an ASCII byte followed by a continuation byte
//	Overlong3  0x04  E0 followed by 80..9F
//	TooLarge   0x08  F4 followed by 90..BF, or F5..FF followed by 90..BF
//	Surrogate  0x10  ED followed by A0..BF
//	Overlong2  0x20  C0 or C1 followed by a continuation byte
//	Overlong4  0x40  F0 followed by 80..8F; also F5..FF followed by 80..8F
//	TwoConts   0x80  a continuation byte followed by one; wanted only 2 or 3
//	                 bytes after a 3- or 4-byte lead, where CHECK2 and CHECK4
//	                 flip it
//	Carry      0x83  TooShort|TooLong|TwoConts: the bits that the low nibble
//	                 of the earlier byte does not decide
//
// A byte shows an error where the three lookups, by the high and low
// nibbles of the byte before it and by its own high nibble, share a bit.

// Each table is 16 bytes, repeated to 64 so that VPERMB, which uses the
// low 6 bits of an index, can look it up without masking the index
// (TABLE, in table_amd64.h).
#include "table_amd64.h"

// prevHigh, by the high nibble of the earlier byte:
//
//	0..7  TooLong                              02
//	8..B  TwoConts                             80
//	C     TooShort|Overlong2                   21
//	D     TooShort                             01
//	E     TooShort|Overlong3|Surrogate         15
//	F     TooShort|TooLarge|Overlong4          49
TABLE(prevHigh<>, $0x0202020202020202, $0x4915012180808080)

// prevLow, by the low nibble of the earlier byte:
//
//	0     Carry|Overlong3|Overlong2|Overlong4  e7
//	1     Carry|Overlong2                      a3
//	2..3  Carry                                83
//	4     Carry|TooLarge                       8b
//	5..C  Carry|TooLarge|Overlong4             cb
//	D     Carry|TooLarge|Overlong4|Surrogate   db
//	E..F  Carry|TooLarge|Overlong4             cb
TABLE(prevLow<>, $0xcbcbcb8b8383a3e7, $0xcbcbdbcbcbcbcbcb)

// prevLowEE, prevLow for the kernels that stop before EE, has E as
// Carry|TooLarge|Overlong4|Overlong3|Surrogate (df): the bits 0x04 and
// 0x10 that prevHigh has only for a high nibble E, so that EE followed by
// 80..9F or A0..BF shows an error at the byte after it, as EE followed by
// anything else does already. The stop costs nothing per block, and the n
// these kernels return is at most one past the first EE.
TABLE(prevLowEE<>, $0xcbcbcb8b8383a3e7, $0xcbdfdbcbcbcbcbcb)

// prevLowBMP, prevLow for the kernels that stop before each byte F0..FF,
// has 0..4 with TooLarge|Overlong4 (48) too: the bits that prevHigh has
// only for a high nibble F, and of which curHigh has one for each
// continuation byte (Overlong4 for 8x, TooLarge for 9x..Bx), so that F0..F4
// followed by a continuation byte show an error at the byte after the
// lead, as F0..F4 followed by anything else and F5..FF do already:
//
//	0     Carry|Overlong3|Overlong2|TooLarge|Overlong4  ef
//	1     Carry|Overlong2|TooLarge|Overlong4            eb
//	2..C  Carry|TooLarge|Overlong4                      cb
//	D     Carry|TooLarge|Overlong4|Surrogate            db
//	E..F  Carry|TooLarge|Overlong4                      cb
//
// The stop costs nothing per block, and the n these kernels return is at
// most one past the first byte F0..FF.
TABLE(prevLowBMP<>, $0xcbcbcbcbcbcbebef, $0xcbcbdbcbcbcbcbcb)

// curHigh, by the high nibble of the later byte:
//
//	0..7  TooShort                                        01
//	8     TooLong|Overlong2|TwoConts|Overlong3|Overlong4  e6
//	9     TooLong|Overlong2|TwoConts|Overlong3|TooLarge   ae
//	A..B  TooLong|Overlong2|TwoConts|Surrogate|TooLarge   ba
//	C..F  TooShort                                        01
TABLE(curHigh<>, $0x0101010101010101, $0x01010101babaaee6)

// A block ends inside a sequence where one of its last three bytes is
// greater than incompleteMax there: the last byte greater than BF (a lead
// byte), the one before greater than DF (a 3- or 4-byte lead), or the one
// before that greater than EF (a 4-byte lead). Every other byte is FF.
DATA incompleteMax<>+0x00(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x08(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x10(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x18(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x20(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x28(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x30(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x38(SB)/8, $0xbfdfefffffffffff
GLOBL incompleteMax<>(SB), RODATA|NOPTR, $64

// high holds 0x80 in every byte: the bit of TwoConts that CHECK2R takes
// from the bytes two and three places before.
DATA high<>+0x00(SB)/8, $0x8080808080808080
DATA high<>+0x08(SB)/8, $0x8080808080808080
DATA high<>+0x10(SB)/8, $0x8080808080808080
DATA high<>+0x18(SB)/8, $0x8080808080808080
GLOBL high<>(SB), RODATA|NOPTR, $32

// SETUP2 loads the constants of the AVX2 kernels and clears Y7.
#define SETUP2 \
	MOVL         $0x0f0f0f0f, CX           \
	VMOVD        CX, X15                   \
	VPBROADCASTD X15, Y15                  \
	MOVL         $0x60606060, CX           \
	VMOVD        CX, X11                   \
	VPBROADCASTD X11, Y11                  \
	MOVL         $0x70707070, CX           \
	VMOVD        CX, X10                   \
	VPBROADCASTD X10, Y10                  \
	VMOVDQU      prevHigh<>(SB), Y14       \
	VMOVDQU      (R12), Y13                \
	VMOVDQU      curHigh<>(SB), Y12        \
	VMOVDQU      incompleteMax<>+32(SB), Y8 \
	VPXOR        Y7, Y7, Y7

// FIRST2 sets Y1, Y2 and Y3 to the first block, in Y0, shifted by 1, 2
// and 3 bytes with zeros shifted in: nothing lies before p.
#define FIRST2 \
	VPERM2I128 $0x08, Y0, Y0, Y3 \
	VPALIGNR   $15, Y3, Y0, Y1   \
	VPALIGNR   $14, Y3, Y0, Y2   \
	VPALIGNR   $13, Y3, Y0, Y3

// PREV2 loads the bytes 1, 2 and 3 places before the block at SI+AX into
// Y1, Y2 and Y3.
#define PREV2 \
	VMOVDQU -1(SI)(AX*1), Y1 \
	VMOVDQU -2(SI)(AX*1), Y2 \
	VMOVDQU -3(SI)(AX*1), Y3

// FOUND2 adds to AX the offset of the first byte that Y4 flags.
#define FOUND2 \
	VPXOR     Y5, Y5, Y5  \
	VPCMPEQB  Y5, Y4, Y4  \
	VPMOVMSKB Y4, CX      \
	NOTL      CX          \
	BSFL      CX, CX      \
	ADDQ      CX, AX

// CHECK2R sets out to flag the bytes that show an error in the 32-byte
// block in cur, with the bytes 1, 2 and 3 places before each of its bytes
// in p1, p2 and p3. It overwrites p2, p3, t1 and t2.
#define CHECK2R(cur, p1, p2, p3, out, t1, t2) \
	VPSRLW    $4, p1, out           \
	VPAND     Y15, out, out         \
	VPSHUFB   out, Y14, out         \
	VPAND     Y15, p1, t1           \
	VPSHUFB   t1, Y13, t1           \
	VPSRLW    $4, cur, t2           \
	VPAND     Y15, t2, t2           \
	VPSHUFB   t2, Y12, t2           \
	VPAND     out, t1, out          \
	VPAND     t2, out, out          \
	VPSUBUSB  Y11, p2, p2           \
	VPSUBUSB  Y10, p3, p3           \
	VPOR      p2, p3, p2            \
	VPAND     high<>(SB), p2, p2    \
	VPXOR     p2, out, out

// CHECK2 is CHECK2R on the block in Y0, with the bytes before it in Y1,
// Y2 and Y3, into Y4. It overwrites Y1 to Y6.
#define CHECK2 CHECK2R(Y0, Y1, Y2, Y3, Y4, Y5, Y6)

// The ways the AVX2 kernels load the four blocks of an ASCII run: only
// loads, and loads and stores.
#define ASCII2_VALID \
	VMOVDQU 0(SI)(AX*1), Y0     \
	VPOR    32(SI)(AX*1), Y0, Y0 \
	VMOVDQU 64(SI)(AX*1), Y1    \
	VPOR    96(SI)(AX*1), Y1, Y1 \
	VPOR    Y1, Y0, Y0

#define ASCII2_COPY \
	VMOVDQU 0(SI)(AX*1), Y0  \
	VMOVDQU 32(SI)(AX*1), Y1 \
	VMOVDQU 64(SI)(AX*1), Y2 \
	VMOVDQU 96(SI)(AX*1), Y3 \
	STORE2(Y0, 0)            \
	STORE2(Y1, 32)           \
	STORE2(Y2, 64)           \
	STORE2(Y3, 96)           \
	VPOR    Y1, Y0, Y0       \
	VPOR    Y3, Y2, Y2       \
	VPOR    Y2, Y0, Y0

// iota holds the bytes 0 to 31, for masks of the first or last n bytes of
// a block.
DATA iota<>+0x00(SB)/8, $0x0706050403020100
DATA iota<>+0x08(SB)/8, $0x0f0e0d0c0b0a0908
DATA iota<>+0x10(SB)/8, $0x1716151413121110
DATA iota<>+0x18(SB)/8, $0x1f1e1d1c1b1a1918
GLOBL iota<>(SB), RODATA|NOPTR, $32

// SHORTFLAGS sets CX to a bit for each byte of the block in Y0 that shows
// an error, with zeros before the block, and leaves in Y7 the bytes of an
// unfinished last sequence. It overwrites Y1 to Y6.
#define SHORTFLAGS \
	FIRST2                  \
	CHECK2                  \
	VPSUBUSB  Y8, Y0, Y7    \
	VPXOR     Y5, Y5, Y5    \
	VPCMPEQB  Y5, Y4, Y4    \
	VPMOVMSKB Y4, CX        \
	NOTL      CX

// shortAVX2 is checkAVX2 for src shorter than 32 bytes, in one 32-byte
// block. The block is the 32 bytes from src where they lie on its page,
// with the bytes past src zeroed, and otherwise the 32 bytes that end
// where src ends, with the bytes before src zeroed: it reads only src's
// page. Zeros after src make an unfinished last sequence show an error at
// len(src) to len(src)+2; zeros before src make its first bytes follow
// ASCII.
// Requires: AVX, AVX2
TEXT ·shortAVX2(SB), NOSPLIT, $0-0
	XORL  AX, AX
	TESTQ DX, DX
	JZ    ret
	SETUP2
	MOVL  SI, CX
	ANDL  $4095, CX
	CMPL  CX, $4064
	JA    atEnd

	// The block starts at p.
	VMOVDQU      (SI), Y0
	VMOVD        DX, X6
	VPBROADCASTB X6, Y6
	VPCMPGTB     iota<>(SB), Y6, Y6 // FF at the offsets below len(p)
	VPAND        Y6, Y0, Y0
	SHORTFLAGS
	MOVQ         DX, AX
	TESTL        CX, CX
	JZ           done
	BSFL         CX, AX
	CMPQ         AX, DX
	JB           done
	LEAQ         -1(DX), AX // an unfinished last sequence: one byte less
	JMP          done

atEnd:
	// The block ends where p ends, at BX = 32-len(p) bytes from p.
	MOVL         $32, BX
	SUBL         DX, BX
	VMOVDQU      -32(SI)(DX*1), Y0
	VMOVD        BX, X6
	VPBROADCASTB X6, Y6
	VPCMPGTB     iota<>(SB), Y6, Y6 // FF at the offsets before p
	VPANDN       Y0, Y6, Y0
	SHORTFLAGS
	TESTL        CX, CX
	JZ           whole
	BSFL         CX, AX
	SUBQ         BX, AX
	JMP          done

whole:
	MOVQ   DX, AX
	VPTEST Y7, Y7
	JZ     done
	DECQ   AX

done:
	VZEROUPPER

ret:
	MOVQ AX, (R13)
	RET

// CHECK4 sets k to the bytes that show an error in the 64-byte block in
// in, with the bytes 1, 2 and 3 places before each of its bytes in p1, p2
// and p3. It overwrites p1, p2, p3, t1, t2 and t3. Z31, Z30 and Z29 hold
// the lookup tables; Z28, Z27 and Z26 the bytes 0x60, 0x70 and 0x80.
#define CHECK4(in, p1, p2, p3, t1, t2, t3, k) \
	VPSRLW     $4, p1, t1           \
	VPERMB     Z31, t1, t1          \
	VPERMB     Z30, p1, t2          \
	VPSRLW     $4, in, t3           \
	VPERMB     Z29, t3, t3          \
	VPTERNLOGD $0x80, t3, t2, t1    \
	VPSUBUSB   Z28, p2, p2          \
	VPSUBUSB   Z27, p3, p3          \
	VPTERNLOGD $0xa8, Z26, p3, p2   \
	VPCMPUB    $4, p2, t1, k

// SETUP4 loads the constants of the AVX-512 kernels and clears K7.
#define SETUP4 \
	VMOVDQU64    prevHigh<>(SB), Z31      \
	VMOVDQU64    (R12), Z30               \
	VMOVDQU64    curHigh<>(SB), Z29       \
	MOVL         $0x60, CX                \
	VPBROADCASTB CX, Z28                  \
	MOVL         $0x70, CX                \
	VPBROADCASTB CX, Z27                  \
	MOVL         $0x80, CX                \
	VPBROADCASTB CX, Z26                  \
	VMOVDQU64    incompleteMax<>(SB), Z25 \
	KXORQ        K7, K7, K7

// FIRST4 sets Z1, Z2 and Z3 to the first block, in Z0, shifted by 1, 2
// and 3 bytes with zeros shifted in: nothing lies before p. Z20 is Z0
// shifted by one 16-byte lane, from which VPALIGNR takes the bytes that
// cross into each lane, as FIRST2 does with VPERM2I128.
#define FIRST4 \
	VPXORQ   Z20, Z20, Z20     \
	VALIGNQ  $6, Z20, Z0, Z20  \
	VPALIGNR $15, Z20, Z0, Z1  \
	VPALIGNR $14, Z20, Z0, Z2  \
	VPALIGNR $13, Z20, Z0, Z3

// PREV4 loads the bytes 1, 2 and 3 places before the block at SI+AX into
// Z1, Z2 and Z3.
#define PREV4 \
	VMOVDQU64 -1(SI)(AX*1), Z1 \
	VMOVDQU64 -2(SI)(AX*1), Z2 \
	VMOVDQU64 -3(SI)(AX*1), Z3

// The ways the AVX-512 kernels load the four blocks of an ASCII run.
#define ASCII4_VALID \
	VMOVDQU64  0(SI)(AX*1), Z0              \
	VMOVDQU64  64(SI)(AX*1), Z1             \
	VPTERNLOGD $0xfe, 128(SI)(AX*1), Z1, Z0 \
	VPORQ      192(SI)(AX*1), Z0, Z0

#define ASCII4_COPY \
	VMOVDQU64  0(SI)(AX*1), Z0   \
	VMOVDQU64  64(SI)(AX*1), Z1  \
	VMOVDQU64  128(SI)(AX*1), Z2 \
	VMOVDQU64  192(SI)(AX*1), Z3 \
	STORE4(Z0, 0)                \
	STORE4(Z1, 64)               \
	STORE4(Z2, 128)              \
	STORE4(Z3, 192)              \
	VPTERNLOGD $0xfe, Z2, Z1, Z0 \
	VPORQ      Z3, Z0, Z0

// The counting kernels also count the newline (0A) bytes of the blocks they
// accept, for the Lines option, in one pass with the validation. They keep
// in R14 the newlines of the blocks accepted so far; in BX (AVX-512) or
// R10 (AVX2) the end of those blocks; and in R10 (AVX-512) or R11 (AVX2)
// where the last of them is, or -1: its offset where it was in a block
// accepted alone, and otherwise ^start, where it lies in the blocks from
// start on (start is never 0) and no newline lies after them.
// The hooks below count a block or group where the bodies accept it;
// POPCNT sets ZF for one without newlines, and CMOV keeps where the last
// was in one that had any. The end register is their scratch until they
// set it. In the AVX-512 body,
// Z24 holds 0A in every byte and K3 the bytes of a block not counted
// before: all of them, but for the last block, which may overlap the one
// before it.
#define INIT4_COUNT \
	XORL         R14, R14 \
	XORL         BX, BX   \
	MOVQ         $-1, R10 \
	MOVL         $0x0a, CX \
	VPBROADCASTB CX, Z24  \
	KXNORQ       K3, K3, K3

// ACC4_COUNT counts the block in z, at AX, whose end is the address end.
#define ACC4_COUNT(z, end) \
	VPCMPEQB z, Z24, K3, K4 \
	KMOVQ    K4, CX         \
	BSRQ     CX, BX         \
	ADDQ     AX, BX         \
	POPCNTQ  CX, CX         \
	CMOVQNE  BX, R10        \
	ADDQ     CX, R14        \
	LEAQ     end, BX

// ACC4PAIR_COUNT counts the blocks in Z0 and Z7, at AX and AX+64.
#define ACC4PAIR_COUNT \
	VPCMPEQB Z0, Z24, K4 \
	VPCMPEQB Z7, Z24, K5 \
	MOVQ     AX, BX      \
	NOTQ     BX          \
	KMOVQ    K4, CX      \
	KMOVQ    K5, R11     \
	POPCNTQ  CX, CX      \
	POPCNTQ  R11, R11    \
	ADDQ     R11, CX     \
	CMOVQNE  BX, R10     \
	ADDQ     CX, R14     \
	LEAQ     128(AX), BX

// RUN4_COUNT starts a run of ASCII blocks, at BX = AX: it ends the run
// within 4 KiB, so that no byte of the counts in Z23 overflows, which Z22's
// -1 in every byte raises by one for each newline. FLUSH4_COUNT, at the end
// of each run, adds Z23 to R14, keeps ^BX if the run held a newline, and
// sets BX to AX.
#define RUN4_COUNT \
	LEAQ       3840(AX), R8         \
	LEAQ       -256(DX), CX         \
	CMPQ       CX, R8               \
	CMOVQLT    CX, R8               \
	VPTERNLOGD $0xff, Z22, Z22, Z22 \
	VPXORQ     Z23, Z23, Z23

// ACC4RUN_COUNT counts the four blocks in Z4 to Z7 that the counting ASCII4
// macros load, in the bytes of Z23: minus one in Z20 for each newline, so
// that one instruction a run depends on the run before.
#define ACC4RUN_COUNT \
	VPCMPEQB   Z4, Z24, K4       \
	VPCMPEQB   Z5, Z24, K5       \
	VPCMPEQB   Z6, Z24, K6       \
	VPCMPEQB   Z7, Z24, K1       \
	VMOVDQU8.Z Z22, K4, Z20      \
	VPADDB     Z22, Z20, K5, Z20 \
	VPADDB     Z22, Z20, K6, Z20 \
	VPADDB     Z22, Z20, K1, Z20 \
	VPSUBB     Z20, Z23, Z23

// FLUSH4_COUNT does nothing where the run took no block (JEQ skips the 14
// instructions after it).
#define FLUSH4_COUNT \
	CMPQ          AX, BX        \
	JEQ           15(PC)        \
	VPXORQ        Z1, Z1, Z1    \
	VPSADBW       Z1, Z23, Z1   \
	VEXTRACTI64X4 $1, Z1, Y2    \
	VPADDQ        Y2, Y1, Y1    \
	VEXTRACTI128  $1, Y1, X2    \
	VPADDQ        X2, X1, X1    \
	VPSHUFD       $0x4e, X1, X2 \
	VPADDQ        X2, X1, X1    \
	VMOVQ         X1, CX        \
	NOTQ          BX            \
	TESTQ         CX, CX        \
	CMOVQNE       BX, R10       \
	ADDQ          CX, R14       \
	MOVQ          AX, BX

// LAST4_COUNT sets K3 to the bytes of the last block, at R11, from AX on:
// those before AX were counted with the block before.
#define LAST4_COUNT \
	MOVQ  AX, CX  \
	SUBQ  R11, CX \
	MOVQ  $-1, R9 \
	SHLQ  CX, R9  \
	KMOVQ R9, K3

// The counting kernels' ways to load the four blocks of an ASCII run: into
// Z4 to Z7, kept for ACC4RUN, with their OR in Z0.
#define ASCII4_VALID_COUNT \
	VMOVDQU64  0(SI)(AX*1), Z4   \
	VMOVDQU64  64(SI)(AX*1), Z5  \
	VMOVDQU64  128(SI)(AX*1), Z6 \
	VMOVDQU64  192(SI)(AX*1), Z7 \
	VPORQ      Z5, Z4, Z0        \
	VPTERNLOGD $0xfe, Z7, Z6, Z0

#define ASCII4_COPY_COUNT \
	ASCII4_VALID_COUNT \
	STORE4(Z4, 0)      \
	STORE4(Z5, 64)     \
	STORE4(Z6, 128)    \
	STORE4(Z7, 192)

// nl holds 0A in every byte, for the AVX2 counting kernels, which have no
// register to spare for it.
DATA nl<>+0x00(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA nl<>+0x08(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA nl<>+0x10(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA nl<>+0x18(SB)/8, $0x0a0a0a0a0a0a0a0a
GLOBL nl<>(SB), RODATA|NOPTR, $32

// COUNTRESULT stores the results of a counting kernel, whose body keeps
// the end of the blocks counted in end and the start of the last group with
// a newline in group, and returns.
#define COUNTRESULT(end, group) \
	MOVQ AX, (R13)     \
	MOVQ R14, 8(R13)   \
	MOVQ end, 16(R13)  \
	MOVQ group, 24(R13) \
	RET

#define INIT2_COUNT \
	XORL R14, R14 \
	XORL R10, R10 \
	MOVQ $-1, R11

// ACC2_COUNT counts the block src (a register or the block in memory) at
// AX, whose end is the address end.
#define ACC2_COUNT(src, end) \
	VMOVDQU   nl<>(SB), Y1 \
	VPCMPEQB  src, Y1, Y1  \
	VPMOVMSKB Y1, CX       \
	BSRL      CX, R10      \
	ADDQ      AX, R10      \
	POPCNTL   CX, CX       \
	CMOVQNE   R10, R11     \
	ADDQ      CX, R14      \
	LEAQ      end, R10

// ACC2PAIR_COUNT counts the two blocks at AX, from memory, and Y9, the
// second.
#define ACC2PAIR_COUNT \
	VMOVDQU   nl<>(SB), Y1        \
	VPCMPEQB  (SI)(AX*1), Y1, Y2  \
	VPCMPEQB  Y9, Y1, Y3          \
	MOVQ      AX, R10             \
	NOTQ      R10                 \
	VPOR      Y2, Y3, Y1          \
	VPTEST    Y1, Y1              \
	CMOVQNE   R10, R11            \
	VPMOVMSKB Y2, CX              \
	POPCNTL   CX, CX              \
	ADDQ      CX, R14             \
	VPMOVMSKB Y3, CX              \
	POPCNTL   CX, CX              \
	ADDQ      CX, R14             \
	LEAQ      64(AX), R10

// RUN2_COUNT starts a run of ASCII blocks, at R10 = AX, with Y7 clear:
// it loads 0A into Y9, and ends the run within 4 KiB, so that no byte of
// the counts in Y7 overflows. FLUSH2_COUNT, at the end of each run, adds
// Y7 to R14, keeps ^R10 if the run held a newline, sets R10 to AX and
// clears Y7, as the body wants it after an ASCII block.
#define RUN2_COUNT \
	VMOVDQU nl<>(SB), Y9 \
	LEAQ    3968(AX), R8 \
	LEAQ    -128(DX), CX \
	CMPQ    CX, R8       \
	CMOVQLT CX, R8

// ACC2RUN_COUNT counts the four blocks in Y1 to Y4 that the counting
// ASCII2 macros load, in the bytes of Y7.
#define ACC2RUN_COUNT \
	VPCMPEQB Y1, Y9, Y1 \
	VPCMPEQB Y2, Y9, Y2 \
	VPCMPEQB Y3, Y9, Y3 \
	VPCMPEQB Y4, Y9, Y4 \
	VPADDB   Y1, Y2, Y1 \
	VPADDB   Y3, Y4, Y3 \
	VPADDB   Y1, Y3, Y1 \
	VPSUBB   Y1, Y7, Y7

// FLUSH2_COUNT does nothing where the run took no block (JEQ skips the 13
// instructions after it).
#define FLUSH2_COUNT \
	CMPQ         AX, R10       \
	JEQ          14(PC)        \
	VPXOR        Y1, Y1, Y1    \
	VPSADBW      Y1, Y7, Y1    \
	VEXTRACTI128 $1, Y1, X2    \
	VPADDQ       X2, X1, X1    \
	VPSHUFD      $0x4e, X1, X2 \
	VPADDQ       X2, X1, X1    \
	VMOVQ        X1, CX        \
	VPXOR        Y7, Y7, Y7    \
	NOTQ         R10           \
	TESTQ        CX, CX        \
	CMOVQNE      R10, R11      \
	ADDQ         CX, R14       \
	MOVQ         AX, R10

// TAIL2_COUNT counts the last block, in Y0 at BX, which overlaps the
// blocks counted before, up to R10: only its bytes from R10 on.
#define TAIL2_COUNT \
	VPCMPEQB  nl<>(SB), Y0, Y1 \
	MOVQ      R10, CX          \
	SUBQ      BX, CX           \
	VPMOVMSKB Y1, R10          \
	SHRL      CX, R10          \
	MOVQ      BX, CX           \
	NOTQ      CX               \
	POPCNTL   R10, R10         \
	CMOVQNE   CX, R11          \
	ADDQ      R10, R14         \
	MOVQ      DX, R10

#define ASCII2_VALID_COUNT \
	VMOVDQU 0(SI)(AX*1), Y1  \
	VMOVDQU 32(SI)(AX*1), Y2 \
	VMOVDQU 64(SI)(AX*1), Y3 \
	VMOVDQU 96(SI)(AX*1), Y4 \
	VPOR    Y2, Y1, Y0       \
	VPOR    Y3, Y0, Y0       \
	VPOR    Y4, Y0, Y0

#define ASCII2_COPY_COUNT \
	ASCII2_VALID_COUNT \
	STORE2(Y1, 0)      \
	STORE2(Y2, 32)     \
	STORE2(Y3, 64)     \
	STORE2(Y4, 96)

// The bodies: one per instruction set and kind, entered by a JMP from the
// entries below with SI = src, DX = len(src), DI = dst (the copying
// kernels), R12 = the address of the prevLow table of the variant
// (prevLow, prevLowEE or prevLowBMP), and R13 = where the result goes.
// The variants differ in that table alone.

// checkAVX2 returns in (R13) n such that src[:n] holds no ill-formed
// sequence, except perhaps an unfinished or ill-formed last one that only
// the bytes from n on show (see validAVX2 in valid_amd64.go).
// Requires: AVX, AVX2
TEXT ·checkAVX2(SB), NOSPLIT, $0-0
#define STORE2(reg, off)
#define ASCII2 ASCII2_VALID
#define INIT2
#define ACC2(src, end)
#define ACC2PAIR
#define ACC2RUN
#define TAIL2
#define RUN2
#define FLUSH2
#define RUNEXIT2 loop
#include "valid2_amd64.h"
	MOVQ AX, (R13)
	RET

// copyAVX2 is checkAVX2 that stores every block it loads from src to dst.
// Requires: AVX, AVX2
TEXT ·copyAVX2(SB), NOSPLIT, $0-0
#define STORE2(reg, off) VMOVDQU reg, off(DI)(AX*1)
#define ASCII2 ASCII2_COPY
#define INIT2
#define ACC2(src, end)
#define ACC2PAIR
#define ACC2RUN
#define TAIL2
#define RUN2
#define FLUSH2
#define RUNEXIT2 loop
#include "valid2_amd64.h"
	MOVQ AX, (R13)
	RET

// checkAVX512 is checkAVX2 with 64-byte blocks; it takes src shorter than
// 32 bytes too.
// Requires: AVX, AVX512BW, AVX512F, AVX512VBMI, BMI1, BMI2
TEXT ·checkAVX512(SB), NOSPLIT, $0-0
#define STORE4(reg, off)
#define STOREMASK4
#define ASCII4 ASCII4_VALID
#define INIT4
#define ACC4(z, end)
#define ACC4PAIR
#define ACC4RUN
#define LAST4
#define RUN4
#define FLUSH4
#define RUNEXIT4 loop512
#define FIRSTEXIT4 firstEnd512
#include "valid4_amd64.h"
	MOVQ AX, (R13)
	RET

// copyAVX512 is checkAVX512 that stores every block it loads from src to
// dst, and the first block of an input shorter than 64 bytes with the
// mask it is loaded with.
// Requires: AVX, AVX512BW, AVX512F, AVX512VBMI, BMI1, BMI2
TEXT ·copyAVX512(SB), NOSPLIT, $0-0
#define STORE4(reg, off) VMOVDQU64 reg, off(DI)(AX*1)
#define STOREMASK4 VMOVDQU8 Z0, K2, (DI)
#define ASCII4 ASCII4_COPY
#define INIT4
#define ACC4(z, end)
#define ACC4PAIR
#define ACC4RUN
#define LAST4
#define RUN4
#define FLUSH4
#define RUNEXIT4 loop512
#define FIRSTEXIT4 firstEnd512
#include "valid4_amd64.h"
	MOVQ AX, (R13)
	RET

// The counting kernels are the kernels above that also return, after n
// in (R13): the newlines of src[:end] at 8(R13), end at 16(R13) and at
// 24(R13) where the last of them is (see above): no newline lies between
// it, or the end of its group, and end. end is a block boundary at most n,
// or len(src) where n is len(src) or one less.

// countAVX2 is checkAVX2 that counts newlines.
// Requires: AVX, AVX2, POPCNT
TEXT ·countAVX2(SB), NOSPLIT, $0-0
#define STORE2(reg, off)
#define ASCII2 ASCII2_VALID_COUNT
#define INIT2 INIT2_COUNT
#define ACC2(src, end) ACC2_COUNT(src, end)
#define ACC2PAIR ACC2PAIR_COUNT
#define ACC2RUN ACC2RUN_COUNT
#define TAIL2 TAIL2_COUNT
#define RUN2 RUN2_COUNT
#define FLUSH2 FLUSH2_COUNT
#define RUNEXIT2 runExit
#include "valid2_amd64.h"
	COUNTRESULT(R10, R11)

// copyCountAVX2 is copyAVX2 that counts newlines.
// Requires: AVX, AVX2, POPCNT
TEXT ·copyCountAVX2(SB), NOSPLIT, $0-0
#define STORE2(reg, off) VMOVDQU reg, off(DI)(AX*1)
#define ASCII2 ASCII2_COPY_COUNT
#define INIT2 INIT2_COUNT
#define ACC2(src, end) ACC2_COUNT(src, end)
#define ACC2PAIR ACC2PAIR_COUNT
#define ACC2RUN ACC2RUN_COUNT
#define TAIL2 TAIL2_COUNT
#define RUN2 RUN2_COUNT
#define FLUSH2 FLUSH2_COUNT
#define RUNEXIT2 runExit
#include "valid2_amd64.h"
	COUNTRESULT(R10, R11)

// countAVX512 is checkAVX512 that counts newlines.
// Requires: AVX, AVX2, AVX512BW, AVX512F, AVX512VBMI, BMI1, BMI2, POPCNT
TEXT ·countAVX512(SB), NOSPLIT, $0-0
#define STORE4(reg, off)
#define STOREMASK4
#define ASCII4 ASCII4_VALID_COUNT
#define INIT4 INIT4_COUNT
#define ACC4(z, end) ACC4_COUNT(z, end)
#define ACC4PAIR ACC4PAIR_COUNT
#define ACC4RUN ACC4RUN_COUNT
#define LAST4 LAST4_COUNT
#define RUN4 RUN4_COUNT
#define FLUSH4 FLUSH4_COUNT
#define RUNEXIT4 runExit512
#define FIRSTEXIT4 firstExit512
#include "valid4_amd64.h"
	COUNTRESULT(BX, R10)

// copyCountAVX512 is copyAVX512 that counts newlines.
// Requires: AVX, AVX2, AVX512BW, AVX512F, AVX512VBMI, BMI1, BMI2, POPCNT
TEXT ·copyCountAVX512(SB), NOSPLIT, $0-0
#define STORE4(reg, off) VMOVDQU64 reg, off(DI)(AX*1)
#define STOREMASK4 VMOVDQU8 Z0, K2, (DI)
#define ASCII4 ASCII4_COPY_COUNT
#define INIT4 INIT4_COUNT
#define ACC4(z, end) ACC4_COUNT(z, end)
#define ACC4PAIR ACC4PAIR_COUNT
#define ACC4RUN ACC4RUN_COUNT
#define LAST4 LAST4_COUNT
#define RUN4 RUN4_COUNT
#define FLUSH4 FLUSH4_COUNT
#define RUNEXIT4 runExit512
#define FIRSTEXIT4 firstExit512
#include "valid4_amd64.h"
	COUNTRESULT(BX, R10)

// func vecValid(p []byte) int
// Input shorter than 32 bytes goes to shortAVX2 on both paths.
TEXT ·vecValid(SB), NOSPLIT, $0-32
	CHECKARGS(prevLow<>)
	CMPQ DX, $32
	JAE  long
	CMPQ ·impl(SB), $const_implAVX2
	JB   2(PC)
	JMP  ·shortAVX2(SB)
	MOVQ $-1, ret+24(FP)
	RET

long:
	VEC(·checkAVX512, ·checkAVX2)

// func vecCopy(dst, src []byte) int
TEXT ·vecCopy(SB), NOSPLIT, $0-56
	COPYARGS(prevLow<>)
	VEC(·copyAVX512, ·copyAVX2)

// func vecValidBeforeEE(p []byte) int
TEXT ·vecValidBeforeEE(SB), NOSPLIT, $0-32
	CHECKARGS(prevLowEE<>)
	VEC(·checkAVX512, ·checkAVX2)

// func vecCopyBeforeEE(dst, src []byte) int
TEXT ·vecCopyBeforeEE(SB), NOSPLIT, $0-56
	COPYARGS(prevLowEE<>)
	VEC(·copyAVX512, ·copyAVX2)

// func vecValidBMP(p []byte) int
TEXT ·vecValidBMP(SB), NOSPLIT, $0-32
	CHECKARGS(prevLowBMP<>)
	VEC(·checkAVX512, ·checkAVX2)

// func vecCopyBMP(dst, src []byte) int
TEXT ·vecCopyBMP(SB), NOSPLIT, $0-56
	COPYARGS(prevLowBMP<>)
	VEC(·copyAVX512, ·copyAVX2)

// The kernels by name, for the tests, which run each implementation
// directly (impls).

// func validAVX2(p []byte) int
TEXT ·validAVX2(SB), NOSPLIT, $0-32
	CHECKARGS(prevLow<>)
	JMP ·checkAVX2(SB)

// func copyValidAVX2(dst, src []byte) int
TEXT ·copyValidAVX2(SB), NOSPLIT, $0-56
	COPYARGS(prevLow<>)
	JMP ·copyAVX2(SB)

// func validBeforeEEAVX2(p []byte) int
TEXT ·validBeforeEEAVX2(SB), NOSPLIT, $0-32
	CHECKARGS(prevLowEE<>)
	JMP ·checkAVX2(SB)

// func copyValidBeforeEEAVX2(dst, src []byte) int
TEXT ·copyValidBeforeEEAVX2(SB), NOSPLIT, $0-56
	COPYARGS(prevLowEE<>)
	JMP ·copyAVX2(SB)

// func validBMPAVX2(p []byte) int
TEXT ·validBMPAVX2(SB), NOSPLIT, $0-32
	CHECKARGS(prevLowBMP<>)
	JMP ·checkAVX2(SB)

// func copyValidBMPAVX2(dst, src []byte) int
TEXT ·copyValidBMPAVX2(SB), NOSPLIT, $0-56
	COPYARGS(prevLowBMP<>)
	JMP ·copyAVX2(SB)

// func validShortAVX2(p []byte) int
TEXT ·validShortAVX2(SB), NOSPLIT, $0-32
	CHECKARGS(prevLow<>)
	JMP ·shortAVX2(SB)

// func validAVX512(p []byte) int
TEXT ·validAVX512(SB), NOSPLIT, $0-32
	CHECKARGS(prevLow<>)
	JMP ·checkAVX512(SB)

// func copyValidAVX512(dst, src []byte) int
TEXT ·copyValidAVX512(SB), NOSPLIT, $0-56
	COPYARGS(prevLow<>)
	JMP ·copyAVX512(SB)

// func validBeforeEEAVX512(p []byte) int
TEXT ·validBeforeEEAVX512(SB), NOSPLIT, $0-32
	CHECKARGS(prevLowEE<>)
	JMP ·checkAVX512(SB)

// func copyValidBeforeEEAVX512(dst, src []byte) int
TEXT ·copyValidBeforeEEAVX512(SB), NOSPLIT, $0-56
	COPYARGS(prevLowEE<>)
	JMP ·copyAVX512(SB)

// func validBMPAVX512(p []byte) int
TEXT ·validBMPAVX512(SB), NOSPLIT, $0-32
	CHECKARGS(prevLowBMP<>)
	JMP ·checkAVX512(SB)

// func copyValidBMPAVX512(dst, src []byte) int
TEXT ·copyValidBMPAVX512(SB), NOSPLIT, $0-56
	COPYARGS(prevLowBMP<>)
	JMP ·copyAVX512(SB)

// func vecValidLines(p []byte) (n, lines, end, group int)
TEXT ·vecValidLines(SB), NOSPLIT, $0-56
	CHECKARGS(prevLow<>)
	VEC(·countAVX512, ·countAVX2)

// func vecCopyLines(dst, src []byte) (n, lines, end, group int)
TEXT ·vecCopyLines(SB), NOSPLIT, $0-80
	COPYARGS(prevLow<>)
	VEC(·copyCountAVX512, ·copyCountAVX2)
