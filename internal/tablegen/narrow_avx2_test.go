package tablegen

import "testing"

// TestNarrowPairs checks narrowPairs' constants on every surrogate pair:
// the 2 bytes that narrowAVX2 makes from them in the lanes of the high
// and the low surrogate are the code point's UTF-8.
func TestNarrowPairs(t *testing.T) {
	d := NarrowPairs().Data
	word := func(off int) uint16 { return uint16(d[off]) | uint16(d[off+1])<<8 }
	dbff, add, mask, top := word(0), word(32), word(64), word(96)
	for _, w := range []int{0, 32, 64, 96} {
		for i := 0; i < 32; i += 2 {
			if word(w+i) != word(w) {
				t.Fatalf("narrowPairs+%d: lane %d differs", w, i/2)
			}
		}
	}
	bytes2 := func(v uint16) []byte {
		x := (v>>6|v<<8)&mask | top
		return []byte{byte(x), byte(x >> 8)}
	}
	for h := uint16(0xD800); h < 0xDC00; h++ {
		if int16(h) > int16(dbff) {
			t.Fatalf("high surrogate %04X above %04X", h, dbff)
		}
		for l := uint16(0xDC00); l < 0xE000; l += 0x3F {
			if int16(l) <= int16(dbff) {
				t.Fatalf("low surrogate %04X not above %04X", l, dbff)
			}
			cp := 0x10000 + (rune(h)-0xD800)<<10 + rune(l) - 0xDC00
			got := append(bytes2((h+add)>>2), bytes2((h&3)<<10|(l^0xDC00))...)
			if want := string(cp); string(got) != want {
				t.Fatalf("%04X %04X: % X; want % X", h, l, got, want)
			}
		}
	}
}
