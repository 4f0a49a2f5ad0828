//go:build gc && !purego

#include "textflag.h"
#include "tables_amd64.h"

// WIDEN_UNITS sets out to the unit of the character that starts in each
// word lane, b0 holding its bytes, b1 and b2 the 2 after them: b0 for
// ASCII, (b0&1F)<<6 | b1&3F after a 2-byte lead (C0..DF), b0<<12 |
// (b1&3F)<<6 | b2&3F after a 3-byte one (E0..EF). It uses Y12..Y15 and
// clobbers b1, b2, t0 and t1.
#define WIDEN_UNITS(b0, b1, b2, t0, t1, out) \
	VPAND     Y15, b1, b1 \
	VPAND     Y15, b2, b2 \
	VPSLLW    $12, b0, t0 \
	VPSLLW    $6, b1, t1 \
	VPOR      t1, t0, t0 \
	VPOR      b2, t0, t0 \
	VPAND     Y14, b0, t1 \
	VPSLLW    $6, t1, t1 \
	VPOR      b1, t1, t1 \
	VPCMPGTW  Y13, b0, b1 \
	VPBLENDVB b1, t1, b0, out \
	VPCMPGTW  Y12, b0, b1 \
	VPBLENDVB b1, t0, out, out

// WIDEN_PACK stores the words of x whose bits are set in the low byte of
// R10 at dst+nd, packed by widenPack, adds their bytes to nd and shifts
// R10 right by 8.
#define WIDEN_PACK(x) \
	MOVBLZX R10, CX \
	POPCNTL CX, DX \
	SHLL    $4, CX \
	VPSHUFB (R14)(CX*1), x, X7 \
	VMOVDQU X7, (DI)(BX*1) \
	LEAQ    (BX)(DX*2), BX \
	SHRL    $8, R10

// NARROW_UTF8 sets Y11 to the UTF-8 of each unit u of Y0, one in each
// dword, below U+10000 and not a surrogate, from the low byte up: u if
// u < 80; C0|u>>6, 80|u&3F if u < 800; else E0|u>>12, 80|(u>>6)&3F,
// 80|u&3F. It leaves the lanes of u > 7F set in Y1 and of u > 7FF in
// Y2, uses Y4..Y9 and clobbers Y0, Y3 and Y10.
#define NARROW_UTF8 \
	VPCMPGTD  Y9, Y0, Y1 \
	VPCMPGTD  Y8, Y0, Y2 \
	VPAND     Y7, Y0, Y3 \
	VPOR      Y6, Y3, Y3 \
	VPSLLD    $8, Y3, Y3 \
	VPSRLD    $6, Y0, Y10 \
	VPOR      Y5, Y10, Y11 \
	VPOR      Y3, Y11, Y11 \
	VPBLENDVB Y1, Y11, Y0, Y11 \
	VPAND     Y7, Y10, Y10 \
	VPOR      Y6, Y10, Y10 \
	VPSLLD    $8, Y10, Y10 \
	VPSLLD    $8, Y3, Y3 \
	VPOR      Y10, Y3, Y3 \
	VPSRLD    $12, Y0, Y0 \
	VPOR      Y4, Y0, Y0 \
	VPOR      Y0, Y3, Y3 \
	VPBLENDVB Y2, Y3, Y11, Y11

