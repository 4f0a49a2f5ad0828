//go:build !amd64 || !gc || purego

package utf8stream

// classifyBlocks fills out[i] for the 64 bytes at src[64*i:]; see
// classifyGeneric.
func classifyBlocks(src []byte, out []blockClass) { classifyGeneric(src, out) }
