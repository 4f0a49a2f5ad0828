package utf8http

import (
	"mime"
	"strconv"
	"strings"
)

// defaultContentTypes are the media types whose bodies Middleware checks
// when no [ContentTypes] option is given.
var defaultContentTypes = mustParseRanges(
	"text/*",
	"application/json",
	"*+json",
	"application/xml",
	"*+xml",
	"application/x-www-form-urlencoded",
	"application/x-ndjson",
)

// What Middleware does with a request body.
const (
	pass   = iota // hand it on untouched
	check         // check it as UTF-8
	refuse        // answer 415: it declares a charset other than UTF-8
)

// requestType returns what m does with a request body with the
// Content-Type header h. A missing or malformed Content-Type counts as
// UTF-8 text, which the body is to a handler that reads it as what it
// expects.
func (m *middleware) requestType(h []string) int {
	mt, ok := parseContentType(first(h))
	switch {
	case !ok:
		if len(m.o.types) > 0 || m.o.allBodies {
			return check
		}
		return pass
	case !m.o.allBodies && !mt.matches(m.o.types):
		return pass
	case mt.isJSON() || mt.isUTF8():
		return check
	case m.o.requireUTF8:
		return refuse
	case m.o.allBodies:
		return check
	}
	return pass
}

// responseType reports whether m checks a response body with the
// Content-Type header h. A handler that sets no media type, or a malformed
// one, knows better than m what it writes.
func (m *middleware) responseType(h []string) bool {
	mt, ok := parseContentType(first(h))
	return ok && mt.matches(m.o.types) && (mt.isJSON() || mt.isUTF8())
}

// first returns the first of the values of a header, or "".
func first(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return values[0]
}

// A mediaType is a Content-Type value parsed as [mime.ParseMediaType]
// parses it: type and subtype in lower case, parameter names in lower
// case, values unquoted.
type mediaType struct {
	typ, sub  string
	params    map[string]string
	badParams bool // the parameters do not parse: the charset is unknown
}

// parseContentType parses the Content-Type value v and reports whether it
// is a media type: a token, a slash and a token, then parameters (RFC
// 9110, section 8.3.1). A media type whose parameters are malformed counts,
// with none of its parameters and an unknown charset, which is not UTF-8.
func parseContentType(v string) (mt mediaType, ok bool) {
	s, params, err := mime.ParseMediaType(v)
	if err != nil && err != mime.ErrInvalidMediaParameter {
		return mediaType{}, false
	}
	typ, sub, ok := strings.Cut(s, "/")
	if !ok || typ == "" || sub == "" {
		return mediaType{}, false
	}
	return mediaType{typ, sub, params, err != nil}, true
}

// isJSON reports whether mt is one of the JSON family, which is UTF-8
// whatever charset it declares (RFC 8259, section 8.1): application/json,
// application/json-seq, application/ndjson, application/x-ndjson,
// application/jsonl and every *+json type.
func (mt mediaType) isJSON() bool {
	if strings.HasSuffix(mt.sub, "+json") && len(mt.sub) > len("+json") {
		return true
	}
	if mt.typ != "application" {
		return false
	}
	switch mt.sub {
	case "json", "json-seq", "ndjson", "x-ndjson", "jsonl":
		return true
	}
	return false
}

// isUTF8 reports whether mt declares no charset or UTF-8 ("utf-8" or
// "utf8" in any case), in parameters that parse.
func (mt mediaType) isUTF8() bool {
	cs, ok := mt.params["charset"]
	return !mt.badParams && (!ok || isUTF8Name(cs))
}

func isUTF8Name(cs string) bool {
	return strings.EqualFold(cs, "utf-8") || strings.EqualFold(cs, "utf8")
}

// matches reports whether mt matches one of the media ranges.
func (mt mediaType) matches(ranges []mediaRange) bool {
	for _, r := range ranges {
		if r.matches(mt) {
			return true
		}
	}
	return false
}

// A mediaRange is a pattern of [ContentTypes]: "*/*", "type/*", "*+suffix"
// or a media type, each with optional parameters.
type mediaRange struct {
	typ, sub string // in lower case; "*" matches anything
	suffix   string // "+json" for "*+json", with typ and sub "*"
	params   map[string]string
}

// parseMediaRange parses a pattern of ContentTypes and reports whether it
// is well-formed.
func parseMediaRange(s string) (mediaRange, bool) {
	v, params, err := mime.ParseMediaType(s)
	if err != nil {
		return mediaRange{}, false
	}
	if v == "*" {
		return mediaRange{typ: "*", sub: "*", params: params}, true
	}
	if suffix, ok := strings.CutPrefix(v, "*+"); ok && !strings.Contains(suffix, "/") {
		return mediaRange{typ: "*", sub: "*", suffix: "+" + suffix, params: params}, true
	}
	typ, sub, ok := strings.Cut(v, "/")
	if !ok || typ == "*" && sub != "*" {
		return mediaRange{}, false
	}
	return mediaRange{typ: typ, sub: sub, params: params}, true
}

// mustParseRanges parses patterns of ContentTypes, and panics if one is
// malformed.
func mustParseRanges(patterns ...string) []mediaRange {
	ranges := make([]mediaRange, len(patterns))
	for i, p := range patterns {
		r, ok := parseMediaRange(p)
		if !ok {
			panic("utf8http: ContentTypes: malformed media range " + strconv.Quote(p))
		}
		ranges[i] = r
	}
	return ranges
}

// matches reports whether mt matches r: type, subtype or suffix, and each
// parameter of r with the same value in mt. Charset values are compared as
// names, in any case and with "utf8" for "utf-8", and a media type that
// declares no charset has charset utf-8.
func (r mediaRange) matches(mt mediaType) bool {
	switch {
	case r.suffix != "":
		if !strings.HasSuffix(mt.sub, r.suffix) || len(mt.sub) == len(r.suffix) {
			return false
		}
	case r.typ != "*" && r.typ != mt.typ, r.sub != "*" && r.sub != mt.sub:
		return false
	}
	for k, want := range r.params {
		got, ok := mt.params[k]
		switch {
		case k == "charset":
			if !ok {
				got = "utf-8"
			}
			if !strings.EqualFold(got, want) && !(isUTF8Name(got) && isUTF8Name(want)) {
				return false
			}
		case !ok || got != want:
			return false
		}
	}
	return true
}
