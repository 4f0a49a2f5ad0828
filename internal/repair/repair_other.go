//go:build (!amd64 && !arm64) || !gc || purego

package repair

import "github.com/utf8stream/utf8stream/internal/registry"

const implGeneric = 0

var impls = []registry.Impl{implGeneric: {Name: "generic"}}

var impl = implGeneric

// classifyBlocks fills out[i] for the 64 bytes at src[64*i:]; see
// classifyGeneric.
func classifyBlocks(src []byte, out []blockClass) { classifyGeneric(src, out) }
