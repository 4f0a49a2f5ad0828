package main

import (
	"bytes"
	"fmt"

	"github.com/utf8stream/utf8stream"
)

// A tracker turns stream offsets into line and column numbers. It sees the
// input one chunk at a time, in order, and answers for offsets in the
// current chunk, or just before it in bytes that hold no newline (the
// unfinished sequence a Writer carries over from the previous chunk).
// Queries must come in stream order.
type tracker struct {
	chunk []byte // the current chunk
	base  int64  // stream offset of chunk[0]
	pos   int64  // newlines before this offset are counted
	line  int64  // 1-based number of the line that holds pos
	start int64  // stream offset of the first byte of that line
	size  int64  // length of the whole input, or -1 while it is unknown
}

func newTracker() *tracker { return &tracker{line: 1, size: -1} }

// feed makes p, which starts at stream offset base, the current chunk.
// Everything before base has been fed and counted: the caller calls count
// with the end of each chunk before it reuses the chunk's memory.
func (t *tracker) feed(p []byte, base int64) {
	t.chunk, t.base = p, base
}

// end records that the input ends at offset size.
func (t *tracker) end(size int64) { t.size = size }

// count counts the newlines of the current chunk before offset off, which
// must not lie beyond the chunk.
func (t *tracker) count(off int64) {
	if off <= t.pos {
		return
	}
	lo := max(t.pos-t.base, 0)
	hi := min(off-t.base, int64(len(t.chunk)))
	if lo < hi {
		seg := t.chunk[lo:hi]
		if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
			t.line += int64(n)
			t.start = t.base + lo + int64(bytes.LastIndexByte(seg, '\n')) + 1
		}
	}
	t.pos = off
}

// at returns the 1-based line and byte column of offset off.
func (t *tracker) at(off int64) (line, col int64) {
	t.count(off)
	return t.line, off - t.start + 1
}

// Values of next besides a byte.
const (
	endOfInput = -1 // the subpart ends the input
	unknown    = -2 // the byte is not in the current chunk
)

// next returns the byte at offset off, endOfInput if the input ends there,
// or unknown.
func (t *tracker) next(off int64) int {
	if i := off - t.base; i >= 0 && i < int64(len(t.chunk)) {
		return int(t.chunk[i])
	}
	if off == t.size {
		return endOfInput
	}
	return unknown
}

// where returns the position of e and the byte that follows it, the
// arguments of formatError.
func (t *tracker) where(e *utf8stream.Error) (line, col int64, next int) {
	line, col = t.at(e.Offset)
	return line, col, t.next(e.Offset + int64(len(e.Bytes)))
}

// formatError returns the report of e, in the manner of compiler messages:
// "NAME:LINE:COL: offset N: ill-formed bytes E1 A0: REASON".
func formatError(name string, line, col int64, e *utf8stream.Error, next int) string {
	return fmt.Sprintf("%s:%d:%d: offset %d: ill-formed bytes % X: %s", name, line, col, e.Offset, e.Bytes, describe(e, next))
}

// describe says why the subpart e is ill-formed. It refines e.Reason with
// what the command sees and the library does not: the byte after the
// subpart, which tells a surrogate or an overlong form from a sequence cut
// short, and whether the input ends there. next is that byte, endOfInput or
// unknown.
func describe(e *utf8stream.Error, next int) string {
	b := e.Bytes
	if len(b) == 0 || len(b) > 3 {
		// Empty, or a character above U+FFFF under -bmp-only.
		return e.Reason()
	}
	lead := b[0] >= 0xC2 && b[0] <= 0xF4
	if next == endOfInput && lead {
		return "truncated sequence at end of input"
	}
	if next < 0 || !lead {
		return e.Reason()
	}
	if len(b) > 1 {
		// The maximal subpart of a lead byte and its continuation bytes
		// stops at a byte that does not continue it.
		return fmt.Sprintf("% X must be followed by 80..BF", b)
	}
	if next&0xC0 == 0x80 {
		// A continuation byte outside the lead byte's accept range.
		switch b[0] {
		case 0xE0:
			return "overlong encoding (E0 must be followed by A0..BF)"
		case 0xED:
			return "surrogate U+D800..U+DFFF (ED must be followed by 80..9F)"
		case 0xF0:
			return "overlong encoding (F0 must be followed by 90..BF)"
		case 0xF4:
			return "above U+10FFFF (F4 must be followed by 80..8F)"
		}
	}
	return e.Reason()
}
