package utf8stream

import (
	"bytes"
	"errors"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream/internal/repair"
	"github.com/utf8stream/utf8stream/internal/valid"
	"golang.org/x/text/transform"
)

// spanChunk is how much Transform validates before it copies.
const spanChunk = 16 << 10

// Transformer applies a policy to a stream of bytes. It implements
// [transform.SpanningTransformer], so it works with [transform.NewReader],
// [transform.NewWriter], [transform.String] and [transform.Chain].
//
// With [Lines], a Transformer counts the newlines of the input it
// consumes, so that its *[Error] values carry a Line and Column.
//
// Transformer keeps no input: at the end of a chunk that stops inside a
// sequence it returns [transform.ErrShortSrc] with the 1 to 3 unfinished bytes
// (up to 5 of a surrogate pair under [CESU8] or [WTF8]) not consumed, as the
// Transformer contract asks, and the caller presents them again with more
// input. Its state is the stream offset, the [Stats] and
// whether a byte order mark is still to be stripped.
//
// A Transformer is not safe for concurrent use.
type Transformer struct {
	c core
	streamState
}

// streamState is the state of a Transformer that Reset clears: one store,
// which keeps Reset small enough to be inlined.
type streamState struct {
	off int64 // bytes consumed since the start of the stream
	// stats are the Stats, but for First, which holds no meaning while
	// Subparts is 0 (Stats reports -1 then), so that zero values start
	// a stream.
	stats Stats
	dense bool // the last valid run was short, so errors are dense: a hint for speed
	// inRun is set when valid input has been consumed since the last
	// ill-formed unit (or the start of the stream), so that a span of 0
	// bytes goes on a run rather than being one of its own.
	inRun bool
	// detected is the form that DetectBOM found a byte order mark of,
	// or formUTF8 before it found one; see inForm.
	detected form
	// broken is set while the OnInvalid function runs, and stays set if
	// it panics: the stream cannot go on.
	broken bool
}

// inForm returns the form of the rest of the input: the one DetectBOM
// found, or else the base form.
func (t *Transformer) inForm() form {
	if t.detected != formUTF8 {
		return t.detected
	}
	return t.c.o.base
}

// A lineCount counts the newlines of the input for [Lines], in the
// Transformer's own copy of its options. Between calls it has counted all
// the input consumed (upto is the stream offset); within a call of
// Transform, where the stream offset moves at the end, it counts up to
// each ill-formed subpart before the subpart is reported.
type lineCount struct {
	newlines int64 // newline bytes before upto
	start    int64 // stream offset of the byte after the last of them, or 0
	upto     int64
}

// errPanicked is what a Transformer, Reader or Writer returns from every
// call after a call of it panicked: the panic left the stream at a point
// that no count reported, so going on could lose or repeat bytes.
var errPanicked = errors.New("utf8stream: an earlier call panicked; the stream cannot go on until Reset")

// NewTransformer returns a Transformer that applies p to ill-formed input.
func NewTransformer(p Policy, opts ...Option) *Transformer {
	t := new(Transformer)
	t.init(p, opts)
	return t
}

// init sets up t in place, so that Reader and Writer, which hold a
// Transformer, need no allocation of their own for it.
func (t *Transformer) init(p Policy, opts []Option) {
	t.c.init(p, opts)
	t.Reset()
}

// Reset clears the stream offset, the line count of [Lines] and the
// [Stats], so that t can start a new stream. It also clears the error a
// panic of the [OnInvalid] function left.
func (t *Transformer) Reset() {
	if t.broken {
		t.mend()
	}
	t.streamState = streamState{}
	if t.c.o.lines {
		t.c.o.ln = lineCount{}
	}
}

// mend restores the paths that a panic of the OnInvalid function turned
// off. It is kept out of Reset, and never inlined into it, so that Reset
// inlines: a benchmark or server that resets a Transformer for each short
// input pays for the call otherwise.
//
//go:noinline
func (t *Transformer) mend() {
	t.c.setPaths()
}

// Offset returns how many bytes of the stream t has consumed.
func (t *Transformer) Offset() int64 { return t.off }

// Stats returns the counts of ill-formed input consumed so far.
func (t *Transformer) Stats() Stats {
	s := t.stats
	if s.Subparts == 0 {
		s.First = -1
	}
	return s
}

// Policy returns the policy t applies.
func (t *Transformer) Policy() Policy { return t.c.policy }

