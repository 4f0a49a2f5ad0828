package utf8http

import (
	"bufio"
	"compress/gzip"
	"errors"
	"io"
	"iter"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/utf8stream/utf8stream"
)

// responseWriter applies the policy to a textual response body. The status
// and the first bytes of the body are held back until more than the
// ResponseBuffer's worth has been written, the handler flushes a body byte
// or returns, so that a response rejected before then can still become a
// 500.
//
// A checked body goes from Write through dec, if it is compressed, then
// wr, then sink. If the body is to be compressed again, sink holds its
// first bytes uncompressed and, once they outgrow hold, sends them and the
// rest through zw. What is sent, compressed or not, goes through emit,
// which holds bytes in hold while the status is held back, and then writes
// them to rw.
type responseWriter struct {
	rw       http.ResponseWriter
	m        *middleware
	head     bool
	http10   bool               // the request is HTTP/1.0: a body without Content-Length ends at the close
	gzipOK   bool               // the client accepts gzip
	wr       *utf8stream.Writer // nil unless the body is checked
	dec      *pushDecoder       // decodes a compressed body, or nil
	gzipped  bool               // the decoded body is to be compressed again, once it outgrows hold
	zw       *gzip.Writer       // compresses it once it did, or nil
	hold     *[]byte            // output held back while !sent; nil until needed
	code     int                // the status the handler set, or 0
	decided  bool               // wr, dec and zw are settled
	sent     bool               // rw.WriteHeader was called
	hijack   bool               // the handler took over the connection
	answered bool               // Middleware answered with an error of its own
	err      error              // sticky: what ended the response
}

// errUnsupported is what Write returns after Middleware answered a response
// in a content coding that it cannot decode.
var errUnsupported = errors.New("utf8http: response Content-Encoding is not supported")

// Unwrap returns the wrapped ResponseWriter, for [http.ResponseController].
func (w *responseWriter) Unwrap() http.ResponseWriter { return w.rw }

func (w *responseWriter) Header() http.Header { return w.rw.Header() }

func (w *responseWriter) WriteHeader(code int) {
	if w.sent || w.code != 0 {
		return
	}
	if code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols {
		w.rw.WriteHeader(code) // informational: more headers follow
		return
	}
	w.code = code
	if _, ok := w.rw.Header()["Content-Type"]; ok {
		w.decide(nil)
	}
}

// decide settles whether and how the body is checked, sniffing the
// Content-Type from p if the handler set none. A body in a content coding
// that Middleware cannot decode is answered with 502.
func (w *responseWriter) decide(p []byte) {
	if w.decided {
		return
	}
	w.decided = true
	if w.code == http.StatusNoContent || w.code == http.StatusNotModified {
		return
	}
	h := w.rw.Header()
	coding, known := contentCoding(h["Content-Encoding"])
	ct, ok := h["Content-Type"]
	if !ok {
		if coding != "" || !known || p == nil {
			return // net/http does not sniff a coded body either
		}
		ct = []string{http.DetectContentType(p)}
		h["Content-Type"] = ct
	}
	if !w.m.responseType(ct) {
		return
	}
	if !known {
		w.err = errUnsupported
		w.answer(http.StatusBadGateway, "response Content-Encoding is not supported")
		return
	}
	switch {
	case coding != "":
		// The body changes: its length, its validator and perhaps its
		// coding, which depends on the request's Accept-Encoding.
		h.Del("Content-Length")
		if e := h.Get("Etag"); e != "" && !strings.HasPrefix(e, "W/") {
			h.Set("Etag", "W/"+e)
		}
		if !varies(h) {
			h.Add("Vary", "Accept-Encoding")
		}
		h.Del("Content-Encoding") // until startGzip sets it
		w.gzipped = w.gzipOK
		if w.head && w.gzipOK {
			h.Set("Content-Encoding", "gzip") // as a GET of more than the buffer gets it
		}
	case w.m.resizes:
		h.Del("Content-Length")
	}
	if w.head {
		return // the header says what a GET would get
	}
	w.wr = w.m.newWriter(sink{w})
	if coding != "" {
		w.dec = &pushDecoder{coding: coding, out: w.wr}
	}
}

// varies reports whether the Vary header h names Accept-Encoding or "*".
func varies(h http.Header) bool {
	for _, v := range h["Vary"] {
		for f := range strings.SplitSeq(v, ",") {
			if f = strings.TrimSpace(f); f == "*" || strings.EqualFold(f, "Accept-Encoding") {
				return true
			}
		}
	}
	return false
}

// send passes the held-back status on.
func (w *responseWriter) send() {
	if w.sent {
		return
	}
	w.sent = true
	if w.code != 0 {
		w.rw.WriteHeader(w.code)
	}
}

