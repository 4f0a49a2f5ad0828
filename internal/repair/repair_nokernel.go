//go:build !amd64 || !gc || purego

package repair

// perBytePath reports whether the kernel has a per-byte path: there is no kernel.
const perBytePath = false

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