// Transform implements [transform.Transformer]. Under [Reject] it stops at
// the first ill-formed subpart with an *[Error], after writing every valid
// byte before it; the subpart is not consumed. dst and src must not
// overlap, and the bytes of dst after the nDst it returns are unspecified.
func (t *Transformer) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	if t.c.quick && !t.dense && len(dst) >= len(src) && len(src) <= spanChunk {
		// The first pass of the loop below for the common case, short
		// input that is mostly valid, with one call fewer for each
		// layer: at 64 bytes each costs as much as the kernel's work.
		// Without NoNUL, span is valid.Prefix, with BMPOnly
		// valid.PrefixBMP, or under OPTU8 and WTF8 spanStop. The kernel
		// is called from this frame where there is one (at 64 bytes
		// one frame on the way costs a tenth of the time).
		var ok bool
		if nSrc, ok = valid.QuickCopy(dst, src); !ok && t.c.plain {
			// Without an option: the same as below with every test
			// of one ruled out, which at 64 bytes is worth writing twice.
			if nSrc, ok = valid.KernelCopy(dst, src); !ok {
				nSrc = valid.CopyPrefix(dst, src)
			} else if nSrc < len(src) {
				nSrc = valid.CopyFinish(dst, src, nSrc)
			}
			if nSrc == len(src) {
				t.off += int64(nSrc)
				return nSrc, nSrc, nil
			}
		} else if !ok {
			switch {
			case t.c.ee:
				if nSrc, ok = valid.KernelCopyBeforeEE(dst, src); !ok {
					nSrc = valid.CopyPrefixBeforeEE(dst, src)
				} else if nSrc < len(src) {
					nSrc = valid.CopyFinishBeforeEE(dst, src, nSrc)
				}
			case t.c.bmp:
				if nSrc, ok = valid.KernelCopyBMP(dst, src); !ok {
					nSrc = valid.CopyPrefixBMP(dst, src)
				} else if nSrc < len(src) {
					nSrc = valid.CopyFinishBMP(dst, src, nSrc)
				}
			default:
				if nSrc, ok = valid.KernelCopy(dst, src); !ok {
					nSrc = valid.CopyPrefix(dst, src)
				} else if nSrc < len(src) {
					nSrc = valid.CopyFinish(dst, src, nSrc)
				}
			}
			// Where QuickCopy finds the answer, src[nSrc] starts no
			// sequence: neither of these can hold.
			if nSrc < len(src) && t.c.stop && (src[nSrc] == 0xEE || src[nSrc] == 0xED) {
				// spanStop's first pass, which it goes on from at an
				// EE that OPTU8 copies or a lone surrogate under WTF8.
				// (At any other byte it would stop at once: the first
				// pass ended at an ill-formed unit.)
				nSrc += t.c.spanStop(dst[nSrc:], src[nSrc:])
			}
			if nSrc == len(src) {
				// With the hint clear and nothing after the run,
				// noteRun has nothing to do.
				t.off += int64(nSrc)
				return nSrc, nSrc, nil
			}
		}
		nDst = nSrc
		t.noteRun(nSrc, len(src)-nSrc)
	} else {
		if t.broken {
			return 0, 0, errPanicked
		}
		if t.c.o.lines && t.c.plain && !t.dense && !t.c.o.stripBOM && t.c.o.base == formUTF8 && len(dst) >= len(src) && len(src) <= spanChunk {
			// The short path above, for Lines, which counts what it
			// copies in the same pass. The kernel is called from this
			// frame, as above.
			n, lines, end, last := valid.KernelCopyLines(dst, src)
			if n < 0 {
				n, lines, last = valid.CopyPrefixLines(dst, src)
			} else if n != len(src) || end != n || last < -1 {
				n, lines, last = valid.CopyLinesFinish(dst, src, n, lines, end, last)
			}
			if !t.countedHere(n, lines, last) {
				t.counted(src, 0, n, lines, last)
			}
			if nSrc = n; nSrc == len(src) {
				t.off += int64(nSrc)
				return nSrc, nSrc, nil
			}
			t.noteRun(nSrc, len(src)-nSrc)
			return t.transform(dst, src, atEOF, nSrc, nSrc)
		}
		skip, to, short := t.bomPrefix(src, atEOF)
		if short {
			return 0, 0, transform.ErrShortSrc
		}
		nSrc = skip
		if t.detected = to; to != formUTF8 {
			return t.transformWide(dst, src, atEOF, nSrc)
		}
	}
	return t.transform(dst, src, atEOF, nDst, nSrc)
}

