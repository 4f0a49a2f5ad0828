//go:build !amd64 || !gc || purego

package utf8stream

const implGeneric = 0

var impls = []implInfo{implGeneric: {"generic", true}}

var impl = implGeneric

// validPrefix returns the length of the longest prefix of p made of complete,
// well-formed UTF-8 sequences.
func validPrefix(p []byte) int { return validPrefixGeneric(p) }

// validPrefixSlow is validPrefix without the shortcut for short inputs; here
// they are the same.
func validPrefixSlow(p []byte) int { return validPrefixGeneric(p) }
