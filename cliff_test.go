package utf8stream

import (
	"bytes"
	"io"
	"testing"

	"golang.org/x/text/transform"
)

// TestCliff checks that input with no valid byte at all goes to the block
// repairer from its first bytes, as the same input after one valid byte
// does, under every policy that repairs, on every implementation, whole
// and in pieces. It counts the units that take the general path one at a
// time: a few at the end of each piece or buffer, with or without the
// valid byte, where a cliff takes every unit there. (On 1-byte pieces every
// unit does: BenchmarkCliffStream measures them.)
func TestCliff(t *testing.T) {
	size := 1 << 20
	if testing.Short() {
		size = 1 << 18
		if sampled {
			size = 1 << 15 // a sample: see sampled
		}
	}
	dst := make([]byte, 4*size+64)
	modes := []struct {
		desc string
		run  func(p Policy, src []byte) error
	}{
		{"Transform", func(p Policy, src []byte) error {
			_, _, err := NewTransformer(p).Transform(dst, src, true)
			return err
		}},
		{"Transform on 4 KiB pieces", func(p Policy, src []byte) error {
			return transformPieces(NewTransformer(p), dst, src, 4<<10)
		}},
		{"Reader", func(p Policy, src []byte) error {
			_, err := io.Copy(io.Discard, NewReader(bytes.NewReader(src), p))
			return err
		}},
		{"Writer", func(p Policy, src []byte) error {
			w := NewWriter(io.Discard, p)
			w.Write(src)
			return w.Close()
		}},
	}
	for _, name := range implNames() {
		restore := setImpl(name)
		for _, u := range cliffUnits {
			for _, p := range benchPolicies[1:] {
				for _, m := range modes {
					var steps [2]int
					for i, l := range cliffLeads {
						src := cliffInput(u.unit, l.lead, size)
						var err error
						steps[i] = countSteps(func() { err = m.run(p, src) })
						if err != nil {
							t.Fatalf("impl=%s/input=%s/policy=%v/lead=%s: %s: %v", name, u.name, p, l.name, m.desc, err)
						}
					}
					if steps[0] > 2*steps[1]+8 || steps[1] > size/256 {
						t.Errorf("impl=%s/input=%s/policy=%v: %s: %d and %d units took the general path without and with a valid byte in front; want at most twice as many and 8 without, and at most %d with",
							name, u.name, p, m.desc, steps[0], steps[1], size/256)
					}
				}
			}
		}
		restore()
	}
}

// transformPieces runs t over src in pieces of the given size, presenting
// an unfinished sequence again with the next piece.
func transformPieces(t *Transformer, dst, src []byte, piece int) error {
	for off := 0; off < len(src); {
		end := min(off+piece, len(src))
		_, n, err := t.Transform(dst, src[off:end], end == len(src))
		for n == 0 && err == transform.ErrShortSrc && end < len(src) {
			end = min(end+piece, len(src))
			_, n, err = t.Transform(dst, src[off:end], end == len(src))
		}
		if err != nil && err != transform.ErrShortSrc {
			return err
		}
		if n == 0 {
			return io.ErrNoProgress
		}
		off += n
	}
	return nil
}