// transform is Transform's loop, from nDst and nSrc on. It is a function
// of its own so that Transform's short path keeps a small frame.
func (t *Transformer) transform(dst, src []byte, atEOF bool, nDst, nSrc int) (_, _ int, err error) {
	for nSrc < len(src) {
		if t.c.o.lines {
			// The chunk before nSrc, while it is in cache.
			t.lineTo(src, t.off, nSrc)
		}
		// Where errors are dense and no more than Tail takes is left,
		// Tail takes it all in one pass: Blocks would take a block at
		// most, and a span would find a short run at most. Blocks takes
		// the stretches longer than that.
		k := len(src) - nSrc
		repairs := t.dense && t.canRepair()
		tail := repairs && k <= repair.TailMax && k >= repair.TailMin
		if repairs && k > repair.TailMax {
			var c repair.Counts
			nd, ns := t.c.tab.Blocks(dst[nDst:], src[nSrc:], t.recorder(src[nSrc:], nSrc), &c)
			t.count(nSrc, &c)
			nDst += nd
			nSrc += ns
			if nSrc == len(src) {
				break
			}
		}
		chunk := src[nSrc:min(len(src), nSrc+spanChunk)]
		if tail {
			// To Tail below.
		} else if !t.dense && len(dst)-nDst >= len(chunk) {
			// Validate and copy in one pass.
			var v int
			if t.c.o.lines && t.c.plain {
				v = t.copyLines(dst[nDst:], src[:nSrc+len(chunk)], nSrc)
			} else {
				v = t.c.copySpan(dst[nDst:], chunk)
			}
			t.noteRun(v, len(src)-nSrc-v)
			if v > 0 {
				nDst += v
				nSrc += v
				continue
			}
		} else {
			// Span at most spanChunk bytes at a time, so that the copy
			// below reads them from L1 rather than from memory again.
			// A short valid run between units says the errors are
			// dense: the block repairer takes the next stretch. A long
			// one says the kernel should.
			v := t.c.span(chunk, t.dense && !(atEOF && len(src)-nSrc <= denseLast))
			t.noteRun(v, len(src)-nSrc-v)
			if v > 0 {
				if room := len(dst) - nDst; v > room {
					// Copy what fits, up to the start of a sequence.
					v = room
					for v > 0 && src[nSrc+v]&0xC0 == 0x80 {
						v--
					}
					err = transform.ErrShortDst
				}
				copy(dst[nDst:], src[nSrc:nSrc+v])
				nDst += v
				nSrc += v
				if err != nil {
					break
				}
				continue
			}
		}
		if k := len(src) - nSrc; k <= repair.TailMax && k >= repair.TailMin && t.canRepair() {
			// The last few bytes of the input, from an ill-formed unit
			// on: one pass of the block loop costs less than a round
			// trip for each unit. Before the end of the stream, only
			// the units that more input cannot change.
			end := len(src)
			if !atEOF {
				end = nSrc + unitsEnd(src[nSrc:])
			}
			if t.c.o.lines {
				t.lineTo(src, t.off, nSrc)
			}
			var c repair.Counts
			nd, ns := t.c.tab.Tail(dst[nDst:], src[nSrc:end], t.recorder(src[nSrc:end], nSrc), &c)
			t.count(nSrc, &c)
			if ns > 0 {
				nDst += nd
				nSrc += ns
				continue
			}
		}
		if t.c.o.lines {
			t.lineTo(src, t.off, nSrc)
		}
		nd, ns, uerr := t.step(dst[nDst:], src[nSrc:], atEOF, nSrc)
		nDst += nd
		nSrc += ns
		if uerr != nil {
			err = uerr
			break
		}
	}
	t.advance(src, nSrc)
	return nDst, nSrc, err
}

// advance moves the stream offset over the first n bytes of src, the
// input from the stream offset on, and with Lines counts their newlines.
func (t *Transformer) advance(src []byte, n int) {
	if t.c.o.lines {
		t.lineTo(src, t.off, n)
	}
	t.off += int64(n)
}

// copyLines is copySpan(dst, src[pos:]) under Lines where the core is
// plain, which counts the newlines of the span in the same pass. src[0] is
// at stream offset t.off, and the newlines are counted up to src[pos].
func (t *Transformer) copyLines(dst, src []byte, pos int) int {
	n, lines, last := valid.CopyPrefixLines(dst, src[pos:])
	t.counted(src, pos, n, lines, last)
	return n
}