// commit sends the status and the held bytes.
func (w *responseWriter) commit() error {
	w.send()
	if w.hold == nil || len(*w.hold) == 0 {
		return nil
	}
	_, err := w.rw.Write(*w.hold)
	*w.hold = (*w.hold)[:0]
	return err
}

// emit holds p while the status is held back and the ResponseBuffer has
// room, and otherwise commits and writes p.
func (w *responseWriter) emit(p []byte) (int, error) {
	if !w.sent {
		if w.hold == nil && len(p) <= w.m.o.respBuffer {
			w.hold = w.m.holdBuf()
		}
		if w.hold != nil && len(*w.hold)+len(p) <= w.m.o.respBuffer {
			*w.hold = append(*w.hold, p...)
			return len(p), nil
		}
		if err := w.commit(); err != nil {
			return 0, err
		}
	}
	return w.rw.Write(p)
}

// startGzip starts compressing the body, with what is held.
func (w *responseWriter) startGzip() error {
	w.rw.Header().Set("Content-Encoding", "gzip")
	w.zw = newGzipWriter(zsink{w})
	text := w.hold
	if text == nil {
		return nil
	}
	w.hold = nil // emit holds what zw writes in a buffer of its own
	_, err := w.zw.Write(*text)
	w.m.freeHold(text)
	return err
}

// zsink is what zw writes to.
type zsink struct{ w *responseWriter }

func (s zsink) Write(p []byte) (int, error) { return s.w.emit(p) }

// held reports whether output is held back: a body byte that has not gone
// out.
func (w *responseWriter) held() bool { return w.heldLen() > 0 }

// heldLen returns the number of bytes held back.
func (w *responseWriter) heldLen() int {
	if w.hold == nil {
		return 0
	}
	return len(*w.hold)
}

// sink is what the checked body is written to. A body to be compressed
// again is compressed once it outgrows the ResponseBuffer: one held whole
// goes out as it is, since compressing a few KiB costs more than it saves.
type sink struct{ w *responseWriter }

func (s sink) Write(p []byte) (int, error) {
	w := s.w
	switch {
	case w.zw != nil:
		return w.zw.Write(p)
	case w.gzipped && !w.sent && w.heldLen()+len(p) > w.m.o.respBuffer:
		if err := w.startGzip(); err != nil {
			return 0, err
		}
		return w.zw.Write(p)
	}
	return w.emit(p)
}

func (w *responseWriter) Write(p []byte) (int, error) {
	if w.code == 0 && !w.sent {
		w.code = http.StatusOK
	}
	if w.err != nil {
		return 0, w.err
	}
	if len(p) == 0 && !w.decided {
		return 0, nil // nothing to sniff yet
	}
	w.decide(p)
	switch {
	case w.err != nil:
		return 0, w.err
	case w.wr == nil || w.hijack:
		w.send()
		return w.rw.Write(p)
	}
	var n int
	var err error
	if w.dec != nil {
		n, err = w.dec.Write(p)
	} else {
		n, err = w.wr.Write(p)
	}
	if err != nil {
		w.fail(err)
	}
	return n, err
}

// fail handles an error of the checked body. A body that was rejected
// (500) or does not decode (502) is answered so if nothing was sent yet,
// and aborted by a panic with [http.ErrAbortHandler] otherwise, so that the
// client sees a broken response.
func (w *responseWriter) fail(err error) {
	if w.err != nil {
		return
	}
	w.err = err
	var code int
	var msg string
	var e *utf8stream.Error
	var c *corruptError
	switch {
	case errors.As(err, &e):
		code, msg = http.StatusInternalServerError, "invalid UTF-8 in response body"
	case errors.As(err, &c):
		code, msg = http.StatusBadGateway, "corrupt "+c.coding+" response body"
	default:
		return // the connection failed: nothing more can be sent
	}
	if w.sent {
		w.abort()
	}
	w.answer(code, msg)
}

// abort ends a response of which bytes went out with a panic with
// [http.ErrAbortHandler], on which net/http resets an HTTP/2 stream and
// closes an HTTP/1.x connection short of the body's Content-Length or last
// chunk. A body with neither, as to an HTTP/1.0 client, ends at that close
// and would look complete, so its connection is reset first, after the
// bytes written so far are flushed.
func (w *responseWriter) abort() {
	h := w.rw.Header()
	if _, sized := h["Content-Length"]; !sized && (w.http10 || h.Get("Transfer-Encoding") == "identity") {
		rc := http.NewResponseController(w.rw)
		rc.Flush()
		if c, _, err := rc.Hijack(); err == nil {
			if tc, ok := c.(interface{ SetLinger(int) error }); ok {
				tc.SetLinger(0) // a close sends a reset, not the end of the body
			}
			c.Close()
		}
	}
	panic(http.ErrAbortHandler)
}

