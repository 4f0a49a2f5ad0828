//go:build !amd64 || !gc || purego

package utf16

func hasAVX2() bool { return false }

// widenValidStep returns the bytes a step of WidenValid's kernel takes
// here, or 0 where none runs.
func widenValidStep() int { return 0 }

// widenValidSizes returns the sizes of the characters other than ASCII
// that WidenValid's kernel here takes: none.
func widenValidSizes(n int) []int { return nil }

// widenValidTakes reports whether WidenValid's kernel here takes a step:
// there is none.
func widenValidTakes(b []byte, after4 bool, n int) bool { return false }

// widenValidBMPs and setWidenValidBMP are those of amd64, for which
// nothing here changes.
func widenValidBMPs() []int { return []int{0} }

func setWidenValidBMP(n int) func() { return SetWidenValidBMP(n) }
