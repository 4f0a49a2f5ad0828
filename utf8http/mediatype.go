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
