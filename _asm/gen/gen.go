// Package gen holds what the kernel generators share: a build context that
// writes a Go assembly file which includes the headers it names (go_asm.h,
// the generated tables), and operands that name go_asm.h's constants and
// offsets instead of their values.
//
// The kernels are written with physical registers only, as the hand-written
// assembly they replace was: the passes that allocate registers, and the
// ones that prune jumps and moves, do not run, so that every instruction
// written is an instruction emitted, in its order. A change to a generator
// that is meant not to alter the code is checked with objcmp (../objcmp)
// on the package archives built before and after it.
package gen

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"
	"github.com/mmcloughlin/avo/reg"
)

// File is a Go assembly file under construction: a build context, the
// headers it includes, and the go_asm.h constants its immediates name.
type File struct {
	*build.Context
	pkg      string
	includes []string
	header   []string
	consts   map[operand.U32]string
}

// NewFile returns a file of package pkg that includes the headers named,
// in their order. Name textflag.h before a header whose GLOBL lines use
// its flags; where it is not named, it comes first.
func NewFile(pkg string, includes ...string) *File {
	if !slices.Contains(includes, "textflag.h") {
		includes = append([]string{"textflag.h"}, includes...)
	}
	return &File{Context: build.NewContext(), pkg: pkg, includes: includes, consts: map[operand.U32]string{}}
}

// Header adds comment lines to the top of the file, after the line that
// says it is generated (avo writes comments only inside functions).
func (f *File) Header(lines ...string) {
	for _, l := range lines {
		f.header = append(f.header, "// "+l)
	}
}

// constBase is where the placeholders of Const start: above any value an
// instruction here takes, so that avo picks the 32-bit immediate form
// (the Go assembler picks the encoding again from the value).
const constBase = 0x7ff00000

// PCALIGN writes PCALIGN $n, which avo does not know: the assembler pads
// with NOPs to the next multiple of n bytes, so that where a loop falls in
// the instruction cache does not depend on the code before it.
func (f *File) PCALIGN(n uint8) {
	f.Instruction(&ir.Instruction{Opcode: "PCALIGN", Operands: []operand.Op{operand.U8(n)}})
}

// Const returns an immediate that is printed as $name, a constant of
// go_asm.h. Avo checks operand types when an instruction is built, so
// Const gives a placeholder that Generate replaces.
func (f *File) Const(name string) operand.U32 {
	for v, n := range f.consts {
		if n == name {
			return v
		}
	}
	v := operand.U32(constBase + len(f.consts))
	f.consts[v] = name
	return v
}

// Field returns the memory operand name(base), where name is an offset
// that go_asm.h defines (a struct field, a frame word).
func Field(name string, base reg.Register) operand.Mem {
	return operand.Mem{Symbol: operand.Symbol{Name: name}, Base: base}
}

// Mem returns the memory operand disp(base).
func Mem(base reg.Register, disp int) operand.Mem {
	return operand.Mem{Base: base, Disp: disp}
}

// At returns the memory operand disp(base)(index*1).
func At(base, index reg.Register, disp int) operand.Mem {
	return operand.Mem{Base: base, Index: index, Scale: 1, Disp: disp}
}

// Func returns the operand ·name(SB): the text symbol of the package's
// function name, for a JMP into it.
func Func(name string) operand.Mem {
	return operand.NewDataAddr(operand.Symbol{Name: "·" + name}, 0)
}

// Global returns ·name(SB), a package variable.
func Global(name string) operand.Mem {
	return operand.NewDataAddr(operand.Symbol{Name: "·" + name}, 0)
}

// Static returns name<>+disp(SB), a table of the included headers.
func Static(name string, disp int) operand.Mem {
	return operand.NewDataAddr(operand.Symbol{Name: name, Static: true}, disp)
}

// Param returns name+offset(FP), an argument as go vet's asmdecl names it.
func Param(name string, offset int) operand.Mem {
	return operand.NewParamAddr(name, offset)
}

type symImm string

func (s symImm) Asm() string { return "$" + string(s) }

// Generate writes the file to the path of the -out flag.
func (f *File) Generate() {
	// A flag set of its own: avo's build package defines -out on
	// flag.CommandLine for build.Generate.
	flags := flag.NewFlagSet(os.Args[0], flag.ExitOnError)
	out := flags.String("out", "", "write the assembly to `file`")
	flags.Parse(os.Args[1:])
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: -out file")
		os.Exit(2)
	}
	src, err := f.build()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o666); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func (f *File) build() ([]byte, error) {
	file, err := f.Result()
	if err != nil {
		return nil, err
	}
	file.Includes = append(file.Includes, f.includes...)
	passes := pass.Concat(
		pass.Verify,
		pass.FunctionPass(pass.LabelTarget),
		pass.FunctionPass(checkLabels),
		pass.Func(pass.IncludeTextFlagHeader),
		pass.FunctionPass(pass.RequiredISAExtensions),
		pass.FunctionPass(cpuNames),
		pass.InstructionPass(f.names),
	)
	if err := passes.Execute(file); err != nil {
		return nil, err
	}
	cfg := printer.Config{Argv: []string{"go", "run", "./" + f.pkg}, Pkg: f.pkg}
	src, err := printer.NewGoAsm(cfg).Print(file)
	if err != nil {
		return nil, err
	}
	// avo leaves out an argument size of 0, which the assembler then
	// records as unknown; the Go declarations say it is 0.
	for _, fn := range file.Functions() {
		if fn.Signature != nil && fn.ArgumentBytes() == 0 {
			re := regexp.MustCompile(`(?m)^(TEXT ·` + regexp.QuoteMeta(fn.Name) + `\(SB\).*\$[0-9]+)$`)
			src = re.ReplaceAll(src, []byte("$1-0"))
		}
	}
	if len(f.header) == 0 {
		return src, nil
	}
	generated, rest, _ := bytes.Cut(src, []byte("\n"))
	header := strings.Join(f.header, "\n")
	return slices.Concat(generated, []byte("\n\n"+header+"\n"), rest), nil
}

// checkLabels fails on a jump to a label the function does not have and on
// a virtual register, which nothing here would allocate.
func checkLabels(fn *ir.Function) error {
	for _, i := range fn.Instructions() {
		if lbl := i.TargetLabel(); lbl != nil {
			if _, ok := fn.LabelTarget[*lbl]; !ok {
				return fmt.Errorf("%s: unknown label %q", fn.Name, *lbl)
			}
		}
		for _, op := range i.Operands {
			for _, r := range operand.Registers(op) {
				if reg.ToPhysical(r) == nil {
					return errors.New(fn.Name + ": virtual register " + r.Asm())
				}
			}
		}
	}
	return nil
}

// cpuNames writes the "// Requires:" line in the names of
// golang.org/x/sys/cpu, which the dispatch checks and internal/asmcheck
// reads: avo's BMI is BMI1, and CMOV, SSE and SSE2 are in every amd64 CPU.
func cpuNames(fn *ir.Function) error {
	isa := fn.ISA[:0]
	for _, name := range fn.ISA {
		switch name {
		case "CMOV", "SSE", "SSE2":
			continue
		case "BMI":
			name = "BMI1"
		}
		isa = append(isa, name)
	}
	fn.ISA = isa
	return nil
}

// names puts the go_asm.h names of Const back in place of the placeholders.
func (f *File) names(i *ir.Instruction) error {
	for k, op := range i.Operands {
		if v, ok := op.(operand.U32); ok {
			if name, ok := f.consts[v]; ok {
				i.Operands[k] = symImm(name)
			}
		}
	}
	return nil
}