// NARROW_PACK stores the bytes of the UTF-8 in the dwords of Y11, which
// NARROW_UTF8 leaves, at dst+nd, packed by narrowPack 4 dwords at a time,
// and adds their count to nd. The key of the first 4 is the mask of
// bytes 0..7 of Y1 after it packs Y1 and Y2 to bytes: m of Y1's dwords 0..3
// then n of Y2's; that of the last 4 bytes 16..23.
#define NARROW_PACK \
	VPACKSSDW    Y2, Y1, Y1 \
	VPACKSSWB    Y1, Y1, Y1 \
	VPMOVMSKB    Y1, R10 \
	MOVBLZX      R10, CX \
	POPCNTL      CX, DX \
	SHLL         $4, CX \
	VPSHUFB      (R14)(CX*1), X11, X1 \
	VMOVDQU      X1, (DI)(BX*1) \
	LEAQ         4(BX)(DX*1), BX \
	SHRL         $16, R10 \
	MOVBLZX      R10, CX \
	POPCNTL      CX, DX \
	SHLL         $4, CX \
	VEXTRACTI128 $1, Y11, X2 \
	VPSHUFB      (R14)(CX*1), X2, X2 \
	VMOVDQU      X2, (DI)(BX*1) \
	LEAQ         4(BX)(DX*1), BX

// func widenAVX2(dst, src []byte) (nd, ns int)
// Requires: AVX, AVX2, POPCNT
TEXT ·widenAVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R8
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), R9
	XORQ AX, AX // ns
	XORQ BX, BX // nd
	LEAQ widenPack<>(SB), R14
	MOVL $0x3F, CX
	VMOVD CX, X15
	VPBROADCASTW X15, Y15
	MOVL $0x1F, CX
	VMOVD CX, X14
	VPBROADCASTW X14, Y14
	MOVL $0xBF, CX
	VMOVD CX, X13
	VPBROADCASTW X13, Y13
	MOVL $0xDF, CX
	VMOVD CX, X12
	VPBROADCASTW X12, Y12
	MOVL $0xEF, CX
	VMOVD CX, X11
	VPBROADCASTB X11, Y11
	MOVL $0xC0, CX
	VMOVD CX, X10
	VPBROADCASTB X10, Y10

widen2loop:
	LEAQ 34(AX), CX
	CMPQ CX, R9
	JA   widen2end
	LEAQ 64(BX), CX
	CMPQ CX, R8
	JA   widen2end
	VMOVDQU   (SI)(AX*1), Y0
	VPMOVMSKB Y0, CX
	TESTL     CX, CX
	JNZ       widen2multi
	// ASCII: each byte is a unit.
	VPMOVZXBW (SI)(AX*1), Y1
	VPMOVZXBW 16(SI)(AX*1), Y2
	VMOVDQU   Y1, (DI)(BX*1)
	VMOVDQU   Y2, 32(DI)(BX*1)
	ADDQ      $32, AX
	ADDQ      $64, BX
	JMP       widen2loop

widen2multi:
	// A 4-byte lead (F0..FF, which b-EF saturated leaves nonzero) stops
	// the kernel.
	VPSUBUSB  Y11, Y0, Y1
	VPTEST    Y1, Y1
	JNZ       widen2end
	// The lanes where a character starts: not 80..BF, which are below
	// C0 as signed bytes.
	VPCMPGTB  Y0, Y10, Y1
	VPMOVMSKB Y1, R10
	NOTL      R10
	// The unit of the character that starts in each lane of the first
	// 16 and of the last 16, from the lane's byte and the 2 after it.
	VPMOVZXBW (SI)(AX*1), Y0
	VPMOVZXBW 1(SI)(AX*1), Y1
	VPMOVZXBW 2(SI)(AX*1), Y2
	WIDEN_UNITS(Y0, Y1, Y2, Y3, Y4, Y5)
	VPMOVZXBW 16(SI)(AX*1), Y0
	VPMOVZXBW 17(SI)(AX*1), Y1
	VPMOVZXBW 18(SI)(AX*1), Y2
	WIDEN_UNITS(Y0, Y1, Y2, Y3, Y4, Y6)
	// The units of the lanes where characters start, 8 lanes at a time,
	// packed to the front and stored one after the other.
	WIDEN_PACK(X5)
	VEXTRACTI128 $1, Y5, X5
	WIDEN_PACK(X5)
	WIDEN_PACK(X6)
	VEXTRACTI128 $1, Y6, X6
	WIDEN_PACK(X6)
	ADDQ $32, AX
	JMP  widen2loop

