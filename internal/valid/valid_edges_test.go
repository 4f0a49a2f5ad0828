package valid

import "testing"

// TestValidPrefixLaterEdges is TestValidPrefixBlockEdges at the edges of
// the later blocks: the kernels check the first block apart from the
// rest, then two blocks of 64 bytes an iteration (NEON) or one (AVX-512),
// and skip ASCII 128 or 256 bytes at a time. Each sequence goes within 4
// bytes of each multiple of 16 from 128 to 400 (of 64 with -short), in
// text that runs on to 600 bytes.
func TestValidPrefixLaterEdges(t *testing.T) {
	step, offStep := 16, 1
	if testing.Short() {
		step = 64
		if raceEnabled {
			offStep = 2 // a sample: see raceEnabled
		}
	}
	seqs := append(append([]string{}, badSeqs...), goodSeqs...)
	for _, filler := range fillers {
		long := filler
		for len(long) < 1200 {
			long += filler
		}
		for _, seq := range seqs {
			for edge := 128; edge <= 400; edge += step {
				for off := edge - 4; off <= edge+4; off += offStep {
					head := cutAt(long, off)
					checkValidPrefix(t, []byte(head+seq+cutAt(long[len(head):], 600-len(head))))
				}
			}
		}
	}
}
