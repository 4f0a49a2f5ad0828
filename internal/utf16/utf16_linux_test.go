package utf16

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/utf8stream/utf8stream/internal/pagetest"
)

// TestPageBoundary checks that no implementation reads past the end of its
// input, or writes past the end of dst, when a PROT_NONE page follows
// them, nor before their starts when one precedes them, and that the
// output is still the generic one's.
func TestPageBoundary(t *testing.T) {
	sbuf := pagetest.Guarded(t, 2)
	dbuf := pagetest.Guarded(t, 2)
	for _, s := range []string{
		strings.Repeat("abcdefg ", 60),
		strings.Repeat("\u0436 ", 150),
		strings.Repeat("\u4e2d", 200),
		strings.Repeat("\u4e2d", 200) + "ab",
		strings.Repeat("\U0001F600a", 100),
		strings.Repeat("\U0001F4A9a\U0002A6D6 \U00010437, ", 30),
		strings.Repeat("a\u00e9\u4e2d\u0436\uef80", 40),
		strings.Repeat("\u0915\u093e\u0916 ", 40),
		strings.Repeat("\U0001F600\U0001F64F ", 40),
	} {
		wide := le(utf16.Encode([]rune(s)))
		for _, im := range impls {
			if !im.Supported() {
				continue
			}
			for n := 0; n <= 300; n++ {
				for _, at := range []string{"end", "start"} {
					// Whole sequences: the widen input starts and ends
					// at a character.
					src := []byte(s[len(s)-n:])
					for len(src) > 0 && src[0]&0xC0 == 0x80 {
						src = src[1:]
					}
					room := 2*len(src) + Room
					var p, d []byte
					if at == "end" {
						p, d = sbuf[len(sbuf)-len(src):], dbuf[len(dbuf)-room:]
					} else {
						p, d = sbuf[:len(src)], dbuf[:room]
					}
					copy(p, src)
					want := make([]byte, room)
					nd, ns := im.widen(d, p)
					wnd, wns := widenGeneric(want, src)
					if nd != wnd || ns != wns || !bytes.Equal(d[:nd], want[:wnd]) {
						t.Fatalf("%s widen at the %s of a page, %d bytes: %d, %d; generic %d, %d", im.Name, at, len(src), nd, ns, wnd, wns)
					}
					w := wide[len(wide)-2*min(n, len(wide)/2):]
					if at == "end" {
						p, d = sbuf[len(sbuf)-len(w):], dbuf[len(dbuf)-room:]
					} else {
						p, d = sbuf[:len(w)], dbuf[:room]
					}
					copy(p, w)
					nd, ns = im.narrow(d, p, 0xEF80, 0x80)
					wnd, wns = narrowGeneric(want, w, 0xEF80, 0x80)
					if nd != wnd || ns != wns || !bytes.Equal(d[:nd], want[:wnd]) {
						t.Fatalf("%s narrow at the %s of a page, %d bytes: %d, %d; generic %d, %d", im.Name, at, len(w), nd, ns, wnd, wns)
					}
				}
			}
		}
	}
}

// TestRoomPageEnd checks that no implementation writes past the end of
// dst, placed where a page ends before a PROT_NONE one, whatever room it
// has, and that it stops where the generic one does.
func TestRoomPageEnd(t *testing.T) {
	dbuf := pagetest.Guarded(t, 1)
	for _, s := range []string{
		strings.Repeat("abcdefgh", 40),
		strings.Repeat("a\u00e9\u4e2d\u0436 \U0001F600", 20),
		strings.Repeat("\U0001F4A9a\U0002A6D6 \U00010437", 20),
		// Blocks of ASCII with 3-byte characters, and with 4-byte ones.
		strings.Repeat("\u0915\u093e\u0916 ", 30),
		strings.Repeat("\U0001F600\U0001F64F ", 20),
	} {
		src := []byte(s)
		wide := le(utf16.Encode([]rune(s)))
		for _, im := range impls {
			if !im.Supported() {
				continue
			}
			for room := 0; room <= 3*Room; room++ {
				d := dbuf[len(dbuf)-room:]
				want := make([]byte, room)
				nd, ns := im.widen(d, src)
				wnd, wns := widenGeneric(want, src)
				if nd != wnd || ns != wns || !bytes.Equal(d[:nd], want[:wnd]) {
					t.Fatalf("%s widen into %d bytes at a page end: %d, %d; generic %d, %d", im.Name, room, nd, ns, wnd, wns)
				}
				nd, ns = im.narrow(d, wide, 0, 0)
				wnd, wns = narrowGeneric(want, wide, 0, 0)
				if nd != wnd || ns != wns || !bytes.Equal(d[:nd], want[:wnd]) {
					t.Fatalf("%s narrow into %d bytes at a page end: %d, %d; generic %d, %d", im.Name, room, nd, ns, wnd, wns)
				}
			}
		}
	}
}

// TestWidenValidPageEnd checks that WidenValid reads nothing past src and
// writes nothing past dst, each placed where a page ends before a
// PROT_NONE one, on text of ASCII with 4-byte, with 3-byte and with
// 2-byte characters of every length up to a few steps, valid and with an
// ill-formed byte at its end, under every implementation (and every step
// of the AVX-512 kernel on any length).
func TestWidenValidPageEnd(t *testing.T) {
	sbuf := pagetest.Guarded(t, 1)
	dbuf := pagetest.Guarded(t, 2)
	defer setWidenValidBMP(0)()
	for _, name := range ImplNames() {
		defer SetImpl(name)()
		for _, text := range []string{strings.Repeat("\U0001F600a\U0010FFFF \U00010000", 22), strings.Repeat("한국어 中文 ", 30), strings.Repeat("Привет, мир! é ", 18)} {
			for n := 0; n <= 300; n++ {
				for _, bad := range []string{"", "\xFF", "\x80"} {
					src := []byte(text[len(text)-n:] + bad)
					for _, room := range []int{2*len(src) + Room, 64, 65, 128, 129} {
						p, d := sbuf[len(sbuf)-len(src):], dbuf[len(dbuf)-room:]
						copy(p, src)
						nd, ns := WidenValid(d, p)
						want := make([]byte, room)
						wnd, wns := WidenValid(want, src)
						if nd != wnd || ns != wns || !bytes.Equal(d[:nd], want[:wnd]) {
							t.Fatalf("%s: WidenValid at the end of a page, %d bytes, room %d: %d, %d; elsewhere %d, %d", name, len(src), room, nd, ns, wnd, wns)
						}
					}
				}
			}
		}
	}
}
