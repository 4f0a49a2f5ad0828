package main

import (
	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/utf8stream/utf8stream/_asm/gen"
)

// classifyAVX512 writes classifyAVX512(src []byte, out []blockClass):
// for each i < len(out) it classifies the 64 bytes at src[64*i:], reading
// up to src[64*i+67]; len(src) must be at least 64*len(out)+3. See
// classifyGeneric.
func classifyAVX512() {
	f.Function("classifyAVX512")
	f.Attributes(attr.NOSPLIT)
	f.SignatureExpr("func(src []byte, out []byte)")
	f.MOVQ(gen.Param("src_base", 0), RSI)
	f.MOVQ(gen.Param("out_base", 24), RDI)
	f.MOVQ(gen.Param("out_len", 32), RCX)
	f.TESTQ(RCX, RCX)
	f.JZ(label("done"))
	classify512("classifyLoop", true, false)
	f.Label("done")
	f.VZEROUPPER()
	f.RET()
}

// bytes512 broadcasts the byte c to all 64 bytes of z, through AX.
func bytes512(c uint32, z Register) {
	f.MOVL(U32(c), EAX)
	f.VPBROADCASTB(EAX, z)
}

// classify512 classifies the CX > 0 blocks at SI into the blockClass
// array at DI, advancing SI and DI and counting CX down to 0, in a loop
// at the label loop. It overwrites AX, Z0 to Z3, Z10 to Z16, K1 to K4
// and K6. With load, each round loads the block into Z0 and the 64 bytes
// 1, 2 and 3 places on into Z1, Z2 and Z3; without, the caller has put
// them there (the tail, which is one block). With esc (OPTU8), it looks
// up the bytes 1 place on in cont1Esc (Z17) and gathers the v tests in
// Z18, which escSetup512 sets up and escSave512 reads.
func classify512(loop string, load, esc bool) {
	f.VMOVDQU64(gen.Static("leadC0", 0), Z10)
	f.VMOVDQU64(gen.Static("cont1", 0), Z11)
	f.VMOVDQU64(gen.Static("cont2", 0), Z12)
	f.VMOVDQU64(gen.Static("cont3", 0), Z13)
	f.VPXORQ(Z14, Z14, Z14)
	bytes512(0x30, Z15)
	bytes512(0x70, Z16)

	f.Label(loop)
	if load {
		for i, z := range []Register{Z0, Z1, Z2, Z3} {
			f.VMOVDQU64(gen.Mem(RSI, i), z)
		}
	}

	// K6: the bytes that are not ASCII. Z0 = lead: what the lead table
	// says of each byte (0 for 00..BF: Z14 is the table for 80..BF).
	f.VPMOVB2M(Z0, K6)
	f.VPERMI2B_Z(Z10, Z14, K6, Z0)
	// Z1, Z2, Z3: what the tables say of the bytes 1, 2 and 3 places
	// on. The bytes 1 place on: by b>>2 in cont1, or under OPTU8 by
	// b>>1 in cont1Esc (Z17), where 00..7F take the zeros in Z14.
	if esc {
		f.VPSRLW(U8(1), Z1, Z1)
		f.VPERMI2B(Z17, Z14, Z1)
	} else {
		f.VPSRLW(U8(2), Z1, Z1)
		f.VPERMB(Z11, Z1, Z1)
	}
	f.VPSRLW(U8(2), Z2, Z2)
	f.VPERMB(Z12, Z2, Z2)
	f.VPSRLW(U8(2), Z3, Z3)
	f.VPERMB(Z13, Z3, Z3)

	// m2 (K1): a lead byte and a second byte in its range; m3 (K2): and
	// a third byte if it needs one; m4 (K3): and a fourth.
	f.VPTESTMB(Z1, Z0, K1)
	f.VPTESTMB(Z2, Z0, K1, K2)
	f.VPTESTMB(Z3, Z0, K2, K3)
	f.KMOVQ(K1, gen.Mem(RDI, 0))
	f.KMOVQ(K2, gen.Mem(RDI, 8))
	f.KMOVQ(K3, gen.Mem(RDI, 16))

	// v = ASCII, or a whole sequence of the length its lead byte says:
	// m2, and none of the bits for a third and a fourth byte that the
	// lead asks and the bytes after it do not give (bits 4 and 5 of
	// lead and not c1|c2|c3, flipped by Z15), nor, under OPTU8, bit 6
	// of lead and c1, which only EE followed by BE or BF has (Z16).
	f.VPTERNLOGD(U8(0xfe), Z3, Z2, Z1)
	f.VPTERNLOGD(U8(0x48), Z15, Z0, Z1)
	if esc {
		f.VPORQ(Z1, Z18, Z18)
	}
	f.VPTESTNMB(Z16, Z1, K1, K4)
	f.KXNORQ(K4, K6, K4)
	f.KMOVQ(K4, gen.Mem(RDI, 24))

	f.ADDQ(U8(64), RSI)
	f.ADDQ(U8(32), RDI)
	f.DECQ(RCX)
	f.JNZ(label(loop))
}

