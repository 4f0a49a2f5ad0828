//go:build (!amd64 && !arm64) || !gc || purego

package valid

const implGeneric = 0

var impls = []implInfo{implGeneric: {name: "generic", supported: true}}

var impl = implGeneric

// KernelPrefix calls a kernel where there is one; here there is none.
func KernelPrefix(p []byte) (n int, ok bool) { return 0, false }

// KernelCopy calls a kernel where there is one; here there is none.
func KernelCopy(dst, src []byte) (n int, ok bool) { return 0, false }

// KernelCopyBeforeEE calls a kernel where there is one; here there is none.
func KernelCopyBeforeEE(dst, src []byte) (n int, ok bool) { return 0, false }

// Prefix returns the length of the longest prefix of p made of complete,
// well-formed UTF-8 sequences.
func Prefix(p []byte) int { return prefixGeneric(p) }

// CopyPrefix copies the longest prefix of src made of complete,
// well-formed UTF-8 sequences to dst and returns its length n, which is
// Prefix(src). len(dst) must be at least len(src), and dst and src must
// not overlap. It may also write to dst[n:len(src)] (the bytes there are
// unspecified), never beyond.
func CopyPrefix(dst, src []byte) int { return copyPrefixGeneric(dst, src) }

// PrefixBeforeEE returns Prefix(p), or the offset of the first EE in that
// prefix if it is smaller.
func PrefixBeforeEE(p []byte) int { return prefixBeforeEEGeneric(p) }

// CopyPrefixBeforeEE is CopyPrefix that stops where PrefixBeforeEE does.
func CopyPrefixBeforeEE(dst, src []byte) int { return copyPrefixBeforeEEGeneric(dst, src) }
