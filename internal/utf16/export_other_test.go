//go:build !amd64 || !gc || purego

package utf16

func hasAVX2() bool { return false }

// widenValidRuns reports whether WidenValid runs a kernel here.
func widenValidRuns() bool { return false }
