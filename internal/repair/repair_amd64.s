//go:build gc && !purego

#include "go_asm.h"
#include "textflag.h"

// BYTES broadcasts the byte c to all 64 bytes of z.
#define BYTES(c, z) \
	MOVL         $c, AX \
	VPBROADCASTB AX, z

// The tables of classifyAVX512, from these bits (table_test.go builds
// every table from them and checks the bytes below):
//
//	Second8  0x01  the second byte may be 80..8F
//	Second9  0x02  the second byte may be 90..9F
//	SecondA  0x04  the second byte may be A0..AF
//	SecondB  0x08  the second byte may be B0..BF
//	Third    0x10  a third byte must be a continuation byte
//	Fourth   0x20  a fourth byte must be a continuation byte
//	Escape   0x40  EE, and BE or BF after it: OPTU8's escapes
//
// A lead byte's entry in leadC0 and the entries of the bytes 1, 2 and 3
// places on in cont1, cont2 and cont3 share a bit where each byte that the
// lead asks for is there (VPTESTMB); the v test looks for Third and
// Fourth where the lead asks and the bytes do not give, and for Escape.
//
// leadC0, by lead byte C0..FF (00..BF take zeros, Z14), from Table 3-7:
//
//	C0..C1  0                                        00
//	C2..DF  Second8|Second9|SecondA|SecondB          0f
//	E0      SecondA|SecondB|Third                    1c
//	E1..EC  Second8|Second9|SecondA|SecondB|Third    1f
//	ED      Second8|Second9|Third                    13
//	EE      Second8|Second9|SecondA|SecondB|Third|Escape  5f
//	EF      Second8|Second9|SecondA|SecondB|Third    1f
//	F0      Second9|SecondA|SecondB|Third|Fourth     3e
//	F1..F3  Second8|Second9|SecondA|SecondB|Third|Fourth  3f
//	F4      Second8|Third|Fourth                     31
//	F5..FF  0                                        00
//
// cont1, cont2 and cont3, by b>>2 for every byte b:
//
//	cont1: 80..8F Second8 (01), 90..9F Second9 (02), A0..AF SecondA (04),
//	       B0..BF SecondB (08), every other byte 0
//	cont2: 80..BF Third (10), every other byte 0
//	cont3: 80..BF Fourth (20), every other byte 0
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

// cont1Esc is cont1 for OPTU8, by b>>1 for 80..FF (bytes below 80 take
// zeros): it also gives BE and BF Escape (48), which leadC0 gives EE
// alone, so that the v test finds EE BE and EE BF.
DATA cont1Esc<>+0(SB)/8, $0x0101010101010101
DATA cont1Esc<>+8(SB)/8, $0x0202020202020202
DATA cont1Esc<>+16(SB)/8, $0x0404040404040404
DATA cont1Esc<>+24(SB)/8, $0x4808080808080808
DATA cont1Esc<>+32(SB)/8, $0x0000000000000000
DATA cont1Esc<>+40(SB)/8, $0x0000000000000000
DATA cont1Esc<>+48(SB)/8, $0x0000000000000000
DATA cont1Esc<>+56(SB)/8, $0x0000000000000000
GLOBL cont1Esc<>(SB), RODATA|NOPTR, $64

// The ways the classification looks up the bytes 1 place on in Z1: by
// b>>2 in cont1, or under OPTU8 by b>>1 in cont1Esc (Z17), where 00..7F
// take the zeros in Z14.
#define CLASSIFY_C1_PLAIN \
	VPSRLW $2, Z1, Z1 \
	VPERMB Z11, Z1, Z1
#define CLASSIFY_C1_ESC \
	VPSRLW   $1, Z1, Z1 \
	VPERMI2B Z17, Z14, Z1

