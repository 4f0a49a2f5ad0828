//go:build (!amd64 && !arm64) || !gc || purego

package utf16

// swapVec leaves all of Swap to Go here.
func swapVec(dst, src []byte) int { return 0 }
