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
// copyValidAVX2 and copyValidAVX512 are the same kernels that also store
// every block they load from src to the same offset in dst, so that one
// pass validates and copies. They return what validAVX2 and validAVX512
// return, with dst[:n] == src[:n]; they may have written to the rest of
// dst[:len(src)], never beyond it.

#include "textflag.h"

// Error bits of the lookup tables.
// 0x01 lead byte not followed by a continuation byte
// 0x02 ASCII byte followed by a continuation byte
// 0x04 E0 followed by 80..9F (overlong 3-byte form)
// 0x08 F4 followed by 90..BF, or F5..FF followed by 90..BF (above U+10FFFF)
// 0x10 ED followed by A0..BF (surrogate)
// 0x20 C0 or C1 followed by a continuation byte (overlong 2-byte form)
// 0x40 F0 followed by 80..8F (overlong 4-byte form), or F5..FF followed by 80..8F
// 0x80 continuation byte followed by a continuation byte; wanted only after a 3- or 4-byte lead

// Each table is 16 bytes, repeated to 64 so that VPERMB, which uses the
// low 6 bits of an index, can look it up without masking the index.
#define TABLE(name, lo, hi) \
	DATA name+0x00(SB)/8, lo \
	DATA name+0x08(SB)/8, hi \
	DATA name+0x10(SB)/8, lo \
	DATA name+0x18(SB)/8, hi \
	DATA name+0x20(SB)/8, lo \
	DATA name+0x28(SB)/8, hi \
	DATA name+0x30(SB)/8, lo \
	DATA name+0x38(SB)/8, hi \
	GLOBL name(SB), RODATA|NOPTR, $64

// By the high nibble of the earlier byte.
TABLE(prevHigh<>, $0x0202020202020202, $0x4915012180808080)

// By the low nibble of the earlier byte.
TABLE(prevLow<>, $0xcbcbcb8b8383a3e7, $0xcbcbdbcbcbcbcbcb)

// By the high nibble of the later byte.
TABLE(curHigh<>, $0x0101010101010101, $0x01010101babaaee6)

