package utf8http

import (
	"net/http"

	"github.com/utf8stream/utf8stream"
)

// An Option changes what [Middleware] or [Transport] checks and how.
// Transport uses [ContentTypes], [StreamOptions] and [OnStats], and
// ignores the rest.
type Option func(*options)

// options holds the options of Middleware. Its zero value is the default.
type options struct {
	types       []mediaRange
	typesSet    bool // ContentTypes was given, even with no types
	allBodies   bool
	requireUTF8 bool
	prevalidate int64 // 0 or less: stream the body
	checkURL    bool
	responses   bool
	respBuffer  int // bytes of a response held back before its status is sent
	onStats     func(r *http.Request, body, response utf8stream.Stats)
	stream      []utf8stream.Option
}

// ContentTypes sets the media types whose bodies [Middleware] and
// [Transport] check, replacing the default list: text/*, application/json,
// *+json, application/xml, *+xml, application/x-www-form-urlencoded and
// application/x-ndjson. Each is parsed, as are Content-Type headers, by
// [mime.ParseMediaType]: type and subtype match in any case, with
// whitespace and quoting as RFC 9110 allows. "type/*" matches every
// subtype of type, "*+suffix" every structured syntax suffix, and "*/*"
// everything. A parameter given with a type must be in the header with the
// same value; charset names match in any case, "utf8" as "utf-8", and a
// header with no charset has charset utf-8. So "text/plain; charset=utf-8"
// matches "text/plain", "Text/Plain;charset=UTF-8" and
// `text/plain; charset="utf8"`. ContentTypes panics if a type is not a
// media type or one of those patterns.
//
// A request body with no Content-Type, or one that is not a media type, is
// checked as UTF-8 unless the list is empty: a handler that ignores the
// header reads it as text. ContentTypes with no arguments makes Middleware
// check no body, except with [AllRequestBodies].
func ContentTypes(types ...string) Option {
	ranges := mustParseRanges(types...)
	return func(o *options) { o.types, o.typesSet = ranges, true }
}

// AllRequestBodies makes [Middleware] check every request body whatever
// its Content-Type and charset, for an API that takes nothing but UTF-8
// text: a handler that parses JSON without looking at the header is
// otherwise reached unchecked by a body declared as
// application/octet-stream or as text/plain in another charset. With
// [RequireUTF8], a body that declares a charset other than UTF-8 still gets
// 415. Responses are chosen by [ContentTypes] alone. Off by default.
func AllRequestBodies() Option {
	return func(o *options) { o.allBodies = true }
}

// RequireUTF8 makes [Middleware] answer 415 Unsupported Media Type to a
// request whose body has a checked media type but declares a charset other
// than UTF-8 (named "utf-8" or "utf8" in any case). By default such a body
// is passed to the handler untouched. A body that declares no charset is
// taken to be UTF-8, and so is a JSON body (application/json, *+json,
// application/x-ndjson and the like), whatever charset it declares: JSON is
// UTF-8 by definition (RFC 8259, section 8.1), so it is checked.
func RequireUTF8() Option {
	return func(o *options) { o.requireUTF8 = true }
}

