package utf8stream

import "github.com/utf8stream/utf8stream/internal/valid"

// implNames returns the names of the implementations this machine
// supports, "generic" first; see valid.ImplNames.
func implNames() []string { return valid.ImplNames() }

// setImpl makes validation use the named implementation, and the block
// repairer its AVX-512 kernel under "avx512" only, until restore is
// called; see valid.SetImpl.
func setImpl(name string) (restore func()) {
	restoreValid := valid.SetImpl(name)
	old := repairKernel
	repairKernel = name == "avx512"
	return func() {
		repairKernel = old
		restoreValid()
	}
}
