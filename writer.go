package utf8stream

import (
	"bytes"
	"errors"
	"io"

	"github.com/utf8stream/utf8stream/internal/repair"
	"golang.org/x/text/transform"
)

var errClosed = errors.New("utf8stream: write after close")

// Writer applies a policy to the bytes written to it and writes the result
// to an underlying [io.Writer].
//
// One Write, one write: a Write whose output is at most the buffer size
// ([BufferSize], 4096 bytes by default) reaches the underlying writer as
// exactly one Write call (none when the output is empty), under every
// policy and option, as [log.Logger] writes each message with one call. So
// lines that several processes write to one file opened with O_APPEND,
// one Write each, never interleave. The bytes of a sequence that an
// earlier Write left unfinished go out with this one's output, in the
// same call. Only a longer output is written in more than one call.
//
// A run of valid input goes to the underlying writer as it is, in the
// caller's slice, unless it is short enough to be gathered with the rest
// of the output into one write. Only an unfinished sequence at the end of
// p (at most 3 bytes, 5 under [CESU8] or [WTF8]) is kept, to be completed
// by the next Write or settled by Close. Write returns the exact number of
// bytes of p whose output reached the underlying writer (or that are kept
// as such an unfinished sequence); it returns [io.ErrShortWrite] when the
// underlying writer takes less than it was given without an error. Under [Reject] it
// writes the valid bytes before an ill-formed subpart and returns their
// count with an *[Error]. Errors are sticky. Write never retains p.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	w      io.Writer
	t      Transformer
	tail   [8]byte // an unfinished sequence carried to the next Write
	ntail  int
	buf    []byte // output gathered for the next write to w
	marks  []mark // the units in buf whose output is not a copy of their input
	base   int    // the position in p where buf's input starts
	err    error  // sticky
	closed bool
	cerr   error // what Close returned
	// inCall is set during Write and Close. If it is set when one of them
	// starts, a call panicked and left wr at a point no count reported:
	// wr fails with errPanicked until Reset.
	inCall bool
	fixed  uint8 // marks[:fixed] are of carried bytes: merge leaves them
}

// maxMarks bounds the marks a Writer keeps: at that many, merge makes
// most of them one stretch, so that input that produces no output (Drop)
// cannot grow them without end, and buf is still written only when full.
const maxMarks = 256

// writerRoom is the room in buf, beyond the buffer size, that a Writer
// keeps for the output of one step (a unit, Tail, a call of Blocks), so
// that it writes buf only when the output gathered is longer than the
// buffer size.
const writerRoom = max(repair.MaxRoom, minOut)

// A mark records a unit in Writer.buf whose output differs from its input,
// so that a short write can be traced back to the input it covers; or, with
// stretch set, a stretch of units that the block loop wrote, whose units are
// found again only when a short write ends inside it; or, with copied set,
// a well-formed sequence completed from carried bytes, whose output is its
// input and so counts byte for byte.
type mark struct {
	out, nout int  // the unit's output is buf[out:out+nout]
	nin       int  // the unit's input bytes from the current p: the last nin of a copied unit
	stretch   bool // a stretch of units, not one
	copied    bool // the output is the carried bytes and then nin bytes of p
}

// NewWriter returns a Writer that applies policy p to what is written to it
// and writes the result to w.
func NewWriter(w io.Writer, p Policy, opts ...Option) *Writer {
	wr := new(Writer)
	wr.t.init(p, opts)
	wr.Reset(w)
	return wr
}

// Reset discards all state, including an unfinished sequence, and makes wr
// write to w, as NewWriter would, but keeps its buffers.
func (wr *Writer) Reset(w io.Writer) {
	wr.w = w
	wr.t.Reset()
	wr.ntail = 0
	wr.buf = wr.buf[:0]
	wr.marks = wr.marks[:0]
	wr.fixed = 0
	wr.err, wr.cerr = nil, nil
	wr.closed = false
	wr.inCall = false
}

// Stats returns the counts of ill-formed input written so far.
func (wr *Writer) Stats() Stats { return wr.t.Stats() }

// Write implements [io.Writer]. Its output, with that of the bytes an
// earlier Write left unfinished, reaches the underlying writer in one call
// when it is at most the buffer size (see [Writer]). If a call of Write or
// Close panicked (an [OnInvalid] function, or the underlying writer), every
// later call returns an error until Reset, and nothing is written again.
func (wr *Writer) Write(p []byte) (n int, err error) {
	if wr.inCall && wr.err == nil {
		wr.err = errPanicked
	}
	wr.inCall = true
	n, err = wr.write(p)
	wr.inCall = false
	return n, err
}

