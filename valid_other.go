//go:build !amd64 || !gc || purego

package utf8stream

const implGeneric = 0

var impls = []implInfo{implGeneric: {"generic", true, nil, nil}}

var impl = implGeneric

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
