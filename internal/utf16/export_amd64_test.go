//go:build gc && !purego

package utf16

func hasAVX2() bool { return useAVX2 }

// widenValidRuns reports whether WidenValid runs a kernel here.
func widenValidRuns() bool { return impl == implAVX512 }