// escSetup512 sets up, under OPTU8, Z28 and Z29, which the block loop
// keeps to tell the escapes from the other subparts (avx512.escStarts),
// Z17 for the lookup of classify512's esc, and Z18, which it gathers the
// v tests in.
func escSetup512() {
	bytes512(0xEE, Z28)
	bytes512(0xBD, Z29)
	f.VMOVDQU64(gen.Static("cont1Esc", 0), Z17)
	f.VPXORQ(Z18, Z18, Z18)
}

// escSave512 stores in const_frameEscAny whether any block classified
// since escSetup512 has an EE followed by BE or BF (bit 6 of Z18).
func escSave512() {
	f.VPTESTMB(gen.Static("escBit", 0), Z18, K1)
	f.KMOVQ(K1, RAX)
	f.MOVQ(RAX, frame("EscAny"))
}

// repairAVX512 writes repairAVX512(dst, src []byte, n int, tab *Table,
// st *state). It runs its AVX512VBMI2 instructions only where tab.vec is
// set (perBytePath). It classifies the n <= const_batch blocks from st.p
// on into its frame, as classifyAVX512 does, and then repairs them: a
// block with a few ill-formed bytes as copies of the valid runs between
// them and a table word for each, one with const_perByteMinAVX512 or more
// in the per-byte path (perByte512). See kernelBlocks.
func repairAVX512() {
	enter("repairAVX512")
	f.CMPQ(st("tail"), U8(0))
	f.JNE(label("tail"))
	f.MOVQ(gen.Param("src_base", 24), RSI)
	f.ADDQ(st("p"), RSI)
	f.LEAQ(gen.Mem(RSP, 0), RDI)
	f.MOVQ(R15, RCX)
	f.CMPB(tab("esc", 0), U8(0))
	f.JNE(label("classifyEsc"))
	classify512("classifyLoop", true, false)
	f.JMP(label("classified"))

	f.Label("classifyEsc")
	escSetup512()
	classify512("classifyLoopEsc", true, true)
	escSave512()

	f.Label("classified")
	f.MOVQ(gen.Param("src_base", 24), RSI)
	blockLoop(avx512{})
	perByte512()
	tail512()
}

// avx512 is the block loop's part of repairAVX512.
type avx512 struct{}

// setup keeps, where the table serves the per-byte path (tab.vec), its
// tables in Z17 to Z24 and the indexes that interleave its three streams
// in Z25 to Z27.
func (avx512) setup() {
	f.CMPB(tab("vec", 0), U8(0))
	f.JEQ(label("block"))
	for i, z := range []Register{Z17, Z18, Z19, Z20, Z21, Z22} {
		f.VMOVDQU64(tab("vout", 64*i), z)
	}
	f.VMOVDQU64(tab("vlen", 0), Z23)
	f.VMOVDQU64(tab("vlen", 64), Z24)
	f.VMOVDQU64(gen.Static("ilvIdx0", 0), Z25)
	f.VMOVDQU64(gen.Static("ilvIdx1", 0), Z26)
	f.VMOVDQU64(gen.Static("ilvIdx2", 0), Z27)
}