widen2end:
	// The run ends after the last character it wrote, past the bytes
	// of the last block's last character that lie after the block.
	CMPQ    AX, R9
	JAE     widen2done
	MOVBLZX (SI)(AX*1), CX
	ANDL    $0xC0, CX
	CMPL    CX, $0x80
	JNE     widen2done
	INCQ    AX
	JMP     widen2end

widen2done:
	VZEROUPPER
	MOVQ BX, nd+48(FP)
	MOVQ AX, ns+56(FP)
	RET

// func widenAVX512(dst, src []byte) (nd, ns int)
// Requires: AVX, AVX512BW, AVX512F, AVX512VBMI2, POPCNT
TEXT ·widenAVX512(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R8
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), R9
	XORQ AX, AX   // ns
	XORQ BX, BX   // nd
	XORL R13, R13 // a 4-byte sequence started in the last byte of the block before
	MOVL $0x3F, CX
	VPBROADCASTW CX, Z20
	MOVL $0x1F, CX
	VPBROADCASTW CX, Z21
	MOVL $0xC0, CX
	VPBROADCASTW CX, Z23
	MOVL $0x80, CX
	VPBROADCASTW CX, Z24
	MOVL $0xE0, CX
	VPBROADCASTW CX, Z25
	MOVL $0xF0, CX
	VPBROADCASTW CX, Z26
	MOVL $0x0700, CX
	VPBROADCASTW CX, Z27
	MOVL $3, CX
	VPBROADCASTW CX, Z28
	MOVL $0xD7C0, CX
	VPBROADCASTW CX, Z29
	MOVL $0x03C0, CX
	VPBROADCASTW CX, Z30
	MOVL $0xDC00, CX
	VPBROADCASTW CX, Z31

widen5loop:
	LEAQ 34(AX), CX
	CMPQ CX, R9
	JA   widen5end
	LEAQ 64(BX), CX
	CMPQ CX, R8
	JA   widen5end
	VPMOVZXBW (SI)(AX*1), Z0  // b0: each byte in a word
	VPCMPUW   $5, Z24, Z0, K1 // b0 >= 80
	KORTESTD  K1, K1
	JNZ       widen5multi
	// ASCII: the words are the units.
	VMOVDQU64 Z0, (DI)(BX*1)
	ADDQ      $32, AX
	ADDQ      $64, BX
	XORL      R13, R13
	JMP       widen5loop

widen5multi:
	VPMOVZXBW 1(SI)(AX*1), Z1 // b1: the byte after it
	VPMOVZXBW 2(SI)(AX*1), Z2 // b2: the one after that
	VPANDQ    Z23, Z0, Z3
	VPCMPUW   $4, Z24, Z3, K2 // b0&C0 != 80: a character starts here
	VPCMPUW   $5, Z23, Z0, K3 // b0 >= C0: a sequence of 2 bytes or more
	VPCMPUW   $5, Z25, Z0, K4 // b0 >= E0: 3 bytes or more
	VPCMPUW   $5, Z26, Z0, K5 // b0 >= F0: 4 bytes
	// The lanes after those hold low surrogates; so does the first lane
	// after a 4-byte sequence that started in the last lane of the
	// block before (R13).
	KSHIFTLD  $1, K5, K6
	KMOVD     R13, K7
	KORD      K7, K6, K6
	KMOVD     K5, R13
	SHRL      $31, R13
	VPANDQ    Z20, Z1, Z5     // b1&3F
	VPANDQ    Z20, Z2, Z8     // b2&3F
	// three = (b0&0F)<<12 | (b1&3F)<<6 | b2&3F; the shift drops b0's high bits.
	VPSLLW    $12, Z0, Z6
	VPSLLW    $6, Z5, Z7
	VPORQ     Z7, Z6, Z6
	VPORQ     Z8, Z6, Z6
	// two = (b0&1F)<<6 | b1&3F
	VPANDQ    Z21, Z0, Z4
	VPSLLW    $6, Z4, Z4
	VPORQ     Z5, Z4, Z4
	KORTESTD  K5, K6
	JNZ       widen5four
	VMOVDQU16 Z4, K3, Z0
	VMOVDQU16 Z6, K4, Z0
	JMP       widen5mask

