package utf8http

import (
	"bytes"
	"errors"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"

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

// prevalidate reads the whole body through x.rd and gives it to the handler
// in r, or answers the request and reports false. The limit applies to the
// decoded body and to what the policy makes of it.
func (m *middleware) prevalidate(x *exchange, w http.ResponseWriter, r *http.Request) bool {
	x.rd.Reset(http.MaxBytesReader(w, io.NopCloser(x.src), m.o.prevalidate))
	// One byte past the limit tells a body that repairs to more.
	n := m.o.prevalidate
	if n < math.MaxInt64 {
		n++
	}
	data, err := io.ReadAll(io.LimitReader(x.rd, n))
	x.stats = x.rd.Stats()
	if err == nil && int64(len(data)) > m.o.prevalidate {
		err = &http.MaxBytesError{Limit: m.o.prevalidate}
	}
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
