package utf8http

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/utf8stream/utf8stream"
)

// Transport returns an [http.RoundTripper] that applies policy p to the
// bodies of the responses that base returns, as [Middleware] does with
// [Responses]: those of the media types [ContentTypes] lists that declare
// no charset or UTF-8, and JSON whatever its charset. A nil base means
// [http.DefaultTransport]. Of the options, Transport uses ContentTypes,
// [StreamOptions] and [OnStats], and ignores the others. It calls the
// OnStats function once for each response whose body it checks, when the
// caller has read that body to its end (or to an error) or closed it,
// whichever comes first, with the request, the Stats of the request body
// (zero with First -1: it is not checked) and those of the response body.
//
// A checked body is read through a [utf8stream.Reader] as the caller reads
// it, in the caller's buffer: nothing is read ahead. Under
// [utf8stream.Reject] with no StreamOptions, Body.Read returns the valid
// bytes unchanged and then an *[utf8stream.Error]; under any other policy,
// or with StreamOptions, the body may change size, so the response has
// ContentLength -1 and no Content-Length header. Body.Close closes the
// body that base returned, and may be called while a Read is under way.
//
// Compressed bodies are handled as [http.Transport] handles gzip: base
// decodes gzip itself when the request did not ask for a coding, and
// Transport then checks the decoded body. A request whose Accept-Encoding
// names a coding other than gzip, x-gzip, deflate and identity is sent with
// those removed ("identity" if none is left). A checked body that still
// comes in gzip or deflate (zlib, or raw deflate as some servers send) is
// decoded and checked, and the response has no Content-Encoding, ContentLength -1 and
// Uncompressed set; if it does not decode, Body.Read returns an error
// saying "utf8http: corrupt gzip response body" (or deflate). A checked body in any other
// coding, or in several, is closed and RoundTrip returns an error: it is
// never returned unchecked. Bodies that are not checked are returned as
// base returned them.
//
// To check a body by hand instead, wrap it so that it stays closable:
//
//	resp.Body = struct {
//		io.Reader
//		io.Closer
//	}{utf8stream.NewReader(resp.Body, p), resp.Body}
//
// A 206 Partial Content body is checked as any other, so a range that
// begins or ends within a sequence has ill-formed edges. Transport does
// not modify the request it is given.
func Transport(base http.RoundTripper, p utf8stream.Policy, opts ...Option) http.RoundTripper {
	return &transport{base: base, m: newMiddleware(p, opts)}
}

type transport struct {
	base http.RoundTripper
	m    *middleware
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	caller := req // for OnStats: the request as the caller made it
	if v, changed := decodableCodings(req.Header["Accept-Encoding"]); changed {
		r := *req // a shallow copy, as RoundTrippers may not modify req
		r.Header = withoutHeader(req.Header, "Accept-Encoding")
		r.Header["Accept-Encoding"] = []string{v}
		req = &r
	}
	resp, err := base.RoundTrip(req)
	if err != nil || resp.Body == nil || resp.Body == http.NoBody || req.Method == http.MethodHead ||
		resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusNotModified ||
		!t.m.responseType(resp.Header["Content-Type"]) {
		return resp, err
	}
	coding, ok := contentCoding(resp.Header["Content-Encoding"])
	if !ok {
		resp.Body.Close()
		return nil, errors.New("utf8http: response Content-Encoding " + strconv.Quote(resp.Header.Get("Content-Encoding")) + " is not supported")
	}
	b := &clientBody{orig: resp.Body, req: caller, onStats: t.m.o.onStats, stats: noStats}
	var src io.Reader = resp.Body
	if coding != "" {
		src = &decoder{coding: coding, what: "response body", raw: true, src: source{r: resp.Body}}
		resp.Header.Del("Content-Encoding")
		resp.Header.Del("Content-Length")
		resp.ContentLength = -1
		resp.Uncompressed = true
	}
	if t.m.resizes && resp.ContentLength != -1 {
		resp.Header.Del("Content-Length")
		resp.ContentLength = -1
	}
	b.rd = utf8stream.NewReader(src, t.m.p, t.m.o.stream...)
	resp.Body = b
	return resp, nil
}

// clientBody is a response body that Transport checks. The decoder of a
// compressed body goes back to its pool when the body is read to its end,
// never at Close, which may come while a Read is under way; so mu guards
// what Close reads of the Stats.
type clientBody struct {
	rd      *utf8stream.Reader
	orig    io.ReadCloser
	req     *http.Request
	onStats func(r *http.Request, body, response utf8stream.Stats) // or nil

	mu       sync.Mutex
	stats    utf8stream.Stats // rd's, after the last Read
	reported bool             // onStats was called
}

func (b *clientBody) Read(p []byte) (int, error) {
	n, err := b.rd.Read(p)
	if b.onStats != nil {
		b.mu.Lock()
		b.stats = b.rd.Stats()
		b.mu.Unlock()
		if err != nil {
			b.report()
		}
	}
	return n, err
}

func (b *clientBody) Close() error {
	err := b.orig.Close()
	if b.onStats != nil {
		b.report()
	}
	return err
}

// report calls onStats, the first time only.
func (b *clientBody) report() {
	b.mu.Lock()
	first, s := !b.reported, b.stats
	b.reported = true
	b.mu.Unlock()
	if first {
		b.onStats(b.req, noStats, s)
	}
}