func (wr *Writer) write(p []byte) (n int, err error) {
	if wr.err != nil {
		return 0, wr.err
	}
	wr.base = 0
	for wr.ntail > 0 && n < len(p) && wr.err == nil {
		// Under DetectBOM a unit of UTF-16 too, which next takes.
		if m, err := wr.reserve(p, n); err != nil {
			return m, err
		}
		n = wr.fringe(p, n)
		wr.fixed = uint8(len(wr.marks))
	}
	for n < len(p) && wr.err == nil {
		if wr.t.inForm() != formUTF8 {
			// DetectBOM found UTF-16.
			if m, err := wr.writeWide(p, n); err != nil {
				return m, err
			}
			n = len(p)
			break
		}
		if wr.t.dense && len(p)-n >= repair.BlockMin && wr.t.canRepair() {
			// The block loop takes whole blocks only while buf has
			// room for two: with less it would leave the rest of buf
			// to the general path, a unit at a time.
			if m, err := wr.reserveRoom(p, n, wr.t.c.tab.BlockRoom()); err != nil {
				return m, err
			}
			// The stretch is written as Transform writes it, with one
			// mark for all its units, which written finds again if it
			// must.
			var c repair.Counts
			nd, ns := wr.t.c.tab.Blocks(wr.buf[len(wr.buf):cap(wr.buf)], p[n:], wr.t.recorder(p[n:], 0), &c)
			wr.t.count(0, &c)
			if ns > 0 {
				wr.t.advance(p[n:], ns)
				if n, err = wr.keep(p, n, nd, ns, true); err != nil {
					return n, err
				}
			}
			if n == len(p) {
				break
			}
		}
		v, serr := wr.t.Span(p[n:], false)
		if v > 0 {
			if len(wr.buf)+v > cap(wr.buf) && cap(wr.buf) == 0 && serr == transform.ErrEndOfSpan {
				// More output follows, to be gathered with the run.
				wr.buf = make([]byte, 0, wr.t.c.o.bufSize+writerRoom)
			}
			if len(wr.buf)+v <= cap(wr.buf) {
				wr.buf = append(wr.buf, p[n:n+v]...)
			} else {
				if m, err := wr.flush(p, n); err != nil {
					return m, err
				}
				m, err := wr.w.Write(p[n : n+v])
				if err = wr.check(m, v, err); err != nil {
					return n + min(max(m, 0), v), err
				}
				wr.base = n + v
			}
			n += v
		}
		if serr == nil {
			break
		}
		if serr == transform.ErrShortSrc {
			wr.ntail = copy(wr.tail[:], p[n:])
			n = len(p)
			break
		}
		if k := len(p) - n; k <= repair.TailMax && k >= repair.TailMin && (wr.t.off > 0 || !wr.t.c.o.stripBOM) && wr.t.canRepair() {
			// The last bytes of p, from an ill-formed unit on, up to
			// those that more input can change: the block loop on them,
			// padded, as Transform takes them. (A byte order mark to
			// strip is next's.)
			src := p[n : n+unitsEnd(p[n:])]
			if m, err := wr.reserveRoom(p, n, wr.t.c.tab.Room(len(src))); err != nil {
				return m, err
			}
			var c repair.Counts
			nd, ns := wr.t.c.tab.Tail(wr.buf[len(wr.buf):cap(wr.buf)], src, wr.t.recorder(src, 0), &c)
			wr.t.count(0, &c)
			if ns > 0 {
				wr.t.advance(src, ns)
				if n, err = wr.keep(p, n, nd, ns, true); err != nil {
					return n, err
				}
				continue
			}
		}
		if m, err := wr.reserve(p, n); err != nil {
			return m, err
		}
		nd, ns, err := wr.t.next(wr.buf[len(wr.buf):cap(wr.buf)], p[n:], false)
		if err != nil {
			// Span found no unfinished sequence here, so this is an
			// *Error under Reject.
			wr.err = err
			break
		}
		// Every unit here is repaired or converted, so a partial write of
		// its output must not count any of its input, even when the
		// lengths match (a 3-byte subpart and U+FFFD).
		if n, err = wr.keep(p, n, nd, ns, false); err != nil {
			return n, err
		}
	}
	if m, err := wr.flush(p, n); err != nil {
		return m, err
	}
	return n, wr.err
}

