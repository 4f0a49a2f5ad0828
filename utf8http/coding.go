package utf8http

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"strings"
	"sync"
)

// contentCoding returns the content coding of a body with the
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

// decodable reports whether c, an Accept-Encoding coding, is one that the
// package decodes: gzip, x-gzip, deflate or identity.
func decodable(c string) bool {
	for _, d := range [...]string{"gzip", "x-gzip", "deflate", "identity"} {
		if strings.EqualFold(c, d) {
			return true
		}
	}
	return false
}

// decodableCodings returns the Accept-Encoding header h limited to the
// codings the package decodes, each element kept as it is with its
// weight, and reports whether that differs from h. If no element is left,
// it returns "identity". A missing header is left missing: a Go client (and
// httputil.ReverseProxy's transport) then asks for gzip and decodes it.
func decodableCodings(h []string) (v string, changed bool) {
	var b strings.Builder
	for _, f := range h {
		for f != "" {
			var e string
			e, f, _ = strings.Cut(f, ",")
			e = strings.TrimSpace(e)
			if e == "" {
				continue
			}
			c, _, _ := strings.Cut(e, ";")
			if !decodable(strings.TrimSpace(c)) {
				changed = true
				continue
			}
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString(e)
		}
	}
	if !changed {
		return "", false
	}
	if b.Len() == 0 {
		return "identity", true
	}
	return b.String(), true
}

// acceptsGzip reports whether the Accept-Encoding header h accepts gzip:
// it names gzip or x-gzip with a weight other than 0, or, naming neither,
// names "*" with a weight other than 0 (RFC 9110, section 12.5.3).
func acceptsGzip(h []string) bool {
	named, star := 0, 0 // 0: not named, 1: accepted, -1: refused (q=0)
	for _, f := range h {
		for f != "" {
			var e string
			e, f, _ = strings.Cut(f, ",")
			c, params, _ := strings.Cut(e, ";")
			verdict := 1
			if zeroWeight(params) {
				verdict = -1
			}
			switch c = strings.TrimSpace(c); {
			case strings.EqualFold(c, "gzip") || strings.EqualFold(c, "x-gzip"):
				if named >= 0 {
					named = verdict
				}
			case c == "*":
				star = verdict
			}
		}
	}
	if named != 0 {
		return named > 0
	}
	return star > 0
}

// zeroWeight reports whether the parameters of an Accept-Encoding element
// give it the weight 0: "q=0", "q=0.", "q=0.0" and so on.
func zeroWeight(params string) bool {
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		k, v, _ := strings.Cut(p, "=")
		if !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		v = strings.TrimSpace(v)
		if v == "" || v[0] != '0' {
			return false
		}
		v = strings.TrimPrefix(v[1:], ".")
		return strings.Trim(v, "0") == ""
	}
	return false
}

// isZlibHeader reports whether b0 and b1 begin a zlib stream (RFC 1950):
// the method deflate, a window of at most 32 KiB, and a check that makes
// b0<<8|b1 a multiple of 31. Raw deflate data, which some servers send as
// "deflate", almost never begins so.
func isZlibHeader(b0, b1 byte) bool {
	return b0&0x0f == 8 && b0>>4 <= 7 && (uint16(b0)<<8|uint16(b1))%31 == 0
}

// Pools of decompressors and compressors, so that a compressed body costs
// little more per request than the work of the codec itself.
var (
	gzipReaders  sync.Pool // *gzip.Reader
	zlibReaders  sync.Pool // zlib's io.ReadCloser, a zlib.Resetter
	flateReaders sync.Pool // flate's io.ReadCloser, a flate.Resetter
	gzipWriters  sync.Pool // *gzip.Writer at level gzipLevel
	bufReaders   sync.Pool // *bufio.Reader
	copyBufs     sync.Pool // *[copySize]byte
)

// gzipLevel is the level at which Middleware compresses a response it
// decoded: the fastest, since the response is compressed anew on every
// request.
const gzipLevel = gzip.BestSpeed

// copySize is the size of the buffer through which a decoded response
// goes.
const copySize = 16 << 10

// A codec is how a body is coded, as openDecoder takes it.
type codec uint8

const (
	codecGzip  codec = iota + 1
	codecZlib        // deflate as RFC 9110 defines it
	codecFlate       // deflate without the zlib wrapper
)

// openDecoder returns a pooled decompressor of codec c reading from r. It
// reads the header of gzip and zlib data.
func openDecoder(c codec, r flate.Reader) (io.ReadCloser, error) {
	switch c {
	case codecGzip:
		if z, ok := gzipReaders.Get().(*gzip.Reader); ok {
			if err := z.Reset(r); err != nil {
				gzipReaders.Put(z)
				return nil, err
			}
			return z, nil
		}
		z, err := gzip.NewReader(r)
		if err != nil {
			return nil, err
		}
		return z, nil
	case codecZlib:
		if z, ok := zlibReaders.Get().(io.ReadCloser); ok {
			if err := z.(zlib.Resetter).Reset(r, nil); err != nil {
				zlibReaders.Put(z)
				return nil, err
			}
			return z, nil
		}
		return zlib.NewReader(r)
	}
	if z, ok := flateReaders.Get().(io.ReadCloser); ok {
		z.(flate.Resetter).Reset(r, nil)
		return z, nil
	}
	return flate.NewReader(r), nil
}