// answer discards what is held and answers the request with code and msg,
// with the header fields that described the handler's body removed. The
// answer is complete, with a Content-Length, so that it reaches the client
// intact even if the handler then aborts.
func (w *responseWriter) answer(code int, msg string) {
	w.answered = true
	if w.hold != nil {
		*w.hold = (*w.hold)[:0]
	}
	h := w.rw.Header()
	for _, k := range [...]string{"Content-Encoding", "Content-Range", "Etag", "Last-Modified", "Trailer"} {
		delete(h, k)
	}
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(msg)+1))
	w.sent = true
	w.rw.WriteHeader(code)
	io.WriteString(w.rw, msg+"\n")
}

// Flush sends what the handler wrote except an unfinished sequence at its
// end, which waits for the bytes that complete it or for the handler to
// return. A Flush before any byte of a checked body sends nothing, not
// even the status.
func (w *responseWriter) Flush() { w.FlushError() }

// FlushError is Flush for [http.ResponseController], which returns the
// error of the wrapped ResponseWriter.
func (w *responseWriter) FlushError() error {
	switch {
	case w.answered:
	case !w.decided:
		return nil // nothing written: the status waits for the body
	case w.wr == nil || w.hijack:
		w.send()
	case w.err != nil || !w.sent && !w.held() && w.zw == nil:
		return nil
	default:
		if w.gzipped && w.zw == nil {
			if err := w.startGzip(); err != nil {
				return err
			}
		}
		if w.zw != nil {
			if err := w.zw.Flush(); err != nil {
				return err
			}
		}
		if err := w.commit(); err != nil {
			return err
		}
	}
	return http.NewResponseController(w.rw).Flush()
}

// Hijack lets the handler take over the connection, for
// [http.ResponseController]. What the Writer holds back is discarded.
func (w *responseWriter) Hijack() (c net.Conn, rw *bufio.ReadWriter, err error) {
	c, rw, err = http.NewResponseController(w.rw).Hijack()
	if err == nil {
		w.hijack, w.sent, w.decided = true, true, true
	}
	return c, rw, err
}

// finish writes what is held back once the handler has returned, and the
// status if no body was written. A body sent whole gets a Content-Length.
func (w *responseWriter) finish() {
	if w.hijack || w.err != nil {
		return
	}
	w.decide(nil)
	if w.err != nil {
		return
	}
	if w.dec != nil {
		if err := w.dec.Close(); err != nil {
			w.fail(err)
			return
		}
	}
	if w.wr != nil {
		if err := w.wr.Close(); err != nil {
			w.fail(err)
			return
		}
	}
	if w.zw != nil {
		w.zw.Close() // an error is the connection's: nothing more can be sent
	}
	if w.wr != nil && !w.sent {
		// Held whole (compressed or not): its length is known.
		h := w.rw.Header()
		_, cl := h["Content-Length"]
		_, tr := h["Trailer"]
		if !cl && !tr {
			h.Set("Content-Length", strconv.Itoa(w.heldLen()))
		}
	}
	w.commit()
}

// release ends the decoder and returns what w took from pools.
func (w *responseWriter) release() {
	if w.dec != nil {
		w.dec.stop()
	}
	if w.zw != nil {
		freeGzipWriter(w.zw)
		w.zw = nil
	}
	if w.hold != nil {
		w.m.freeHold(w.hold)
		w.hold = nil
	}
	if w.wr != nil {
		w.m.freeWriter(w.wr)
		w.wr = nil
	}
}

// pushDecoder decodes a compressed response body as the handler writes it.
// The decompressors of compress/gzip and compress/flate pull their input,
// so the decoder runs as a coroutine ([iter.Pull]): Write hands it p and
// resumes it, and it runs until it has decoded and written to out all that
// p makes decodable and waits for more. Only one side runs at a time, so
// out and the ResponseWriter behind it are used as if by one goroutine.
type pushDecoder struct {
	coding string
	out    io.Writer // the policy's Writer
	in     feed
	next   func() (struct{}, bool)
	cancel func()
	err    error // nil while the decoder runs; errDone at a clean end
	werr   error // an error of out
}

// errDone is the end of a body that decoded completely.
var errDone = errors.New("done")

// errStopped is what the feed returns when the decoder is stopped early.
var errStopped = errors.New("utf8http: response ended")

func (d *pushDecoder) Write(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	if d.next == nil {
		d.next, d.cancel = iter.Pull(d.run)
	}
	d.in.buf = p
	d.next()
	n := len(p) - len(d.in.buf)
	d.in.buf = nil
	if d.err != nil {
		return n, d.err
	}
	return n, nil
}

