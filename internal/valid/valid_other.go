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

// minKernel is the shortest input that Prefix and the rest hand to the
// portable implementation: below, the reference loop costs less.
const minKernel = 32

// vecValid and the rest run a kernel where there is one; here there is
// none.
func vecValid(p []byte) int               { return -1 }
func vecCopy(dst, src []byte) int         { return -1 }
func vecValidBeforeEE(p []byte) int       { return -1 }
func vecCopyBeforeEE(dst, src []byte) int { return -1 }
func vecValidBMP(p []byte) int            { return -1 }
func vecCopyBMP(dst, src []byte) int      { return -1 }

// vecValidLines and vecCopyLines run a counting kernel where there is one;
// here there is none.
func vecValidLines(p []byte) (int, int, int, int)       { return -1, 0, 0, -1 }
func vecCopyLines(dst, src []byte) (int, int, int, int) { return -1, 0, 0, -1 }
