//go:build gc && !purego

package utf16

func hasAVX2() bool { return useAVX2 }
