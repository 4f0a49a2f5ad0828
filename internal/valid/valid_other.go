//go:build (!amd64 && !arm64) || !gc || purego

package valid

import "github.com/utf8stream/utf8stream/internal/registry"

// The implementations, by index in impls.
const (
	implGeneric = iota
	implPortable
)

var impls = []implInfo{
	implGeneric:  {Impl: registry.Impl{Name: "generic"}},
	implPortable: {Impl: registry.Impl{Name: "portable"}},
}

var impl = implPortable

// KernelPrefix calls a kernel where there is one; here there is none.
func KernelPrefix(p []byte) (n int, ok bool) { return 0, false }

// KernelCopy calls a kernel where there is one; here there is none.
func KernelCopy(dst, src []byte) (n int, ok bool) { return 0, false }

// KernelCopyBeforeEE calls a kernel where there is one; here there is none.
func KernelCopyBeforeEE(dst, src []byte) (n int, ok bool) { return 0, false }

// KernelPrefixBMP calls a kernel where there is one; here there is none.
func KernelPrefixBMP(p []byte) (n int, ok bool) { return 0, false }

// KernelCopyBMP calls a kernel where there is one; here there is none.
func KernelCopyBMP(dst, src []byte) (n int, ok bool) { return 0, false }

// Prefix returns the length of the longest prefix of p made of complete,
// well-formed UTF-8 sequences.
func Prefix(p []byte) int {
	if impl == implGeneric {
		return prefixGeneric(p)
	}
	return prefixPortable(p)
}

// CopyPrefix copies the longest prefix of src made of complete,
// well-formed UTF-8 sequences to dst and returns its length n, which is
// Prefix(src). len(dst) must be at least len(src), and dst and src must
// not overlap. It may also write to dst[n:len(src)] (the bytes there are
// unspecified), never beyond.
func CopyPrefix(dst, src []byte) int {
	if impl == implGeneric {
		return copyPrefixGeneric(dst, src)
	}
	return copyPrefixPortable(dst, src)
}

// PrefixBeforeEE returns Prefix(p), or the offset of the first EE in that
// prefix if it is smaller.
func PrefixBeforeEE(p []byte) int {
	if impl == implGeneric {
		return prefixBeforeEEGeneric(p)
	}
	return prefixBeforeEEPortable(p)
}

// CopyPrefixBeforeEE is CopyPrefix that stops where PrefixBeforeEE does.
func CopyPrefixBeforeEE(dst, src []byte) int {
	if impl == implGeneric {
		return copyPrefixBeforeEEGeneric(dst, src)
	}
	return copyPrefixBeforeEEPortable(dst, src)
}

// PrefixBMP returns Prefix(p), or the offset of the first byte F0..FF in
// that prefix if it is smaller: the valid text that holds no character
// above U+FFFF.
func PrefixBMP(p []byte) int {
	if impl == implGeneric {
		return prefixBMPGeneric(p)
	}
	return prefixBMPPortable(p)
}

// CopyPrefixBMP is CopyPrefix that stops where PrefixBMP does.
func CopyPrefixBMP(dst, src []byte) int {
	if impl == implGeneric {
		return copyPrefixBMPGeneric(dst, src)
	}
	return copyPrefixBMPPortable(dst, src)
}
