// Package utf8http validates and repairs UTF-8 in the bodies of [net/http]
// servers and clients, with the policies of package
// [github.com/utf8stream/utf8stream].
//
// [Middleware] wraps an [http.Handler] so that a policy applies to request
// bodies as the handler reads them and, with [Responses], to the response
// bodies it writes. [WriteError] answers a body that [utf8stream.Reject]
// stopped, and [BodyStats] and [OnStats] report what was repaired.
// [Transport] wraps an [http.RoundTripper] so that a policy applies to the
// response bodies a client reads.
//
// # Which bodies are checked
//
// A request body is checked when its media type is one that [ContentTypes]
// lists (by default text/*, JSON, XML and HTML forms) and it declares no
// charset or UTF-8. Content-Type values are parsed as
// [mime.ParseMediaType] parses them, in any case and with parameters
// quoted or not; a value whose parameters do not parse declares an unknown
// charset. A body with no Content-Type, or one that is not a media
// type, is checked too: most handlers parse the body without looking at the
// header. A JSON body (application/json, *+json, application/x-ndjson and
// the like) is checked whatever charset it declares, since JSON is UTF-8 by
// definition (RFC 8259, section 8.1).
//
// A body of any other media type, such as application/octet-stream or
// image/png, passes untouched, and so does a body that declares another
// charset, such as text/plain; charset=iso-8859-1. A client can therefore
// get any bytes past the middleware by declaring such a type. An API that
// takes nothing but UTF-8 text closes that door with [AllRequestBodies],
// which checks every body, and [RequireUTF8], which refuses other charsets
// with 415 Unsupported Media Type.
//
// # Compressed bodies
//
// A checked request body with Content-Encoding gzip (or x-gzip) or deflate
// (the zlib format, RFC 9110, section 8.4.1.2) is decoded with
// [compress/gzip] or [compress/zlib], checked, and handed to the handler
// decoded: without Content-Encoding and Content-Length headers and with
// ContentLength -1. A body of no bytes is an empty body, as net/http's
// client takes an empty compressed response. A body that does not decode
// (not in its format, truncated, a bad checksum, data after the end) makes
// Body.Read fail with an error that [WriteError] answers with 400 Bad
// Request, "corrupt gzip request body"; [Prevalidate] answers the same
// itself. The limit of
// Prevalidate counts decoded bytes, so a small body that decodes to a huge
// one gets 413 once the limit is reached. Any other coding (br, zstd,
// compress) and a chain of two codings get 415 with an Accept-Encoding
// header naming gzip and deflate; the coding identity is none. A body that
// is not checked passes untouched, encoded or not. So a checked body is
// never handed over unchecked or corrupted.
//
// With [Responses], a response in gzip or deflate is decoded, checked and
// compressed again with gzip if the client accepts gzip and the body is
// longer than the [ResponseBuffer], or sent decoded; one that does not
// decode gets 502 Bad Gateway. The handler sees an
// Accept-Encoding that lists only the codings Middleware decodes, and a
// response in any other coding gets 502: no response is sent unchecked.
//
// # Behind a reverse proxy
//
// Middleware(p, Responses()) around an
// [net/http/httputil.ReverseProxy] checks what the upstream server
// answers, compressed or not: the proxy forwards the rewritten
// Accept-Encoding, so the upstream answers in gzip, deflate or identity.
// Under Reject, the status and the first [ResponseBuffer] bytes (4 KiB by
// default) of an upstream response with a Content-Length are held back, so
// one found ill-formed within them becomes a complete 500 Internal Server
// Error even though the proxy flushes its header before the body. The
// proxy flushes a response without a Content-Length (chunked or streamed)
// after each write, as a stream needs, and each flush sends what came
// before it, so such a response is held back only until its first bytes
// arrive. One found ill-formed after bytes went out is aborted, and the
// client sees a reset stream, a body cut short or a reset connection,
// never a complete-looking response.
//
// # Clients
//
// An [http.Client] whose Transport is Transport(base, p) gets response
// bodies checked as it reads them: under Reject, Body.Read returns the
// valid bytes and then an *[utf8stream.Error]. Body.Close closes the
// original body. To wrap a body by hand instead, keep its Close:
//
//	resp.Body = struct {
//		io.Reader
//		io.Closer
//	}{utf8stream.NewReader(resp.Body, p), resp.Body}
//
// # Memory and slow clients
//
// By default nothing is buffered: the body is checked as the handler reads
// it, with a fixed amount of memory per request (more for a compressed
// body, for the decompressor's window). [Prevalidate] reads the whole body before
// the handler runs and holds up to its limit per request while it waits
// for the client, so many slow or stalled clients hold many times the
// limit. A server that uses it should set [http.Server.ReadHeaderTimeout]
// and [http.Server.ReadTimeout] (or deadlines through
// [http.ResponseController]), as any server that reads bodies should.
package utf8http
