//go:build gc && !purego

package utf8stream

//go:noescape
func classifyAVX512(src []byte, out []blockClass)

// classifyBlocks fills out[i] for the 64 bytes at src[64*i:], as
// classifyGeneric does, with the AVX-512 kernel where validPrefix uses it.
func classifyBlocks(src []byte, out []blockClass) {
	if impl == implAVX512 {
		if len(src) < 64*len(out)+3 {
			panic("utf8stream: classifyBlocks: src too short")
		}
		classifyAVX512(src, out)
		return
	}
	classifyGeneric(src, out)
}