func (avx512) copy64(r Register) {
	f.VMOVDQU64(gen.At(RSI, r, 0), Z0)
	f.VMOVDQU64(Z0, gen.At(RDI, RBX, 0))
}

// escStarts finds EE followed by BE or BF (above BD, Z29) with Z28.
func (avx512) escStarts() {
	f.VPCMPEQB(gen.At(RSI, RDX, 0), Z28, K1)
	f.VPCMPUB(U8(2), gen.At(RSI, RDX, 1), Z29, K1, K1)
	f.KMOVQ(K1, RAX)
}

// perByteTest takes the per-byte path for many ill-formed bytes where the
// table serves it.
func (avx512) perByteTest() {
	f.CMPB(tab("vec", 0), U8(0))
	f.JEQ(label("scalar"))
	f.POPCNTQ(R10, RAX)
	f.CMPQ(RAX, f.Const("const_perByteMinAVX512"))
	f.JAE(label("perByte"))
}

// perByte512 writes the per-byte path of repairAVX512, at perByte: the
// output of the block in one vector pass, from bad (R10) and start (R9):
// three streams of 64 bytes, byte 0, 1 and 2 of each input byte's output,
// interleaved and compressed to the bytes that count. A valid byte is its
// own byte 0; an ill-formed one b has vout[k][b-0x80], and byte k counts
// when bit k of vlen[b-0x80] is set and the byte is one the table counts
// (K2): each start of a subpart, or each ill-formed byte. It ends with
// JMP next.
func perByte512() {
	f.Label("perByte")
	f.KMOVQ(R10, K1)
	f.MOVQ(R9, RCX)
	f.CMPB(tab("vec", 0), U8(2))
	f.CMOVQEQ(R10, RCX)
	f.KMOVQ(RCX, K2)
	f.VMOVDQU64(gen.At(RSI, RDX, 0), Z0)
	f.VMOVDQA64(Z0, Z4)
	f.VPERMI2B(Z18, Z17, K1, Z4)
	f.VMOVDQA64(Z0, Z5)
	f.VPERMI2B_Z(Z20, Z19, K1, Z5)
	f.VMOVDQA64(Z0, Z6)
	f.VPERMI2B_Z(Z22, Z21, K1, Z6)
	f.VPERMI2B_Z(Z24, Z23, K2, Z0)
	f.VPTESTMB(gen.Static("bit1", 0), Z0, K3)
	f.VPTESTMB(gen.Static("bit2", 0), Z0, K4)
	f.VPTESTMB(gen.Static("bit4", 0), Z0, K5)
	// The bytes of each stream that count: e0 (R8), e1 (R9), e2 (R10).
	f.Comment("e0 (R8), e1 (R9), e2 (R10)")
	f.KMOVQ(K3, R8)
	f.NOTQ(R10)
	f.ORQ(R10, R8)
	f.KMOVQ(K4, R9)
	f.KMOVQ(K5, R10)

	// The three rounds of 64 bytes of the interleaved streams take
	// bytes 0..21 of the first stream and 0..20 of the others; then
	// 22..42, 21..42 and 21..41; then 43..63, 43..63 and 42..63. Before
	// each round but the first, e0, e1 and e2 shift past the bytes the
	// round before took; the masks that place the streams rotate, and
	// each round has its indexes (Z25 to Z27).
	shifts := [3][3]uint8{{}, {22, 21, 21}, {21, 22, 21}}
	ilv := [3]string{"ilv0", "ilv1", "ilv2"}
	for r, idx := range []Register{Z25, Z26, Z27} {
		if r > 0 {
			f.SHRQ(U8(shifts[r][0]), R8)
			f.SHRQ(U8(shifts[r][1]), R9)
			f.SHRQ(U8(shifts[r][2]), R10)
		}
		vecOut(ilv[(3-r)%3], ilv[(4-r)%3], ilv[(5-r)%3], idx)
	}
	f.JMP(label("next"))
}

