//go:build (!amd64 && !arm64) || !gc || purego

package utf16

import "github.com/utf8stream/utf8stream/internal/registry"

// Without a kernel Widen and Narrow return 0, 0: the callers' Go loops
// cost less than the generic block loop. The generic entry is the
// reference for the tests.
var impls = []implInfo{
	{Impl: registry.Impl{Name: "generic"},
		widen:  func(dst, src []byte) (int, int) { return widenGeneric(dst, src) },
		narrow: func(dst, src []byte, lo, n uint32) (int, int) { return narrowGeneric(dst, src, lo, n) }},
}

var impl = 0

func enabled() bool { return false }

func widen(dst, src []byte) (int, int) { return 0, 0 }

func narrow(dst, src []byte, stopLo, stopN uint32) (int, int) { return 0, 0 }

func widenValid(dst, src []byte) (int, int) { return 0, 0 }

// SetWidenValidBMP does nothing here, where no kernel of WidenValid runs;
// see the amd64 one.
func SetWidenValidBMP(n int) (restore func()) { return func() {} }
