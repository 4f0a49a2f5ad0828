//go:build gc && !purego

package utf16

import "math/bits"

func hasAVX2() bool { return useAVX2 }

// widenValidStep returns the bytes a step of WidenValid's kernel takes
// here, or 0 where none runs.
func widenValidStep() int {
	switch impl {
	case implAVX512:
		return 64
	case implAVX2:
		return 32
	}
	return 0
}

// widenValidSizes returns the sizes of the characters other than ASCII
// that WidenValid's kernel here takes in src of n bytes.
func widenValidSizes(n int) []int {
	switch {
	case impl == implAVX512 && n >= widenValidBMP:
		return []int{2, 3, 4}
	case impl == implAVX512:
		return []int{4}
	case impl == implAVX2:
		return []int{2, 3, 4}
	}
	return nil
}

// widenValidTakes reports whether WidenValid's kernel here takes the
// step b of valid text, with the bytes after it, in src of n bytes,
// after a step whose last byte is a 4-byte lead where after4: a step of
// ASCII and 4-byte characters, or of characters of the other sizes it
// takes after no such lead.
func widenValidTakes(b []byte, after4 bool, n int) bool {
	var has [5]bool
	for _, c := range b {
		has[min(bits.LeadingZeros8(^c), 4)] = true
	}
	if has[4] {
		return !has[2] && !has[3]
	}
	switch impl {
	case implAVX512:
		return n >= widenValidBMP && !after4
	case implAVX2:
		return !(has[2] && has[3]) && !after4
	}
	return false
}

// widenValidBMPs returns the values of widenValidBMP to test with: its
// own, and 0, with which every src takes the AVX-512 kernel's steps of
// characters of 1 to 3 bytes.
func widenValidBMPs() []int { return []int{widenValidBMP, 0} }

// setWidenValidBMP is SetWidenValidBMP.
func setWidenValidBMP(n int) func() { return SetWidenValidBMP(n) }