// writeWide is Write's loop where the input is UTF-16 (DetectBOM found its
// byte order mark), from n on: each Transform's output goes into buf with
// one stretch mark, which written takes apart again if a write is short. A
// unit cut short at the end of p is kept in tail. It returns, with an
// error, the count that Write returns.
func (wr *Writer) writeWide(p []byte, n int) (int, error) {
	for n < len(p) && wr.err == nil {
		if m, err := wr.reserve(p, n); err != nil {
			return m, err
		}
		nd, ns, err := wr.t.Transform(wr.buf[len(wr.buf):cap(wr.buf)], p[n:], false)
		if ns > 0 {
			var kerr error
			if n, kerr = wr.keep(p, n, nd, ns, true); kerr != nil {
				return n, kerr
			}
		}
		switch err {
		case nil, transform.ErrShortDst:
		case transform.ErrShortSrc:
			wr.ntail = copy(wr.tail[:], p[n:])
			n = len(p)
		default:
			wr.err = err
		}
	}
	return 0, nil
}

// keep takes into buf the nd bytes of output that the caller wrote in its
// free room for ns bytes of p from n on, with a mark for them (stretch for a
// stretch of the block loop's), and flushes buf when the marks are full. It
// returns the new n, or with an error the count that Write returns.
func (wr *Writer) keep(p []byte, n, nd, ns int, stretch bool) (int, error) {
	wr.addMark(nd, ns, stretch)
	n += ns
	if len(wr.marks) >= maxMarks {
		wr.merge(n)
	}
	return n, nil
}

// merge makes the marks after the first (and after those of carried
// bytes) one stretch, which written finds the units of again, as it does
// those of the block loop's: it covers the output from the first of them
// to the end of buf, and the input from there to n, the position in p
// that buf's input reaches. The first mark stays, since it may be that
// of a byte order mark stripped at the start of the stream, which a
// stretch cannot hold.
func (wr *Writer) merge(n int) {
	k := max(int(wr.fixed), 1)
	in, pos := 0, 0
	for _, mk := range wr.marks[:k] {
		in += mk.out - pos + mk.nin
		pos = mk.out + mk.nout
	}
	out := wr.marks[k].out
	in += out - pos
	wr.marks = append(wr.marks[:k], mark{out: out, nout: len(wr.buf) - out, nin: n - wr.base - in, stretch: true})
}

// addMark takes into buf the nd bytes of output written in its free room
// for nin bytes of input, with a mark for them.
func (wr *Writer) addMark(nd, nin int, stretch bool) {
	wr.marks = append(wr.marks, mark{out: len(wr.buf), nout: nd, nin: nin, stretch: stretch})
	wr.buf = wr.buf[:len(wr.buf)+nd]
}

// fringe settles the unit that starts in the carried bytes, completing it
// with the bytes of p from n on, and returns the new n.
func (wr *Writer) fringe(p []byte, n int) int {
	var src [16]byte
	k := copy(src[:], wr.tail[:wr.ntail])
	j := copy(src[k:], p[n:])
	nd, ns, err := wr.t.next(wr.buf[len(wr.buf):cap(wr.buf)], src[:k+j], false)
	switch err {
	case nil:
	case transform.ErrShortSrc:
		// The unit needs more than p holds: keep all of it.
		wr.ntail = copy(wr.tail[:], src[:k+j])
		return n + j
	default:
		wr.err = err
		return n
	}
	in := max(ns-k, 0)
	// A well-formed sequence is copied: its output is its input, the
	// carried bytes and then p's, and a short write counts p's byte for
	// byte. The output of a repaired unit, valid UTF-8, never equals its
	// ill-formed input.
	copied := in > 0 && bytes.Equal(wr.buf[len(wr.buf):len(wr.buf)+nd], src[:ns])
	wr.addMark(nd, in, false)
	wr.marks[len(wr.marks)-1].copied = copied
	if ns < k {
		wr.ntail = copy(wr.tail[:], wr.tail[ns:k])
	} else {
		wr.ntail = 0
	}
	return n + in
}

// reserve makes room in buf for the output of any one unit, allocating buf
// or flushing it. n is the position in p that buf's input reaches.
func (wr *Writer) reserve(p []byte, n int) (int, error) { return wr.reserveRoom(p, n, minOut) }

// reserveRoom is reserve that makes room bytes free in buf, or as many as
// its size allows.
func (wr *Writer) reserveRoom(p []byte, n, room int) (int, error) {
	if free := cap(wr.buf) - len(wr.buf); free >= room || free >= minOut && len(wr.buf) == 0 {
		return 0, nil
	}
	if m, err := wr.flush(p, n); err != nil {
		return m, err
	}
	if cap(wr.buf) < minOut {
		wr.buf = make([]byte, 0, wr.t.c.o.bufSize+writerRoom)
	}
	return 0, nil
}

