//go:build !amd64 || !gc || purego

package utf16

func hasAVX2() bool { return false }

// widenValidStep returns the bytes a step of WidenValid's kernel takes
// here, or 0 where none runs.
func widenValidStep() int { return 0 }
