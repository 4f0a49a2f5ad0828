package utf16

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// checkWidenValid checks WidenValid on src, any bytes, with room bytes of
// dst, under the implementation in use, whose kernel takes steps of step
// bytes (0 for none): src[:ns] is valid UTF-8 that it widens as the
// reference does; it goes on through the steps in the prefix of src that
// is text of the kinds the kernel takes, and no further, as far as src
// and dst leave room for a step.
func checkWidenValid(t *testing.T, src []byte, room int, step int) {
	t.Helper()
	dst := make([]byte, room)
	nd, ns := WidenValid(dst, src)
	if !utf8.Valid(src[:ns]) {
		t.Fatalf("WidenValid(% X) took %d bytes, not valid UTF-8", src, ns)
	}
	want := make([]byte, 0, nd)
	for _, u := range utf16.Encode([]rune(string(src[:ns]))) {
		want = append(want, byte(u), byte(u>>8))
	}
	if !bytes.Equal(dst[:nd], want) {
		t.Fatalf("WidenValid(% X) = % X for %d bytes; want % X", src, dst[:nd], ns, want)
	}
	if step == 0 {
		if nd != 0 || ns != 0 {
			t.Fatalf("WidenValid without a kernel = %d, %d; want 0, 0", nd, ns)
		}
		return
	}
	// q: the prefix of the characters the kernel takes.
	sizes := widenValidSizes(len(src))
	q := prefixOf(src, sizes...)
	if ns > q {
		t.Fatalf("WidenValid(% X) took %d bytes, past the %d of ASCII and characters of %v bytes", src, ns, q, sizes)
	}
	// Every step whose bytes and the 3 after them lie in q, with 4 bytes
	// after it in src and room for two steps' units in dst, is taken if
	// its kinds of characters are, but for a 4-byte character that
	// starts in the last byte of the last one.
	steps := 0
	for end := step; end+3 <= q && end+4 <= len(src) && room-step >= 2*end; end += step {
		if !widenValidTakes(src[end-step:end], end > step && src[end-step-1] >= 0xF0, len(src)) {
			break
		}
		steps++
	}
	if ns < step*steps-1 {
		t.Fatalf("WidenValid(% X), room %d: stopped at %d; want at least %d", src, room, ns, step*steps-1)
	}
}

// prefixOf returns the length of the prefix of src that is valid text of
// ASCII and characters of the sizes n.
func prefixOf(src []byte, n ...int) int {
	q := 0
	for q < len(src) {
		r, size := utf8.DecodeRune(src[q:])
		if r == utf8.RuneError && size == 1 || size != 1 && !slices.Contains(n, size) {
			break
		}
		q += size
	}
	return q
}

// TestWidenValid checks WidenValid on text of ASCII and 4-byte characters
// with every kind of ill-formed sequence, and a character of 2 or 3
// bytes, put in at every offset of the first three steps, and at the
// start and the end of src, with rooms around the step's.
func TestWidenValid(t *testing.T) {
	for _, bmp := range widenValidBMPs() {
		defer setWidenValidBMP(bmp)()
		testWidenValid(t)
	}
}