// flush writes buf to the underlying writer; n is the position in p that
// buf's input reaches. On an error it returns how many bytes of p reached
// the underlying writer.
func (wr *Writer) flush(p []byte, n int) (int, error) {
	if len(wr.buf) > 0 {
		m, err := wr.w.Write(wr.buf)
		if err = wr.check(m, len(wr.buf), err); err != nil {
			return wr.base + wr.written(p[wr.base:], m), err
		}
	}
	wr.buf = wr.buf[:0]
	wr.marks = wr.marks[:0]
	wr.fixed = 0
	wr.base = n
	return 0, nil
}

// check turns the result of a write of want bytes into an error, which it
// makes sticky.
func (wr *Writer) check(m, want int, err error) error {
	if err == nil && m != want {
		err = io.ErrShortWrite
	}
	if err != nil {
		wr.err = err
	}
	return err
}

// written returns how many bytes of input buf[:m] covers, of src, the
// input from where buf's starts: valid bytes count one for one, and a
// marked unit only when all its output is in buf[:m].
func (wr *Writer) written(src []byte, m int) int {
	m = min(max(m, 0), len(wr.buf))
	in, pos := 0, 0
	for _, mk := range wr.marks {
		if m < mk.out+mk.nout {
			in += max(min(m, mk.out)-pos, 0)
			switch {
			case mk.stretch:
				in += stretchWritten(wr.t, src[in:], m-mk.out)
			case mk.copied:
				// The output before p's bytes is the carried bytes.
				in += max(m-mk.out-(mk.nout-mk.nin), 0)
			}
			return in
		}
		in += mk.out - pos + mk.nin
		pos = mk.out + mk.nout
	}
	return in + m - pos
}

// stretchWritten returns how many bytes of input the first m bytes of a
// stretch's output cover, as written does for marked units: src is the
// stretch's input and what follows. It finds the units again a unit at a
// time, on a copy of t, with the general path, whose output is the block
// loop's, and without the OnInvalid function, which has seen them. A unit's
// output depends on t's state only where a byte order mark is to be
// stripped, at the start of the stream, and no stretch starts there.
func stretchWritten(t Transformer, src []byte, m int) int {
	if t.c.o.onInvalid != nil || t.c.o.lines {
		// Its offset is not the stretch's: it counts no lines.
		o := *t.c.o
		o.onInvalid, o.lines = nil, false
		t.c.o = &o
	}
	if t.inForm() != formUTF8 {
		// A Transform into m bytes writes the units whose output fits,
		// and takes their input.
		_, ns, _ := t.Transform(make([]byte, m), src, false)
		return ns
	}
	var unit [2 * maxReplacement]byte
	in, out := 0, 0
	// A unit with no output (Drop) counts once the output before it is
	// written, as a marked one does in written.
	for out <= m && in < len(src) {
		v, _ := t.Span(src[in:], false)
		if v > 0 {
			if out+v > m {
				return in + m - out
			}
			in, out = in+v, out+v
			continue
		}
		nd, ns, err := t.next(unit[:], src[in:], false)
		if err != nil || out+nd > m {
			break
		}
		in, out = in+ns, out+nd
	}
	return in
}

// Close settles an unfinished sequence at the end of the stream: under
// [Reject] it returns an *[Error] for it, and under the other policies it
// writes the policy's output for it. It does not close the underlying
// writer. Close returns the first error the Writer met, if any; calling it
// again returns the same, and a Write after Close fails.
func (wr *Writer) Close() error {
	if wr.inCall && wr.err == nil {
		wr.err = errPanicked
	}
	if wr.closed {
		return wr.cerr
	}
	wr.inCall = true
	defer func() { wr.inCall = false }()
	wr.closed = true
	if wr.err == nil && wr.ntail > 0 {
		// The tail's input lies in no p: what flush reports of it is
		// not used.
		wr.base = 0
		wr.reserve(nil, 0)
		nd, _, err := wr.t.Transform(wr.buf[len(wr.buf):cap(wr.buf)], wr.tail[:wr.ntail], true)
		wr.ntail = 0
		wr.buf = wr.buf[:len(wr.buf)+nd]
		wr.flush(nil, 0)
		if err != nil && wr.err == nil {
			wr.err = err
		}
	}
	wr.cerr = wr.err
	if wr.err == nil {
		wr.err = errClosed
	}
	return wr.cerr
}
