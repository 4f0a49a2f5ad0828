package asmcheck

import (
	"regexp"
	"slices"
	"strings"
)

// The features of golang.org/x/sys/cpu, by the names "// Requires:" lines
// use, as avo writes them.
var opFeature = map[string]string{}

func init() {
	for feature, ops := range map[string]string{
		"AVX512F": "VPTERNLOGD VPTERNLOGQ VALIGNQ VALIGND VMOVDQU64 VMOVDQU32 VMOVDQA64 VMOVDQA32 " +
			"VPORQ VPORD VPXORQ VPXORD VPANDQ VPANDD VPANDNQ VPANDND VPCOMPRESSD VPCOMPRESSQ KMOVW KORTESTW",
		"AVX512BW": "VMOVDQU8 VMOVDQU16 VPCMPUB VPCMPB VPTESTMB VPTESTNMB VPMOVB2M VPMOVM2B " +
			"KMOVQ KMOVD KORTESTQ KORTESTD KSHIFTRQ KSHIFTLQ KXNORQ KXORQ KANDQ KANDNQ KORQ KNOTQ KADDQ KUNPCKDQ",
		"AVX512VBMI":  "VPERMB VPERMI2B VPERMT2B VPMULTISHIFTQB",
		"AVX512VBMI2": "VPCOMPRESSB VPEXPANDB VPCOMPRESSW VPEXPANDW",
		"BMI1":        "TZCNTQ TZCNTL ANDNQ ANDNL BLSRQ BLSRL BLSIQ BLSIL BLSMSKQ BEXTRQ",
		"BMI2":        "BZHIQ BZHIL PDEPQ PDEPL PEXTQ PEXTL SHLXQ SHLXL SHRXQ SHRXL SARXQ SARXL RORXQ RORXL MULXQ MULXL",
		"POPCNT":      "POPCNTQ POPCNTL",
		"LZCNT":       "LZCNTQ LZCNTL",
	} {
		for op := range strings.FieldsSeq(ops) {
			opFeature[op] = feature
		}
	}
}

// zByteOps are the VEX instructions whose forms on Z registers act on
// bytes or words, and so need AVX-512 BW rather than F.
var zByteOps = map[string]bool{
	"VPSHUFB": true, "VPADDB": true, "VPSUBB": true, "VPSUBUSB": true, "VPADDUSB": true,
	"VPCMPEQB": true, "VPCMPGTB": true, "VPALIGNR": true, "VPUNPCKLBW": true, "VPUNPCKHBW": true,
	"VPSRLW": true, "VPSLLW": true, "VPBROADCASTB": true, "VPBROADCASTW": true, "VPMINUB": true, "VPMAXUB": true,
}

// avx1Ops are the VEX instructions that need only AVX on Y registers.
var avx1Ops = map[string]bool{
	"VMOVDQU": true, "VMOVDQA": true, "VPTEST": true, "VZEROUPPER": true, "VZEROALL": true,
	"VMOVD": true, "VMOVQ": true, "VPERM2F128": true, "VEXTRACTF128": true, "VINSERTF128": true,
	"VBROADCASTSS": true, "VMOVUPS": true, "VMOVAPS": true, "VXORPS": true, "VPEXTRQ": true,
}

var (
	zReg = regexp.MustCompile(`\bZ([0-9]|[12][0-9]|3[01])\b`)
	yReg = regexp.MustCompile(`\bY([0-9]|[12][0-9]|3[01])\b`)
	kReg = regexp.MustCompile(`\bK[0-7]\b`)
)

// Features returns the CPU features that the instructions of f need, by
// the names of golang.org/x/sys/cpu without "Has", sorted. It knows the
// instructions the kernels use; see Unknown for the rest.
func Features(f Func) []string {
	set := map[string]bool{}
	for _, in := range f.Instrs {
		for _, ft := range instrFeatures(in) {
			set[ft] = true
		}
	}
	out := make([]string, 0, len(set))
	for ft := range set {
		out = append(out, ft)
	}
	slices.Sort(out)
	return out
}

func instrFeatures(in Instr) []string {
	z, y, k := usesRE(in, zReg), usesRE(in, yReg), usesRE(in, kReg)
	var fs []string
	if ft, ok := opFeature[in.Op]; ok {
		fs = append(fs, ft)
		if strings.HasPrefix(ft, "AVX512") {
			if ft != "AVX512F" {
				fs = append(fs, "AVX512F")
			}
			if !z && !strings.HasPrefix(in.Op, "K") {
				fs = append(fs, "AVX512VL")
			}
		}
		return fs
	}
	if !strings.HasPrefix(in.Op, "V") {
		return nil
	}
	switch {
	case (z || k) && zByteOps[in.Op]:
		fs = []string{"AVX512F", "AVX512BW"}
	case z || k:
		fs = []string{"AVX512F"}
	}
	if fs != nil {
		if !z {
			fs = append(fs, "AVX512VL")
		}
		return fs
	}
	switch {
	case y && !avx1Ops[in.Op]:
		return []string{"AVX", "AVX2"}
	}
	return []string{"AVX"}
}

func usesRE(in Instr, re *regexp.Regexp) bool {
	return slices.ContainsFunc(in.Args, re.MatchString)
}
