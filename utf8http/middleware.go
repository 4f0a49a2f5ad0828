package utf8http

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/utf8stream/utf8stream"
	"golang.org/x/text/transform"
)

// Middleware returns a function that wraps an [http.Handler] so that policy
// p applies to the request bodies of the media types [ContentTypes] lists.
//
// Such a body is read through a [utf8stream.Reader] as the handler reads it:
// nothing is read ahead and memory stays constant. Under
// [utf8stream.Reject] with no [StreamOptions], the handler gets the valid
// bytes unchanged and then an *[utf8stream.Error] from Body.Read;
// [WriteError] answers it with a 400. Under any other policy, or with
// StreamOptions (some of which change valid input), the body may change
// size, so the handler sees ContentLength -1 and no Content-Length header,
// and the request can be forwarded. [Prevalidate] checks the body before the
// handler runs instead.
//
// A request body with no Content-Type, or a malformed one, is checked as
// well. A body of another media type, such as application/octet-stream,
// passes untouched unless [AllRequestBodies] is given, and so does one that
// declares a charset other than UTF-8, which gets 415 with [RequireUTF8];
// a charset on a JSON body changes nothing, since JSON is UTF-8. With
// [Responses], the response body goes through a [utf8stream.Writer] too.
// [CheckURL] adds a check of the URL. [BodyStats] and [OnStats] report what
// was found.
//
// Middleware does not modify the request it is given: the handler gets a
// shallow copy.
func Middleware(p utf8stream.Policy, opts ...Option) func(http.Handler) http.Handler {
	var o options
	for _, f := range opts {
		f(&o)
	}
	if !o.typesSet {
		o.types = defaultContentTypes
	}
	m := &middleware{
		p:       p,
		o:       o,
		resizes: p != utf8stream.Reject || len(o.stream) > 0,
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			m.serve(next, w, r)
		})
	}
}

type middleware struct {
	p       utf8stream.Policy
	o       options
	resizes bool // the output may differ in length from valid input
}

// exchange is the state of one request that Middleware checks. It is the
// context value that BodyStats finds.
type exchange struct {
	rd    *utf8stream.Reader // nil if the request body is not checked
	body  body
	stats utf8stream.Stats // the request body's Stats when rd is nil but Prevalidate ran
	resp  responseWriter
}

type ctxKey struct{}

// body is a checked request body: reads go through the Reader, and Close
// closes the original body.
type body struct {
	rd *utf8stream.Reader
	c  io.Closer
}

func (b *body) Read(p []byte) (int, error) { return b.rd.Read(p) }
func (b *body) Close() error               { return b.c.Close() }

var noStats = utf8stream.Stats{First: -1}

func (m *middleware) serve(next http.Handler, w http.ResponseWriter, r *http.Request) {
	if m.o.checkURL {
		if !m.validURL(w, r) {
			return
		}
	}
	var x *exchange
	if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 && r.Method != http.MethodHead {
		switch m.requestType(r.Header["Content-Type"]) {
		case refuse:
			http.Error(w, "request body charset is not UTF-8", http.StatusUnsupportedMediaType)
			return
		case check:
			x = &exchange{stats: noStats}
			x.rd = utf8stream.NewReader(r.Body, m.p, m.o.stream...)
		}
	}
	if x == nil && !m.o.responses {
		next.ServeHTTP(w, r)
		return
	}
	if x == nil {
		x = &exchange{stats: noStats}
	}
	r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, x))
	if m.o.onStats != nil {
		defer m.report(x, r)
	}
	if x.rd != nil {
		if m.o.prevalidate > 0 {
			if !m.prevalidate(x, w, r) {
				return
			}
		} else {
			x.body = body{x.rd, r.Body}
			r.Body = &x.body
			r.GetBody = nil // it would give the unchecked bytes
			if m.resizes {
				r.ContentLength = -1
				if _, ok := r.Header["Content-Length"]; ok {
					r.Header = withoutHeader(r.Header, "Content-Length")
				}
			}
		}
	}
	if !m.o.responses {
		next.ServeHTTP(w, r)
		return
	}
	x.resp = responseWriter{rw: w, m: m, head: r.Method == http.MethodHead}
	next.ServeHTTP(&x.resp, r)
	x.resp.finish()
}

// report calls the OnStats function.
func (m *middleware) report(x *exchange, r *http.Request) {
	body, resp := x.stats, noStats
	if x.rd != nil && m.o.prevalidate <= 0 {
		body = x.rd.Stats()
	}
	if x.resp.wr != nil {
		resp = x.resp.wr.Stats()
	}
	m.o.onStats(r, body, resp)
}

// prevalidate reads the whole body through x.rd and gives it to the handler
// in r, or answers the request and reports false.
func (m *middleware) prevalidate(x *exchange, w http.ResponseWriter, r *http.Request) bool {
	orig := r.Body
	x.rd.Reset(http.MaxBytesReader(w, orig, m.o.prevalidate))
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
	orig.Close()
	r.Body = io.NopCloser(bytes.NewReader(data))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	r.ContentLength = int64(len(data))
	if n := strconv.Itoa(len(data)); r.Header.Get("Content-Length") != n {
		r.Header = withoutHeader(r.Header, "Content-Length")
		r.Header["Content-Length"] = []string{n}
	}
	return true
}

// withoutHeader returns a copy of h without the canonical key. The copy
// shares the value slices, capped so that an append does not write into h.
func withoutHeader(h http.Header, key string) http.Header {
	c := make(http.Header, len(h))
	for k, v := range h {
		if k != key {
			c[k] = v[:len(v):len(v)]
		}
	}
	return c
}

// validURL checks the path and query of r's URL, or answers 400 and
// reports false.
func (m *middleware) validURL(w http.ResponseWriter, r *http.Request) bool {
	t := utf8stream.NewTransformer(utf8stream.Reject, m.o.stream...)
	valid := func(s string) bool {
		_, _, err := transform.String(t, s)
		return err == nil
	}
	if !valid(r.URL.Path) {
		http.Error(w, "invalid UTF-8 in URL path", http.StatusBadRequest)
		return false
	}
	for q := r.URL.RawQuery; q != ""; {
		var kv string
		kv, q, _ = strings.Cut(q, "&")
		k, v, _ := strings.Cut(kv, "=")
		for _, s := range [2]string{k, v} {
			if s, err := url.QueryUnescape(s); err == nil && !valid(s) {
				http.Error(w, "invalid UTF-8 in URL query", http.StatusBadRequest)
				return false
			}
		}
	}
	return true
}

// BodyStats returns the counts of ill-formed input that [Middleware] found
// so far in the request body of r, which must be the request the handler got
// or one derived from its context. It reports false if Middleware did not
// check the body. Call it from the goroutine that reads the body.
func BodyStats(r *http.Request) (utf8stream.Stats, bool) {
	x, _ := r.Context().Value(ctxKey{}).(*exchange)
	switch {
	case x == nil || x.rd == nil:
		return noStats, false
	case x.body.rd == nil:
		return x.stats, true // Prevalidate read the body
	}
	return x.rd.Stats(), true
}

// WriteError answers a request with 400 Bad Request and the plain text
// "invalid UTF-8 in request body at byte N" if err is or wraps an *[utf8stream.Error],
// and reports whether it did. A handler calls it with the error its
// Body.Read returned under [utf8stream.Reject].
func WriteError(w http.ResponseWriter, err error) bool {
	var e *utf8stream.Error
	if !errors.As(err, &e) {
		return false
	}
	http.Error(w, "invalid UTF-8 in request body at byte "+strconv.FormatInt(e.Offset, 10), http.StatusBadRequest)
	return true
}
