package utf8stream

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	utf16k "github.com/utf8stream/utf8stream/internal/utf16"
)

// TestWideBigEndianWindows checks the UTF-16BE decoder, which runs the
// kernel on windows of swapped input, against the UTF-16LE decoder on the
// same units, on inputs several windows long with pairs, lone surrogates
// and other units at and around every window's end.
func TestWideBigEndianWindows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	units := []uint16{'a', '\n', 0xE9, 0x65E5, 0xD83D, 0xDE00, 0xDC80, 0xFFFF, 0xEF80}
	for _, impl := range utf16k.ImplNames() {
		t.Run("impl="+impl, func(t *testing.T) {
			defer utf16k.SetImpl(impl)()
			trials := 40
			if testing.Short() {
				trials = 6
			}
			for trial := range trials {
				n := 3*narrowWindow/2 + r.IntN(narrowWindow)
				// Near the ends of the windows of a call that starts at
				// 0 (the first of narrowFirst bytes, then of
				// narrowWindow), or at a multiple of narrowWindow.
				nearEnd := func(off int) bool {
					return off%narrowWindow >= narrowWindow-80 ||
						(off+narrowWindow-narrowFirst)%narrowWindow >= narrowWindow-80
				}
				le := make([]byte, 0, 2*n)
				for i := 0; i < n; i++ {
					u := uint16('a' + i%26)
					// Rare units in runs of text, denser near the
					// windows' ends.
					if r.IntN(40) == 0 || nearEnd(2*i) && r.IntN(3) == 0 {
						u = units[r.IntN(len(units))]
					}
					if trial%2 == 0 && r.IntN(8) == 0 {
						// A pair.
						le = append(le, 0x3D, 0xD8, 0x00, 0xDE)
						i++
						continue
					}
					le = append(le, byte(u), byte(u>>8))
				}
				if trial%3 == 0 {
					le = append(le, 0x41) // an odd last byte
				}
				be := bytes.Clone(le)
				utf16k.Swap(be, be)
				for _, p := range allPolicies {
					if p == BackslashReplace {
						continue // it writes the unit's bytes in their order
					}
					want, werr := transformOnce(UTF16(LittleEndian, p).NewDecoder().Transformer, le)
					dec := UTF16(BigEndian, p).NewDecoder().Transformer
					got, gerr := transformOnce(dec, be)
					if !bytes.Equal(got, want) || !sameOffset(gerr, werr) {
						t.Fatalf("trial %d %v: UTF-16BE decoder gives %d bytes, %v; the UTF-16LE one %d bytes, %v", trial, p, len(got), gerr, len(want), werr)
					}
					for _, size := range [][2]int{{100, 4096}, {4096, 1000}, {5000, 9000}} {
						dec.Reset()
						small, serr := transformSmall(t, dec, be, size[0], size[1])
						if !bytes.Equal(small, want) || !sameOffset(serr, werr) {
							t.Fatalf("trial %d %v: UTF-16BE decoder with dst %d, src +%d: %d bytes, %v; want %d bytes, %v", trial, p, size[0], size[1], len(small), serr, len(want), werr)
						}
					}
					// The encoder: its UTF-16BE output is its UTF-16LE
					// output swapped.
					if werr == nil {
						wantLE, _ := transformOnce(UTF16(LittleEndian, p).NewEncoder().Transformer, want)
						gotBE, err := transformOnce(UTF16(BigEndian, p).NewEncoder().Transformer, want)
						utf16k.Swap(wantLE, wantLE)
						if err != nil || !bytes.Equal(gotBE, wantLE) {
							t.Fatalf("trial %d %v: UTF-16BE encoder differs from the UTF-16LE one swapped: %v", trial, p, err)
						}
					}
				}
			}
		})
	}
}

// sameOffset reports whether a and b are both nil, or both an *Error at
// the same offset (their messages name the byte order).
func sameOffset(a, b error) bool {
	var ea, eb *Error
	if !errors.As(a, &ea) || !errors.As(b, &eb) {
		return a == nil && b == nil
	}
	return ea.Offset == eb.Offset
}

// TestWide32Pairs checks the UTF-32 encoder and decoder on text with
// characters above U+FFFF among others, which they take through UTF-16
// eight and four units at a time, with pairs at every place in those
// groups: against x/text's UTF-32, and, for the decoder, in a few kernel
// calls per window, which a pair written wrongly into the window (the
// kernel stops at it, and the loop goes on in Go) would make many.
func TestWide32Pairs(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pool := []rune{'a', ' ', 0xE9, 0x65E5, 0xFFFF, 0x10000, 0x1F600, 0x1F30D, 0x10FFFF}
	for _, impl := range utf16k.ImplNames() {
		t.Run("impl="+impl, func(t *testing.T) {
			defer utf16k.SetImpl(impl)()
			for trial := range 20 {
				var text []byte
				for len(text) < 16<<10 {
					// Runs of one kind, of every length up to 9.
					c := pool[r.IntN(len(pool))]
					for range 1 + r.IntN(9) {
						text = utf8.AppendRune(text, c)
					}
				}
				for _, f := range []form{formUTF32LE, formUTF32BE} {
					want, err := xtextEncoding(f).NewEncoder().Bytes(text)
					if err != nil {
						t.Fatal(err)
					}
					got, err := transformOnce(wideEncodingOf(f, Reject).NewEncoder().Transformer, text)
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("trial %d %v: encoder differs from x/text's at byte %d: %v", trial, f, firstDiff(got, want), err)
					}
					var back []byte
					calls := countKernelCalls(func() {
						back, err = transformOnce(wideEncodingOf(f, Reject).NewDecoder().Transformer, want)
					})
					if err != nil || !bytes.Equal(back, text) {
						t.Fatalf("trial %d %v: decoder does not give the text back (byte %d): %v", trial, f, firstDiff(back, text), err)
					}
					// A window holds 2*wideViaWindow bytes of UTF-16,
					// a unit of UTF-32 at most 4 of them.
					if limit := len(want)/(2*wideViaWindow) + 4; impl != "generic" && (calls == 0 || calls > limit) {
						t.Errorf("trial %d %v: %d kernel calls for %d bytes; want 1 to %d", trial, f, calls, len(want), limit)
					}
				}
			}
		})
	}
}