// Close tells the decoder that the body has ended and returns the error
// that ended it, if any.
func (d *pushDecoder) Close() error {
	d.in.eof = true
	if d.err == nil && d.next != nil {
		d.next()
	}
	if d.err == errDone {
		return nil
	}
	return d.err
}

// stop ends the coroutine if it still runs.
func (d *pushDecoder) stop() {
	if d.cancel != nil {
		d.cancel()
	}
}

// run is the coroutine.
func (d *pushDecoder) run(yield func(struct{}) bool) {
	d.in.yield = yield
	c := codecGzip
	if d.coding == "deflate" {
		// HTTP's deflate is the zlib format (RFC 9110, section 8.4.1.2),
		// but some servers send raw deflate.
		c = codecZlib
		if b0, b1, ok := d.in.peek2(); ok && !isZlibHeader(b0, b1) {
			c = codecFlate
		}
	}
	z, err := openDecoder(c, &d.in)
	if err == nil {
		err = d.copy(z)
		closeDecoder(c, z)
	}
	switch {
	case err == nil || d.in.total == 0 && d.in.eof && !d.in.stopped:
		d.err = errDone // an empty body counts as empty text
	case d.werr != nil:
		d.err = d.werr
	case d.in.stopped:
		d.err = errStopped
	default:
		d.err = &corruptError{d.coding, "response body", err}
	}
}

// copy writes what z decodes to out, and then looks for data after the end
// of the compressed stream.
func (d *pushDecoder) copy(z io.Reader) error {
	bp, _ := copyBufs.Get().(*[copySize]byte)
	if bp == nil {
		bp = new([copySize]byte)
	}
	defer copyBufs.Put(bp)
	for {
		n, err := z.Read(bp[:])
		if n > 0 {
			if d.in.stopped {
				return errStopped
			}
			if _, werr := d.out.Write(bp[:n]); werr != nil {
				d.werr = werr
				return werr
			}
		}
		switch {
		case err == io.EOF:
			// gzip reads the members that follow to the end; zlib and
			// flate stop after their stream.
			if d.in.more() {
				return errTrailing
			}
			return nil
		case err != nil:
			return err
		}
	}
}

// feed is the input of a pushDecoder: the bytes of the handler's Write,
// and a wait for the next Write when they are used up.
type feed struct {
	buf     []byte // what is left of the handler's p
	pre     []byte // bytes peek2 read, to be read again
	peek    [2]byte
	total   int64 // bytes taken from buf
	eof     bool  // the handler returned
	stopped bool  // the coroutine was cancelled
	yield   func(struct{}) bool
}

// wait waits for input, and reports whether there is some.
func (f *feed) wait() bool {
	for len(f.buf) == 0 {
		if f.eof || f.stopped {
			return false
		}
		if !f.yield(struct{}{}) {
			f.stopped = true
			return false
		}
	}
	return true
}

func (f *feed) end() error {
	if f.stopped {
		return errStopped
	}
	return io.EOF
}

func (f *feed) Read(p []byte) (int, error) {
	if len(f.pre) > 0 {
		n := copy(p, f.pre)
		f.pre = f.pre[n:]
		return n, nil
	}
	if len(p) == 0 {
		return 0, nil
	}
	if !f.wait() {
		return 0, f.end()
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	f.total += int64(n)
	return n, nil
}

func (f *feed) ReadByte() (byte, error) {
	if len(f.buf) > 0 && len(f.pre) == 0 {
		c := f.buf[0]
		f.buf = f.buf[1:]
		f.total++
		return c, nil
	}
	return f.readByteSlow()
}

// readByteSlow is ReadByte when it may wait.
func (f *feed) readByteSlow() (byte, error) {
	if len(f.pre) > 0 {
		c := f.pre[0]
		f.pre = f.pre[1:]
		return c, nil
	}
	if !f.wait() {
		return 0, f.end()
	}
	c := f.buf[0]
	f.buf = f.buf[1:]
	f.total++
	return c, nil
}

// peek2 returns the first two bytes of the input, which are then read
// again, and reports whether there are two.
func (f *feed) peek2() (b0, b1 byte, ok bool) {
	n := 0
	for ; n < 2; n++ {
		c, err := f.ReadByte()
		if err != nil {
			break
		}
		f.peek[n] = c
	}
	f.pre = f.peek[:n]
	return f.peek[0], f.peek[1], n == 2
}

// more waits for input after the end of a compressed stream, and reports
// whether any comes.
func (f *feed) more() bool { return len(f.pre) > 0 || f.wait() }