// counted records what valid.PrefixLines or valid.CopyPrefixLines found in
// the n bytes of src from pos on: lines newlines, the last at pos+last. If
// the bytes before were not counted up to pos (never so on the paths that
// call it), it counts them all again.
func (t *Transformer) counted(src []byte, pos, n, lines, last int) {
	base := t.off + int64(pos)
	if t.c.o.ln.upto != base {
		t.lineTo(src, t.off, pos+n)
		return
	}
	if lines > 0 {
		t.c.o.ln.newlines += int64(lines)
		t.c.o.ln.start = base + int64(last) + 1
	}
	t.c.o.ln.upto = base + int64(n)
}

// countedHere is counted for the n bytes from the stream offset on where
// the count has reached it, as on the short paths of Transform and Span,
// small enough to be inlined there; it reports false, and does nothing,
// where it has not.
func (t *Transformer) countedHere(n, lines, last int) bool {
	if t.c.o.ln.upto != t.off {
		return false
	}
	if lines > 0 {
		t.c.o.ln.newlines += int64(lines)
		t.c.o.ln.start = t.off + int64(last) + 1
	}
	t.c.o.ln.upto = t.off + int64(n)
	return true
}

// lineTo counts the newlines of src, whose first byte is at stream offset
// base, up to src[end], from the first byte not counted yet, which must not
// lie before base.
func (t *Transformer) lineTo(src []byte, base int64, end int) {
	lo := int(t.c.o.ln.upto - base)
	if end <= lo {
		return
	}
	if lo < 0 {
		// Bytes before base went uncounted, which no path does: count
		// from base rather than fail.
		lo = 0
	}
	if n, last := valid.CountLines(src[lo:end]); n > 0 {
		t.c.o.ln.newlines += int64(n)
		t.c.o.ln.start = t.c.o.ln.upto + int64(last) + 1
	}
	t.c.o.ln.upto = base + int64(end)
}

// position returns the Line and Column of an Error at stream offset off,
// up to which lineTo has counted; 0 and 0 without Lines.
func (t *Transformer) position(off int64) (line, col int64) {
	if !t.c.o.lines || t.inForm() != formUTF8 {
		return 0, 0 // Lines counts newline bytes of UTF-8 input only
	}
	return t.c.o.ln.newlines + 1, off - t.c.o.ln.start + 1
}

// enterDense is the valid run, between two ill-formed units, below which
// the next stretch goes to the block repairer, which sends it back to the
// validation kernel after a few blocks without an ill-formed byte.
// (Measured on 1% ill-formed text and on random bytes: BenchmarkTransform.)
const enterDense = 128

// noteRun updates the dense hint after a span found a valid run of n bytes
// with rest bytes of the input after it. A long run clears it. A short one
// sets it only when an ill-formed unit may have ended it: one that ends at
// the end of the input, or at an unfinished sequence there, says nothing
// about the errors, and a stream passed in short pieces must not look
// dense. A run of 0 bytes is short too, between two ill-formed units or
// before the first at the start of the stream (input with no valid byte
// at all); after valid bytes it is where the run before it ended.
func (t *Transformer) noteRun(n, rest int) {
	switch {
	case n >= enterDense:
		t.dense = false
	case rest < utf8.UTFMax:
	case n > 0 || !t.inRun:
		t.dense = true
	}
	if n > 0 {
		t.inRun = true
	}
}

// step handles the one unit at the start of src, where span stopped: it
// writes the unit's output to dst and returns how much it wrote and consumed.
// pos is src's position in the chunk, so t.off+pos is its stream offset.
func (t *Transformer) step(dst, src []byte, atEOF bool, pos int) (nDst, nSrc int, err error) {
	if stepHook != nil {
		stepHook()
	}
	n, k := t.c.unit(src, atEOF)
	switch k {
	case kShort:
		return 0, 0, transform.ErrShortSrc
	case kInvalid:
		if t.c.policy == Reject {
			e := &Error{Offset: t.off + int64(pos), Bytes: bytes.Clone(src[:n])}
			e.Line, e.Column = t.position(e.Offset)
			// The stream stops here; count its one error once, however
			// often the caller presents it again.
			if t.stats.Subparts == 0 {
				t.record(e.Offset, e.Bytes)
			}
			return 0, 0, e
		}
	}
	nd, ok := t.c.emit(dst, src[:n], k)
	if !ok {
		return 0, 0, transform.ErrShortDst
	}
	t.settle(src[:n], k, pos)
	return nd, n, nil
}

