package valid

// The fronts: the functions of the package, written once over the entries
// each platform provides (valid_amd64.go, valid_arm64.go, valid_other.go):
//
//   - vecValid, vecCopy, vecValidBeforeEE, vecCopyBeforeEE, vecValidBMP
//     and vecCopyBMP run the kernel of impl and return its n, or -1 where
//     impl has none or p is shorter than the kernel takes;
//   - impls, impl and the implementation constants, implPortable among
//     them (-1 where the platform has no portable implementation);
//   - minKernel, the shortest input the fronts hand to the copying and
//     stopping entries.
//
// A new architecture is those entries and its kernels.

// KernelPrefix returns the kernel's n for p and true where Prefix would
// call a kernel, and false elsewhere. n == len(p) means that all of p is
// valid; otherwise the caller finishes with Finish. It is small enough to
// be inlined, so that a hot caller calls the kernel from its own frame: at
// 64 bytes a frame on the way costs a tenth of the time. The caller calls
// QuickPrefix first, as Prefix does.
func KernelPrefix(p []byte) (n int, ok bool) {
	if len(p) < Short {
		return 0, false
	}
	n = vecValid(p)
	return n, n >= 0
}

// KernelCopy is KernelPrefix for CopyPrefix; the caller finishes with
// CopyFinish. len(dst) must be at least len(src); dst[:len(src)] keeps the
// kernel within dst's capacity even where it is not, at no cost that
// would keep this from inlining.
func KernelCopy(dst, src []byte) (n int, ok bool) {
	if len(src) < minKernel {
		return 0, false
	}
	n = vecCopy(dst[:len(src)], src)
	return n, n >= 0
}

// KernelCopyBeforeEE is KernelPrefix for CopyPrefixBeforeEE; the caller
// finishes with CopyFinishBeforeEE.
func KernelCopyBeforeEE(dst, src []byte) (n int, ok bool) {
	if len(src) < minKernel {
		return 0, false
	}
	n = vecCopyBeforeEE(dst[:len(src)], src)
	return n, n >= 0
}

// KernelPrefixBMP is KernelPrefix for PrefixBMP; the caller finishes with
// FinishBMP.
func KernelPrefixBMP(p []byte) (n int, ok bool) {
	if len(p) < minKernel {
		return 0, false
	}
	n = vecValidBMP(p)
	return n, n >= 0
}

// KernelCopyBMP is KernelPrefix for CopyPrefixBMP; the caller finishes
// with CopyFinishBMP.
func KernelCopyBMP(dst, src []byte) (n int, ok bool) {
	if len(src) < minKernel {
		return 0, false
	}
	n = vecCopyBMP(dst[:len(src)], src)
	return n, n >= 0
}

// PrefixShort is Prefix for p shorter than Short, which it checks a byte
// at a time, in one call.
func PrefixShort(p []byte) int { return prefixShort(p) }

// Prefix returns the length of the longest prefix of p made of complete,
// well-formed UTF-8 sequences.
func Prefix(p []byte) int {
	// The kernel is called here rather than through kernelPrefix: on
	// short input each call on the way costs as much as the kernel's work.
	if len(p) < Short {
		return prefixShort(p)
	}
	if len(p) <= 16 && ShortASCII(p) {
		return len(p)
	}
	if i, ok := QuickPrefix(p); ok {
		return i
	}
	n := vecValid(p)
	switch {
	case n == len(p):
		return n
	case n >= 0:
		return finish(p, n, plain)
	case impl == implPortable && len(p) >= minKernel:
		return prefixPortable(p)
	}
	return prefixGeneric(p)
}

// CopyPrefix copies the longest prefix of src made of complete,
// well-formed UTF-8 sequences to dst and returns its length n, which is
// Prefix(src). len(dst) must be at least len(src), and dst and src must
// not overlap. It may also write to dst[n:len(src)] (the bytes there are
// unspecified), never beyond.
func CopyPrefix(dst, src []byte) int {
	// The kernel is called here, with no frame on the way, as in
	// Prefix: a hot caller's short path comes here for short input.
	switch {
	case len(src) < minKernel:
		return copyPrefixGeneric(dst, src)
	case len(dst) < len(src):
		panic("valid: CopyPrefix: dst shorter than src")
	}
	if i, ok := QuickCopy(dst, src); ok {
		return i
	}
	n := vecCopy(dst, src)
	switch {
	case n == len(src):
		return n
	case n >= 0:
		return copyFinish(dst, src, n, plain)
	case impl == implPortable:
		return copyPrefixPortable(dst, src)
	}
	return copyPrefixGeneric(dst, src)
}

