package main

import (
	"fmt"

	"github.com/utf8stream/utf8stream"
	"github.com/utf8stream/utf8stream/internal/reason"
)

// A tracker tells the byte after an ill-formed subpart, which the reports
// name, from the chunk of input that holds it. It sees the input one chunk
// at a time, in order. The line and column of a subpart come from the
// library (utf8stream.Lines), which counts them as the reports say.
type tracker struct {
	chunk []byte // the current chunk
	base  int64  // stream offset of chunk[0]
	size  int64  // length of the whole input, or -1 while it is unknown
}

func newTracker() *tracker { return &tracker{size: -1} }

// feed makes p, which starts at stream offset base, the current chunk.
func (t *tracker) feed(p []byte, base int64) {
	t.chunk, t.base = p, base
}

// end records that the input ends at offset size.
func (t *tracker) end(size int64) { t.size = size }

// Values of next besides a byte.
const (
	endOfInput = reason.End     // the subpart ends the input
	unknown    = reason.Unknown // the byte is not in the current chunk
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

// where returns the position of e, which the library counted with
// utf8stream.Lines, and the byte that follows it: the arguments of
// formatError.
func (t *tracker) where(e *utf8stream.Error) (line, col int64, next int) {
	return e.Line, e.Column, t.next(e.Offset + int64(len(e.Bytes)))
}

// formatError returns the report of e, in the manner of compiler messages:
// "NAME:LINE:COL: offset N: ill-formed bytes E1 A0: REASON".
func formatError(name string, line, col int64, e *utf8stream.Error, next int) string {
	return fmt.Sprintf("%s:%d:%d: offset %d: ill-formed bytes % X: %s", name, line, col, e.Offset, e.Bytes, describe(e, next))
}

// describe says why the subpart e is ill-formed, in the library's words
// (see [utf8stream.Error.Reason]), told apart by what the command sees and
// the library does not: the byte after the subpart, which tells a surrogate
// or an overlong form from a sequence cut short, and whether the input ends
// there. next is that byte, endOfInput or unknown.
func describe(e *utf8stream.Error, next int) string {
	return reason.Of(e.Bytes, next)
}
