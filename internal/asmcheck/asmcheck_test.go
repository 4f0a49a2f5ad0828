package asmcheck

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// kernelFuncs returns the functions of every amd64 assembly file of the
// packages under internal/.
func kernelFuncs(t *testing.T) []Func {
	t.Helper()
	dirs, err := filepath.Glob("../*")
	if err != nil {
		t.Fatal(err)
	}
	var funcs []Func
	for _, dir := range dirs {
		fs, err := ParseDir(dir, "*_amd64.s")
		if err != nil {
			t.Fatal(err)
		}
		funcs = append(funcs, fs...)
	}
	if len(funcs) == 0 {
		t.Fatal("no amd64 assembly functions found under internal/")
	}
	return funcs
}

var (
	vecReg = regexp.MustCompile(`\b[XYZ]([0-9]|[12][0-9]|3[01])\b`)
	wide   = regexp.MustCompile(`\b[YZ]([0-9]|[12][0-9]|3[01])\b`)
)

// legacySSE reports whether in is a legacy-SSE instruction: one that names
// a vector register but has no VEX or EVEX form, which all begin with V.
func legacySSE(in Instr) bool {
	return !strings.HasPrefix(in.Op, "V") && usesRE(in, vecReg)
}

// TestNoLegacySSE fails on a legacy-SSE instruction inside a function that
// touches Y or Z registers. Such an instruction, run while the upper halves
// of the YMM registers are dirty, costs hundreds of nanoseconds per call on
// CPUs such as AMD Zen 3, where VEX forms (VMOVD, VMOVQ) cost nothing.
func TestNoLegacySSE(t *testing.T) {
	for _, f := range kernelFuncs(t) {
		touches := false
		for _, in := range f.Instrs {
			if usesRE(in, wide) {
				touches = true
				break
			}
		}
		if !touches {
			continue
		}
		for _, in := range f.Instrs {
			if legacySSE(in) {
				t.Errorf("%s:%d: %s uses Y or Z registers and the legacy-SSE %s; use its VEX form", f.File, in.Line, f.Name, in)
			}
		}
	}
}

// TestVZEROUPPERBeforeRET checks, in source order, that every RET and every
// jump out of a function that touched Y or Z registers comes after a
// VZEROUPPER, so that the Go code after the call never runs with dirty
// upper halves.
func TestVZEROUPPERBeforeRET(t *testing.T) {
	for _, f := range kernelFuncs(t) {
		dirty := false
		for _, in := range f.Instrs {
			switch {
			case in.Op == "VZEROUPPER" || in.Op == "VZEROALL":
				dirty = false
			case usesRE(in, wide):
				dirty = true
			case dirty && (in.Op == "RET" || in.Op == "JMP" && len(in.Args) == 1 && strings.HasSuffix(in.Args[0], "(SB)")):
				t.Errorf("%s:%d: %s: %s with dirty upper halves (no VZEROUPPER since the last Y or Z register)", f.File, in.Line, f.Name, in)
			}
		}
	}
}

// TestLegacySSEDetected checks the rule on known instructions, so that the
// tests above cannot pass by matching nothing.
func TestLegacySSEDetected(t *testing.T) {
	for _, tc := range []struct {
		in   Instr
		want bool
	}{
		{Instr{Op: "MOVD", Args: []string{"CX", "X15"}}, true},
		{Instr{Op: "MOVQ", Args: []string{"R9", "X0"}}, true},
		{Instr{Op: "MOVOU", Args: []string{"(SI)", "X1"}}, true},
		{Instr{Op: "PXOR", Args: []string{"X1", "X1"}}, true},
		{Instr{Op: "VMOVD", Args: []string{"CX", "X15"}}, false},
		{Instr{Op: "VPBROADCASTD", Args: []string{"X15", "Y15"}}, false},
		{Instr{Op: "MOVQ", Args: []string{"AX", "ret+24(FP)"}}, false},
		{Instr{Op: "KMOVQ", Args: []string{"K1", "AX"}}, false},
	} {
		if got := legacySSE(tc.in); got != tc.want {
			t.Errorf("legacySSE(%s) = %v; want %v", tc.in, got, tc.want)
		}
	}
}

// TestRequires checks that the "// Requires:" line above each TEXT names
// exactly the CPU features its instructions need.
func TestRequires(t *testing.T) {
	for _, f := range kernelFuncs(t) {
		want := Features(f)
		got := slices.Clone(f.Requires)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s:%d: %s: // Requires: %s; its instructions need %s", f.File, f.Line, f.Name, strings.Join(f.Requires, ", "), strings.Join(want, ", "))
		}
	}
}

// TestFeatures checks the feature rules on instructions of each kind.
func TestFeatures(t *testing.T) {
	for _, tc := range []struct {
		in   Instr
		want []string
	}{
		{Instr{Op: "VPSHUFB", Args: []string{"Y4", "Y14", "Y4"}}, []string{"AVX", "AVX2"}},
		{Instr{Op: "VPSHUFB", Args: []string{"Z4", "Z14", "Z4"}}, []string{"AVX512F", "AVX512BW"}},
		{Instr{Op: "VPTEST", Args: []string{"Y4", "Y4"}}, []string{"AVX"}},
		{Instr{Op: "VMOVD", Args: []string{"CX", "X15"}}, []string{"AVX"}},
		{Instr{Op: "VPERMB", Args: []string{"Z1", "Z2", "Z3"}}, []string{"AVX512VBMI", "AVX512F"}},
		{Instr{Op: "VPTERNLOGD", Args: []string{"$0x96", "Z1", "Z2", "Z3"}}, []string{"AVX512F"}},
		{Instr{Op: "VPCMPEQB", Args: []string{"Y1", "Y2", "K1"}}, []string{"AVX512F", "AVX512BW", "AVX512VL"}},
		{Instr{Op: "KMOVQ", Args: []string{"K1", "AX"}}, []string{"AVX512BW", "AVX512F"}},
		{Instr{Op: "TZCNTQ", Args: []string{"AX", "AX"}}, []string{"BMI1"}},
		{Instr{Op: "BZHIQ", Args: []string{"AX", "BX", "CX"}}, []string{"BMI2"}},
		{Instr{Op: "POPCNTQ", Args: []string{"AX", "AX"}}, []string{"POPCNT"}},
		{Instr{Op: "ADDQ", Args: []string{"AX", "BX"}}, nil},
	} {
		if got := instrFeatures(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("instrFeatures(%s) = %v; want %v", tc.in, got, tc.want)
		}
	}
}