// A block ends inside a sequence where one of its last three bytes is
// greater than this: a lead byte of a longer sequence than fits.
DATA incompleteMax<>+0x00(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x08(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x10(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x18(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x20(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x28(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x30(SB)/8, $0xffffffffffffffff
DATA incompleteMax<>+0x38(SB)/8, $0xbfdfefffffffffff
GLOBL incompleteMax<>(SB), RODATA|NOPTR, $64

// Indexes for VPERMB: byte j of shiftK<> picks byte j-K (mod 64).
DATA shift1<>+0x00(SB)/8, $0x060504030201003f
DATA shift1<>+0x08(SB)/8, $0x0e0d0c0b0a090807
DATA shift1<>+0x10(SB)/8, $0x161514131211100f
DATA shift1<>+0x18(SB)/8, $0x1e1d1c1b1a191817
DATA shift1<>+0x20(SB)/8, $0x262524232221201f
DATA shift1<>+0x28(SB)/8, $0x2e2d2c2b2a292827
DATA shift1<>+0x30(SB)/8, $0x363534333231302f
DATA shift1<>+0x38(SB)/8, $0x3e3d3c3b3a393837
GLOBL shift1<>(SB), RODATA|NOPTR, $64

DATA shift2<>+0x00(SB)/8, $0x0504030201003f3e
DATA shift2<>+0x08(SB)/8, $0x0d0c0b0a09080706
DATA shift2<>+0x10(SB)/8, $0x1514131211100f0e
DATA shift2<>+0x18(SB)/8, $0x1d1c1b1a19181716
DATA shift2<>+0x20(SB)/8, $0x2524232221201f1e
DATA shift2<>+0x28(SB)/8, $0x2d2c2b2a29282726
DATA shift2<>+0x30(SB)/8, $0x3534333231302f2e
DATA shift2<>+0x38(SB)/8, $0x3d3c3b3a39383736
GLOBL shift2<>(SB), RODATA|NOPTR, $64

DATA shift3<>+0x00(SB)/8, $0x04030201003f3e3d
DATA shift3<>+0x08(SB)/8, $0x0c0b0a0908070605
DATA shift3<>+0x10(SB)/8, $0x14131211100f0e0d
DATA shift3<>+0x18(SB)/8, $0x1c1b1a1918171615
DATA shift3<>+0x20(SB)/8, $0x24232221201f1e1d
DATA shift3<>+0x28(SB)/8, $0x2c2b2a2928272625
DATA shift3<>+0x30(SB)/8, $0x34333231302f2e2d
DATA shift3<>+0x38(SB)/8, $0x3c3b3a3938373635
GLOBL shift3<>(SB), RODATA|NOPTR, $64

// SETUP2 loads the constants of the AVX2 kernels and clears Y7.
#define SETUP2 \
	MOVL         $0x0f0f0f0f, CX           \
	MOVD         CX, X15                   \
	VPBROADCASTD X15, Y15                  \
	MOVL         $0x60606060, CX           \
	MOVD         CX, X11                   \
	VPBROADCASTD X11, Y11                  \
	MOVL         $0x70707070, CX           \
	MOVD         CX, X10                   \
	VPBROADCASTD X10, Y10                  \
	MOVL         $0x80808080, CX           \
	MOVD         CX, X9                    \
	VPBROADCASTD X9, Y9                    \
	VMOVDQU      prevHigh<>(SB), Y14       \
	VMOVDQU      prevLow<>(SB), Y13        \
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

// CHECK2 sets the flags to NZ when the 32-byte block in Y0, with the bytes
// 1, 2 and 3 places before each of its bytes in Y1, Y2 and Y3, holds an
// error. It overwrites Y1 to Y6.
#define CHECK2 \
	VPSRLW    $4, Y1, Y4   \
	VPAND     Y15, Y4, Y4  \
	VPSHUFB   Y4, Y14, Y4  \
	VPAND     Y15, Y1, Y5  \
	VPSHUFB   Y5, Y13, Y5  \
	VPSRLW    $4, Y0, Y6   \
	VPAND     Y15, Y6, Y6  \
	VPSHUFB   Y6, Y12, Y6  \
	VPAND     Y4, Y5, Y4   \
	VPAND     Y6, Y4, Y4   \
	VPSUBUSB  Y11, Y2, Y2  \
	VPSUBUSB  Y10, Y3, Y3  \
	VPOR      Y2, Y3, Y2   \
	VPAND     Y9, Y2, Y2   \
	VPXOR     Y2, Y4, Y4   \
	VPTEST    Y4, Y4

// func validAVX2(p []byte) int
// Requires AVX2.
TEXT ·validAVX2(SB), NOSPLIT, $0-32
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), DX
	XORL AX, AX
	CMPQ DX, $32
	JB   done
	LEAQ -32(DX), BX  // start of the last whole block
	LEAQ -128(DX), R8 // start of the last run of four blocks; may be negative

	SETUP2 // Y7: the last block's unfinished sequence, if any

	// The first block has nothing before it: shift zeros in.
	VMOVDQU    (SI), Y0
	VPMOVMSKB  Y0, CX
	TESTL      CX, CX
	JZ         ascii
	FIRST2
	JMP        check

loop:
	CMPQ      AX, BX
	JA        tail
	VMOVDQU   (SI)(AX*1), Y0
	VPMOVMSKB Y0, CX
	TESTL     CX, CX
	JZ        ascii
	PREV2

check:
	CHECK2
	JNZ      found
	VPSUBUSB Y8, Y0, Y7
	ADDQ     $32, AX
	JMP      loop

ascii:
	// An ASCII block is well-formed unless the block before it ended
	// inside a sequence.
	VPTEST Y7, Y7
	JNZ    done
	ADDQ   $32, AX
	VPXOR  Y7, Y7, Y7

asciiRun:
	// Skip ASCII four blocks at a time.
	CMPQ      AX, R8
	JGT       loop
	VMOVDQU   (SI)(AX*1), Y0
	VPOR      32(SI)(AX*1), Y0, Y0
	VMOVDQU   64(SI)(AX*1), Y1
	VPOR      96(SI)(AX*1), Y1, Y1
	VPOR      Y1, Y0, Y0
	VPMOVMSKB Y0, CX
	TESTL     CX, CX
	JNZ       loop
	ADDQ      $128, AX
	JMP       asciiRun

tail:
	// AX > len-32. Check the last 32 bytes again, overlapping what was
	// checked, when at least 3 bytes lie before them.
	CMPQ    AX, DX
	JEQ     end
	CMPQ    BX, $3
	JB      done
	MOVQ    BX, AX
	VMOVDQU (SI)(AX*1), Y0
	PREV2
	CHECK2
	JNZ      found
	VPSUBUSB Y8, Y0, Y7

end:
	// All of p holds no error; it is well-formed unless it ends inside a
	// sequence. If it does, report one byte less: the caller backs up.
	MOVQ   DX, AX
	VPTEST Y7, Y7
	JZ     done
	DECQ   AX
	JMP    done

found:
	// Y4 flags the errors of the block at AX: return the offset of the
	// first. Positions before it were checked already, or are in an
	// earlier block.
	FOUND2

done:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// func copyValidAVX2(dst, src []byte) int
// Requires AVX2. It is validAVX2 that stores every block it loads from src
// to dst; the comments there hold here too.
TEXT ·copyValidAVX2(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), DX
	XORL AX, AX
	CMPQ DX, $32
	JB   done
	LEAQ -32(DX), BX
	LEAQ -128(DX), R8
	SETUP2

	VMOVDQU   (SI), Y0
	VMOVDQU   Y0, (DI)
	VPMOVMSKB Y0, CX
	TESTL     CX, CX
	JZ        ascii
	FIRST2
	JMP       check

loop:
	CMPQ      AX, BX
	JA        tail
	VMOVDQU   (SI)(AX*1), Y0
	VMOVDQU   Y0, (DI)(AX*1)
	VPMOVMSKB Y0, CX
	TESTL     CX, CX
	JZ        ascii
	PREV2

check:
	CHECK2
	JNZ      found
	VPSUBUSB Y8, Y0, Y7
	ADDQ     $32, AX
	JMP      loop

ascii:
	VPTEST Y7, Y7
	JNZ    done
	ADDQ   $32, AX
	VPXOR  Y7, Y7, Y7

asciiRun:
	// Load and store the four blocks, then test them; if one is not
	// ASCII, loop loads and stores it again.
	CMPQ      AX, R8
	JGT       loop
	VMOVDQU   (SI)(AX*1), Y0
	VMOVDQU   32(SI)(AX*1), Y1
	VMOVDQU   64(SI)(AX*1), Y2
	VMOVDQU   96(SI)(AX*1), Y3
	VMOVDQU   Y0, (DI)(AX*1)
	VMOVDQU   Y1, 32(DI)(AX*1)
	VMOVDQU   Y2, 64(DI)(AX*1)
	VMOVDQU   Y3, 96(DI)(AX*1)
	VPOR      Y1, Y0, Y0
	VPOR      Y3, Y2, Y2
	VPOR      Y2, Y0, Y0
	VPMOVMSKB Y0, CX
	TESTL     CX, CX
	JNZ       loop
	ADDQ      $128, AX
	JMP       asciiRun

tail:
	CMPQ    AX, DX
	JEQ     end
	CMPQ    BX, $3
	JB      done
	MOVQ    BX, AX
	VMOVDQU (SI)(AX*1), Y0
	VMOVDQU Y0, (DI)(AX*1)
	PREV2
	CHECK2
	JNZ      found
	VPSUBUSB Y8, Y0, Y7

end:
	MOVQ   DX, AX
	VPTEST Y7, Y7
	JZ     done
	DECQ   AX
	JMP    done

found:
	FOUND2

done:
	VZEROUPPER
	MOVQ AX, ret+48(FP)
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
	VMOVDQU64    prevLow<>(SB), Z30       \
	VMOVDQU64    curHigh<>(SB), Z29       \
	MOVL         $0x60, CX                \
	VPBROADCASTB CX, Z28                  \
	MOVL         $0x70, CX                \
	VPBROADCASTB CX, Z27                  \
	MOVL         $0x80, CX                \
	VPBROADCASTB CX, Z26                  \
	VMOVDQU64    incompleteMax<>(SB), Z25 \
	VMOVDQU64    shift1<>(SB), Z22        \
	VMOVDQU64    shift2<>(SB), Z21        \
	VMOVDQU64    shift3<>(SB), Z20        \
	KXORQ        K7, K7, K7

// FIRST4 sets Z1, Z2 and Z3 to the first block, in Z0, shifted by 1, 2
// and 3 bytes with zeros shifted in: nothing lies before p. It overwrites
// R11 and K3 to K5.
#define FIRST4 \
	MOVQ     $-2, R11             \
	KMOVQ    R11, K3              \
	MOVQ     $-4, R11             \
	KMOVQ    R11, K4              \
	MOVQ     $-8, R11             \
	KMOVQ    R11, K5              \
	VPERMB.Z Z0, Z22, K3, Z1      \
	VPERMB.Z Z0, Z21, K4, Z2      \
	VPERMB.Z Z0, Z20, K5, Z3

// PREV4 loads the bytes 1, 2 and 3 places before the block at SI+AX into
// Z1, Z2 and Z3.
#define PREV4 \
	VMOVDQU64 -1(SI)(AX*1), Z1 \
	VMOVDQU64 -2(SI)(AX*1), Z2 \
	VMOVDQU64 -3(SI)(AX*1), Z3

// func validAVX512(p []byte) int
// Requires AVX2, AVX-512 F, BW and VBMI, and BMI2. It returns the offset
// of the first byte flagged in an error, or len(p).
TEXT ·validAVX512(SB), NOSPLIT, $0-32
	MOVQ  p_base+0(FP), SI
	MOVQ  p_len+8(FP), DX
	XORL  AX, AX
	TESTQ DX, DX
	JZ    done512
	LEAQ  -256(DX), R8 // start of the last run of four blocks; may be negative
	MOVL  $64, R9      // size of the block being checked

	SETUP4 // K7: the last block's unfinished sequence, if any

	MOVQ      DX, CX
	CMPQ      DX, $64
	JB        tail512
	VMOVDQU64 (SI), Z0
	VPMOVB2M  Z0, K1
	KORTESTQ  K1, K1
	JZ        ascii512
	JMP       masked512

loop512:
	MOVQ      DX, CX
	SUBQ      AX, CX
	CMPQ      CX, $128
	JB        single512

	// Two blocks at a time.
	VMOVDQU64 (SI)(AX*1), Z0
	VMOVDQU64 64(SI)(AX*1), Z7
	VPORQ     Z0, Z7, Z8
	VPMOVB2M  Z8, K1
	KORTESTQ  K1, K1
	JZ        ascii512
	PREV4
	VMOVDQU64 63(SI)(AX*1), Z9
	VMOVDQU64 62(SI)(AX*1), Z10
	VMOVDQU64 61(SI)(AX*1), Z11
	CHECK4(Z0, Z1, Z2, Z3, Z4, Z5, Z6, K1)
	CHECK4(Z7, Z9, Z10, Z11, Z12, Z13, Z14, K2)
	KORTESTQ  K1, K2
	JNZ       found2
	VPCMPUB   $6, Z25, Z7, K7
	ADDQ      $128, AX
	JMP       loop512

found2:
	KORTESTQ K1, K1
	JNZ      found512
	ADDQ     $64, AX
	KMOVQ    K2, K1
	JMP      found512

single512:
	CMPQ      CX, $64
	JB        tail512
	VMOVDQU64 (SI)(AX*1), Z0
	VPMOVB2M  Z0, K1
	KORTESTQ  K1, K1
	JZ        ascii512
	PREV4

check512:
	CHECK4(Z0, Z1, Z2, Z3, Z4, Z5, Z6, K1)
	KORTESTQ K1, K1
	JNZ      found512
	VPCMPUB  $6, Z25, Z0, K7
	ADDQ     R9, AX
	JMP      loop512

ascii512:
	// The block at AX is ASCII, and well-formed unless the block before
	// it ended inside a sequence.
	KORTESTQ K7, K7
	JNZ      done512
	ADDQ     $64, AX
	KXORQ    K7, K7, K7

asciiRun512:
	CMPQ       AX, R8
	JGT        loop512
	VMOVDQU64  (SI)(AX*1), Z0
	VMOVDQU64  64(SI)(AX*1), Z1
	VPTERNLOGD $0xfe, 128(SI)(AX*1), Z1, Z0
	VPORQ      192(SI)(AX*1), Z0, Z0
	VPMOVB2M   Z0, K1
	KORTESTQ   K1, K1
	JNZ        loop512
	ADDQ       $256, AX
	JMP        asciiRun512

tail512:
	// CX = len-AX < 64 bytes are left.
	TESTQ CX, CX
	JZ    end512
	MOVQ  CX, R9

masked512:
	// Check the R9 bytes at AX. A masked load whose masked-off bytes lie
	// across a page boundary can cost hundreds of cycles, so only inputs
	// shorter than 64 bytes load past the end of p, and none before it.
	MOVQ  $-1, R10
	BZHIQ R9, R10, R11
	KMOVQ R11, K2
	TESTQ AX, AX
	JNZ   last512

	// The first block: shift in zeros for the bytes before p. Bytes
	// past the end of p are zeros too, so that an unfinished sequence
	// at the end shows as an error.
	VMOVDQU8.Z (SI), K2, Z0
	FIRST4
	JMP        check512

last512:
	// Fewer than 64 bytes are left after AX >= 64. Check the last 64
	// bytes of p again, overlapping what was checked, when at least 3
	// bytes lie before them (the first flag cannot come before AX), and
	// otherwise leave the 1 or 2 bytes left to the caller.
	LEAQ      -64(DX), R11
	CMPQ      R11, $3
	JB        done512
	MOVQ      R11, AX
	MOVL      $64, R9
	VMOVDQU64 (SI)(AX*1), Z0
	PREV4
	JMP       check512

end512:
	// As in validAVX2.
	MOVQ     DX, AX
	KORTESTQ K7, K7
	JZ       done512
	DECQ     AX
	JMP      done512

found512:
	// K1 flags the errors of the block at AX. A flag in the padding of
	// the last block means that p ends inside a sequence.
	KMOVQ  K1, CX
	TZCNTQ CX, CX
	ADDQ   CX, AX
	CMPQ   AX, DX
	JB     done512
	LEAQ   -1(DX), AX

done512:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// func copyValidAVX512(dst, src []byte) int
// Requires what validAVX512 requires. It is validAVX512 that stores every
// block it loads from src to dst, and the first block of an input shorter
// than 64 bytes with the mask it is loaded with; the comments there hold
// here too.
TEXT ·copyValidAVX512(SB), NOSPLIT, $0-56
	MOVQ  dst_base+0(FP), DI
	MOVQ  src_base+24(FP), SI
	MOVQ  src_len+32(FP), DX
	XORL  AX, AX
	TESTQ DX, DX
	JZ    done512
	LEAQ  -256(DX), R8
	MOVL  $64, R9
	SETUP4

	MOVQ      DX, CX
	CMPQ      DX, $64
	JB        tail512
	VMOVDQU64 (SI), Z0
	VMOVDQU64 Z0, (DI)
	VPMOVB2M  Z0, K1
	KORTESTQ  K1, K1
	JZ        ascii512
	JMP       masked512

loop512:
	MOVQ      DX, CX
	SUBQ      AX, CX
	CMPQ      CX, $128
	JB        single512
	VMOVDQU64 (SI)(AX*1), Z0
	VMOVDQU64 64(SI)(AX*1), Z7
	VMOVDQU64 Z0, (DI)(AX*1)
	VMOVDQU64 Z7, 64(DI)(AX*1)
	VPORQ     Z0, Z7, Z8
	VPMOVB2M  Z8, K1
	KORTESTQ  K1, K1
	JZ        ascii512
	PREV4
	VMOVDQU64 63(SI)(AX*1), Z9
	VMOVDQU64 62(SI)(AX*1), Z10
	VMOVDQU64 61(SI)(AX*1), Z11
	CHECK4(Z0, Z1, Z2, Z3, Z4, Z5, Z6, K1)
	CHECK4(Z7, Z9, Z10, Z11, Z12, Z13, Z14, K2)
	KORTESTQ  K1, K2
	JNZ       found2
	VPCMPUB   $6, Z25, Z7, K7
	ADDQ      $128, AX
	JMP       loop512

found2:
	KORTESTQ K1, K1
	JNZ      found512
	ADDQ     $64, AX
	KMOVQ    K2, K1
	JMP      found512

single512:
	CMPQ      CX, $64
	JB        tail512
	VMOVDQU64 (SI)(AX*1), Z0
	VMOVDQU64 Z0, (DI)(AX*1)
	VPMOVB2M  Z0, K1
	KORTESTQ  K1, K1
	JZ        ascii512
	PREV4

check512:
	CHECK4(Z0, Z1, Z2, Z3, Z4, Z5, Z6, K1)
	KORTESTQ K1, K1
	JNZ      found512
	VPCMPUB  $6, Z25, Z0, K7
	ADDQ     R9, AX
	JMP      loop512

ascii512:
	KORTESTQ K7, K7
	JNZ      done512
	ADDQ     $64, AX
	KXORQ    K7, K7, K7

asciiRun512:
	// As in copyValidAVX2's asciiRun.
	CMPQ       AX, R8
	JGT        loop512
	VMOVDQU64  (SI)(AX*1), Z0
	VMOVDQU64  64(SI)(AX*1), Z1
	VMOVDQU64  128(SI)(AX*1), Z2
	VMOVDQU64  192(SI)(AX*1), Z3
	VMOVDQU64  Z0, (DI)(AX*1)
	VMOVDQU64  Z1, 64(DI)(AX*1)
	VMOVDQU64  Z2, 128(DI)(AX*1)
	VMOVDQU64  Z3, 192(DI)(AX*1)
	VPTERNLOGD $0xfe, Z2, Z1, Z0
	VPORQ      Z3, Z0, Z0
	VPMOVB2M   Z0, K1
	KORTESTQ   K1, K1
	JNZ        loop512
	ADDQ       $256, AX
	JMP        asciiRun512

tail512:
	TESTQ CX, CX
	JZ    end512
	MOVQ  CX, R9

masked512:
	MOVQ  $-1, R10
	BZHIQ R9, R10, R11
	KMOVQ R11, K2
	TESTQ AX, AX
	JNZ   last512

	// Store with the mask of the load: never past len(src) in dst.
	VMOVDQU8.Z (SI), K2, Z0
	VMOVDQU8   Z0, K2, (DI)
	FIRST4
	JMP        check512

last512:
	LEAQ      -64(DX), R11
	CMPQ      R11, $3
	JB        done512
	MOVQ      R11, AX
	MOVL      $64, R9
	VMOVDQU64 (SI)(AX*1), Z0
	VMOVDQU64 Z0, (DI)(AX*1)
	PREV4
	JMP       check512

end512:
	MOVQ     DX, AX
	KORTESTQ K7, K7
	JZ       done512
	DECQ     AX
	JMP      done512

found512:
	KMOVQ  K1, CX
	TZCNTQ CX, CX
	ADDQ   CX, AX
	CMPQ   AX, DX
	JB     done512
	LEAQ   -1(DX), AX

done512:
	VZEROUPPER
	MOVQ AX, ret+48(FP)
	RET