// vecOut writes the next 64 bytes of the interleaved streams Z4, Z5 and
// Z6 at DI+BX, packed to the bytes that count, and advances BX past
// them. The tables m0, m1 and m2 place the low bits of e0 (R8), e1 (R9)
// and e2 (R10), the bytes of each stream that count, among the 64; m2 is
// also where the third stream goes. idx holds the indexes that
// interleave the 64.
func vecOut(m0, m1, m2 string, idx Register) {
	f.PDEPQ(gen.Static(m0, 0), R8, RAX)
	f.PDEPQ(gen.Static(m1, 0), R9, RCX)
	f.ORQ(RCX, RAX)
	f.PDEPQ(gen.Static(m2, 0), R10, RCX)
	f.ORQ(RCX, RAX)
	f.KMOVQ(RAX, K3)
	f.POPCNTQ(RAX, R11)
	f.VMOVDQA64(idx, Z7)
	f.VPERMI2B(Z5, Z4, Z7)
	f.KMOVQ(gen.Static(m2, 0), K6)
	f.VPERMB(Z6, idx, K6, Z7)
	f.VPCOMPRESSB(Z7, K3, Z8)
	f.VMOVDQU64(Z8, gen.At(RDI, RBX, 0))
	f.ADDQ(R11, RBX)
}

// tail512 writes the tail path of repairAVX512, at tail: a tail of
// st.tail <= 64 bytes of input, the whole of src, which kernelTail sends
// as one block (R15 is 1) and the kernel pads with zeros itself. A masked
// load, which faults on no masked-off byte, takes src from where the
// caller wrote it long before: a load of a copy stored just before, which
// a load 1, 2 or 3 bytes on spans with the zeros' stores, would wait for
// the stores to reach the cache. The block and 64 zeros, which the block
// loop reads its valid runs from, go at R8: 128 bytes in the frame from
// 64 on, aligned, past the one blockClass that the classification
// writes; Z1, Z2 and Z3 get the block 1, 2 and 3 bytes on, zeros after
// it, for classify512 without load. It ends with JMP classifiedSI.
func tail512() {
	f.Label("tail")
	f.MOVQ(gen.Param("src_base", 24), RSI)
	f.MOVQ(st("tail"), RAX)
	f.MOVQ(I32(-1), RCX)
	f.BZHIQ(RAX, RCX, RCX)
	f.KMOVQ(RCX, K1)
	f.VMOVDQU8_Z(gen.Mem(RSI, 0), K1, Z0)

	f.Comment("The block and 64 zeros at R8")
	f.LEAQ(gen.Mem(RSP, 127), R8)
	f.ANDQ(I8(-64), R8)
	f.VPXORQ(Z1, Z1, Z1)
	f.VMOVDQA64(Z0, gen.Mem(R8, 0))
	f.VMOVDQA64(Z1, gen.Mem(R8, 64))

	f.Comment("Z1, Z2 and Z3: the block 1, 2 and 3 bytes on")
	f.MOVQ(U64(0x7fffffffffffffff), RAX)
	f.KMOVQ(RAX, K2)
	f.KSHIFTRQ(U8(1), K2, K3)
	f.KSHIFTRQ(U8(2), K2, K4)
	for i, k := range []Register{K2, K3, K4} {
		z := []Register{Z1, Z2, Z3}[i]
		f.VMOVDQU64(gen.Static("shiftIdx", i), z)
		f.VPERMB_Z(Z0, z, k, z)
	}
	f.LEAQ(gen.Mem(RSP, 0), RDI)
	f.MOVQ(U32(1), RCX)
	f.CMPB(tab("esc", 0), U8(0))
	f.JNE(label("tailEsc"))
	classify512("classifyLoopTail", false, false)
	f.MOVQ(R8, RSI)
	f.JMP(label("classifiedSI"))

	f.Label("tailEsc")
	escSetup512()
	classify512("classifyLoopTailEsc", false, true)
	escSave512()
	f.MOVQ(R8, RSI)
	f.JMP(label("classifiedSI"))
}
