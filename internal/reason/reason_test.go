package reason

import (
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		desc string
		b    []byte
		next int
		want string
	}{
		{"continuation", []byte{0x80}, Unknown, "unexpected continuation byte"},
		{"C0", []byte{0xC0}, 0xAF, "overlong encoding (C0 and C1 never appear)"},
		{"F5", []byte{0xF5}, 0x80, "above U+10FFFF (F5..F7 never appear)"},
		{"FF", []byte{0xFF}, Unknown, "byte FF never appears in UTF-8"},
		{"NUL", []byte{0}, 'a', "NUL byte"},
		{"E9 then ASCII", []byte{0xE9}, '!', "E9 must be followed by 80..BF"},
		{"E1 80 then ASCII", []byte{0xE1, 0x80}, 'A', "E1 80 must be followed by 80..BF"},
		{"E1 80 unknown", []byte{0xE1, 0x80}, Unknown, "E1 80 must be followed by 80..BF"},
		{"at end", []byte{0xF0, 0x9F, 0x98}, End, "truncated sequence at end of input"},
		{"E0 80", []byte{0xE0}, 0x80, "overlong encoding (E0 must be followed by A0..BF)"},
		{"ED A0", []byte{0xED}, 0xA0, "surrogate U+D800..U+DFFF (ED must be followed by 80..9F)"},
		{"F0 8F", []byte{0xF0}, 0x8F, "overlong encoding (F0 must be followed by 90..BF)"},
		{"F4 90", []byte{0xF4}, 0x90, "above U+10FFFF (F4 must be followed by 80..8F)"},
		{"E0 then ASCII", []byte{0xE0}, 'A', "E0 must be followed by A0..BF"},
		{"ED unknown", []byte{0xED}, Unknown, "ED must be followed by 80..9F (surrogate U+D800..U+DFFF, or a sequence cut short)"},
		{"4 bytes", []byte{0xF0, 0x9F, 0x98, 0x80}, End, "character above U+FFFF"},
		{"6 bytes", []byte{0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}, 'a', "character above U+FFFF"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := Of(tc.b, tc.next); got != tc.want {
				t.Errorf("Of(% X, %d) = %q; want %q", tc.b, tc.next, got, tc.want)
			}
		})
	}
}

// TestOfLeadThenContinuation checks every lead byte followed by a
// continuation byte that breaks it against the code point that the bytes
// would encode: below the length's minimum is overlong, D800..DFFF a
// surrogate, above 10FFFF above U+10FFFF.
func TestOfLeadThenContinuation(t *testing.T) {
	for c := 0xC2; c <= 0xF4; c++ {
		size, mask := 2, 0x1F
		if c >= 0xF0 {
			size, mask = 4, 0x07
		} else if c >= 0xE0 {
			size, mask = 3, 0x0F
		}
		for next := 0x80; next <= 0xBF; next++ {
			cp := (c&mask)<<(6*(size-1)) | (next&0x3F)<<(6*(size-2))
			min := map[int]int{2: 0x80, 3: 0x800, 4: 0x10000}[size]
			want := ""
			switch {
			case cp < min:
				want = "overlong encoding"
			case 0xD800 <= cp && cp <= 0xDFFF:
				want = "surrogate"
			case cp > 0x10FFFF:
				want = "above U+10FFFF"
			default:
				continue // a well-formed start: not a subpart of one byte
			}
			if got := Of([]byte{byte(c)}, next); !strings.HasPrefix(got, want) {
				t.Errorf("Of(%02X, %02X) = %q; want %q...", c, next, got, want)
			}
		}
	}
}
