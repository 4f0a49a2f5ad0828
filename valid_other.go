package utf8stream

// validPrefix returns the length of the longest prefix of p made of complete,
// well-formed UTF-8 sequences.
func validPrefix(p []byte) int { return validPrefixGeneric(p) }
