package utf8http

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/utf8stream/utf8stream"
)

// body is a checked request body: reads go through the Reader, and Close
// closes the original body.
type body struct {
	rd *utf8stream.Reader
	c  io.Closer
}

func (b *body) Read(p []byte) (int, error) { return b.rd.Read(p) }
func (b *body) Close() error               { return b.c.Close() }

// contentCoding returns the content coding of a request body with the
// Content-Encoding header h: "" for none or identity, "gzip" (or x-gzip) or
// "deflate". It reports false for any other coding and for two or more
// codings applied one over the other.
func contentCoding(h []string) (coding string, ok bool) {
	for _, v := range h {
		for v != "" {
			var c string
			c, v, _ = strings.Cut(v, ",")
			c = strings.TrimSpace(c)
			switch {
			case c == "" || strings.EqualFold(c, "identity"):
				continue
			case coding != "":
				return "", false
			case strings.EqualFold(c, "gzip") || strings.EqualFold(c, "x-gzip"):
				coding = "gzip"
			case strings.EqualFold(c, "deflate"):
				coding = "deflate"
			default:
				return "", false
			}
		}
	}
	return coding, true
}

// decoder decodes a compressed request body. It makes its decompressor at
// the first Read, so that nothing is read before the handler reads (and a
// client that sent "Expect: 100-continue" is not asked for the body early).
type decoder struct {
	coding string        // "gzip" or "deflate"
	src    source        // the compressed body
	br     *bufio.Reader // buffers src for the decompressor
	r      io.Reader     // the decompressor, nil before the first Read
	err    error         // sticky
}

// errTrailing is the error of a compressed body with data after its end.
var errTrailing = errors.New("data after the end")

func (d *decoder) Read(p []byte) (n int, err error) {
	if d.err != nil {
		return 0, d.err
	}
	if d.r == nil {
		d.br = bufio.NewReader(&d.src)
		if d.coding == "gzip" {
			d.r, err = gzip.NewReader(d.br)
		} else {
			// HTTP's deflate is the zlib format (RFC 9110, section 8.4.1.2).
			d.r, err = zlib.NewReader(d.br)
		}
		if err != nil {
			d.err = d.fail(err)
			return 0, d.err
		}
	}
	n, err = d.r.Read(p)
	switch {
	case err == io.EOF:
		// gzip reads the members that follow to the end; zlib stops after
		// its stream, so look for more data.
		if _, err := d.br.ReadByte(); err != io.EOF {
			if err == nil {
				err = errTrailing
			}
			d.err = d.fail(err)
			return n, d.err
		}
		d.err = io.EOF
		return n, io.EOF
	case err != nil:
		d.err = d.fail(err)
		err = d.err
	}
	return n, err
}

// fail returns the error to report for err, an error of the decompressor:
// the error of the request body, if reading it failed, and otherwise a
// *corruptError.
func (d *decoder) fail(err error) error {
	if d.src.err != nil {
		return d.src.err
	}
	return &corruptError{d.coding, err}
}

// source is a request body that keeps its first read error other than
// io.EOF, so that a decoder can tell a failed read from corrupt data.
type source struct {
	r   io.Reader
	err error
}

func (s *source) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// corruptError is the error of a compressed request body that does not
// decode: one that is not in its declared format, is truncated, has a bad
// checksum or has data after its end.
type corruptError struct {
	coding string
	err    error
}

func (e *corruptError) Error() string {
	return "utf8http: corrupt " + e.coding + " request body: " + e.err.Error()
}

func (e *corruptError) Unwrap() error { return e.err }

// prevalidate reads the whole body through x.rd and gives it to the handler
// in r, or answers the request and reports false. The limit applies to the
// decoded body.
func (m *middleware) prevalidate(x *exchange, w http.ResponseWriter, r *http.Request) bool {
	x.rd.Reset(http.MaxBytesReader(w, io.NopCloser(x.src), m.o.prevalidate))
	data, err := io.ReadAll(x.rd)
	x.stats = x.rd.Stats()
	if err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		case !WriteError(w, err):
			http.Error(w, "cannot read request body", http.StatusBadRequest)
		}
		return false
	}
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(data))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	r.ContentLength = int64(len(data))
	if n := strconv.Itoa(len(data)); r.Header.Get("Content-Length") != n {
		r.Header = withoutHeader(r.Header, "Content-Length")
		r.Header["Content-Length"] = []string{n}
	}
	return true
}

// withoutHeader returns a copy of h without the canonical keys. The copy
// shares the value slices, capped so that an append does not write into h.
func withoutHeader(h http.Header, keys ...string) http.Header {
	c := make(http.Header, len(h))
	for k, v := range h {
		if !slices.Contains(keys, k) {
			c[k] = v[:len(v):len(v)]
		}
	}
	return c
}