// PrefixBeforeEE returns Prefix(p), or the offset of the first EE in that
// prefix if it is smaller: the valid text that OPTU8 can pass on without
// looking at it again.
func PrefixBeforeEE(p []byte) int {
	if len(p) < minKernel || impl == implGeneric {
		return prefixBeforeEEGeneric(p)
	}
	if i, ok := QuickPrefix(p); ok {
		return i // only ASCII comes before i: no EE
	}
	return kernelPrefix(p, beforeEE)
}

// CopyPrefixBeforeEE is CopyPrefix that stops where PrefixBeforeEE does.
func CopyPrefixBeforeEE(dst, src []byte) int {
	// The kernel is called here, as in CopyPrefix.
	switch {
	case len(src) < minKernel:
		return copyPrefixBeforeEEGeneric(dst, src)
	case len(dst) < len(src):
		panic("valid: CopyPrefixBeforeEE: dst shorter than src")
	}
	if i, ok := QuickCopy(dst, src); ok {
		return i // only ASCII comes before i: no EE
	}
	n := vecCopyBeforeEE(dst, src)
	switch {
	case n == len(src):
		return n
	case n >= 0:
		return copyFinish(dst, src, n, beforeEE)
	case impl == implPortable:
		return copyPrefixBeforeEEPortable(dst, src)
	}
	return copyPrefixBeforeEEGeneric(dst, src)
}

// PrefixBMP returns Prefix(p), or the offset of the first byte F0..FF in
// that prefix if it is smaller: the valid text that holds no character
// above U+FFFF.
func PrefixBMP(p []byte) int {
	// The kernel is called here, as in Prefix.
	if len(p) < minKernel {
		return prefixBMPGeneric(p)
	}
	if i, ok := QuickPrefix(p); ok {
		return i // only ASCII comes before i: no byte F0..FF
	}
	n := vecValidBMP(p)
	switch {
	case n == len(p):
		return n
	case n >= 0:
		return finish(p, n, bmp)
	case impl == implPortable:
		return prefixBMPPortable(p)
	}
	return prefixBMPGeneric(p)
}

// CopyPrefixBMP is CopyPrefix that stops where PrefixBMP does.
func CopyPrefixBMP(dst, src []byte) int {
	// The kernel is called here, as in CopyPrefix.
	switch {
	case len(src) < minKernel:
		return copyPrefixBMPGeneric(dst, src)
	case len(dst) < len(src):
		panic("valid: CopyPrefixBMP: dst shorter than src")
	}
	if i, ok := QuickCopy(dst, src); ok {
		return i // only ASCII comes before i: no byte F0..FF
	}
	n := vecCopyBMP(dst, src)
	switch {
	case n == len(src):
		return n
	case n >= 0:
		return copyFinish(dst, src, n, bmp)
	case impl == implPortable:
		return copyPrefixBMPPortable(dst, src)
	}
	return copyPrefixBMPGeneric(dst, src)
}

// kernelPrefix runs the kernel of impl and variant v on p, whatever its
// length, and finishes in Go where it stopped; where there is no kernel,
// the implementation in Go.
func kernelPrefix(p []byte, v variant) int {
	var n int
	switch v {
	case beforeEE:
		n = vecValidBeforeEE(p)
	case bmp:
		n = vecValidBMP(p)
	default:
		n = vecValid(p)
	}
	switch {
	case n == len(p):
		return n
	case n >= 0:
		return finish(p, n, v)
	case impl == implPortable && v == beforeEE:
		return prefixBeforeEEPortable(p)
	case impl == implPortable && v == bmp:
		return prefixBMPPortable(p)
	case impl == implPortable:
		return prefixPortable(p)
	case v == beforeEE:
		return prefixBeforeEEGeneric(p)
	case v == bmp:
		return prefixBMPGeneric(p)
	}
	return prefixGeneric(p)
}
