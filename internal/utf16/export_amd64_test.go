//go:build gc && !purego

package utf16

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

// widenValidThrees reports whether WidenValid's kernel here takes steps
// of ASCII and 3-byte characters as well as those of 4-byte ones.
func widenValidThrees() bool { return impl == implAVX2 }