// settle counts the unit u of kind k, whose output is written, at
// position pos of the chunk.
func (t *Transformer) settle(u []byte, k kind, pos int) {
	switch k {
	case kInvalid:
		t.inRun = false
		t.record(t.off+int64(pos), u)
	case kEscape:
		t.stats.Escaped++
	}
}

// stepHook, when set, is called on each call of step and of wideUnit, and
// kernelHook on each call of a UTF-16 kernel by the decoders' loop. Only
// tests set them (export_test.go), to count the units that take the
// general path and the calls into the kernels.
var stepHook, kernelHook func()

// record counts the ill-formed subpart b at stream offset off and calls the
// OnInvalid function, if any, with a copy of b.
func (t *Transformer) record(off int64, b []byte) {
	if t.stats.Subparts == 0 {
		t.stats.First = off
	}
	t.stats.Subparts++
	t.stats.Bytes += int64(len(b))
	if t.c.o.onInvalid != nil {
		t.callback(off, b)
	}
}

// callback calls the OnInvalid function. Should it panic, t is left broken,
// with its fast paths off, so that every later call of Transform and Span
// returns errPanicked from the general path.
func (t *Transformer) callback(off int64, b []byte) {
	c := t.c
	t.broken, t.c.quick, t.c.plainSpan = true, false, false
	e := Error{Offset: off, Bytes: bytes.Clone(b), Form: t.enc()}
	e.Line, e.Column = t.position(off)
	t.c.o.onInvalid(e)
	t.broken, t.c.quick, t.c.plainSpan = false, c.quick, c.plainSpan
}

// canRepair reports whether the block repairer can serve t, looking up its
// table the first time.
func (t *Transformer) canRepair() bool {
	if t.c.tab == nil && !t.c.noTab {
		t.c.tab = tableFor(&t.c)
		t.c.noTab = t.c.tab == nil
	}
	return t.c.tab != nil
}

// recorder returns the function that records each ill-formed subpart
// that the block repairer finds in src, whose position in the chunk is
// pos, for an OnInvalid function; nil without one. It is small enough to
// be inlined, so that the function does not escape.
func (t *Transformer) recorder(src []byte, pos int) func(off, n int) {
	if t.c.o.onInvalid == nil {
		return nil
	}
	return func(off, n int) { t.recordIn(src, pos, off, n) }
}

// recordIn records the ill-formed subpart src[off:off+n] that the block
// repairer found, where src's position in the chunk is pos.
func (t *Transformer) recordIn(src []byte, pos, off, n int) {
	base := t.off + int64(pos)
	if t.c.o.lines {
		t.lineTo(src, base, off)
	}
	t.record(base+int64(off), src[off:off+n])
}

// count adds to the Stats what a call of the block repairer on the chunk
// from pos on found without recording each subpart, and clears the dense
// hint where it stopped after blocks without an ill-formed byte.
func (t *Transformer) count(pos int, c *repair.Counts) {
	t.stats.Escaped += int64(c.Escaped)
	if c.Clean {
		t.dense, t.inRun = false, true
	}
	if c.Subparts == 0 {
		return
	}
	if t.stats.Subparts == 0 {
		t.stats.First = t.off + int64(pos+c.First)
	}
	t.stats.Subparts += int64(c.Subparts)
	t.stats.Bytes += int64(c.Bytes)
}