// Prevalidate makes [Middleware] read a checked request body whole before
// the handler runs, up to limit bytes. A larger body gets 413 Request Entity
// Too Large, as from [http.MaxBytesReader]; under [utf8stream.Reject] an
// ill-formed body gets 400 Bad Request with the text "invalid UTF-8 in
// request body at byte N", and a compressed body that does not decode gets
// 400 with the text "corrupt gzip request body" (or deflate). Otherwise the
// handler gets the bytes the policy produced, with an exact ContentLength
// and Content-Length header. The limit applies to the decoded bytes of a
// compressed body, so a small body that decodes to a large one gets 413
// once limit bytes are decoded, and to the bytes the policy produced, which
// a repair can make larger than what was read (three bytes of U+FFFD for
// one ill-formed byte under Replace, more with a longer Replacement): a body
// that repairs to more than limit bytes gets 413 too. By default, or with a
// limit of 0 or less, the body is checked as the handler reads it and
// nothing is buffered.
//
// Each request holds up to limit bytes while its client sends the body, so
// set [http.Server.ReadHeaderTimeout] and [http.Server.ReadTimeout] to
// bound what slow or stalled clients can hold.
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
// a checked media type that does not declare a charset other than UTF-8
// (JSON always counts as UTF-8). Off by default.
//
// The Content-Type is taken at WriteHeader, or sniffed from the first Write
// as net/http does; responses to HEAD and 204 and 304 responses have no
// body to check. The handler writes through a [utf8stream.Writer]: when the
// policy may change the size of the body, the Content-Length header is
// deleted. Flush sends everything but an unfinished sequence at the end,
// which waits for the next Write or for the handler to return; the
// ResponseWriter has an Unwrap method, so [http.ResponseController]
// reaches Hijack, deadlines and the rest.
//
// The status and up to [ResponseBuffer] bytes of the body are held back
// until more is written, the handler flushes after a byte of the body or
// it returns; a Flush before any byte of the body sends nothing, not even
// the status. A response sent whole from what was held gets a
// Content-Length. Under [utf8stream.Reject], a response found ill-formed
// while nothing was sent becomes a 500 Internal Server Error with the text
// "invalid UTF-8 in response body", and one found ill-formed later is
// aborted by a panic with [http.ErrAbortHandler], after the valid bytes
// before the error, so that the client sees a broken response (a reset
// stream, a body cut short of its Content-Length or its last chunk, or a
// reset connection where the body has neither, as to an HTTP/1.0 client)
// rather than ill-formed bytes or a complete-looking one.
//
// A response in Content-Encoding gzip, x-gzip or deflate (zlib, or raw
// deflate as some servers send) is decoded and checked. If the client
// accepts gzip and the checked body outgrows the ResponseBuffer, it is
// compressed again with gzip, at [compress/gzip.BestSpeed]; otherwise it
// is sent decoded, without Content-Encoding (with a Content-Length if it
// was held whole). Either way a strong ETag becomes weak and Vary names
// Accept-Encoding. A compressed body that does not decode is answered with
// 502 Bad Gateway, "corrupt gzip response body" (or deflate), or aborted
// if bytes went out. So that a handler, or the upstream server of an
// [net/http/httputil.ReverseProxy], never sends a coding it cannot decode,
// Middleware gives the handler a request whose Accept-Encoding lists only
// gzip, x-gzip, deflate and identity ("identity" if the client listed none
// of them), and without Range and If-Range, so that the body comes whole:
// a range of it may begin or end within a sequence or a compressed stream.
// A response in another coding (br, zstd, compress) or in several gets 502
// Bad Gateway, "response Content-Encoding is not supported", under every
// policy: it is never sent unchecked. A response with a Content-Encoding
// but no Content-Type is not sniffed, as net/http does not, and passes
// untouched.
//
// After Middleware answered with a 500 or 502, the handler's Writes return
// the error, and if the handler then panics with [http.ErrAbortHandler], as
// httputil.ReverseProxy does when a Write fails, Middleware recovers it so
// that the answer goes out whole.
func Responses() Option {
	return func(o *options) { o.responses = true }
}

// defaultResponseBuffer is the default of ResponseBuffer.
const defaultResponseBuffer = 4 << 10

// ResponseBuffer sets how many bytes of a checked response body
// [Middleware] holds back with its status before sending them, with
// [Responses]; a response rejected within them becomes a 500 rather than
// an aborted one. A body compressed again is held twice: up to n bytes
// of it before compression, which are sent uncompressed if that is the
// whole body, and then up to n bytes of what they compress to. The
// default is 4 KiB; 0 or less sends the status with the first byte of the
// body.
func ResponseBuffer(n int) Option {
	return func(o *options) { o.respBuffer = max(n, 0) }
}

// OnStats sets a function that [Middleware] calls once for each request it
// checked a body of, after the handler returns (or after Middleware
// answered the request itself), with the Stats of the request body and of
// the response body; [Transport] calls it once for each response whose
// body it checked, as its doc says. The Stats of a body that was not
// checked are zero with First -1. By default nothing is called.
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
