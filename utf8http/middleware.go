package utf8http

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/utf8stream/utf8stream"
	"golang.org/x/text/transform"
)

// defaultContentTypes are the media types whose bodies Middleware checks
// when no [ContentTypes] option is given.
var defaultContentTypes = []string{
	"text/*",
	"application/json",
	"*+json",
	"application/xml",
	"*+xml",
	"application/x-www-form-urlencoded",
	"application/x-ndjson",
}

// An Option changes what [Middleware] checks and how.
type Option func(*options)

// options holds the options of Middleware. Its zero value is the default.
type options struct {
	types       []string // nil means defaultContentTypes
	typesSet    bool     // ContentTypes was given, even with no types
	requireUTF8 bool
	prevalidate int64 // 0 or less: stream the body
	checkURL    bool
	responses   bool
	onStats     func(r *http.Request, body, response utf8stream.Stats)
	stream      []utf8stream.Option
}

// ContentTypes sets the media types whose bodies [Middleware] checks,
// replacing the default list: text/*, application/json, *+json,
// application/xml, *+xml, application/x-www-form-urlencoded and
// application/x-ndjson. A type is matched without its parameters and in
// any case; "type/*" matches every subtype of type, "*+suffix" every
// structured syntax suffix, and "*/*" everything. ContentTypes with no
// arguments makes Middleware check no body. A body with no Content-Type is
// never checked.
func ContentTypes(types ...string) Option {
	types = append([]string(nil), types...)
	return func(o *options) { o.types, o.typesSet = types, true }
}

// RequireUTF8 makes [Middleware] answer 415 Unsupported Media Type to a
// request whose body has a checked media type but declares a charset other
// than UTF-8 (named "utf-8" or "utf8" in any case). By default such a body
// is passed to the handler untouched. A body that declares no charset is
// taken to be UTF-8.
func RequireUTF8() Option {
	return func(o *options) { o.requireUTF8 = true }
}

// Prevalidate makes [Middleware] read a checked request body whole before
// the handler runs, up to limit bytes. A larger body gets 413 Request Entity
// Too Large, as from [http.MaxBytesReader]; under [utf8stream.Reject] an
// ill-formed body gets 400 Bad Request with the text "invalid UTF-8 in
// request body at byte N". Otherwise the handler gets the bytes the policy
// produced, with an exact ContentLength and Content-Length header. By
// default, or with a limit of 0 or less, the body is checked as the handler
// reads it and nothing is buffered.
func Prevalidate(limit int64) Option {
	return func(o *options) { o.prevalidate = limit }
}

// CheckURL makes [Middleware] also check the request's URL path and the
// keys and values of its query, after percent-decoding, and answer 400 Bad
// Request when one is ill-formed, whatever the policy. A query key or value
// whose percent-encoding is broken is left to the handler. Off by default.
func CheckURL() Option {
	return func(o *options) { o.checkURL = true }
}

// Responses makes [Middleware] also apply its policy to response bodies of
// a checked media type that does not declare a charset other than UTF-8.
// Off by default.
//
// The Content-Type is taken at WriteHeader, or sniffed from the first Write
// as net/http does; responses to HEAD and 204 and 304 responses are not
// checked. The handler writes through a [utf8stream.Writer]: when the policy
// may change the size of the body, the Content-Length header is deleted.
// Flush sends everything but an unfinished sequence at the end, which waits
// for the next Write or for the handler to return; the ResponseWriter has an
// Unwrap method, so [http.ResponseController] reaches Hijack, deadlines and
// the rest. The status is held back until the first byte, a Flush or the end
// of the handler: under [utf8stream.Reject], a response found ill-formed
// before that becomes a 500 Internal Server Error, and one found ill-formed
// later is aborted by a panic with [http.ErrAbortHandler], after the valid
// bytes before the error, so the client sees a broken response rather than
// ill-formed bytes.
func Responses() Option {
	return func(o *options) { o.responses = true }
}

// OnStats sets a function that [Middleware] calls once for each request it
// checked a body of, after the handler returns (or after Middleware
// answered the request itself), with the Stats of the request body and of
// the response body. The Stats of a body that was not checked are zero with
// First -1. By default nothing is called.
func OnStats(f func(r *http.Request, body, response utf8stream.Stats)) Option {
	return func(o *options) { o.onStats = f }
}

