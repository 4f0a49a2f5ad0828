package utf16

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// texts are valid UTF-8 inputs of every kind a block can hold: 1- to
// 4-byte sequences, mixed, and each at every offset of an ASCII run.
func texts() []string {
	rng := rand.New(rand.NewPCG(16, 32))
	pools := [][]rune{
		{'a', 'z', ' ', '\n', 0, 0x7F},
		{'a', 'é', 'ß', 0x7FF, 0x80, ' '},
		{'a', '日', '本', 0x800, 0xFFFF, 0xD7FF, 0xE000, 0xEF80, 0xFFFD, 'é', ' '},
		{'a', 'é', '日', 0x1F600, 0x10000, 0x10FFFF},
		{'a', 'é', 0x800, 0xFFF}, // 3-byte characters with no lead but E0
		// ASCII and 4-byte characters whose every byte varies
		{'a', ' ', 0x1F4A9, 0x2A6D6, 0x10437, 0xE01EF, 0x1F600, 0x10FFFF},
	}
	var out []string
	for _, pool := range pools {
		for _, n := range []int{0, 1, 33, 34, 35, 63, 64, 65, 100, 300, 1000} {
			var b strings.Builder
			for b.Len() < n {
				b.WriteRune(pool[rng.IntN(len(pool))])
			}
			out = append(out, b.String())
		}
	}
	// A 4-byte character or a non-ASCII one at every offset of a long
	// ASCII run, so that each kernel stops at each block edge.
	ascii := strings.Repeat("abcdefgh", 20)
	for i := 0; i <= len(ascii); i++ {
		out = append(out, ascii[:i]+"😀"+ascii[i:], ascii[:i]+"é"+ascii[i:], ascii[:i]+"日"+ascii[i:])
	}
	// The same in a long run of 3-byte characters.
	cjk := strings.Repeat("日本", 40)
	for i := 0; i <= len(cjk); i += 3 {
		out = append(out, cjk[:i]+"a"+cjk[i:], cjk[:i]+"é"+cjk[i:], cjk[:i]+"😀"+cjk[i:], cjk[:i], cjk[:i]+"a", cjk[:i]+"é")
	}
	// The same in runs of 2- and 3-byte characters, which the AVX2
	// kernels take, and in text of ASCII and 3-byte characters, which
	// the NEON kernel takes two blocks at a time.
	runs := []string{strings.Repeat("éж", 40), strings.Repeat("日本", 30), strings.Repeat("aé日", 30),
		strings.Repeat("日本 語a\n", 16), strings.Repeat("\uE000a\uFFFF.", 20),
		strings.Repeat("\U0001F4A9a\U0002A6D6 \U00010437\U000E01EF.", 8)}
	for _, run := range runs {
		for i := 0; i <= len(run); i++ {
			if i < len(run) && !utf8.RuneStart(run[i]) {
				continue
			}
			out = append(out, run[:i]+"😀"+run[i:], run[:i]+"a"+run[i:], run[:i]+"é"+run[i:])
		}
	}
	return out
}

// surrogates8 returns texts with generalized UTF-8 surrogates, which
// Widen takes as characters, put in: mixed with the other characters, and
// at every offset of an ASCII run.
func surrogates8() []string {
	out := []string{strings.Repeat("ab\xED\xA0\x80c\xED\xBF\xBF", 20), strings.Repeat("\xED\xB0\x80é日\xED\xAF\xBF", 20)}
	ascii := strings.Repeat("abcdefgh", 10)
	for i := 0; i <= len(ascii); i++ {
		out = append(out, ascii[:i]+"\xED\xA0\x80"+ascii[i:]+"\xED\xBF\xBF")
	}
	return out
}

// TestWiden checks each implementation against the generic one on every
// text, for every dst size around the room a step needs: the same output
// for a prefix of whole blocks, all of the generic one's for the AVX-512
// kernel, and for the AVX2 kernel all of what it makes of the blocks
// without 4-byte sequences; and the output is the UTF-16 of that prefix.
func TestWiden(t *testing.T) {
	for _, s := range append(texts(), surrogates8()...) {
		src := []byte(s)
		for _, room := range []int{0, 63, 64, 65, 127, 128, 129, 3 * len(src)} {
			for i, im := range impls {
				if !im.Supported() {
					continue
				}
				dst := make([]byte, room)
				nd, ns := im.widen(dst, src)
				want := make([]byte, room)
				wnd, wns := widenGeneric(want, src)
				if nd != wnd || ns != wns || !bytes.Equal(dst[:nd], want[:wnd]) {
					t.Fatalf("%s room %d (%q): %d, %d; generic %d, %d", im.Name, room, s, nd, ns, wnd, wns)
				}
				if room == 3*len(src) && (i == 0 || !strings.ContainsFunc(s, func(r rune) bool { return r > 0xFFFF })) && ns+WidenBlock+2+4 <= len(src) {
					t.Fatalf("%s (%q): stopped at %d, a block or more before the end", im.Name, s, ns)
				}
				if !utf8.ValidString(s) {
					continue
				}
				var units []uint16
				for i := 0; i+1 < nd; i += 2 {
					units = append(units, binary.LittleEndian.Uint16(dst[i:]))
				}
				if got, want := string(utf16.Decode(units)), s[:ns]; got != want {
					t.Fatalf("%s: Widen(%q) gives %q", im.Name, want, got)
				}
			}
		}
	}
}