// func classifyAVX512(src []byte, out []blockClass)
// Requires: AVX, AVX512BW, AVX512F, AVX512VBMI
// For each i < len(out) it classifies the 64 bytes at src[64*i:], reading
// up to src[64*i+67]; len(src) must be at least 64*len(out)+3. See
// classifyGeneric.
TEXT ·classifyAVX512(SB), NOSPLIT, $0-48
	MOVQ  src_base+0(FP), SI
	MOVQ  out_base+24(FP), DI
	MOVQ  out_len+32(FP), CX
	TESTQ CX, CX
	JZ    done
#define CLASSIFY_LOAD \
	VMOVDQU64 (SI), Z0  \
	VMOVDQU64 1(SI), Z1 \
	VMOVDQU64 2(SI), Z2 \
	VMOVDQU64 3(SI), Z3
#define CLASSIFY_LOOP classifyLoop
#define CLASSIFY_C1 CLASSIFY_C1_PLAIN
#define ESC_GATHER
#include "classify_amd64.h"

done:
	VZEROUPPER
	RET

#include "repair_amd64.h"

// The bits of a 64-bit mask that interleaving 3 streams of 64 bytes
// gives to the first (ilv0), second (ilv1) and third (ilv2) of them in
// the first 64 bytes; the next 64 bytes start with the second stream, the
// last 64 with the third. ilvIdx0..2 are the indexes for VPERMI2B (the
// first two streams) and VPERMB (the third) that interleave each 64: byte
// j of ilvIdxK is for byte 64K+j of the interleaved output, which is byte
// (64K+j)/3 of stream (64K+j)%3, with 0x40 added for the second stream
// (VPERMI2B's second table).
DATA ilv0<>+0(SB)/8, $0x9249249249249249
GLOBL ilv0<>(SB), RODATA|NOPTR, $8
DATA ilv1<>+0(SB)/8, $0x2492492492492492
GLOBL ilv1<>(SB), RODATA|NOPTR, $8
DATA ilv2<>+0(SB)/8, $0x4924924924924924
GLOBL ilv2<>(SB), RODATA|NOPTR, $8
DATA ilvIdx0<>+0(SB)/8, $0x4202014101004000
DATA ilvIdx0<>+8(SB)/8, $0x0504440403430302
DATA ilvIdx0<>+16(SB)/8, $0x0747070646060545
DATA ilvIdx0<>+24(SB)/8, $0x4a0a094909084808
DATA ilvIdx0<>+32(SB)/8, $0x0d0c4c0c0b4b0b0a
DATA ilvIdx0<>+40(SB)/8, $0x0f4f0f0e4e0e0d4d
DATA ilvIdx0<>+48(SB)/8, $0x5212115111105010
DATA ilvIdx0<>+56(SB)/8, $0x1514541413531312
GLOBL ilvIdx0<>(SB), RODATA|NOPTR, $64
DATA ilvIdx1<>+0(SB)/8, $0x1757171656161555
DATA ilvIdx1<>+8(SB)/8, $0x5a1a195919185818
DATA ilvIdx1<>+16(SB)/8, $0x1d1c5c1c1b5b1b1a
DATA ilvIdx1<>+24(SB)/8, $0x1f5f1f1e5e1e1d5d
DATA ilvIdx1<>+32(SB)/8, $0x6222216121206020
DATA ilvIdx1<>+40(SB)/8, $0x2524642423632322
DATA ilvIdx1<>+48(SB)/8, $0x2767272666262565
DATA ilvIdx1<>+56(SB)/8, $0x6a2a296929286828
GLOBL ilvIdx1<>(SB), RODATA|NOPTR, $64
DATA ilvIdx2<>+0(SB)/8, $0x2d2c6c2c2b6b2b2a
DATA ilvIdx2<>+8(SB)/8, $0x2f6f2f2e6e2e2d6d
DATA ilvIdx2<>+16(SB)/8, $0x7232317131307030
DATA ilvIdx2<>+24(SB)/8, $0x3534743433733332
DATA ilvIdx2<>+32(SB)/8, $0x3777373676363575
DATA ilvIdx2<>+40(SB)/8, $0x7a3a397939387838
DATA ilvIdx2<>+48(SB)/8, $0x3d3c7c3c3b7b3b3a
DATA ilvIdx2<>+56(SB)/8, $0x3f7f3f3e7e3e3d7d
GLOBL ilvIdx2<>(SB), RODATA|NOPTR, $64

