package utf16

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestNarrowRuns checks each implementation against the reference on
// runs that the AVX2 kernel takes several blocks at a time: ASCII runs of
// every length around 4 blocks with a unit of 2 bytes, a pair of
// surrogates or a unit in a stop range at each offset; and runs of pairs
// and ASCII with a lone surrogate, a unit of 2 or 3 bytes, or a run of
// ASCII at each offset, from each of the first units on.
func TestNarrowRuns(t *testing.T) {
	var inputs [][]uint16
	lengths := []int{63, 64, 65, 127, 128, 129, 130, 191, 192, 193, 255, 256, 257}
	if !testing.Short() {
		lengths = lengths[:0]
		for n := 56; n <= 264; n++ {
			lengths = append(lengths, n)
		}
	}
	for _, n := range lengths {
		ascii := utf16.Encode([]rune(strings.Repeat("abcdefgh", 40)[:n]))
		for i := 0; i <= n; i++ {
			for _, in := range [][]uint16{{0xE9}, {0xD83D, 0xDE00}, {0xEF80}, {'a'}} {
				inputs = append(inputs, slices.Concat(ascii[:i], in, ascii[i:], ascii))
			}
		}
	}
	pairs := utf16.Encode([]rune(strings.Repeat("😀😁🙏 \U0010FFFF\U00010000. 🌀🌍🍕🎉,\n", 6)))
	only := utf16.Encode([]rune(strings.Repeat("😀\U0010FFFF\U00010000🍕", 20)))
	asciiRun := utf16.Encode([]rune(strings.Repeat("x", 40)))
	for _, base := range [][]uint16{pairs, only} {
		for i := range base {
			inputs = append(inputs, base[i:])
			for _, in := range [][]uint16{{0xD800}, {0xDBFF}, {0xDC00}, {0xDFFF}, {0xE9}, {0x65E5}, {0xDBFF, 0xDBFF}, asciiRun} {
				v := slices.Concat(base[:i], in, base[i:])
				inputs = append(inputs, v)
				if len(in) == 1 {
					v = slices.Clone(base)
					v[i] = in[0]
					inputs = append(inputs, v)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(37, 16))
	for _, units := range inputs {
		src := le(units)
		rooms := []int{64, 65, 111, 112, 113, 128, 176, 177, 2 * len(src)}
		for si, stop := range [][2]uint32{{0, 0}, {0xEF80, 0x80}, {0x61, 1}, {0xDC00, 0x400}} {
			rs := rooms
			if si > 0 {
				rs = rooms[rng.IntN(len(rooms)):][:1]
			}
			for _, room := range rs {
				checkNarrow(t, src, room, stop[0], stop[1])
			}
		}
	}
}

// FuzzNarrow checks the kernels against the reference on UTF-16 made of
// the fuzzer's bytes, two to a unit: the first picks what the unit is
// (ASCII most often, then high and low surrogates, which make pairs
// and lone ones, and units of 2 and 3 bytes and of OPTU8's stop range),
// the second varies it; and the stop range is one of TestNarrow's.
func FuzzNarrow(f *testing.F) {
	f.Add([]byte("a\x00b\x00\x80\x01\x90\x02a\x00\x80\x03\x90\x04"), uint8(0), uint8(64))
	f.Add([]byte(strings.Repeat("\x80\x01\x90\x02 \x00", 30)), uint8(1), uint8(200))
	f.Fuzz(func(t *testing.T, in []byte, stop, room uint8) {
		var units []uint16
		for i := 0; i+1 < len(in); i += 2 {
			k, v := in[i], uint16(in[i+1])
			switch {
			case k < 0x80:
				units = append(units, uint16(k))
			case k < 0x90:
				units = append(units, 0xD800|v<<2|uint16(k&3))
			case k < 0xA0:
				units = append(units, 0xDC00|v<<2|uint16(k&3))
			case k < 0xB0:
				units = append(units, 0x80|v<<3&0x780|uint16(k&0x7F))
			case k < 0xC0:
				units = append(units, 0xEF00|v)
			default:
				units = append(units, uint16(k)<<8|v)
			}
		}
		src := le(units)
		st := stops[int(stop)%len(stops)]
		checkNarrow(t, src, int(room)*2, st[0], st[1])
	})
}