// stops are the stop ranges of TestNarrow: none, OPTU8's, and ranges of
// units below 80, 800 and 10000, ranges that wrap around 1<<32, and
// ranges that hold no unit or every one.
var stops = [][2]uint32{{0, 0}, {0xEF80, 0x80}, {0xEF00, 0x100},
	{0x61, 1}, {0x3B0, 0x20}, {0x65E5, 1}, {0xFFF0, 0x20}, {0xFFFFFFF0, 0x72}, {0xFFFFFF00, 0x100},
	{0x10000, 5}, {0, 0xFFFFFFFF}, {0xEF80, 0xFFFFFFFF}, {0xD83D, 1}, {0xDE00, 1}, {0xDC00, 0x400}}

// TestNarrow is TestWiden for Narrow, with lone surrogates and the
// stop range of OPTU8 at every offset, and other stop ranges.
func TestNarrow(t *testing.T) {
	var inputs [][]byte
	for _, s := range texts() {
		inputs = append(inputs, le(utf16.Encode([]rune(s))))
	}
	base := utf16.Encode([]rune(strings.Repeat("añ日b", 30)))
	for i := range base {
		for _, u := range []uint16{0xD800, 0xDC00, 0xDFFF, 0xEF80, 0xEFFF, 0xEF00, 0xEF7F} {
			v := slices.Clone(base)
			v[i] = u
			inputs = append(inputs, le(v))
		}
	}
	// ASCII and surrogate pairs, which the NEON kernel takes two blocks
	// at a time, from every unit on, and with a lone surrogate, a unit
	// of 2 or 3 bytes or one in OPTU8's stop range at every offset (with
	// -short, a lone high one and ASCII, which leaves a lone low one).
	emoji := utf16.Encode([]rune(strings.Repeat("😀a😁 \U0010FFFF\U00010000bc", 6)))
	bad := []uint16{0xD800, 'x', 0xDC00, 0xE9, 0xEF80}
	if testing.Short() {
		bad = bad[:2]
	}
	for i := range emoji {
		inputs = append(inputs, le(emoji[i:]))
		for _, u := range bad {
			v := slices.Clone(emoji)
			v[i] = u
			inputs = append(inputs, le(v))
		}
	}
	for _, src := range inputs {
		for si, stop := range stops {
			rooms := []int{0, 63, 64, 65, 200, 2 * len(src)}
			if si < 3 && bytes.Contains(src, []byte{0xD8}) {
				// Every room around a block's output, where a pair
				// across blocks counts whole.
				for r := 66; r < 3*Room; r++ {
					rooms = append(rooms, r)
				}
			}
			for _, room := range rooms {
				for _, im := range impls {
					if !im.Supported() {
						continue
					}
					dst := make([]byte, room)
					nd, ns := im.narrow(dst, src, stop[0], stop[1])
					want := make([]byte, room)
					wnd, wns := narrowGeneric(want, src, stop[0], stop[1])
					if nd != wnd || ns != wns || !bytes.Equal(dst[:nd], want[:wnd]) {
						t.Fatalf("%s room %d stop %x (% X): %d, %d; generic %d, %d", im.Name, room, stop, src, nd, ns, wnd, wns)
					}
					var units []uint16
					for i := 0; i+1 < ns; i += 2 {
						units = append(units, binary.LittleEndian.Uint16(src[i:]))
					}
					if got, want := string(dst[:nd]), string(utf16.Decode(units)); got != want {
						t.Fatalf("%s: Narrow(% X) gives %q; want %q", im.Name, src[:ns], got, want)
					}
				}
			}
		}
	}
}