// shiftIdx is the bytes 1, 2, 3 and on: from shiftIdx+k-1, the indexes
// that move each byte of a vector k places down.
DATA shiftIdx<>+0(SB)/8, $0x0807060504030201
DATA shiftIdx<>+8(SB)/8, $0x100f0e0d0c0b0a09
DATA shiftIdx<>+16(SB)/8, $0x1817161514131211
DATA shiftIdx<>+24(SB)/8, $0x201f1e1d1c1b1a19
DATA shiftIdx<>+32(SB)/8, $0x2827262524232221
DATA shiftIdx<>+40(SB)/8, $0x302f2e2d2c2b2a29
DATA shiftIdx<>+48(SB)/8, $0x3837363534333231
DATA shiftIdx<>+56(SB)/8, $0x403f3e3d3c3b3a39
DATA shiftIdx<>+64(SB)/8, $0x4847464544434241
GLOBL shiftIdx<>(SB), RODATA|NOPTR, $72

// TABLE defines name as 64 bytes of read-only data: the 16 bytes of the
// words lo and hi, repeated four times.
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

// bit1, bit2 and bit4 are 64 bytes 1, 2 and 4, to test the bits of vlen.
TABLE(bit1<>, $0x0101010101010101, $0x0101010101010101)
TABLE(bit2<>, $0x0202020202020202, $0x0202020202020202)
TABLE(bit4<>, $0x0404040404040404, $0x0404040404040404)

// escBit is 64 bytes 0x40, the bit of the v test that only EE followed by
// BE or BF sets under OPTU8.
TABLE(escBit<>, $0x4040404040404040, $0x4040404040404040)

// VECOUT writes the next 64 bytes of the interleaved streams Z4, Z5 and
// Z6 at DI+BX, packed to the bytes that count, and advances BX past
// them. m0, m1 and m2 place the low bits of e0 (R8), e1 (R9) and e2 (R10),
// the bytes of each stream that count, among the 64; m2 is also where the
// third stream goes. idx holds the indexes that interleave the 64.
#define VECOUT(m0, m1, m2, idx) \
	PDEPQ       m0<>(SB), R8, AX  \
	PDEPQ       m1<>(SB), R9, CX  \
	ORQ         CX, AX            \
	PDEPQ       m2<>(SB), R10, CX \
	ORQ         CX, AX            \
	KMOVQ       AX, K3            \
	POPCNTQ     AX, R11           \
	VMOVDQA64   idx, Z7           \
	VPERMI2B    Z5, Z4, Z7        \
	KMOVQ       m2<>(SB), K6      \
	VPERMB      Z6, idx, K6, Z7   \
	VPCOMPRESSB Z7, K3, Z8        \
	VMOVDQU64   Z8, (DI)(BX*1)    \
	ADDQ        R11, BX


// func repairAVX512(dst, src []byte, n int, tab *Table, st *state)
// Requires: AVX, AVX512BW, AVX512F, AVX512VBMI, AVX512VBMI2, BMI1, BMI2, POPCNT
// It runs its AVX512VBMI2 instructions only where tab.vec is set
// (vecPath). It classifies the n <= const_batch blocks from st.p
// on into its frame, as classifyAVX512 does, and then repairs them: a
// block with a few ill-formed bytes as copies of the valid runs between
// them and a table word for each, one with const_vecMin or more in the vector
// path. See kernelBlocks.
TEXT ·repairAVX512(SB), $1048-72
	REPAIR_ENTER
	CMPQ  state_tail(R14), $0
	JNE   tail
	MOVQ  src_base+24(FP), SI
	ADDQ  state_p(R14), SI
	LEAQ  (SP), DI
	MOVQ  R15, CX
	CMPB  Table_esc(R13), $0
	JNE   classifyEsc
#include "classify_amd64.h"
	JMP classified

