package utf8http

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/utf8stream/utf8stream"
	"golang.org/x/text/transform"
)

// Middleware returns a function that wraps an [http.Handler] so that policy
// p applies to the request bodies it checks: those of the media types
// [ContentTypes] lists that declare no charset or UTF-8, JSON whatever its
// charset, and those with no Content-Type or a malformed one. Bodies of
// other types pass untouched unless [AllRequestBodies] is given; one that
// declares another charset gets 415 with [RequireUTF8]. The package
// documentation says why.
//
// A checked body is read through a [utf8stream.Reader] as the handler reads
// it: nothing is read ahead and memory stays constant. Under
// [utf8stream.Reject] with no [StreamOptions], the handler gets the valid
// bytes unchanged and then an *[utf8stream.Error] from Body.Read, which
// [WriteError] answers with 400. Under any other policy, or with
// StreamOptions (some of which change valid input), the body may change
// size, so the handler sees ContentLength -1 and no Content-Length header,
// and the request can be forwarded. [Prevalidate] checks the body before
// the handler runs instead; it buffers up to its limit per request, so a
// server that uses it should set [http.Server.ReadTimeout].
//
// A checked body with Content-Encoding gzip or deflate is decoded, checked
// and handed on decoded, without Content-Encoding and Content-Length and
// with ContentLength -1; the decompressor is made at the handler's first
// Read. If the body does not decode, Body.Read returns an error that
// WriteError answers with 400 "corrupt gzip request body" (or deflate). A
// checked body in any other coding, or in two codings, gets 415
// Unsupported Media Type with an Accept-Encoding header. A body that is not
// checked passes untouched, encoded or not.
//
// With [Responses], the response body goes through a [utf8stream.Writer]
// too, decoded first if it is in gzip or deflate, and its status and first
// bytes are held back (see [ResponseBuffer]). [CheckURL] adds a check of
// the URL.
// [BodyStats] and [OnStats] report what was found.
//
// Middleware does not modify the request it is given: the handler gets a
// shallow copy.
func Middleware(p utf8stream.Policy, opts ...Option) func(http.Handler) http.Handler {
	m := newMiddleware(p, opts)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			m.serve(next, w, r)
		})
	}
}

// newMiddleware applies opts to the defaults.
func newMiddleware(p utf8stream.Policy, opts []Option) *middleware {
	o := options{respBuffer: defaultResponseBuffer}
	for _, f := range opts {
		f(&o)
	}
	if !o.typesSet {
		o.types = defaultContentTypes
	}
	return &middleware{
		p:       p,
		o:       o,
		resizes: p != utf8stream.Reject || len(o.stream) > 0,
	}
}

type middleware struct {
	p       utf8stream.Policy
	o       options
	resizes bool      // the output may differ in length from valid input
	writers sync.Pool // *utf8stream.Writer
	holds   sync.Pool // *[]byte of capacity o.respBuffer
}

// newWriter returns a pooled Writer of m's policy and options writing to
// out.
func (m *middleware) newWriter(out io.Writer) *utf8stream.Writer {
	if wr, ok := m.writers.Get().(*utf8stream.Writer); ok {
		wr.Reset(out)
		return wr
	}
	return utf8stream.NewWriter(out, m.p, m.o.stream...)
}

func (m *middleware) freeWriter(wr *utf8stream.Writer) {
	wr.Reset(io.Discard)
	m.writers.Put(wr)
}

// holdBuf returns an empty pooled buffer of capacity o.respBuffer.
func (m *middleware) holdBuf() *[]byte {
	if b, ok := m.holds.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, 0, m.o.respBuffer)
	return &b
}

func (m *middleware) freeHold(b *[]byte) {
	*b = (*b)[:0]
	m.holds.Put(b)
}

// exchange is the state of one request that Middleware checks. It is the
// context value that BodyStats finds.
type exchange struct {
	rd    *utf8stream.Reader // nil if the request body is not checked
	src   io.Reader          // what rd reads: the request body or dec
	dec   decoder            // the decoder of a compressed body
	body  body
	stats utf8stream.Stats // the request body's Stats when rd is nil but Prevalidate ran
	resp  responseWriter
}

