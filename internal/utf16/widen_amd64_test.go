//go:build gc && !purego

package utf16

import "testing"

// TestStopUnits checks stopUnits against the units it describes, one by
// one, for the stop ranges of TestNarrow and ranges around the edges of
// the units and of uint32.
func TestStopUnits(t *testing.T) {
	ranges := stops
	for _, lo := range []uint32{0, 1, 0x7F, 0x80, 0xFFFF, 0x10000, 0x10001, 1<<32 - 0x10001, 1<<32 - 0x10000, 1<<32 - 1} {
		for _, n := range []uint32{0, 1, 2, 0x7F, 0x80, 0x81, 0xFFFF, 0x10000, 0x10001, 0x20000, 1<<32 - 1} {
			ranges = append(ranges, [2]uint32{lo, n})
		}
	}
	for _, r := range ranges {
		lo, n := stopUnits(r[0], r[1])
		if n > 0x10000 {
			t.Fatalf("stopUnits(%#x, %#x) = %#x, %#x: more than 0x10000 units", r[0], r[1], lo, n)
		}
		for u := range uint32(0x10000) {
			if got, want := (u-lo)&0xFFFF < n, u-r[0] < r[1]; got != want {
				t.Fatalf("stopUnits(%#x, %#x) = %#x, %#x: unit %#x in it: %v; want %v", r[0], r[1], lo, n, u, got, want)
			}
		}
	}
}
