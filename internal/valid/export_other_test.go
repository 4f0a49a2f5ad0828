//go:build (!amd64 && !arm64) || !gc || purego

package valid

// prefixSlow, copyPrefixSlow and their variants are the functions of the
// package without their shortcuts for short input; here there are none.
func prefixSlow(p []byte) int                    { return Prefix(p) }
func copyPrefixSlow(dst, src []byte) int         { return CopyPrefix(dst, src) }
func prefixBeforeEESlow(p []byte) int            { return PrefixBeforeEE(p) }
func copyPrefixBeforeEESlow(dst, src []byte) int { return CopyPrefixBeforeEE(dst, src) }
func prefixBMPSlow(p []byte) int                 { return PrefixBMP(p) }
func copyPrefixBMPSlow(dst, src []byte) int      { return CopyPrefixBMP(dst, src) }