func le(units []uint16) []byte {
	var b []byte
	for _, u := range units {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

// TestImplsRun fails when the CPU has a feature whose kernel is not in
// the list, so that a kernel that silently stopped running is noticed.
func TestImplsRun(t *testing.T) {
	names := ImplNames()
	if names[0] != "generic" {
		t.Fatalf("ImplNames() = %v; want generic first", names)
	}
	if runtime.GOARCH == "amd64" && !slices.Contains(names, "avx2") && hasAVX2() {
		t.Errorf("AVX2 present but its kernel is not listed: %v", names)
	}
}

// FuzzWiden checks the kernels against the generic code on inputs made
// valid from the fuzzer's bytes, and WidenValid on the bytes as they are.
func FuzzWiden(f *testing.F) {
	for _, s := range texts()[:40] {
		f.Add([]byte(s), uint8(64))
	}
	f.Add([]byte("\U0001F600 \U0010FFFF\xF4\x90\x80\x80"), uint8(200))
	f.Fuzz(func(t *testing.T, in []byte, room uint8) {
		// WidenValid on the bytes as they are, repeated to a few steps.
		long := bytes.Repeat(in, 1+300/(len(in)+1))
		for _, bmp := range widenValidBMPs() {
			restore := setWidenValidBMP(bmp)
			checkWidenValid(t, long, 4*int(room)+Room, widenValidStep())
			restore()
		}
		src := []byte(strings.ToValidUTF8(string(in), "\uFFFD"))
		for _, im := range impls {
			if !im.Supported() {
				continue
			}
			dst := make([]byte, int(room)*2)
			nd, ns := im.widen(dst, src)
			want := make([]byte, len(dst))
			wnd, wns := widenGeneric(want, src)
			if nd != wnd || ns != wns || !bytes.Equal(dst[:nd], want[:wnd]) {
				t.Fatalf("%s (%q): %d, %d; generic %d, %d", im.Name, src, nd, ns, wnd, wns)
			}
			u := le(utf16.Encode([]rune(string(src))))
			dst = make([]byte, int(room)*2)
			nd, ns = im.narrow(dst, u, 0xEF80, 0x80)
			wnd, wns = narrowGeneric(want, u, 0xEF80, 0x80)
			if nd != wnd || ns != wns || !bytes.Equal(dst[:nd], want[:wnd]) {
				t.Fatalf("%s narrow (% X): %d, %d; generic %d, %d", im.Name, u, nd, ns, wnd, wns)
			}
		}
	})
}

// TestKernels fails where the CPU advertises an instruction set whose
// kernels cannot run here, rather than letting the tests that loop over
// ImplNames skip them without a word, and logs which kernels run.
func TestKernels(t *testing.T) {
	summary, err := kernels.Check()
	if err != nil {
		t.Fatal(err)
	}
	t.Log(summary)
}

// TestRoom checks each implementation against the reference for every
// dst size up to 5 blocks' room, on texts of each kind, so that each
// kernel meets the end of dst at each block and after each kind of
// block.
func TestRoom(t *testing.T) {
	all := texts()
	for i := 0; i < len(all); i += 7 {
		src := []byte(all[i])
		wide := le(utf16.Encode([]rune(all[i])))
		for room := 0; room <= 5*Room; room++ {
			checkWiden(t, src, room)
			checkNarrow(t, wide, room, 0xEF80, 0x80)
		}
	}
}

// checkNarrow fails t where an implementation's Narrow of src into room
// bytes of dst, with the stop range of stopN units from stopLo, differs
// from the reference's.
func checkNarrow(t *testing.T, src []byte, room int, stopLo, stopN uint32) {
	t.Helper()
	for _, im := range impls {
		if !im.Supported() {
			continue
		}
		dst, want := make([]byte, room), make([]byte, room)
		nd, ns := im.narrow(dst, src, stopLo, stopN)
		wnd, wns := narrowGeneric(want, src, stopLo, stopN)
		if nd != wnd || ns != wns || !bytes.Equal(dst[:nd], want[:wnd]) {
			t.Fatalf("%s room %d stop %x+%x (% X): %d, %d; generic %d, %d", im.Name, room, stopLo, stopN, src, nd, ns, wnd, wns)
		}
	}
}

// checkWiden fails t where an implementation's Widen of src into room
// bytes of dst differs from the reference's.
func checkWiden(t *testing.T, src []byte, room int) {
	t.Helper()
	for _, im := range impls {
		if !im.Supported() {
			continue
		}
		dst, want := make([]byte, room), make([]byte, room)
		nd, ns := im.widen(dst, src)
		wnd, wns := widenGeneric(want, src)
		if nd != wnd || ns != wns || !bytes.Equal(dst[:nd], want[:wnd]) {
			t.Fatalf("%s room %d (%q): %d, %d; generic %d, %d", im.Name, room, src, nd, ns, wnd, wns)
		}
	}
}

// TestWidenFourThenASCII checks each implementation against the
// reference on text of ASCII and 4-byte characters, then ASCII alone
// (after a 2- or 3-byte character or none), at every offset and for
// every dst size up to 5 blocks' room, so that a kernel that stops
// after a block whose last byte leads 4 bytes, before one without any,
// is caught leaving out its low surrogate, and one that leaves a path
// for those characters is caught if it does not restore what the next
// blocks need.
func TestWidenFourThenASCII(t *testing.T) {
	four := strings.Repeat("\U0001F4A9a\U0002A6D6 \U00010437", 6)
	for i := range 3 * 16 {
		pad, mid := i%16, []string{"", "é", "日"}[i/16]
		src := []byte(strings.Repeat("b", pad) + four + mid + strings.Repeat("c", 100))
		for room := 0; room <= 5*Room; room++ {
			checkWiden(t, src, room)
		}
	}
}

// TestWidenFour checks each implementation against the reference on text
// of ASCII and 4-byte characters, which the NEON kernel takes 64 bytes a
// step, for dst sizes that end in each of its first blocks and its last
// ones: after an ASCII run of every length up to a step, so that a 4-byte
// character starts in every lane of a step and across every block edge;
// with a character of 2 or 3 bytes put in at every character of it, and
// with one in the byte before such text starts, after a block of 4-byte
// characters (with -short, fewer dst sizes).
func TestWidenFour(t *testing.T) {
	four := strings.Repeat("\U0001F4A9a\U0002A6D6 \U00010437\U0001F600\U0010FFFF.\U00010000", 5)
	var srcs []string
	for pad := range 64 {
		srcs = append(srcs, strings.Repeat("b", pad)+four)
	}
	for i := 0; i <= len(four); i++ {
		if i < len(four) && !utf8.RuneStart(four[i]) {
			continue
		}
		for _, mid := range []string{"é", "\u07FF", "日", "\uFFFF"} {
			srcs = append(srcs, four[:i]+mid+four[i:])
		}
	}
	for pad := range 40 {
		for _, mid := range []string{"é", "日"} {
			srcs = append(srcs, "\U0001F600"+strings.Repeat("b", pad)+mid+four)
		}
	}
	step := 1
	if testing.Short() {
		step = 5
	}
	for k, s := range srcs {
		src := []byte(s)
		end, _ := widenGeneric(make([]byte, 3*len(src)), src)
		rooms := []int{3 * len(src)}
		for r := (k % step); r <= 3*Room; r += step {
			rooms = append(rooms, r, end-r)
		}
		for _, room := range rooms {
			if room < 0 {
				continue
			}
			checkWiden(t, src, room)
		}
	}
}

// TestWidenMixedBlocks checks each implementation against the reference
// on blocks of ASCII with 3-byte characters and of ASCII with 4-byte ones,
// which the kernels take on paths of their own, with every character at
// every lane and across every block edge (each text after 0 to 63 bytes of
// ASCII), and for every dst size up to 5 blocks' room, so that dst ends
// inside such blocks too; and on 4-byte characters followed by 3-byte
// ones, and 3-byte ones followed by 4-byte ones, where a block of one kind
// follows one whose last lane leads a 4-byte character.
func TestWidenMixedBlocks(t *testing.T) {
	kinds := []string{
		strings.Repeat("日本 語a\n\uFFFF.", 8),
		strings.Repeat("\U0001F4A9a\U0002A6D6 \U00010437\U0010FFFF, \U00010000", 6),
		strings.Repeat("\U0001F600日本語 a\U0001F601\U0001F602本", 6),
		strings.Repeat("本 \U0001F600", 12) + strings.Repeat("x日", 20),
		strings.Repeat("\U0001F600 ", 12) + strings.Repeat("日 ", 20) + strings.Repeat("\U0001F600.", 8),
	}
	for _, kind := range kinds {
		for pad := range 64 {
			src := []byte(strings.Repeat("b", pad) + kind + strings.Repeat("c", 40))
			for room := 0; room <= 5*Room; room++ {
				if testing.Short() && room > 2*Room && room%7 != 0 {
					continue
				}
				checkWiden(t, src, room)
			}
			// All of it, from each character on.
			for i := range src {
				if !utf8.RuneStart(src[i]) {
					continue
				}
				checkWiden(t, src[i:], 3*len(src[i:]))
			}
		}
	}
}
