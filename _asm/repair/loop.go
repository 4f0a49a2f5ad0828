package main

import (
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/utf8stream/utf8stream/_asm/gen"
)

// A kernel is what the block loop leaves to each repair kernel.
type kernel interface {
	// setup runs once before the first block.
	setup()
	// copy64 copies the 64 bytes at (SI)(r*1) to (DI)(BX*1).
	copy64(r Register)
	// escStarts sets AX to a mask of the block's bytes at (SI)(DX*1)
	// that holds every EE followed by BE or BF and no byte but EE: of
	// those, the loop keeps the ones that start an ill-formed subpart
	// of 3 bytes (m3), which under tab.esc only the escapes are.
	escStarts()
	// perByteTest jumps to the kernel's path for a block with many
	// ill-formed bytes (bad in R10, start in R9), which ends with JMP
	// next, or falls through to the scalar path.
	perByteTest()
}

// blockLoop writes the block loop of both repair kernels. From the label
// classifiedSI on, it repairs the R15 blocks classified into the frame
// from st.p on, with R13 = tab, R14 = st and SI the input that st.p
// counts in, and returns (at none, which enter jumps to as well). A block
// with a few ill-formed bytes is written as copies of the valid runs
// between them and a table word for each; k does what differs between
// the kernels.
//
// Its registers: DI = dst, DX = p (st.p), BX = j (st.j), R12 the
// blockClass of the block; per block, R11 = v, R10 = bad and R9 = start,
// which the per-byte paths read. The frame words const_frameCleanEnd and
// const_frameDirtyStep keep st.clean: see repair_amd64.go.
func blockLoop(k kernel) {
	f.Label("classifiedSI")
	f.MOVQ(gen.Param("dst_base", 0), RDI)
	f.LEAQ(gen.Mem(RSP, 0), R12)
	f.MOVQ(st("p"), RDX)
	f.MOVQ(st("j"), RBX)

	// const_frameCleanEnd = p + 64*(cleanMax-clean),
	// const_frameDirtyStep = 64*(cleanMax+1).
	f.MOVQ(st("cleanMax"), RAX)
	f.LEAQ(gen.Mem(RAX, 1), RCX)
	f.SHLQ(U8(6), RCX)
	f.MOVQ(RCX, frame("DirtyStep"))
	f.SUBQ(st("clean"), RAX)
	f.SHLQ(U8(6), RAX)
	f.ADDQ(RDX, RAX)
	f.MOVQ(RAX, frame("CleanEnd"))

	k.setup()

	f.Label("block")
	f.CMPQ(RBX, st("jmax"))
	f.JGT(label("out"))

	// ownValid (CX): the bytes that a well-formed unit (its start in v,
	// R11) that starts 1, 2 or 3 bytes before holds; and what those
	// units hold of the next block.
	f.Comment("ownValid (CX)")
	f.MOVQ(gen.Mem(R12, 24), R11)
	f.MOVQ(gen.Mem(R12, 0), R8)
	f.ANDQ(R11, R8)
	f.MOVQ(gen.Mem(R12, 8), R9)
	f.ANDQ(R11, R9)
	f.MOVQ(gen.Mem(R12, 16), R10)
	f.ANDQ(R11, R10)
	holds(R8, R9, R10, RCX, "heldValid")
	f.MOVQ(R8, st("heldValid"))

	// bad (R10) = not (v or ownValid): every byte of an ill-formed
	// subpart (v and ownValid have no byte in common).
	f.Comment("bad (R10)")
	f.ORQ(R11, RCX)
	f.NOTQ(RCX)
	f.MOVQ(RCX, R10)
	f.TESTQ(RCX, RCX)
	f.JNZ(label("errors"))

	// No ill-formed byte: copy the block. The lead byte of a unit that
	// is not well-formed is bad (no unit holds a lead byte), so every
	// unit that starts here is well-formed, and what they hold of the
	// next block is what the well-formed ones hold.
	f.Comment("No ill-formed byte")
	f.MOVQ(R8, st("held"))
	k.copy64(RDX)
	f.ADDQ(U8(64), RBX)
	f.ADDQ(U8(64), RDX)
	f.ADDQ(U8(32), R12)
	f.CMPQ(RDX, frame("CleanEnd"))
	f.JGE(label("out"))
	f.DECQ(R15)
	f.JNZ(label("block"))
	f.JMP(label("out"))

	f.Label("errors")
	f.MOVQ(frame("DirtyStep"), RAX)
	f.ADDQ(RDX, RAX)
	f.MOVQ(RAX, frame("CleanEnd"))
	// own (CX): the bytes that any unit that starts 1, 2 or 3 bytes
	// before holds; and what this block's units hold of the next.
	f.Comment("own (CX)")
	f.MOVQ(gen.Mem(R12, 0), R8)
	f.MOVQ(gen.Mem(R12, 8), R9)
	f.MOVQ(gen.Mem(R12, 16), RAX)
	holds(R8, R9, RAX, RCX, "held")
	f.MOVQ(R8, st("held"))
	// start (R9) = not (own or v): a byte that no unit holds and that
	// starts no well-formed sequence.
	f.Comment("start (R9)")
	f.MOVQ(R11, R9)
	f.ORQ(RCX, R9)
	f.NOTQ(R9)

	// CX: the starts of ill-formed subparts, R9 without the escapes,
	// which start at an EE followed by BE..FF and 2 continuation bytes
	// (m3). Their 3 bytes are counted in nbytes where they lie, and
	// taken out here.
	f.Comment("CX: the starts of ill-formed subparts")
	f.MOVQ(R9, RCX)
	f.CMPQ(frame("EscAny"), U8(0))
	f.JEQ(label("starts"))
	k.escStarts()
	f.ANDQ(gen.Mem(R12, 8), RAX)
	f.ANDQ(R9, RAX)
	f.ANDNQ(R9, RAX, RCX)
	f.POPCNTQ(RAX, RAX)
	f.ADDQ(RAX, st("escaped"))
	f.LEAQ(Mem{Base: RAX, Index: RAX, Scale: 2}, RAX)
	f.SUBQ(RAX, st("nbytes"))

	f.Label("starts")
	f.POPCNTQ(RCX, RAX)
	f.ADDQ(RAX, st("subparts"))
	f.POPCNTQ(R10, RAX)
	f.ADDQ(RAX, st("nbytes"))
	f.CMPQ(st("first"), U8(0))
	f.JGE(label("counted"))
	f.TESTQ(RCX, RCX)
	f.JZ(label("counted"))
	f.TZCNTQ(RCX, RAX)
	f.ADDQ(RDX, RAX)
	f.MOVQ(RAX, st("first"))

	f.Label("counted")
	k.perByteTest()

	// The scalar path: for each bad byte, at q (CX), the valid run
	// before it, from q0 (R11), and its output.
	f.Label("scalar")
	f.Comment("q0 (R11): the start of the valid run before the next bad byte")
	f.XORL(R11L, R11L)

	f.Label("bad")
	f.TZCNTQ(R10, RCX)
	// Copy the valid run src[p+q0:p+q] a whole block at a time; dst
	// has room, and what lies past the run is overwritten.
	f.LEAQ(gen.At(RDX, R11, 0), RAX)
	k.copy64(RAX)
	f.ADDQ(RCX, RBX)
	f.SUBQ(R11, RBX)
	// The output of the ill-formed byte b = src[p+q], of kind cStart
	// (1) or cRest (2): tab.out[kind<<8|b], of which tab.n[...] count.
	f.Comment("tab.out[kind<<8|b]")
	f.LEAQ(gen.At(RDX, RCX, 0), RAX)
	f.MOVBQZX(gen.At(RSI, RAX, 0), RAX)
	f.MOVL(U32(2), R8L)
	f.BTQ(RCX, R9)
	f.SBBL(U8(0), R8L)
	f.SHLL(U8(8), R8L)
	f.ORL(EAX, R8L)
	f.MOVQ(Mem{Base: R13, Index: R8, Scale: 8}, RAX)
	f.MOVQ(RAX, gen.At(RDI, RBX, 0))
	f.MOVBQZX(tab("n", 0).Idx(R8, 1), RAX)
	f.ADDQ(RAX, RBX)
	f.LEAQ(gen.Mem(RCX, 1), R11)
	f.BLSRQ(R10, R10)
	f.JNZ(label("bad"))

	// The valid run after the last bad byte, to the end of the block.
	f.Comment("The valid run after the last bad byte")
	f.LEAQ(gen.At(RDX, R11, 0), RAX)
	k.copy64(RAX)
	f.ADDQ(U8(64), RBX)
	f.SUBQ(R11, RBX)

	f.Label("next")
	f.ADDQ(U8(64), RDX)
	f.ADDQ(U8(32), R12)
	f.DECQ(R15)
	f.JNZ(label("block"))

	// Store p and j, and st.clean = cleanMax + (p-const_frameCleanEnd)/64.
	f.Label("out")
	f.MOVQ(RDX, st("p"))
	f.MOVQ(RBX, st("j"))
	f.SUBQ(frame("CleanEnd"), RDX)
	f.SARQ(U8(6), RDX)
	f.ADDQ(st("cleanMax"), RDX)
	f.MOVQ(RDX, st("clean"))
	f.VZEROUPPER()

	f.Label("none")
	f.RET()
}

// holds sets sum to a<<1 | b<<2 | c<<3 | st.prev, where a, b and c are
// m2, m3 and m4 of a block (or of its well-formed units) and st.prev what
// the block before's units hold of this one: the bytes that a unit
// starting 1, 2 or 3 bytes before holds. It sets a to what the units hold
// of the next block, a>>63 | b>>62 | c>>61, and overwrites b and c. No
// byte is held by two units (blockClass.held): the shifted words have no
// bit in common, their sum is their union, and LEAQ adds two.
func holds(a, b, c, sum Register, prev string) {
	f.LEAQ(Mem{Base: b, Index: c, Scale: 2}, sum)
	f.LEAQ(Mem{Base: a, Index: sum, Scale: 2}, sum)
	f.SHLQ(U8(1), sum)
	f.ADDQ(st(prev), sum)
	f.SHRQ(U8(63), a)
	f.SHRQ(U8(62), b)
	f.SHRQ(U8(61), c)
	f.ORQ(b, a)
	f.ORQ(c, a)
}