widen5four:
	// high = D7C0 + ((b0&7)<<8 | (b1&3F)<<2 | (b2>>4)&3), the high
	// surrogate of a 4-byte sequence's character.
	VPSLLW    $8, Z0, Z10
	VPANDQ    Z27, Z10, Z10
	VPSLLW    $2, Z5, Z11
	VPORQ     Z11, Z10, Z10
	VPSRLW    $4, Z2, Z11
	VPANDQ    Z28, Z11, Z11
	VPORQ     Z11, Z10, Z10
	VPADDW    Z29, Z10, Z10
	// low = DC00 | (b1&0F)<<6 | b2&3F, in the lane after the lead: its b1
	// and b2 are the sequence's last two bytes.
	VPANDQ    Z30, Z7, Z12
	VPORQ     Z8, Z12, Z12
	VPORQ     Z31, Z12, Z12
	VMOVDQU16 Z4, K3, Z0
	VMOVDQU16 Z6, K4, Z0
	VMOVDQU16 Z10, K5, Z0
	VMOVDQU16 Z12, K6, Z0

widen5mask:
	// The units of the characters that start in the block, in order, with
	// the bytes after it that the last one needs (b1 and b2 reach them),
	// then the next block's. The block's length does not depend on them,
	// so that the next block's loads need not wait.
	KORD          K6, K2, K2
	VPCOMPRESSW.Z Z0, K2, Z9
	VMOVDQU64     Z9, (DI)(BX*1)
	KMOVD         K2, DX
	POPCNTL       DX, CX
	LEAQ          (BX)(CX*2), BX
	ADDQ          $32, AX
	JMP           widen5loop

widen5end:
	// The run ends after the last character it wrote: past the bytes of
	// the last block's last character that lie after the block, or, if
	// that character has 4 bytes and started in the block's last byte,
	// before it, its high surrogate taken back.
	TESTL R13, R13
	JZ    widen5cont
	SUBQ  $2, BX
	DECQ  AX
	JMP   widen5done

widen5cont:
	TESTQ AX, AX
	JZ    widen5done

widen5skip:
	CMPQ    AX, R9
	JAE     widen5done
	MOVBLZX (SI)(AX*1), CX
	ANDL    $0xC0, CX
	CMPL    CX, $0x80
	JNE     widen5done
	INCQ    AX
	JMP     widen5skip

widen5done:
	VZEROUPPER
	MOVQ BX, nd+48(FP)
	MOVQ AX, ns+56(FP)
	RET

// func narrowAVX2(dst, src []byte, stopLo, stopN uint32, stopASCII bool) (nd, ns int)
// Requires: AVX, AVX2, POPCNT
TEXT ·narrowAVX2(SB), NOSPLIT, $0-80
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R8
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), R9
	XORQ AX, AX // ns
	XORQ BX, BX // nd
	LEAQ narrowPack<>(SB), R14
	MOVL stopN+52(FP), R12   // units stopLo..stopLo+stopN-1, cyclic in 16 bits
	MOVBLZX stopASCII+56(FP), R13
	MOVL stopLo+48(FP), CX
	VMOVD CX, X12
	VPBROADCASTW X12, Y12
	LEAL -1(R12), CX
	VMOVD CX, X13
	VPBROADCASTW X13, Y13    // stopN-1
	MOVL $0xFF80, CX
	VMOVD CX, X15
	VPBROADCASTW X15, Y15
	MOVL $0x1B, CX           // D800..DFFF>>11
	VMOVD CX, X14
	VPBROADCASTW X14, Y14
	MOVL $0x7F, CX
	VMOVD CX, X9
	VPBROADCASTD X9, Y9
	MOVL $0x7FF, CX
	VMOVD CX, X8
	VPBROADCASTD X8, Y8
	MOVL $0x3F, CX
	VMOVD CX, X7
	VPBROADCASTD X7, Y7
	MOVL $0x80, CX
	VMOVD CX, X6
	VPBROADCASTD X6, Y6
	MOVL $0xC0, CX
	VMOVD CX, X5
	VPBROADCASTD X5, Y5
	MOVL $0xE0, CX
	VMOVD CX, X4
	VPBROADCASTD X4, Y4

