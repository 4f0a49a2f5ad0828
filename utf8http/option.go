package utf8http

import (
	"net/http"

	"github.com/utf8stream/utf8stream"
)

// An Option changes what [Middleware] checks and how.
type Option func(*options)

// options holds the options of Middleware. Its zero value is the default.
type options struct {
	types       []string // nil means defaultContentTypes
	typesSet    bool     // ContentTypes was given, even with no types
	allBodies   bool
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
// structured syntax suffix, and "*/*" everything.
//
// A request body with no Content-Type, or one that is not a media type, is
// checked as UTF-8 unless the list is empty: a handler that ignores the
// header reads it as text. ContentTypes with no arguments makes Middleware
// check no body, except with [AllRequestBodies].
func ContentTypes(types ...string) Option {
	types = append([]string(nil), types...)
	return func(o *options) { o.types, o.typesSet = types, true }
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
// once limit bytes are decoded. By default, or with a limit of 0 or less,
// the body is checked as the handler reads it and nothing is buffered.
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
// (JSON always counts as UTF-8). A response with a Content-Encoding header
// other than identity, set before its first Write, is left intact: its
// bytes are not text. Off by default.
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
