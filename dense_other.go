//go:build !amd64 || !gc || purego

package utf8stream

// classifyBlocks fills out[i] for the 64 bytes at src[64*i:]; see
// classifyGeneric.
func classifyBlocks(src []byte, out []blockClass) { classifyGeneric(src, out) }

// repairKernel reports whether the AVX-512 kernels run: never here.
var repairKernel = false

// repairVec reports whether repairBlocks has a vector path: not here.
const repairVec = false

// haveRepair reports whether repairBlocks has a kernel to run: not here.
func haveRepair() bool { return false }

func repairBlocks(dst, src []byte, n int, tab *denseTable, st *repairState) {
	panic("utf8stream: no repair kernel")
}

func repairTail(dst, src []byte, tab *denseTable, st *repairState) {
	panic("utf8stream: no repair kernel")
}

// tailReadable is false: there is no repairTail to read for.
func tailReadable(p []byte) bool { return false }
