//go:build gc && !purego

package repair

import (
	"unsafe"

	"github.com/utf8stream/utf8stream/internal/registry"
	"golang.org/x/sys/cpu"
)

// The implementations, by index in impls.
const (
	implGeneric = iota
	implAVX2
	implAVX512
)

// The kernels need AVX-512 BW and VBMI (VPERMB and VPERMI2B do the
// lookups), BMI1, BMI2 and POPCNT, as their "Requires:" lines say; they
// also ask for AVX2, as internal/valid's AVX-512 kernel does, so that
// GODEBUG=cpu.avx2=off and GODEBUG=cpu.avx512f=off turn off both
// packages' kernels.
var avx512Needs = []registry.Feature{
	registry.Has("AVX", cpu.X86.HasAVX), registry.Has("AVX2", cpu.X86.HasAVX2), registry.Has("AVX512F", cpu.X86.HasAVX512F),
	registry.Has("AVX512BW", cpu.X86.HasAVX512BW), registry.Has("AVX512VBMI", cpu.X86.HasAVX512VBMI),
	registry.Has("BMI1", cpu.X86.HasBMI1), registry.Has("BMI2", cpu.X86.HasBMI2), registry.Has("POPCNT", cpu.X86.HasPOPCNT),
}

var useAVX512 = registry.All(avx512Needs)

// The AVX2 implementation is the kernel repairAVX2, which also needs BMI1
// and POPCNT, as every CPU with AVX2 that Go runs on has; without them,
// classifyAVX2 under the Go loop of blocks.
var (
	useAVX2       = cpu.X86.HasAVX2
	useAVX2Kernel = useAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasPOPCNT
)

var impls = []registry.Impl{
	implGeneric: {Name: "generic"},
	implAVX2: {Name: "avx2", Needs: []registry.Feature{registry.Has("AVX", cpu.X86.HasAVX), registry.Has("AVX2", cpu.X86.HasAVX2)},
		Advertised: cpu.X86.HasAVX2},
	implAVX512: {Name: "avx512", Needs: avx512Needs, Advertised: cpu.X86.HasAVX512F},
}

// The frame of the repair kernels, which go_asm.h gives them as const_
// names: the blockClass of batch blocks, and then three words. frameEscAny:
// under tab.esc, whether any of the blocks has an EE followed by BE or BF.
// frameCleanEnd: the position p at which the blocks since the last with an
// ill-formed byte reach st.cleanMax; the block loop compares p with it and
// finds st.clean from it on the way out, rather than count in st.clean,
// whose load would wait for the store of the block before. frameDirtyStep:
// 64*(st.cleanMax+1), which a block with an ill-formed byte sets
// frameCleanEnd to past its start.
const (
	frameEscAny    = batch * int(unsafe.Sizeof(blockClass{}))
	frameCleanEnd  = frameEscAny + 8
	frameDirtyStep = frameCleanEnd + 8
	frameSize      = frameDirtyStep + 8
)

// How many ill-formed bytes a block must hold for the per-byte path of
// each kernel, which writes a table word for each byte of the block rather
// than copy the valid runs between them.
const (
	//lint:ignore U1000 repairAVX512 reads it from go_asm.h
	perByteMinAVX512 = 4 // repairAVX512's per-byte path
	//lint:ignore U1000 repairAVX2 reads it from go_asm.h
	perByteMinAVX2 = 12 // repairAVX2's
)

// impl is the implementation in use: the fastest one supported.
var impl = func() int {
	switch {
	case useAVX512:
		return implAVX512
	case useAVX2:
		return implAVX2
	}
	return implGeneric
}()

// perBytePath reports whether repairAVX512 may take its per-byte path, which
// needs VPCOMPRESSB (AVX-512 VBMI2) on top of what the kernel needs.
var perBytePath = cpu.X86.HasAVX512VBMI2

//go:noescape
func classifyAVX512(src []byte, out []blockClass)

//go:noescape
func classifyAVX2(src []byte, out []blockClass)

// classifyBlocks fills out[i] for the 64 bytes at src[64*i:], as
// classifyGeneric does, with the AVX-512 or AVX2 kernel where there is one.
func classifyBlocks(src []byte, out []blockClass) {
	if impl == implGeneric {
		classifyGeneric(src, out)
		return
	}
	if len(src) < 64*len(out)+3 {
		panic("repair: classifyBlocks: src too short")
	}
	if impl == implAVX512 {
		classifyAVX512(src, out)
	} else {
		classifyAVX2(src, out)
	}
}

//go:noescape
func repairAVX512(dst, src []byte, n int, tab *Table, st *state)

//go:noescape
func repairAVX2(dst, src []byte, n int, tab *Table, st *state)

// haveKernel reports whether kernelBlocks has a kernel to run.
func haveKernel() bool { return impl == implAVX512 || impl == implAVX2 && useAVX2Kernel }

// repairKernel runs the kernel of the implementation in use.
func repairKernel(dst, src []byte, n int, tab *Table, st *state) {
	if impl == implAVX512 {
		repairAVX512(dst, src, n, tab, st)
	} else {
		repairAVX2(dst, src, n, tab, st)
	}
}

// kernelBlocks classifies the n <= batch blocks of src from st.p on and
// writes their output to dst from st.j on, as the Go loop of blocks would
// for a table without stops and no record function, and advances st. It
// stops early before a block when st.j > st.jmax, and after one that
// makes st.clean reach st.cleanMax. src must hold 128 bytes from each
// block's start, and dst tab.repairRoom() bytes from st.jmax. The kernel
// classifies the blocks into its own frame, which, unlike an array of the
// caller's, no one zeroes first.
func kernelBlocks(dst, src []byte, n int, tab *Table, st *state) {
	if n > batch || st.p+64*(n-1)+128 > len(src) || st.jmax > len(dst)-tab.repairRoom() {
		panic("repair: kernelBlocks: src or dst too short")
	}
	repairKernel(dst, src, n, tab, st)
}

// kernelTail runs the kernel on src, at most one block of input, as on a
// block of src and zeros, which the kernel makes itself, and writes its
// output to dst from 0, which needs tab.tailRoom(len(src)) bytes rather
// than repairRoom: the zeros write one byte each. src must be
// tailReadable, and st at the start of both.
func kernelTail(dst, src []byte, tab *Table, st *state) {
	n := len(src)
	if n == 0 || n > 64 || len(dst) < tab.tailRoom(n) || st.p != 0 || st.j != 0 || !tailReadable(src) {
		panic("repair: kernelTail: src too long or across a page, or dst too short")
	}
	st.jmax = 0
	st.tail = n
	repairKernel(dst, src, 1, tab, st)
	st.tail = 0
}

// tailReadable reports whether kernelTail may take p: whether the 64
// bytes from p's start lie on the page of its first byte. repairAVX2
// loads all 64 and keeps p's; repairAVX512's masked load reads only p and
// faults on no byte past it, but it can cost hundreds of cycles where the
// masked-off bytes lie on another page.
func tailReadable(p []byte) bool {
	const page = 4096 // the smallest page on amd64
	return len(p) > 0 && uintptr(unsafe.Pointer(unsafe.SliceData(p)))%page <= page-64
}
