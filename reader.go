package utf8stream

import (
	"errors"
	"io"

	"golang.org/x/text/transform"
)

const (
	// minDirect is the smallest p that Read reads into directly: room for
	// the carried bytes of an unfinished sequence and some new input.
	minDirect = 16
	// minOut is the smallest p that Read transforms into directly; smaller
	// reads go through a buffer of this size, which holds the output of any
	// one unit (at most maxReplacement bytes).
	minOut = 2 * maxReplacement
	// maxDirect bounds a direct read under a policy that may change the
	// input, because what follows the first change is kept until it is
	// transformed. A Reader never holds more input than this, or than
	// BufferSize if that is larger.
	maxDirect = 64 << 10
	// copySize is the size of the buffer, buf.src, that WriteTo reads into
	// when the underlying reader is not an io.WriterTo.
	copySize = 32 << 10
	// maxEmptyReads is how many reads in a row may return 0, nil before
	// Read gives up with io.ErrNoProgress, as bufio does.
	maxEmptyReads = 100
)

var errNegativeRead = errors.New("utf8stream: reader returned invalid count")

// Reader applies a policy to the bytes it reads from an underlying
// [io.Reader].
//
// Read reads into the caller's slice and validates it in place; only from
// the first byte the policy changes on does the input go through an internal
// buffer, and only until the next stretch of valid input. Read returns every
// valid byte before an error: under [Reject] the bytes before the ill-formed
// subpart come first, with a nil error, and the *[Error] comes with the next
// call. An error of the underlying reader other than [io.EOF] is returned as
// it is, after the bytes read before it, and takes precedence over an
// *[Error] found in the same read. A sequence left unfinished at io.EOF is
// ill-formed; one left unfinished by another error is dropped, and the error
// returned. Errors are sticky. Read never retains p.
//
// So a [bufio.Scanner] over a Reader under Reject hands back the line that
// the ill-formed subpart cuts short as a token, its last, before Err
// reports the *[Error]: a caller that counts the lines it scanned counts
// that one too. With [Lines] the Error says where it is.
//
// A Reader is not safe for concurrent use.
type Reader struct {
	r    io.Reader
	t    Transformer
	rerr error       // the underlying reader's error, returned after the bytes before it
	err  error       // sticky: returned by every Read once the bytes before it are out
	cw   countWriter // WriteTo's writer, and the bytes written to it
	// Under a direct policy, an unfinished sequence at the end of what
	// was read, carried to the next Read or WriteTo (which completes it
	// in place). At most one of tail and buf.src holds carried input.
	tail  [4]byte
	ntail uint8
	// inCall is set during Read and WriteTo. If it is set when one of
	// them starts, a call panicked and left rd at a point no count
	// reported: rd fails with errPanicked until Reset.
	inCall bool
	buf    *readBuf // made on first need: most streams never need it
}

// readBuf is what a Reader holds beyond the caller's slice: the input and
// output that Read could not pass on at once, and WriteTo's buffers. It is
// kept out of Reader, which a stream that never needs it allocates on every
// NewReader, and whose size that cost grows with.
type readBuf struct {
	src    []byte // input not yet transformed: src[s0:s1]; also WriteTo's read buffer
	s0, s1 int
	out    []byte // output not yet delivered, in outBuf
	outBuf []byte
	wr     *Writer // WriteTo's Writer under the policies that are not direct
}

// buffers returns rd.buf, which it makes on first use.
func (rd *Reader) buffers() *readBuf {
	if rd.buf == nil {
		rd.buf = new(readBuf)
	}
	return rd.buf
}

// pending reports whether buf holds input not yet transformed.
func (b *readBuf) pending() bool { return b != nil && b.s0 < b.s1 }

// NewReader returns a Reader that applies policy p to what it reads from r.
// A Reader has no Close method; to keep an [io.ReadCloser], such as an HTTP
// response body, closable, pair the Reader with the original's Close:
//
//	resp.Body = struct {
//		io.Reader
//		io.Closer
//	}{utf8stream.NewReader(resp.Body, p), resp.Body}
func NewReader(r io.Reader, p Policy, opts ...Option) *Reader {
	rd := &Reader{r: r}
	rd.t.init(p, opts)
	return rd
}

