//go:build !amd64 || !gc || purego

package utf8stream

const implGeneric = 0

var impls = []implInfo{implGeneric: {name: "generic", supported: true}}

var impl = implGeneric

// kernelValid, kernelCopyValid and kernelCopyValidStop call a kernel where
// there is one; here there is none.
func kernelValid(p []byte) (n int, ok bool)                { return 0, false }
func kernelCopyValid(dst, src []byte) (n int, ok bool)     { return 0, false }
func kernelCopyValidStop(dst, src []byte) (n int, ok bool) { return 0, false }

// validPrefix returns the length of the longest prefix of p made of complete,
// well-formed UTF-8 sequences.
func validPrefix(p []byte) int { return validPrefixGeneric(p) }

// validPrefixSlow is validPrefix without the shortcut for short inputs; here
// they are the same.
func validPrefixSlow(p []byte) int { return validPrefixGeneric(p) }

// copyValidPrefix copies the longest prefix of src made of complete,
// well-formed UTF-8 sequences to dst and returns its length n, which is
// validPrefix(src). len(dst) must be at least len(src), and dst and src
// must not overlap. It may also write to dst[n:len(src)] (the bytes there
// are unspecified), never beyond.
func copyValidPrefix(dst, src []byte) int { return copyValidPrefixGeneric(dst, src) }

// copyValidPrefixSlow is copyValidPrefix without the shortcut for short
// inputs; here they are the same.
func copyValidPrefixSlow(dst, src []byte) int { return copyValidPrefixGeneric(dst, src) }

// validPrefixStop returns validPrefix(p), or the offset of the first EE in
// that prefix if it is smaller.
func validPrefixStop(p []byte) int { return validPrefixStopGeneric(p) }

// copyValidPrefixStop is copyValidPrefix that stops where validPrefixStop
// does.
func copyValidPrefixStop(dst, src []byte) int { return copyValidPrefixStopGeneric(dst, src) }

// validPrefixStopSlow and copyValidPrefixStopSlow are validPrefixStop and
// copyValidPrefixStop without the shortcut for short inputs; here they are
// the same.
func validPrefixStopSlow(p []byte) int { return validPrefixStopGeneric(p) }

func copyValidPrefixStopSlow(dst, src []byte) int { return copyValidPrefixStopGeneric(dst, src) }
