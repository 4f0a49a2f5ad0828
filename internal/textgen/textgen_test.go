package textgen

import (
	"bytes"
	"slices"
	"testing"
	"unicode/utf8"
)

func TestMake(t *testing.T) {
	for _, name := range Names {
		for _, size := range []int{0, 1, 5, 64, 4096, 100003} {
			b := Make(name, size)
			if len(b) != size {
				t.Errorf("len(Make(%q, %d)) = %d", name, size, len(b))
			}
			valid := slices.Contains(Valid, name)
			if valid && !utf8.Valid(b) {
				t.Errorf("Make(%q, %d) is not valid UTF-8", name, size)
			}
			if !valid && size >= 4096 && utf8.Valid(b) {
				t.Errorf("Make(%q, %d) is valid UTF-8", name, size)
			}
			if !bytes.Equal(b, Make(name, size)) {
				t.Errorf("Make(%q, %d) is not deterministic", name, size)
			}
		}
	}
	b := Make("chinese", 4096)
	if n := utf8.RuneCount(b); n > 4096/2 {
		t.Errorf("chinese: %d runes in 4096 bytes; want mostly 3-byte characters", n)
	}
}