// direct reports whether rd's policy never needs the input after the first
// ill-formed subpart: Reject, with no option that changes valid input.
func (rd *Reader) direct() bool { return !rd.t.c.resizes() }

// Reset discards all state and makes rd read from r, as NewReader would,
// but keeps its buffers.
func (rd *Reader) Reset(r io.Reader) {
	rd.r = r
	rd.t.Reset()
	rd.ntail = 0
	if b := rd.buf; b != nil {
		b.s0, b.s1 = 0, 0
		b.out = nil
	}
	rd.rerr, rd.err = nil, nil
	rd.inCall = false
}

// Stats returns the counts of ill-formed input read so far.
func (rd *Reader) Stats() Stats { return rd.t.Stats() }

// Read implements [io.Reader]. If a call of Read or WriteTo panicked (an
// [OnInvalid] function, or the underlying reader), every later call returns
// an error until Reset: the panic may have left bytes that no count
// reported.
func (rd *Reader) Read(p []byte) (n int, err error) {
	if rd.inCall {
		rd.err = errPanicked
	}
	rd.inCall = true
	n, err = rd.read(p)
	rd.inCall = false
	return n, err
}

func (rd *Reader) read(p []byte) (int, error) {
	if b := rd.buf; b != nil && len(b.out) > 0 {
		n := copy(p, b.out)
		b.out = b.out[n:]
		return n, nil
	}
	if rd.err != nil {
		return 0, rd.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	for empty := 0; ; {
		if rd.buf.pending() {
			if n, err := rd.drain(p); n > 0 || err != nil {
				return n, err
			}
		}
		if rd.rerr != nil {
			rd.err = rd.rerr
			return 0, rd.err
		}
		var n, m int
		var err error
		if len(p) >= minDirect {
			n, m, err = rd.readDirect(p)
		} else {
			m, err = rd.readBuffered()
		}
		if n > 0 || err != nil {
			return n, err
		}
		if m == 0 && rd.rerr == nil {
			if empty++; empty >= maxEmptyReads {
				rd.err = io.ErrNoProgress
				return 0, rd.err
			}
		}
	}
}

// readDirect reads into p after the carried bytes of an unfinished sequence
// and returns n, the length of the prefix of p that is output as it is, and
// m, the bytes read. What follows that prefix is kept: an unfinished
// sequence under a direct policy in tail, anything else in buf.src.
func (rd *Reader) readDirect(p []byte) (n, m int, err error) {
	k := copy(p, rd.tail[:rd.ntail])
	rd.ntail = 0
	if b := rd.buf; b.pending() {
		k += copy(p[k:], b.src[b.s0:b.s1])
		b.s0, b.s1 = 0, 0
	}
	lim := len(p)
	if !rd.direct() {
		lim = min(lim, max(maxDirect, rd.t.c.o.bufSize))
	}
	m, rd.rerr = rd.r.Read(p[k:lim])
	if m < 0 || m > lim-k {
		rd.err = errNegativeRead
		return 0, 0, rd.err
	}
	end := k + m
	atEOF := rd.rerr == io.EOF
	n, serr := rd.t.Span(p[:end], atEOF)
	if serr == nil {
		return n, m, nil
	}
	if rd.direct() && serr == transform.ErrEndOfSpan {
		// Under Reject the unit at n is ill-formed, and nothing after it
		// is ever read: compute the error now and keep no input.
		_, _, err := rd.t.Transform(nil, p[n:end], atEOF)
		rd.fail(err)
	} else if rd.direct() && end-n <= len(rd.tail) {
		// An unfinished sequence (ErrShortSrc), which is all a direct
		// policy ever keeps.
		rd.ntail = uint8(copy(rd.tail[:], p[n:end]))
	} else {
		b := rd.buffers()
		b.src = append(b.src[:0], p[n:end]...)
		b.s0, b.s1 = 0, len(b.src)
	}
	if n > 0 || rd.err == nil {
		return n, m, nil
	}
	return 0, m, rd.err
}

// readBuffered reads into buf.src, for a caller whose p is too small to hold an
// unfinished sequence and what completes it.
func (rd *Reader) readBuffered() (int, error) {
	b := rd.buffers()
	if b.s0 > 0 {
		b.s1 = copy(b.src, b.src[b.s0:b.s1])
		b.s0 = 0
	}
	if size := rd.t.c.o.bufSize; cap(b.src) < size {
		b.src = append(make([]byte, 0, size), b.src[:b.s1]...)
	}
	b.src = b.src[:cap(b.src)]
	// The carried sequence, if any, goes first.
	b.s1 += copy(b.src[b.s1:], rd.tail[:rd.ntail])
	rd.ntail = 0
	m, err := rd.r.Read(b.src[b.s1:])
	if m < 0 || m > len(b.src)-b.s1 {
		rd.err = errNegativeRead
		return 0, rd.err
	}
	b.s1 += m
	rd.rerr = err
	return m, nil
}

// drain transforms the input in buf.src into p. It returns 0 and a nil error
// when it needs more input.
func (rd *Reader) drain(p []byte) (int, error) {
	b := rd.buf
	dst := p
	if len(p) < minOut {
		if b.outBuf == nil {
			b.outBuf = make([]byte, minOut)
		}
		dst = b.outBuf
	}
	nDst, nSrc, err := rd.t.Transform(dst, b.src[b.s0:b.s1], rd.rerr == io.EOF)
	b.s0 += nSrc
	if len(p) < minOut {
		n := copy(p, dst[:nDst])
		b.out = dst[n:nDst]
		nDst = n
	}
	switch err {
	case nil, transform.ErrShortDst:
	case transform.ErrShortSrc:
		if nDst == 0 && rd.rerr != nil {
			// Another error cut the stream inside a sequence.
			rd.err = rd.rerr
		}
	default:
		rd.fail(err)
	}
	if nDst > 0 || rd.err == nil {
		return nDst, nil
	}
	return 0, rd.err
}

// fail makes a validation error sticky, unless the underlying reader failed
// too: its error takes precedence.
func (rd *Reader) fail(err error) {
	if rd.rerr != nil && rd.rerr != io.EOF {
		err = rd.rerr
	}
	rd.err = err
}

// WriteTo implements [io.WriterTo], which [io.Copy] prefers to Read: it
// writes the rest of the stream, with the policy applied, to w. When the
// underlying reader is an [io.WriterTo] itself (a [bytes.Reader], an
// [os.File]), its chunks go through the core to w without being copied into
// a buffer of rd's, as [Writer] passes valid input on. WriteTo may follow
// calls to Read: what they left behind goes first. It returns the number of
// bytes written to w, and a nil error at the end of the stream. The errors
// are those Read would return, and rd is at the end of the stream
// afterwards.
func (rd *Reader) WriteTo(w io.Writer) (n int64, err error) {
	if rd.inCall {
		rd.err = errPanicked
	}
	rd.inCall = true
	n, err = rd.writeTo(w)
	rd.inCall = false
	return n, err
}

func (rd *Reader) writeTo(w io.Writer) (n int64, err error) {
	rd.cw = countWriter{w: w}
	defer func() { rd.cw.w = nil }()
	if b := rd.buf; b != nil && len(b.out) > 0 {
		// Output a Read with a short p left behind.
		err = rd.pass(b.out)
		b.out = nil
		if err != nil {
			rd.err = err
			return rd.cw.n, err
		}
	}
	if rd.err != nil {
		if rd.err == io.EOF {
			return rd.cw.n, nil
		}
		return rd.cw.n, rd.err
	}
	// Under a direct policy rd.tail may hold what a Read left of an
	// unfinished sequence, which the sink goes on from.
	var sink io.Writer = (*rejectSink)(rd)
	var wr *Writer
	if !rd.direct() {
		b := rd.buffers()
		if b.wr == nil {
			b.wr = new(Writer)
		}
		wr = b.wr
		wr.t = rd.t
		wr.w, wr.ntail, wr.buf, wr.marks, wr.fixed = &rd.cw, 0, wr.buf[:0], wr.marks[:0], 0
		wr.err, wr.cerr, wr.closed = nil, nil, false
		sink = wr
	}
	if b := rd.buf; b.pending() {
		// Input a Read left behind, not yet transformed.
		_, err = sink.Write(b.src[b.s0:b.s1])
		b.s0, b.s1 = 0, 0
	}
	switch {
	case err != nil:
	case rd.rerr != nil:
		// A Read met the end of the input, or an error, already.
		if rd.rerr != io.EOF {
			err = rd.rerr
		}
	default:
		if wt, ok := rd.r.(io.WriterTo); ok {
			_, err = wt.WriteTo(sink)
		} else {
			b := rd.buffers()
			if cap(b.src) < copySize {
				b.src = make([]byte, copySize)
			}
			err = rd.copyFrom(sink, b.src[:cap(b.src)])
		}
	}
	// err is nil at the end of the input, or the sink's error (under
	// Reject an *Error, or one of w), or the underlying reader's, which
	// drops an unfinished sequence, as in Read.
	if rd.direct() {
		if err == nil && rd.ntail > 0 {
			_, _, err = rd.t.Transform(nil, rd.tail[:rd.ntail], true)
		}
		rd.ntail = 0
	} else {
		if err == nil {
			err = wr.Close()
		}
		rd.t = wr.t
		wr.w = nil
	}
	if _, ok := err.(*Error); ok && rd.rerr != nil && rd.rerr != io.EOF {
		// As in Read, the underlying reader's error comes before an
		// *Error in the same input.
		err = rd.rerr
	}
	rd.err = err
	if err == nil {
		rd.err = io.EOF
	}
	return rd.cw.n, err
}

// rejectSink is the [io.Writer] through which WriteTo passes the input under
// a direct policy (Reject with no option that changes valid input): the
// valid runs of each p go on to rd.cw as they are, and only an unfinished
// sequence at the end of p is kept, in rd.tail, as in [Writer].
type rejectSink Reader

func (s *rejectSink) Write(p []byte) (n int, err error) {
	rd := (*Reader)(s)
	if rd.ntail > 0 {
		// Complete the carried sequence with the first bytes of p, in
		// tail, which has room for the longest one.
		k := int(rd.ntail)
		j := copy(rd.tail[k:], p)
		buf := rd.tail[:k+j]
		v, serr := rd.t.Span(buf, false)
		switch {
		case v > 0:
			// The carried sequence is complete and valid, and so is
			// what follows it in buf[:v].
			rd.ntail = 0
			if err := rd.pass(buf[:v]); err != nil {
				return 0, err
			}
			n = v - k
		case serr == transform.ErrShortSrc:
			// Still unfinished: p was too short to finish it.
			rd.ntail = uint8(len(buf))
			return len(p), nil
		default:
			_, _, err = rd.t.Transform(nil, buf, false)
			return 0, err
		}
	}
	v, serr := rd.t.Span(p[n:], false)
	if v > 0 {
		if err := rd.pass(p[n : n+v]); err != nil {
			return n, err
		}
		n += v
	}
	switch serr {
	case nil:
	case transform.ErrShortSrc:
		rd.ntail = uint8(copy(rd.tail[:], p[n:]))
		n = len(p)
	default:
		// The unit at n is ill-formed: Transform makes its *Error.
		_, _, err = rd.t.Transform(nil, p[n:], false)
	}
	return n, err
}

// pass writes the valid bytes b to WriteTo's writer, all of them or an error.
func (rd *Reader) pass(b []byte) error {
	m, err := rd.cw.Write(b)
	if err == nil && m != len(b) {
		err = io.ErrShortWrite
	}
	return err
}

// copyFrom copies the underlying reader to w through buf until it ends; it
// returns nil at io.EOF. It keeps another error of the reader in rerr, so
// that WriteTo can put it before an *Error in the same read, as Read does.
func (rd *Reader) copyFrom(w io.Writer, buf []byte) error {
	for empty := 0; ; {
		m, err := rd.r.Read(buf)
		if m < 0 || m > len(buf) {
			return errNegativeRead
		}
		if err != nil && err != io.EOF {
			rd.rerr = err
		}
		if m > 0 {
			empty = 0
			if _, werr := w.Write(buf[:m]); werr != nil {
				return werr
			}
		} else if err == nil {
			if empty++; empty >= maxEmptyReads {
				return io.ErrNoProgress
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// countWriter counts the bytes written to w.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	m, err := c.w.Write(p)
	c.n += int64(m)
	return m, err
}