// Under OPTU8 (tab.esc), a valid EE BE xx or EE BF xx is escaped byte by
// byte, as the table escapes ill-formed bytes: the classification clears v
// there (cont1Esc), so that the block loop takes the sequence as a subpart
// of 3 bytes. ESC_SETUP sets up Z28 and Z29, which the loop keeps to tell
// them from the others, Z17 for CLASSIFY_C1_ESC, and Z18, which
// ESC_GATHER_EE gathers the v tests in; ESC_SAVE stores in const_frameEscAny whether
// any block has one (bit 6).
#define ESC_SETUP \
	BYTES(0xEE, Z28)                 \
	BYTES(0xBD, Z29)                 \
	VMOVDQU64 cont1Esc<>(SB), Z17    \
	VPXORQ    Z18, Z18, Z18
#define ESC_GATHER_EE \
	VPORQ Z1, Z18, Z18
#define ESC_SAVE \
	VPTESTMB escBit<>(SB), Z18, K1 \
	KMOVQ    K1, AX                \
	MOVQ     AX, const_frameEscAny(SP)

classifyEsc:
	ESC_SETUP
#undef CLASSIFY_LOOP
#undef CLASSIFY_C1
#undef ESC_GATHER
#define CLASSIFY_LOOP classifyLoopEsc
#define CLASSIFY_C1 CLASSIFY_C1_ESC
#define ESC_GATHER ESC_GATHER_EE
#include "classify_amd64.h"
	ESC_SAVE

classified:
	MOVQ src_base+24(FP), SI

#define REPAIR_SETUP \
	CMPB      Table_vec(R13), $0          \
	JEQ       block                     \
	VMOVDQU64 Table_vout+0(R13), Z17      \
	VMOVDQU64 Table_vout+64(R13), Z18     \
	VMOVDQU64 Table_vout+128(R13), Z19    \
	VMOVDQU64 Table_vout+192(R13), Z20    \
	VMOVDQU64 Table_vout+256(R13), Z21    \
	VMOVDQU64 Table_vout+320(R13), Z22    \
	VMOVDQU64 Table_vlen+0(R13), Z23      \
	VMOVDQU64 Table_vlen+64(R13), Z24     \
	VMOVDQU64 ilvIdx0<>(SB), Z25        \
	VMOVDQU64 ilvIdx1<>(SB), Z26        \
	VMOVDQU64 ilvIdx2<>(SB), Z27
#define COPY64(r) \
	VMOVDQU64 (SI)(r*1), Z0 \
	VMOVDQU64 Z0, (DI)(BX*1)
#define ESC_STARTS \
	VPCMPEQB (SI)(DX*1), Z28, K1           \
	VPCMPUB  $2, 1(SI)(DX*1), Z29, K1, K1  \
	KMOVQ    K1, AX
// Many ill-formed bytes, and a table that the vector path serves.
#define DENSE_TEST \
	CMPB    Table_vec(R13), $0 \
	JEQ     scalar           \
	POPCNTQ R10, AX          \
	CMPQ    AX, $const_vecMin     \
	JAE     vector
#include "repair_loop_amd64.h"