narrow2loop:
	LEAQ 34(AX), CX
	CMPQ CX, R9
	JA   narrow2done
	LEAQ 64(BX), CX
	CMPQ CX, R8
	JA   narrow2done
	VMOVDQU (SI)(AX*1), Y0
	TESTL   R13, R13
	JNZ     narrow2multi
	VPTEST  Y15, Y0
	JNZ     narrow2multi
	// ASCII: the low bytes are the output.
	VEXTRACTI128 $1, Y0, X1
	VPACKUSWB    X1, X0, X2
	VMOVDQU      X2, (DI)(BX*1)
	ADDQ         $32, AX
	ADDQ         $16, BX
	JMP          narrow2loop

narrow2multi:
	// A surrogate stops the kernel, and so does a unit u with
	// (u-stopLo)&FFFF <= stopN-1 (the min of the two is u-stopLo).
	VPSRLW   $11, Y0, Y1
	VPCMPEQW Y14, Y1, Y1
	VPTEST   Y1, Y1
	JNZ      narrow2done
	TESTL    R12, R12
	JZ       narrow2conv
	VPSUBW   Y12, Y0, Y1
	VPMINUW  Y13, Y1, Y2
	VPCMPEQW Y2, Y1, Y1
	VPTEST   Y1, Y1
	JNZ      narrow2done
	VPTEST   Y15, Y0
	JNZ      narrow2conv
	// ASCII, with the stop range checked.
	VEXTRACTI128 $1, Y0, X1
	VPACKUSWB    X1, X0, X2
	VMOVDQU      X2, (DI)(BX*1)
	ADDQ         $32, AX
	ADDQ         $16, BX
	JMP          narrow2loop

narrow2conv:
	// Each unit's UTF-8 in a dword, 8 units at a time, packed to the
	// front 4 units at a time and stored one after the other.
	VPMOVZXWD (SI)(AX*1), Y0
	NARROW_UTF8
	NARROW_PACK
	VPMOVZXWD 16(SI)(AX*1), Y0
	NARROW_UTF8
	NARROW_PACK
	ADDQ $32, AX
	JMP  narrow2loop

narrow2done:
	VZEROUPPER
	MOVQ BX, nd+64(FP)
	MOVQ AX, ns+72(FP)
	RET

// func narrowAVX512(dst, src []byte, stopLo, stopN uint32) (nd, ns int)
// Requires: AVX, AVX2, AVX512BW, AVX512F, AVX512VBMI2, AVX512VL, BMI2, POPCNT
TEXT ·narrowAVX512(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R8
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), R9
	XORQ AX, AX   // ns
	XORQ BX, BX   // nd
	XORL R13, R13 // the last block ended with a high surrogate
	MOVL stopLo+48(FP), CX
	VPBROADCASTD CX, Z24
	MOVL stopN+52(FP), CX
	VPBROADCASTD CX, Z25
	MOVL $0x80, CX
	VPBROADCASTD CX, Z20
	MOVL $0x800, CX
	VPBROADCASTD CX, Z21
	MOVL $0xD800, CX
	VPBROADCASTD CX, Z22
	MOVL $0x3F, CX
	VPBROADCASTD CX, Z26
	MOVL $0xC0, CX
	VPBROADCASTD CX, Z27
	MOVL $0xE0, CX
	VPBROADCASTD CX, Z28
	MOVL $0x400, CX
	VPBROADCASTD CX, Z23
	MOVL $0xF0, CX
	VPBROADCASTD CX, Z29
	MOVL $0xDC00, CX
	VPBROADCASTD CX, Z30
	MOVL $0x35FDC00, CX
	VPBROADCASTD CX, Z31
	MOVL $0xFF80, CX
	VPBROADCASTW CX, Z19

