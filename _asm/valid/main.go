// Command valid writes internal/valid/valid_amd64.s, the amd64 UTF-8
// validation kernels, with avo. go generate runs it from internal/valid:
//
//	go -C ../../_asm run ./valid -out ../internal/valid/valid_amd64.s
//
// The kernels follow Keiser and Lemire, "Validating UTF-8 in less than one
// instruction per byte" (2021). Every byte is checked against the three
// bytes before it: three nibble lookups flag the errors a pair of bytes can
// show (the two high nibbles and the low nibble of the earlier byte), and a
// byte two or three places after a 3- or 4-byte lead must be a continuation
// byte. The bytes before the current block are loaded again from memory at
// offsets -1, -2 and -3, so blocks do not depend on each other. The lookup
// tables and constants are in tables_amd64.h, which internal/tablegen
// writes and the generated file includes, entry by entry described there.
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
// The counting kernels (for the Lines option) also count the newlines of
// the blocks they accept, in the same pass, and return after n the count,
// the end of the blocks counted and where the last newline is (see
// count.go).
//
// There is one body per instruction set and kind (check, copy, count,
// copyCount; see kind): body2 writes the AVX2 bodies, body4 the AVX-512
// ones, and short writes shortAVX2, for input shorter than 32 bytes. The
// stop variants (BeforeEE, BMP) differ from the plain kernels in one
// lookup table, whose address the entries pass to the body in R12. Each
// vec entry loads its arguments, compares impl and jumps to the body that
// runs, so that a caller makes one call whichever kernel runs (entries.go).
// A new stop variant is a table and an entry in variants; a new
// instruction set is a body and its branch in vec.
//
// The kernels name physical registers only, and every instruction written
// here is emitted, in order: package gen runs no register allocation and
// prunes no jump. The bodies' register contracts are in the comments of
// body2 and body4.
package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/utf8stream/utf8stream/_asm/gen"
)

func main() {
	f := gen.NewFile("valid", "go_asm.h", "textflag.h", "tables_amd64.h")
	f.Header("The package doc of _asm/valid describes these kernels.")
	f.ConstraintExpr("gc,!purego") // avo parses the +build syntax; it prints //go:build gc && !purego
	short(f)
	body2(f, check)
	body2(f, copying)
	body4(f, check)
	body4(f, copying)
	body2(f, count)
	body2(f, copyCount)
	body4(f, count)
	body4(f, copyCount)
	entries(f)
	f.Generate()
}

// A kind is what a body does besides validating.
type kind struct {
	name  string // the prefix of the body's name
	copy  bool   // store every block loaded from src at the same offset in dst (DI)
	count bool   // count newlines, and return the count (count.go)
}

var (
	check     = kind{name: "check"}
	copying   = kind{name: "copy", copy: true}
	count     = kind{name: "count", count: true}
	copyCount = kind{name: "copyCount", copy: true, count: true}
)

// The immediates, by the forms avo checks them against: the Go assembler
// picks the encoding again from the value.
type (
	u8  = operand.U8
	u32 = operand.U32
	i32 = operand.I32
)

// label is a jump target in the function being written.
func label(name string) operand.LabelRef { return operand.LabelRef(name) }

// src is disp(SI)(AX*1): the block of src at AX, displaced.
func src(disp int) operand.Mem { return gen.At(reg.RSI, reg.RAX, disp) }

// dst is disp(DI)(AX*1), where the copying kernels store the block of
// src(disp).
func dst(disp int) operand.Mem { return gen.At(reg.RDI, reg.RAX, disp) }
