//go:build !amd64 || !gc || purego

package repair

const implGeneric = 0

var impls = []implInfo{implGeneric: {"generic", true}}

var impl = implGeneric

// classifyBlocks fills out[i] for the 64 bytes at src[64*i:]; see
// classifyGeneric.
func classifyBlocks(src []byte, out []blockClass) { classifyGeneric(src, out) }

// vecPath reports whether the kernel has a vector path: there is no kernel.
const vecPath = false

// haveKernel reports whether kernelBlocks has a kernel to run: not here.
func haveKernel() bool { return false }

func kernelBlocks(dst, src []byte, n int, tab *Table, st *state) {
	panic("repair: no kernel")
}

func kernelTail(dst, src []byte, tab *Table, st *state) {
	panic("repair: no kernel")
}

// tailReadable is false: there is no kernelTail to read for.
func tailReadable(p []byte) bool { return false }