narrow5loop:
	// Two blocks of ASCII at a time where there is room for both.
	LEAQ 66(AX), CX
	CMPQ CX, R9
	JA   narrow5one
	LEAQ 80(BX), CX
	CMPQ CX, R8
	JA   narrow5one
	VMOVDQU64 (SI)(AX*1), Z0
	VPTESTMW  Z19, Z0, K1
	KORTESTD  K1, K1
	JNZ       narrow5one
	VPMOVWB   Z0, Y1
	VMOVDQU64 Y1, (DI)(BX*1)
	ADDQ      $64, AX
	ADDQ      $32, BX
	JMP       narrow5loop

narrow5one:
	LEAQ 34(AX), CX
	CMPQ CX, R9
	JA   narrow5done
	LEAQ 64(BX), CX
	CMPQ CX, R8
	JA   narrow5done
	VMOVDQU64  (SI)(AX*1), Y0
	VPTESTMW   Y19, Y0, K1    // u&FF80 != 0
	KORTESTW   K1, K1
	JNZ        narrow5multi
	// ASCII: the low bytes are the output.
	VPMOVWB    Y0, X1
	VMOVDQU64  X1, (DI)(BX*1)
	ADDQ       $32, AX
	ADDQ       $16, BX
	JMP        narrow5loop

narrow5multi:
	VPMOVZXWD (SI)(AX*1), Z14  // u: each unit in a dword
	VPSUBD    Z24, Z14, Z2
	VPCMPUD   $1, Z25, Z2, K2  // u-stopLo < stopN
	KORTESTW  K2, K2
	JNZ       narrow5done
	VPCMPUD   $5, Z20, Z14, K3 // u >= 80: 2 bytes or more
	VPCMPUD   $5, Z21, Z14, K4 // u >= 800: 3 bytes
	VPANDD    Z26, Z14, Z4
	VPORD     Z20, Z4, Z4      // 80 | u&3F
	// two = C0|u>>6, then 80|u&3F
	VPSRLD    $6, Z14, Z3
	VPORD     Z27, Z3, Z3
	VPSLLD    $8, Z4, Z5
	VPORD     Z5, Z3, Z3
	// three = E0|u>>12, then 80|(u>>6)&3F, then 80|u&3F
	VPSRLD    $12, Z14, Z6
	VPORD     Z28, Z6, Z6
	VPSRLD    $6, Z14, Z7
	VPANDD    Z26, Z7, Z7
	VPORD     Z20, Z7, Z7
	VPSLLD    $8, Z7, Z7
	VPORD     Z7, Z6, Z6
	VPSLLD    $16, Z4, Z8
	VPORD     Z8, Z6, Z6
	VMOVDQA64 Z14, Z0
	VMOVDQU32 Z3, K3, Z0
	VMOVDQU32 Z6, K4, Z0
	VPSUBD    Z22, Z14, Z1
	VPCMPUD   $1, Z21, Z1, K1  // u-D800 < 800: a surrogate
	KORTESTW  K1, K1
	JNZ       narrow5pairs
	// The bytes to keep: the first of each dword, the second where
	// u >= 80, the third where u >= 800.
	KMOVW  K3, CX
	MOVQ   $0x2222222222222222, R10
	PDEPQ  R10, CX, CX
	KMOVW  K4, DX
	MOVQ   $0x4444444444444444, R10
	PDEPQ  R10, DX, DX
	ORQ    DX, CX
	MOVQ   $0x1111111111111111, R10
	ORQ    R10, CX
	XORL   R13, R13
	JMP    narrow5store

