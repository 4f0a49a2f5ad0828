// Package utf8http validates and repairs UTF-8 in the bodies of a
// [net/http] server, with the policies of package
// [github.com/utf8stream/utf8stream].
//
// [Middleware] wraps an [http.Handler] so that a policy applies to the
// request bodies of textual media types as the handler reads them, and,
// with [Responses], to the response bodies it writes. [WriteError] answers
// a body that [utf8stream.Reject] stopped, and [BodyStats] and [OnStats]
// report what was repaired.
package utf8http