// StreamOptions passes opts to each [utf8stream.Reader] and
// [utf8stream.Writer] that [Middleware] makes, and to the check of
// [CheckURL]; several StreamOptions add up, in order. None by default.
// Options that change valid input, such as [utf8stream.StripBOM], apply to
// request and response bodies alike. An [utf8stream.OnInvalid] function is
// shared by concurrent requests, so it must be safe for concurrent use.
func StreamOptions(opts ...utf8stream.Option) Option {
	opts = append([]utf8stream.Option(nil), opts...)
	return func(o *options) { o.stream = append(o.stream, opts...) }
}

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
// A body that declares a charset other than UTF-8 is left alone, or gets
// 415 with [RequireUTF8]; other media types always pass untouched. With
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
		if ok, utf8 := m.textual(r.Header["Content-Type"]); ok {
			if !utf8 {
				if m.o.requireUTF8 {
					http.Error(w, "request body charset is not UTF-8", http.StatusUnsupportedMediaType)
					return
				}
			} else {
				x = &exchange{stats: noStats}
				x.rd = utf8stream.NewReader(r.Body, m.p, m.o.stream...)
			}
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

// textual reports whether the media type of a Content-Type header is one
// that m checks, and whether its charset, if any, is UTF-8.
func (m *middleware) textual(header []string) (ok, utf8 bool) {
	if len(header) == 0 {
		return false, false
	}
	mt, params, _ := strings.Cut(header[0], ";")
	mt = strings.TrimSpace(mt)
	if !matchType(mt, m.o.types) {
		return false, false
	}
	return true, isUTF8Charset(params)
}

// matchType reports whether media type mt matches one of the patterns.
func matchType(mt string, patterns []string) bool {
	typ, sub, ok := strings.Cut(mt, "/")
	if !ok || typ == "" || sub == "" {
		return false
	}
	for _, p := range patterns {
		switch {
		case p == "*/*" || p == "*":
			return true
		case strings.HasPrefix(p, "*+"):
			if len(sub) > len(p)-1 && strings.EqualFold(sub[len(sub)-(len(p)-1):], p[1:]) {
				return true
			}
		case strings.HasSuffix(p, "/*"):
			if strings.EqualFold(typ, p[:len(p)-2]) {
				return true
			}
		case strings.EqualFold(mt, p):
			return true
		}
	}
	return false
}

// isUTF8Charset reports whether the parameters of a media type declare no
// charset or UTF-8.
func isUTF8Charset(params string) bool {
	for params != "" {
		var kv string
		kv, params, _ = strings.Cut(params, ";")
		k, v, _ := strings.Cut(kv, "=")
		if !strings.EqualFold(strings.TrimSpace(k), "charset") {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"`)
		return strings.EqualFold(v, "utf-8") || strings.EqualFold(v, "utf8")
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

// responseWriter applies the policy to a textual response body. The status
// is held back until the first bytes go out, so that a response rejected
// before that can still become a 500.
type responseWriter struct {
	rw      http.ResponseWriter
	m       *middleware
	head    bool
	wr      *utf8stream.Writer // nil unless the body is checked
	code    int                // the status the handler set, or 0
	decided bool               // wr is settled
	sent    bool               // rw.WriteHeader was called
	hijack  bool               // the handler took over the connection
	err     error              // the *Error that ended a rejected response
}

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

// decide settles whether the body is checked, sniffing the Content-Type
// from p if the handler set none.
func (w *responseWriter) decide(p []byte) {
	if w.decided {
		return
	}
	w.decided = true
	if w.head || w.code == http.StatusNoContent || w.code == http.StatusNotModified {
		return
	}
	h := w.rw.Header()
	ct, ok := h["Content-Type"]
	if !ok && p != nil {
		ct = []string{http.DetectContentType(p)}
		h["Content-Type"] = ct
	}
	if ok, utf8 := w.m.textual(ct); !ok || !utf8 {
		return
	}
	if w.m.resizes {
		h.Del("Content-Length")
	}
	w.wr = utf8stream.NewWriter(sink{w}, w.m.p, w.m.o.stream...)
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

// sink is what the Writer writes to.
type sink struct{ w *responseWriter }

func (s sink) Write(p []byte) (int, error) {
	s.w.send()
	return s.w.rw.Write(p)
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
	if w.wr == nil || w.hijack {
		w.send()
		return w.rw.Write(p)
	}
	n, err := w.wr.Write(p)
	if err != nil {
		w.fail(err)
	}
	return n, err
}

// fail handles an error of the Writer. A rejected body becomes a 500 if
// nothing was sent yet, and aborts the response otherwise.
func (w *responseWriter) fail(err error) {
	var e *utf8stream.Error
	if !errors.As(err, &e) || w.err != nil {
		return
	}
	w.err = e
	if w.sent {
		panic(http.ErrAbortHandler)
	}
	w.code = 0
	http.Error(w.rw, "invalid UTF-8 in response body", http.StatusInternalServerError)
	w.sent = true
}

// Flush sends what the handler wrote except an unfinished sequence at its
// end, which waits for the bytes that complete it or for the handler to
// return.
func (w *responseWriter) Flush() { w.FlushError() }

// FlushError is Flush for [http.ResponseController], which returns the
// error of the wrapped ResponseWriter.
func (w *responseWriter) FlushError() error {
	w.decide(nil)
	w.send()
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

// finish writes what the Writer holds back once the handler has returned,
// and the status if no body was written.
func (w *responseWriter) finish() {
	if w.hijack || w.err != nil {
		return
	}
	w.decide(nil)
	if w.wr != nil {
		if err := w.wr.Close(); err != nil {
			w.fail(err)
			return
		}
	}
	w.send()
}