narrow5pairs:
	VPCMPUD   $1, Z23, Z1, K1  // u-D800 < 400: a high surrogate
	VPSUBD    Z30, Z14, Z1
	VPCMPUD   $1, Z23, Z1, K7  // u-DC00 < 400: a low one
	VPMOVZXWD 2(SI)(AX*1), Z13 // the unit after u, the block's last lane's included
	VPSUBD    Z30, Z13, Z1
	VPCMPUD   $1, Z23, Z1, K6  // a low surrogate after u
	// Every high surrogate must be followed by a low one, and every low
	// one follow a high one, the first lane's perhaps the one in the
	// last lane of the block before (R13): else the block is not taken.
	KMOVW  K1, R11            // high surrogates
	KMOVW  K7, R12            // low ones
	KMOVW  K6, DX
	NOTL   DX
	TESTL  R11, DX
	JNZ    narrow5done
	MOVL   R11, CX
	SHLL   $1, CX
	ORL    R13, CX
	ANDL   $0xFFFF, CX
	CMPL   CX, R12
	JNE    narrow5done
	MOVL   R11, R13
	SHRL   $15, R13
	// four, for a high surrogate and the low one after it: c = u<<10 +
	// next - 35FDC00; F0|c>>18, 80|(c>>12)&3F, 80|(c>>6)&3F, 80|c&3F.
	VPSLLD    $10, Z14, Z10
	VPADDD    Z13, Z10, Z10
	VPSUBD    Z31, Z10, Z10
	VPSRLD    $18, Z10, Z11
	VPORD     Z29, Z11, Z11
	VPSRLD    $12, Z10, Z12
	VPANDD    Z26, Z12, Z12
	VPORD     Z20, Z12, Z12
	VPSLLD    $8, Z12, Z12
	VPORD     Z12, Z11, Z11
	VPSRLD    $6, Z10, Z12
	VPANDD    Z26, Z12, Z12
	VPORD     Z20, Z12, Z12
	VPSLLD    $16, Z12, Z12
	VPORD     Z12, Z11, Z11
	VPANDD    Z26, Z10, Z12
	VPORD     Z20, Z12, Z12
	VPSLLD    $24, Z12, Z12
	VPORD     Z12, Z11, Z11
	VMOVDQU32 Z11, K1, Z0
	// The bytes to keep, in the lanes but the low surrogates': the
	// first; the second where u >= 80; the third where u >= 800; the
	// fourth for a pair.
	NOTL   R12
	ANDL   $0xFFFF, R12       // the lanes to keep
	KMOVW  K3, CX
	ANDL   R12, CX
	MOVQ   $0x2222222222222222, R10
	PDEPQ  R10, CX, CX
	KMOVW  K4, DX
	ANDL   R12, DX
	MOVQ   $0x4444444444444444, R10
	PDEPQ  R10, DX, DX
	ORQ    DX, CX
	MOVQ   $0x1111111111111111, R10
	PDEPQ  R10, R12, DX
	ORQ    DX, CX
	MOVQ   $0x8888888888888888, R10
	PDEPQ  R10, R11, DX
	ORQ    DX, CX

narrow5store:
	KMOVQ         CX, K5
	VPCOMPRESSB.Z Z0, K5, Z9
	VMOVDQU64     Z9, (DI)(BX*1)
	POPCNTQ       CX, CX
	ADDQ          CX, BX
	ADDQ          $32, AX
	JMP           narrow5loop

narrow5done:
	// After the low surrogate of a pair that the last block ended with.
	LEAQ (AX)(R13*2), AX
	VZEROUPPER
	MOVQ BX, nd+56(FP)
	MOVQ AX, ns+64(FP)
	RET
