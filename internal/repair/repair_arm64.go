//go:build gc && !purego

package repair

import "github.com/utf8stream/utf8stream/internal/registry"

// The implementations, by index in impls. Every arm64 CPU has NEON
// (ASIMD), so the NEON classification needs no feature check.
const (
	implGeneric = iota
	implNEON
)

// The NEON implementation is classifyNEON under the Go loop of blocks:
// there is no NEON repair kernel.
var impls = []registry.Impl{
	implGeneric: {Name: "generic"},
	implNEON:    {Name: "neon", Advertised: true},
}

// impl is the implementation in use: the fastest one supported.
var impl = implNEON

//go:noescape
func classifyNEON(src []byte, out []blockClass)

// classifyBlocks fills out[i] for the 64 bytes at src[64*i:], as
// classifyGeneric does, with the NEON kernel unless impl is generic.
func classifyBlocks(src []byte, out []blockClass) {
	if impl == implGeneric {
		classifyGeneric(src, out)
		return
	}
	if len(src) < 64*len(out)+3 {
		panic("repair: classifyBlocks: src too short")
	}
	classifyNEON(src, out)
}
