// Command repair writes internal/repair/repair_amd64.s, the amd64 kernels
// of package repair: classifyAVX512 and classifyAVX2, which classify
// blocks of 64 bytes into blockClass values as classifyGeneric does, and
// repairAVX512 and repairAVX2, which classify a batch of blocks into their
// frame and then repair them, as kernelBlocks and kernelTail describe.
// go generate in internal/repair runs it:
//
//	go -C ../../_asm run ./repair -out ../internal/repair/repair_amd64.s
//
// The kernels use physical registers only, and each function here writes
// its instructions in the order they run, as the hand-written assembly
// this replaces did (see package gen).
//
// # What the generated file includes
//
// go_asm.h gives the fields of state and Table and the constants of the
// package by name (state_p, Table_n, const_batch): the operands here name
// them (st, tab, frame, gen.Const) rather than their values. The lookup
// tables and constants of the classifications, static symbols such as
// leadC0<> and bEE<>, come from tables_amd64.h (AVX-512) and
// tables_avx2_amd64.h (AVX2), which internal/tablegen generates and
// describes entry by entry; their names do not clash.
//
// # The repair kernels
//
// Both repair kernels run the same three stages, with these registers
// throughout: R15 = n, the blocks left, R13 = tab, R14 = st.
//
//  1. enter: return at once unless 0 < n <= const_batch; clear
//     const_frameEscAny.
//  2. Classify the n blocks from st.p on (or the tail, st.tail bytes
//     padded with zeros to a block) into the blockClass array at the
//     bottom of the frame, as the classification kernels do.
//  3. The block loop (blockLoop): repair the blocks, a block with a few
//     ill-formed bytes as copies of the valid runs between them and a
//     table word for each, one with many in the kernel's per-byte path.
//
// The frame (frameSize bytes, repair_amd64.go) holds the blockClass of
// const_batch blocks from 0(SP) on, and then the words const_frameEscAny
// (under tab.esc, whether any block has an EE followed by BE or BF),
// const_frameCleanEnd and const_frameDirtyStep, which the block loop keeps
// st.clean with (see repair_amd64.go). The tail paths put the block and 64
// zeros in the frame too, past the one blockClass they classify.
//
// # OPTU8
//
// Under OPTU8 (tab.esc), a valid EE BE xx or EE BF xx is escaped byte by
// byte, as the table escapes ill-formed bytes: the classification clears v
// there, so that the block loop takes the sequence as a subpart of 3
// bytes, and notes in const_frameEscAny whether any block has one; the
// block loop then finds those sequences among the starts of subparts
// (kernel.escStarts), counts them in st.escaped rather than st.subparts
// and takes their 3 bytes out of st.nbytes. Each kernel has a second copy
// of its classification loop for it (the esc parameter), so that the
// plain loop pays nothing.
package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/utf8stream/utf8stream/_asm/gen"
)

// f is the file being written; the functions here add to it in order.
// The tables' GLOBL lines name flags of textflag.h, which must come
// before them (avo would add it last).
var f = gen.NewFile("repair", "go_asm.h", "textflag.h", "tables_amd64.h", "tables_avx2_amd64.h")

// frameSize is the frame of the repair kernels, frameSize of
// repair_amd64.go: the blockClass (32 bytes) of const_batch (32) blocks
// and 3 words. TestRepairLayout checks the two agree.
const frameSize = 32*32 + 3*8

func main() {
	// avo parses the +build syntax, and prints //go:build gc && !purego.
	f.ConstraintExpr("gc,!purego")
	f.Header("The package doc of _asm/repair describes these kernels.")
	classifyAVX512()
	repairAVX512()
	classifyAVX2()
	repairAVX2()
	f.Generate()
}

// st returns the field name of state at R14, such as state_p+0(R14).
func st(name string) operand.Mem { return gen.Field("state_"+name, reg.R14) }

// tab returns the field name of Table at R13, plus disp.
func tab(name string, disp int) operand.Mem { return gen.Field("Table_"+name, reg.R13).Offset(disp) }

// frame returns the frame word const_frameName (go_asm.h) at SP.
func frame(name string) operand.Mem { return gen.Field("const_frame"+name, reg.RSP) }

// label returns a reference to the label name, for a jump.
func label(name string) operand.LabelRef { return operand.LabelRef(name) }

// enter starts a repair kernel: R15 = n, R13 = tab, R14 = st, and
// const_frameEscAny clear; it returns at once (to none) unless 0 < n <=
// const_batch. Both kernels take the same arguments.
func enter(name string) {
	f.Function(name)
	f.Attributes(0)
	f.SignatureExpr("func(dst, src []byte, n int, tab *byte, st *byte)")
	f.AllocLocal(frameSize)
	f.MOVQ(gen.Param("n", 48), reg.R15)
	f.TESTQ(reg.R15, reg.R15)
	f.JZ(label("none"))
	f.CMPQ(reg.R15, f.Const("const_batch"))
	f.JA(label("none"))
	f.MOVQ(gen.Param("st", 64), reg.R14)
	f.MOVQ(gen.Param("tab", 56), reg.R13)
	f.MOVQ(operand.U32(0), frame("EscAny"))
}