// testWidenValid is TestWidenValid with the widenValidBMP in use.
func testWidenValid(t *testing.T) {
	for _, name := range ImplNames() {
		func() {
			defer SetImpl(name)()
			kernel := widenValidStep()
			text := strings.Repeat("\U0001F4A9a\U0002A6D6 \U00010437\U0001F600\U0010FFFF.\U00010000 ", 8)
			bad := []string{"\x80", "\xBF", "\xC0\x80", "\xC2", "\xE0\x80", "\xED\xA0\x80", "\xF0\x80\x80\x80",
				"\xF0\x8F\xBF\xBF", "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xF8\x88\x80\x80\x80", "\xFF",
				"\xF0\x9F\x98", "\xF0\x9F", "\xF0", "é", "日", "\x00"}
			step := 3 * 64
			if testing.Short() {
				step = 64 + 8
			}
			for at := 0; at < step; at++ {
				for _, b := range bad {
					for _, base := range []string{text, strings.Repeat("ab", 200)} {
						src := []byte(base[:at] + b + base[at:])
						checkWidenValid(t, src, 3*len(src), kernel)
					}
				}
			}
			// Steps of 4-byte characters alone, from each lane of their
			// first lead (the ASCII before them), valid and with each
			// ill-formed form at each place of the first steps.
			pure := strings.Repeat("\U0001F4A9\U00010000\U0002A6D6\U0010FFFF\U00010437\U0001F600\U000E0001\U00040000", 6)
			atStep := 1
			if testing.Short() {
				atStep = 3
			}
			inserts := append(slices.Clip(bad), "")
			for shift := range 8 {
				for at := 0; at < 80; at += atStep {
					for _, b := range inserts {
						src := []byte(strings.Repeat("a", shift) + pure[:at] + b + pure[at:])
						checkWidenValid(t, src, 3*len(src), kernel)
					}
				}
			}
			// A 3- or 4-byte character at each of the last bytes of a
			// step and the first of the next, then what ends the run
			// there: the end of src, an ill-formed byte, a character of
			// 2 bytes, one of the other kind.
			for _, c := range []string{"\U0001F4A9", "한", "\u0800", "\uD7FF", "\uE000", "\uFFFF", "é", "\u0080", "\u07FF"} {
				for pad := 56; pad <= 68; pad++ {
					for _, tail := range []string{"", "\xFF", "é", "\x80", "\x80\x80", "\U0001F600", "中"} {
						for k := 0; k <= 72; k++ {
							src := []byte(strings.Repeat("a", pad) + c + strings.Repeat("b", k) + tail + strings.Repeat("c", 3))
							checkWidenValid(t, src, 4*len(src), kernel)
						}
					}
				}
			}
			// Steps of 3-byte characters only, of ASCII and 3-byte, of
			// ASCII and 4-byte and of ASCII and 2-byte characters in
			// turn, with the characters of one kind going on into a step
			// of the other at each offset.
			for shift := range 40 {
				src := []byte(strings.Repeat("a", shift))
				for range 4 {
					src = append(src, strings.Repeat("中文日本語漢字", 6)...)
					src = append(src, strings.Repeat("한국어 텍스트 中文 \uFFFF\uE000 ", 3)...)
					src = append(src, strings.Repeat("\U0001F4A9a\U0002A6D6 \U00010437\U0001F600\U0010FFFF.\U00010000", 3)...)
					src = append(src, strings.Repeat("Привет, мир! ", 6)...)
				}
				checkWidenValid(t, src, 4*len(src), kernel)
			}
			// Text of ASCII and 3-byte characters, and of ASCII and 2-
			// and 3-byte ones, with the ill-formed forms of 2- and 3-byte
			// sequences and the others.
			bad3 := []string{"\xE0\x80\x80", "\xE0\x9F\xBF", "\xED\xA0\x80", "\xED\xBF\xBF", "\xE3\x81",
				"\xE3", "\x80", "\xC0\x80", "\xC1\xBF", "\xC2", "\xDF", "é", "\U0001F600", "\xF4\x90\x80\x80",
				"\xFF", "\xEF\xBF\xBF", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xF0\x9F", "\xFF\x80"}
			for _, text := range []string{strings.Repeat("한국어 텍스트 中文 \uFFFF\uE000 ", 8), strings.Repeat("Привет, мир! Ünïcödé ߿\u0080 ش", 8)} {
				for at := 0; at < step; at++ {
					for _, b := range bad3 {
						src := []byte(text[:at] + b + text[at:])
						checkWidenValid(t, src, 3*len(src), kernel)
					}
				}
			}
			for _, room := range []int{0, 64, 191, 192, 193, 255, 256, 257} {
				checkWidenValid(t, []byte(text), room, kernel)
			}
			for n := 0; n <= 140; n++ {
				checkWidenValid(t, []byte(text[:n]), 4*n, kernel)
				checkWidenValid(t, []byte(text[len(text)-n:]), 4*n, kernel)
			}
		}()
	}
}