type ctxKey struct{}

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
			coding, ok := contentCoding(r.Header["Content-Encoding"])
			if !ok {
				w.Header().Set("Accept-Encoding", "gzip, deflate")
				http.Error(w, "request body Content-Encoding is not supported", http.StatusUnsupportedMediaType)
				return
			}
			x = &exchange{stats: noStats}
			x.src = r.Body
			if coding != "" {
				x.dec = decoder{coding: coding, what: "request body", src: source{r: r.Body}}
				x.src = &x.dec
			}
			x.rd = utf8stream.NewReader(x.src, m.p, m.o.stream...)
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
	defer m.done(x, r)
	if x.rd != nil {
		if x.dec.coding != "" {
			// The handler gets the decoded body, of unknown length.
			r.Header = withoutHeader(r.Header, "Content-Encoding", "Content-Length")
			r.ContentLength = -1
		}
		if m.o.prevalidate > 0 {
			if !m.prevalidate(x, w, r) {
				return
			}
		} else {
			x.body = body{x.rd, r.Body}
			r.Body = &x.body
			r.GetBody = nil // it would give the unchecked bytes
			if m.resizes && r.ContentLength != -1 {
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
	x.resp = responseWriter{rw: w, m: m, head: r.Method == http.MethodHead, http10: !r.ProtoAtLeast(1, 1)}
	ae := r.Header["Accept-Encoding"]
	x.resp.gzipOK = acceptsGzip(ae)
	_, ranged := r.Header["Range"]
	if v, changed := decodableCodings(ae); changed || ranged {
		// Ask the handler, and an upstream behind it, for codings that
		// can be decoded, and for whole bodies: a part of one may begin or
		// end within a sequence, or within a compressed stream.
		r.Header = withoutHeader(r.Header, "Accept-Encoding", "Range", "If-Range")
		switch {
		case changed:
			r.Header["Accept-Encoding"] = []string{v}
		case ae != nil:
			r.Header["Accept-Encoding"] = ae
		}
	}
	m.serveResponse(next, x, r)
}

// serveResponse runs the handler with x.resp. If Middleware answered the
// request with an error of its own and the handler then aborted with
// [http.ErrAbortHandler], as httputil.ReverseProxy does when a Write
// fails, the abort is recovered: the answer is complete and goes out as it
// is.
func (m *middleware) serveResponse(next http.Handler, x *exchange, r *http.Request) {
	defer func() {
		if x.resp.answered {
			if v := recover(); v != nil && v != http.ErrAbortHandler {
				panic(v)
			}
		}
	}()
	next.ServeHTTP(&x.resp, r)
	x.resp.finish()
}

// done calls the OnStats function, if any, and then returns what the
// exchange took from pools.
func (m *middleware) done(x *exchange, r *http.Request) {
	if m.o.onStats != nil {
		m.report(x, r)
	}
	if x.rd != nil {
		x.dec.release()
	}
	x.resp.release()
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

// WriteError answers a request with 400 Bad Request if err comes from a
// request body that [Middleware] checked, and reports whether it did. A
// handler calls it with the error its Body.Read returned. The plain text of
// the answer is "invalid UTF-8 in request body at byte N" if err is or wraps
// an *[utf8stream.Error], which [utf8stream.Reject] returns, with N counted
// in the decoded body if it was compressed, and "corrupt gzip request body"
// (or deflate) if the compressed body could not be decoded.
func WriteError(w http.ResponseWriter, err error) bool {
	var e *utf8stream.Error
	if errors.As(err, &e) {
		http.Error(w, "invalid UTF-8 in request body at byte "+strconv.FormatInt(e.Offset, 10), http.StatusBadRequest)
		return true
	}
	var c *corruptError
	if errors.As(err, &c) {
		http.Error(w, "corrupt "+c.coding+" request body", http.StatusBadRequest)
		return true
	}
	return false
}