// closeDecoder returns z, a decompressor of codec c from openDecoder, to
// its pool.
func closeDecoder(c codec, z io.ReadCloser) {
	if z == nil {
		return
	}
	z.Close()
	switch c {
	case codecGzip:
		gzipReaders.Put(z)
	case codecZlib:
		zlibReaders.Put(z)
	default:
		flateReaders.Put(z)
	}
}

// newGzipWriter returns a pooled gzip.Writer writing to w.
func newGzipWriter(w io.Writer) *gzip.Writer {
	if z, ok := gzipWriters.Get().(*gzip.Writer); ok {
		z.Reset(w)
		return z
	}
	z, _ := gzip.NewWriterLevel(w, gzipLevel)
	return z
}

// freeGzipWriter returns z to its pool.
func freeGzipWriter(z *gzip.Writer) {
	z.Reset(io.Discard)
	gzipWriters.Put(z)
}

// decoder decodes a compressed body as it is read. It makes its
// decompressor at the first Read, so that nothing is read before the
// reader asks (and a client that sent "Expect: 100-continue" is not asked
// for the body early).
type decoder struct {
	coding string        // "gzip" or "deflate"
	what   string        // "request body" or "response body", for errors
	raw    bool          // deflate may also be raw deflate, without zlib's wrapper
	src    source        // the compressed body
	br     *bufio.Reader // buffers src for the decompressor
	c      codec
	r      io.ReadCloser // the decompressor, nil before the first Read
	err    error         // sticky
}

// errEmpty is the error of open for a compressed body of no bytes.
var errEmpty = errors.New("empty body")

// errTrailing is the error of a compressed body with data after its end.
var errTrailing = errors.New("data after the end")

func (d *decoder) Read(p []byte) (n int, err error) {
	if d.err != nil {
		return 0, d.err
	}
	if d.r == nil {
		if err := d.open(); err != nil {
			d.err = io.EOF // an empty body counts as empty text, as in responses
			if err != errEmpty {
				d.err = d.fail(err)
			}
			d.release()
			return 0, d.err
		}
	}
	n, err = d.r.Read(p)
	switch {
	case err == io.EOF:
		// gzip reads the members that follow to the end; zlib and flate
		// stop after their stream, so look for more data.
		if _, err := d.br.ReadByte(); err != io.EOF {
			if err == nil {
				err = errTrailing
			}
			d.err = d.fail(err)
		} else {
			d.err = io.EOF
		}
		d.release()
		return n, d.err
	case err != nil:
		d.err = d.fail(err)
		d.release()
		err = d.err
	}
	return n, err
}

// open makes the decompressor.
func (d *decoder) open() error {
	d.br, _ = bufReaders.Get().(*bufio.Reader)
	if d.br == nil {
		d.br = bufio.NewReader(&d.src)
	} else {
		d.br.Reset(&d.src)
	}
	if _, err := d.br.Peek(1); err == io.EOF {
		return errEmpty
	}
	d.c = codecGzip
	if d.coding == "deflate" {
		// HTTP's deflate is the zlib format (RFC 9110, section 8.4.1.2).
		d.c = codecZlib
		if d.raw {
			if b, err := d.br.Peek(2); err == nil && !isZlibHeader(b[0], b[1]) {
				d.c = codecFlate
			}
		}
	}
	var err error
	d.r, err = openDecoder(d.c, d.br)
	return err
}

// release returns the decompressor and its buffer to their pools, once the
// body is read to its end or failed, or is closed. Reads after it return
// the sticky error.
func (d *decoder) release() {
	closeDecoder(d.c, d.r)
	d.r = nil
	if d.br != nil {
		d.br.Reset(nil)
		bufReaders.Put(d.br)
		d.br = nil
	}
	if d.err == nil {
		d.err = errClosed
	}
}

// errClosed is the error of a read after Close.
var errClosed = errors.New("utf8http: read on closed body")

// fail returns the error to report for err, an error of the decompressor:
// the error of the body, if reading it failed, and otherwise a
// *corruptError.
func (d *decoder) fail(err error) error {
	if d.src.err != nil {
		return d.src.err
	}
	return &corruptError{d.coding, d.what, err}
}

// source is a body that keeps its first read error other than io.EOF, so
// that a decoder can tell a failed read from corrupt data.
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

// corruptError is the error of a compressed body that does not decode: one
// that is not in its declared format, is truncated, has a bad checksum or
// has data after its end.
type corruptError struct {
	coding string
	what   string // "request body" or "response body"
	err    error
}

func (e *corruptError) Error() string {
	return "utf8http: corrupt " + e.coding + " " + e.what + ": " + e.err.Error()
}

func (e *corruptError) Unwrap() error { return e.err }