// Span implements [transform.SpanningTransformer]. It returns the length of
// the prefix of src that t would copy unchanged, which under every policy
// but [OPTU8] (and [NoNUL], [StripBOM], [WTF8], [BMPOnly]) is the
// well-formed prefix. The error is nil when that is all of src,
// [transform.ErrShortSrc] when src ends in an unfinished sequence and atEOF
// is false, and [transform.ErrEndOfSpan] otherwise. Like Transform, Span
// advances the stream offset by n.
func (t *Transformer) Span(src []byte, atEOF bool) (n int, err error) {
	switch {
	case t.c.plainSpan && !t.dense:
		// What the general case below does for valid input, with one
		// call fewer and no more than it needs: on short input each
		// call and each test costs as much as the kernel's work. With
		// the hint clear and nothing after the run, noteRun has
		// nothing to do. The kernel is called from this frame, as in
		// Transform.
		var ok bool
		if len(src) < valid.Short {
			// A few bytes, in one call, as Valid takes them.
			if n = valid.PrefixShort(src); n == len(src) {
				t.off += int64(n)
				return n, nil
			}
		} else if len(src) <= 16 && valid.ShortASCII(src) {
			t.off += int64(len(src))
			return len(src), nil
		} else if n, ok = valid.QuickPrefix(src); !ok {
			if n, ok = valid.KernelPrefix(src); !ok {
				n = valid.Prefix(src)
			} else if n < len(src) {
				n = valid.Finish(src, n)
			}
			if n == len(src) {
				t.off += int64(n)
				return n, nil
			}
		}
	case t.c.quick && !t.c.ee && !t.dense:
		// The same with BMPOnly, where span is valid.PrefixBMP, and
		// under WTF8, where it is spanStop, whose first pass this is,
		// as in Transform. Where QuickPrefix finds the answer, src[n]
		// starts no sequence: it is neither the end of src nor an ED
		// that WTF8 goes on from.
		var ok bool
		if n, ok = valid.QuickPrefix(src); !ok {
			if !t.c.bmp {
				if n, ok = valid.KernelPrefix(src); !ok {
					n = valid.Prefix(src)
				} else if n < len(src) {
					n = valid.Finish(src, n)
				}
			} else {
				if n, ok = valid.KernelPrefixBMP(src); !ok {
					n = valid.PrefixBMP(src)
				} else if n < len(src) {
					n = valid.FinishBMP(src, n)
				}
			}
			if n < len(src) && t.c.stop && src[n] == 0xED {
				n += t.c.spanStop(nil, src[n:])
			}
			if n == len(src) {
				t.off += int64(n)
				return n, nil
			}
		}
	default:
		if t.broken {
			return 0, errPanicked
		}
		if t.c.o.stripBOM {
			if skip, _, short := t.bomPrefix(src, atEOF); short {
				return 0, transform.ErrShortSrc
			} else if skip > 0 {
				return 0, transform.ErrEndOfSpan
			}
		}
		if t.inForm() != formUTF8 {
			// Decoded UTF-16 or UTF-32 is never its input.
			if len(src) == 0 {
				return 0, nil
			}
			return 0, transform.ErrEndOfSpan
		}
		if t.c.o.lines && t.c.plain && !t.dense {
			// As in Transform's short path for Lines, with the kernel
			// called from this frame.
			var lines, end, last int
			n, lines, end, last = valid.KernelPrefixLines(src)
			if n < 0 {
				n, lines, last = valid.PrefixLines(src)
			} else if n != len(src) || end != n || last < -1 {
				n, lines, last = valid.PrefixLinesFinish(src, n, lines, end, last)
			}
			if !t.countedHere(n, lines, last) {
				t.counted(src, 0, n, lines, last)
			}
			if n == len(src) {
				// With the hint clear and nothing after the run,
				// noteRun has nothing to do, and the newlines are
				// counted.
				t.off += int64(n)
				return n, nil
			}
		} else if t.c.o.lines {
			n = t.spanLines(src)
		} else {
			n = t.c.span(src, t.dense)
		}
	}
	t.noteRun(n, len(src)-n)
	if n < len(src) {
		err = transform.ErrEndOfSpan
		// Only before the end of the stream can the unit at n be short.
		if !atEOF {
			if _, k := t.c.unit(src[n:], false); k == kShort {
				err = transform.ErrShortSrc
			}
		}
	}
	t.advance(src, n)
	return n, err
}

// spanLines is span for Span with Lines where the core is not plain or
// errors are dense: it counts the newlines of each spanChunk bytes it spans
// while they are in cache.
func (t *Transformer) spanLines(src []byte) int {
	n := 0
	for n < len(src) {
		end := min(len(src), n+spanChunk)
		if end < len(src) {
			// Up to the start of a sequence, so that a chunk's span
			// goes on in the next.
			for end > n && src[end]&0xC0 == 0x80 {
				end--
			}
		}
		v := t.c.span(src[n:end], t.dense)
		t.lineTo(src, t.off, n+v)
		n += v
		if n < end || v == 0 {
			break
		}
	}
	return n
}

// next handles the one unit at the start of src, for a caller that passes
// valid runs on itself (Writer), stripping a byte order mark at stream
// offset 0 as Transform would.
func (t *Transformer) next(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	if skip, to, short := t.bomPrefix(src, atEOF); short {
		return 0, 0, transform.ErrShortSrc
	} else if skip > 0 {
		nSrc, t.detected = skip, to
	} else if t.inForm() != formUTF8 {
		var rules wideRules
		t.setRules(&rules)
		nDst, nSrc, err = t.wideUnit(dst, src, atEOF, 0, &rules)
	} else {
		nDst, nSrc, err = t.step(dst, src, atEOF, 0)
	}
	t.advance(src, nSrc)
	return nDst, nSrc, err
}
