package utf8http

import (
	"strings"
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
	mt, params, ok := parseMediaType(first(h))
	switch {
	case !ok:
		if len(m.o.types) > 0 || m.o.allBodies {
			return check
		}
		return pass
	case !m.o.allBodies && !matchType(mt, m.o.types):
		return pass
	case isJSON(mt) || isUTF8Charset(params):
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
	mt, params, ok := parseMediaType(first(h))
	return ok && matchType(mt, m.o.types) && (isJSON(mt) || isUTF8Charset(params))
}

// first returns the first of the values of a header, or "".
func first(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return values[0]
}

// isJSON reports whether the well-formed media type mt is one of the JSON
// family, which is UTF-8 whatever charset it declares (RFC 8259, section
// 8.1): application/json, application/json-seq, application/ndjson,
// application/x-ndjson, application/jsonl and every *+json type.
func isJSON(mt string) bool {
	typ, sub, _ := strings.Cut(mt, "/")
	if len(sub) > len("+json") && strings.EqualFold(sub[len(sub)-len("+json"):], "+json") {
		return true
	}
	if !strings.EqualFold(typ, "application") {
		return false
	}
	for _, s := range [...]string{"json", "json-seq", "ndjson", "x-ndjson", "jsonl"} {
		if strings.EqualFold(sub, s) {
			return true
		}
	}
	return false
}

// parseMediaType splits a Content-Type value into its media type and its
// parameters, and reports whether the media type is well-formed: a token,
// a slash and a token (RFC 9110, section 8.3.1).
func parseMediaType(v string) (mt, params string, ok bool) {
	mt, params, _ = strings.Cut(v, ";")
	mt = strings.TrimSpace(mt)
	typ, sub, ok := strings.Cut(mt, "/")
	return mt, params, ok && isToken(typ) && isToken(sub)
}

// isToken reports whether s is a non-empty RFC 9110 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			continue
		}
		if !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return true
}

// matchType reports whether the well-formed media type mt matches one of
// the patterns.
func matchType(mt string, patterns []string) bool {
	typ, sub, _ := strings.Cut(mt, "/")
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