vector:
	// The output of the block in one pass: three streams of 64 bytes,
	// byte 0, 1 and 2 of each input byte's output, interleaved and
	// compressed to the bytes that count. A valid byte is its own byte
	// 0; an ill-formed one b has vout[k][b-0x80], and byte k counts when
	// bit k of vlen[b-0x80] is set and the byte is one the table counts
	// (K2): each start of a subpart, or each ill-formed byte.
	KMOVQ      R10, K1
	MOVQ       R9, CX
	CMPB       Table_vec(R13), $2
	CMOVQEQ    R10, CX
	KMOVQ      CX, K2
	VMOVDQU64  (SI)(DX*1), Z0
	VMOVDQA64  Z0, Z4
	VPERMI2B   Z18, Z17, K1, Z4
	VMOVDQA64  Z0, Z5
	VPERMI2B.Z Z20, Z19, K1, Z5
	VMOVDQA64  Z0, Z6
	VPERMI2B.Z Z22, Z21, K1, Z6
	VPERMI2B.Z Z24, Z23, K2, Z0
	VPTESTMB   bit1<>(SB), Z0, K3
	VPTESTMB   bit2<>(SB), Z0, K4
	VPTESTMB   bit4<>(SB), Z0, K5
	// The bytes of each stream that count: e0 (R8), e1 (R9), e2 (R10).
	KMOVQ K3, R8
	NOTQ  R10
	ORQ   R10, R8
	KMOVQ K4, R9
	KMOVQ K5, R10

	// The first 64 bytes of the interleaved streams: bytes 0..21 of the
	// first, 0..20 of the others.
	VECOUT(ilv0, ilv1, ilv2, Z25)
	// The next 64: bytes 22..42, 21..42 and 21..41.
	SHRQ $22, R8
	SHRQ $21, R9
	SHRQ $21, R10
	VECOUT(ilv2, ilv0, ilv1, Z26)
	// The last 64: bytes 43..63, 43..63 and 42..63.
	SHRQ $21, R8
	SHRQ $22, R9
	SHRQ $21, R10
	VECOUT(ilv1, ilv2, ilv0, Z27)
	JMP         next

tail:
	// A tail of st.tail <= 64 bytes of input, the whole of src, which
	// kernelTail sends as one block (R15 is 1) and the kernel pads with
	// zeros itself. A masked load, which faults on no masked-off byte,
	// takes src from where the caller wrote it long before: a load of a
	// copy stored just before, which a load 1, 2 or 3 bytes on spans with
	// the zeros' stores, would wait for the stores to reach the cache.
	MOVQ       src_base+24(FP), SI
	MOVQ       state_tail(R14), AX
	MOVQ       $-1, CX
	BZHIQ      AX, CX, CX
	KMOVQ      CX, K1
	VMOVDQU8.Z (SI), K1, Z0

	// The block and 64 zeros, which the block loop reads its valid runs
	// from, at R8: 128 bytes in the frame from 64 on, aligned, past the
	// one blockClass that the classification writes.
	LEAQ      127(SP), R8
	ANDQ      $-64, R8
	VPXORQ    Z1, Z1, Z1
	VMOVDQA64 Z0, (R8)
	VMOVDQA64 Z1, 64(R8)

	// Z1, Z2 and Z3: the block 1, 2 and 3 bytes on, zeros after it.
	MOVQ       $0x7fffffffffffffff, AX
	KMOVQ      AX, K2
	KSHIFTRQ   $1, K2, K3
	KSHIFTRQ   $2, K2, K4
	VMOVDQU64  shiftIdx<>+0(SB), Z1
	VPERMB.Z   Z0, Z1, K2, Z1
	VMOVDQU64  shiftIdx<>+1(SB), Z2
	VPERMB.Z   Z0, Z2, K3, Z2
	VMOVDQU64  shiftIdx<>+2(SB), Z3
	VPERMB.Z   Z0, Z3, K4, Z3
	LEAQ       (SP), DI
	MOVQ       $1, CX
	CMPB       Table_esc(R13), $0
	JNE        tailEsc
#undef CLASSIFY_LOAD
#undef CLASSIFY_LOOP
#undef CLASSIFY_C1
#undef ESC_GATHER
#define CLASSIFY_LOAD
#define CLASSIFY_LOOP classifyLoopTail
#define CLASSIFY_C1 CLASSIFY_C1_PLAIN
#define ESC_GATHER
#include "classify_amd64.h"
	MOVQ R8, SI
	JMP  classifiedSI

tailEsc:
	ESC_SETUP
#undef CLASSIFY_LOOP
#undef CLASSIFY_C1
#undef ESC_GATHER
#define CLASSIFY_LOOP classifyLoopTailEsc
#define CLASSIFY_C1 CLASSIFY_C1_ESC
#define ESC_GATHER ESC_GATHER_EE
#include "classify_amd64.h"
	ESC_SAVE
	MOVQ R8, SI
	JMP  classifiedSI
