package main

import (
	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/reg"
	"github.com/utf8stream/utf8stream/_asm/gen"
)

// The stop variants: the plain kernels, and those that also stop at each
// EE byte or each byte F0..FF. They differ in the prevLow table alone,
// which the entries pass to the bodies in R12.
var variants = []struct{ name, table string }{
	{"", "prevLow"},
	{"BeforeEE", "prevLowEE"},
	{"BMP", "prevLowBMP"},
}

// entries writes the functions that Go calls (valid_amd64.go declares
// them): the vec entries, which pick the body that runs, and the kernels
// by name, for the tests, which run each implementation directly (impls).
// Each loads its arguments as the bodies take them and jumps to a body.
func entries(f *gen.File) {
	for _, v := range variants {
		for _, copy := range []bool{false, true} {
			name, k := "vecValid", check
			if copy {
				name, k = "vecCopy", copying
			}
			entry(f, name+v.name, copy, false, v.table)
			if !copy && v.name == "" {
				// vecValid sends input shorter than 32 bytes to
				// shortAVX2 on both paths.
				f.CMPQ(RDX, u8(32))
				f.JAE(label("long"))
				f.CMPQ(gen.Global("impl"), f.Const("const_implAVX2"))
				f.JB(label("noShort"))
				f.JMP(gen.Func("shortAVX2"))
				f.Label("noShort")
				f.MOVQ(i32(-1), gen.Param("ret", 24))
				f.RET()
				f.Label("long")
			}
			vec(f, k.name+"AVX512", k.name+"AVX2")
		}
	}
	for _, isa := range []string{"AVX2", "AVX512"} {
		for _, v := range variants {
			entry(f, "valid"+v.name+isa, false, false, v.table)
			f.JMP(gen.Func("check" + isa))
			entry(f, "copyValid"+v.name+isa, true, false, v.table)
			f.JMP(gen.Func("copy" + isa))
		}
		if isa == "AVX2" {
			entry(f, "validShortAVX2", false, false, "prevLow")
			f.JMP(gen.Func("shortAVX2"))
		}
	}
	entry(f, "vecValidLines", false, true, "prevLow")
	vec(f, "countAVX512", "countAVX2")
	entry(f, "vecCopyLines", true, true, "prevLow")
	vec(f, "copyCountAVX512", "copyCountAVX2")
}

// entry starts the entry name, of a copying kernel or not, that returns one
// int or, for Lines, four; it loads SI = src, DX = len(src), DI = dst (if
// copy), R12 = the address of table, and R13 = the address of the results.
func entry(f *gen.File, name string, copy, lines bool, table string) {
	f.Function(name)
	f.Attributes(attr.NOSPLIT)
	params, results := "p []byte", "int"
	if copy {
		params = "dst, src []byte"
	}
	if lines {
		results = "(int, int, int, int)"
	}
	f.SignatureExpr("func(" + params + ") " + results)
	if copy {
		f.MOVQ(gen.Param("dst_base", 0), RDI)
		f.MOVQ(gen.Param("src_base", 24), RSI)
		f.MOVQ(gen.Param("src_len", 32), RDX)
		f.LEAQ(gen.Static(table, 0), R12)
		f.LEAQ(gen.Param("ret", 48), R13)
		return
	}
	f.MOVQ(gen.Param("p_base", 0), RSI)
	f.MOVQ(gen.Param("p_len", 8), RDX)
	f.LEAQ(gen.Static(table, 0), R12)
	f.LEAQ(gen.Param("ret", 24), R13)
}

// vec jumps to the AVX-512 body where impl is implAVX512 and src holds 64
// bytes or more, to the AVX2 body where impl is implAVX2 or src is shorter
// (so that no masked load reads past src), and stores -1 where impl has no
// kernel.
func vec(f *gen.File, avx512, avx2 string) {
	f.CMPQ(gen.Global("impl"), f.Const("const_implAVX512"))
	f.JNE(label("not512"))
	f.CMPQ(RDX, u8(64))
	f.JB(label("short"))
	f.JMP(gen.Func(avx512))
	f.Label("not512")
	f.CMPQ(gen.Global("impl"), f.Const("const_implAVX2"))
	f.JNE(label("none"))
	f.Label("short")
	f.JMP(gen.Func(avx2))
	f.Label("none")
	f.MOVQ(i32(-1), gen.Mem(R13, 0))
	f.RET()
}
