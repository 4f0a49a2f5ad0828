package utf8stream

import (
	"slices"

	"github.com/utf8stream/utf8stream/internal/repair"
	"github.com/utf8stream/utf8stream/internal/valid"
)

// implNames returns the names of the validation implementations this
// machine supports, "generic" first; see valid.ImplNames.
func implNames() []string { return valid.ImplNames() }

// setImpl makes validation use the named implementation, and the block
// repairer the same where it has one and its generic code otherwise,
// until restore is called; see valid.SetImpl and repair.SetImpl.
func setImpl(name string) (restore func()) {
	restoreValid := valid.SetImpl(name)
	rname := name
	if !slices.Contains(repair.ImplNames(), name) {
		rname = "generic"
	}
	restoreRepair := repair.SetImpl(rname)
	return func() {
		restoreRepair()
		restoreValid()
	}
}

// countKernelCalls returns how many times f calls a UTF-16 kernel from
// the decoders' loop.
func countKernelCalls(f func()) int {
	n := 0
	kernelHook = func() { n++ }
	defer func() { kernelHook = nil }()
	f()
	return n
}

// countSteps returns how many times f made the general path, step or
// wideUnit, handle a unit.
func countSteps(f func()) int {
	n := 0
	stepHook = func() { n++ }
	defer func() { stepHook = nil }()
	f()
	return n
}
