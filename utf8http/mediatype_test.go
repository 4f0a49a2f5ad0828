package utf8http

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/utf8stream/utf8stream"
)

// noCT stands for a request with no Content-Type field.
const noCT = "\x00none"

// mediaTypeTests are the media-type decisions, which the middleware makes
// for requests and responses and Transport makes for responses. A request
// body is passed (pass), checked (check) or refused with 415 (refuse); a
// response body is checked by Middleware with Responses and by Transport
// alike (response).
var mediaTypeTests = []struct {
	desc     string
	ct       string // the Content-Type field, or noCT
	opts     []Option
	request  int
	response bool
}{
	{"text/plain", "text/plain; charset=utf-8", nil, check, true},
	{"text/html upper case", "TEXT/HTML", nil, check, true},
	{"text/csv quoted charset", `text/csv; charset="UTF8"`, nil, check, true},
	{"quoted pair", `text/plain; title="a \"b\""; charset="utf-8"`, nil, check, true},
	{"quoted pair of a token character", `text/plain; charset="utf\-8"`, nil, pass, false}, // as mime.ParseMediaType reads it
	{"whitespace", "text/plain ; charset = \"utf-8\"", nil, check, true},
	{"no whitespace", "text/plain;charset=utf-8;format=flowed", nil, check, true},
	{"RFC 2231 charset", "text/plain; charset*=utf-8''utf-8", nil, check, true},
	{"RFC 2231 latin1", "text/plain; charset*=utf-8''iso-8859-1", nil, pass, false},
	{"json", "application/json", nil, check, true},
	{"json suffix", "application/vnd.api+json; charset=utf-8", nil, check, true},
	{"xml", "application/xml", nil, check, true},
	{"xml suffix", "image/svg+xml", nil, check, true},
	{"form", "application/x-www-form-urlencoded", nil, check, true},
	{"ndjson", "application/x-ndjson", nil, check, true},
	{"json latin1", "application/json; charset=iso-8859-1", nil, check, true},
	{"json utf-16", "Application/JSON;charset=utf-16", nil, check, true},
	{"json suffix latin1", "application/problem+json; charset=latin1", nil, check, true},
	{"ndjson latin1", "application/x-ndjson; charset=latin1", nil, check, true},
	{"json bad parameters", "application/json; junk", nil, check, true},
	{"json latin1 RequireUTF8", "application/json; charset=iso-8859-1", []Option{RequireUTF8()}, check, true},
	{"json-seq latin1 listed", "application/json-seq; charset=latin1", []Option{ContentTypes("application/json-seq")}, check, true},
	{"json latin1 not listed", "application/json; charset=latin1", []Option{ContentTypes("text/*")}, pass, false},
	{"xml latin1", "application/xml; charset=iso-8859-1", nil, pass, false},
	{"octet-stream", "application/octet-stream", nil, pass, false},
	{"png", "image/png", nil, pass, false},
	{"multipart", "multipart/form-data; boundary=x", nil, pass, false},
	{"suffix alone", "application/+json", nil, pass, false},
	{"no content type", noCT, nil, check, false},
	{"empty content type", "", nil, check, false},
	{"parameters only", "; charset=latin1", nil, check, false},
	{"malformed", "json", nil, check, false},
	{"malformed type", "application/json x", nil, check, false},
	{"malformed with latin1", "json; charset=latin1", nil, check, false},
	{"duplicate charset", "text/plain; charset=utf-8; charset=latin1", nil, check, false},
	{"latin1", "text/plain; charset=ISO-8859-1", nil, pass, false},
	{"latin1 after other params", "text/plain; format=flowed; charset=latin1", nil, pass, false},
	{"bad parameters", "text/plain; charset=latin1; junk", nil, pass, false},
	{"bad parameters RequireUTF8", "text/plain; junk", []Option{RequireUTF8()}, refuse, false},
	{"latin1 RequireUTF8", "text/plain; charset=ISO-8859-1", []Option{RequireUTF8()}, refuse, false},
	{"utf-8 RequireUTF8", "text/plain; charset=utf-8", []Option{RequireUTF8()}, check, true},
	{"image RequireUTF8", "image/png", []Option{RequireUTF8()}, pass, false},
	{"no content type RequireUTF8", noCT, []Option{RequireUTF8()}, check, false},
	{"custom list", "text/plain", []Option{ContentTypes("application/json")}, pass, false},
	{"custom list json", "application/json", []Option{ContentTypes("application/json")}, check, true},
	{"custom list no content type", noCT, []Option{ContentTypes("text/csv")}, check, false},
	{"custom wildcard", "application/octet-stream", []Option{ContentTypes("*/*")}, check, true},
	{"custom star", "application/octet-stream", []Option{ContentTypes("*")}, check, true},
	{"custom suffix", "application/ld+json", []Option{ContentTypes("*+JSON")}, check, true},
	{"custom suffix no match", "application/json", []Option{ContentTypes("*+json")}, pass, false},
	{"custom pattern spaced", "text/csv", []Option{ContentTypes(" TEXT/* ")}, check, true},
	{"custom charset", "text/plain", []Option{ContentTypes("text/plain; charset=utf-8")}, check, true},
	{"custom charset case", "Text/Plain;charset=UTF-8", []Option{ContentTypes("text/plain; charset=utf-8")}, check, true},
	{"custom charset utf8", `text/plain; charset="utf8"`, []Option{ContentTypes("text/plain; charset=utf-8")}, check, true},
	{"custom charset other type", "text/html", []Option{ContentTypes("text/plain; charset=utf-8")}, pass, false},
	{"custom charset latin1", "text/plain; charset=latin1", []Option{ContentTypes("text/plain; charset=utf-8")}, pass, false},
	{"custom parameter", "application/json; profile=x", []Option{ContentTypes("application/json; profile=x")}, check, true},
	{"custom parameter missing", "application/json", []Option{ContentTypes("application/json; profile=x")}, pass, false},
	{"custom parameter differs", "application/json; profile=y", []Option{ContentTypes("application/json; profile=x")}, pass, false},
	{"empty list", "application/json", []Option{ContentTypes()}, pass, false},
	{"empty list no content type", noCT, []Option{ContentTypes()}, pass, false},
	{"all octet-stream", "application/octet-stream", []Option{AllRequestBodies()}, check, false},
	{"all png", "image/png", []Option{AllRequestBodies()}, check, false},
	{"all latin1", "text/plain; charset=latin1", []Option{AllRequestBodies()}, check, false},
	{"all latin1 RequireUTF8", "text/plain; charset=latin1", []Option{AllRequestBodies(), RequireUTF8()}, refuse, false},
	{"all empty list", "image/png", []Option{AllRequestBodies(), ContentTypes()}, check, false},
	{"all empty list no content type", noCT, []Option{AllRequestBodies(), ContentTypes()}, check, false},
}

// mediaTypeBody is the body of the media-type tests, and what Replace
// makes of it.
const mediaTypeBody, mediaTypeReplaced = "{\"name\":\"Andr\xe9\"}", "{\"name\":\"Andr\uFFFD\"}"

func TestMiddlewareContentTypes(t *testing.T) {
	in := []byte(mediaTypeBody)
	for _, tc := range mediaTypeTests {
		t.Run(tc.desc, func(t *testing.T) {
			var header []string
			if tc.ct != noCT {
				header = []string{"Content-Type", tc.ct}
			}
			status, reply, s := sendLocal(t, Middleware(utf8stream.Replace, tc.opts...), newPost(in, header...))
			if tc.request == refuse {
				if status != http.StatusUnsupportedMediaType || s.called {
					t.Errorf("status = %d %q, handler called %v; want 415", status, reply, s.called)
				}
				return
			}
			if status != http.StatusOK {
				t.Fatalf("status = %d %q; want 200", status, reply)
			}
			if got := s.contentType; (tc.ct == noCT) != (got == nil) || tc.ct != noCT && got[0] != tc.ct {
				t.Fatalf("handler saw Content-Type %q; want %q", got, tc.ct)
			}
			checked := tc.request == check
			want := in
			if checked {
				want = []byte(mediaTypeReplaced)
			}
			if string(s.body) != string(want) || s.statsOK != checked {
				t.Errorf("handler read %q, BodyStats ok %v; want %q, %v", s.body, s.statsOK, want, checked)
			}
			if !checked && (s.length != int64(len(in)) || len(s.header) != 1) {
				t.Errorf("unchecked body: ContentLength %d, header %q; want both kept", s.length, s.header)
			}
		})
	}
}

// contentTypeServer serves mediaTypeBody with the Content-Type that the
// request's X-Type header gives, or none if it has no X-Type. The
// handler is wrapped in mw.
func contentTypeServer(t *testing.T, mw func(http.Handler) http.Handler) (string, *http.Client) {
	return serveLocal(t, mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ct, ok := r.Header["X-Type"]; ok {
			w.Header()["Content-Type"] = ct
		}
		io.WriteString(w, mediaTypeBody)
	})))
}

// getType gets url with X-Type ct, unless ct is noCT, and returns the
// body.
func getType(t *testing.T, client *http.Client, url, ct string) string {
	t.Helper()
	req := httpGet(url)
	if ct != noCT {
		req.Header["X-Type"] = []string{ct}
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMiddlewareResponseMediaTypes(t *testing.T) {
	for _, tc := range mediaTypeTests {
		if tc.ct == noCT {
			continue // sniffed: see TestMiddlewareResponseContentTypes
		}
		t.Run(tc.desc, func(t *testing.T) {
			url, client := contentTypeServer(t, Middleware(utf8stream.Replace, append([]Option{Responses()}, tc.opts...)...))
			want := mediaTypeBody
			if tc.response {
				want = mediaTypeReplaced
			}
			if got := getType(t, client, url, tc.ct); got != want {
				t.Errorf("response = %q; want %q", got, want)
			}
		})
	}
}

func TestTransportMediaTypes(t *testing.T) {
	url, client := contentTypeServer(t, func(h http.Handler) http.Handler { return h })
	base := client.Transport
	for _, tc := range mediaTypeTests {
		if tc.ct == noCT {
			continue // the server sniffs a Content-Type
		}
		t.Run(tc.desc, func(t *testing.T) {
			client := &http.Client{Transport: Transport(base, utf8stream.Replace, tc.opts...)}
			want := mediaTypeBody
			if tc.response {
				want = mediaTypeReplaced
			}
			if got := getType(t, client, url, tc.ct); got != want {
				t.Errorf("response = %q; want %q", got, want)
			}
		})
	}
}

func TestContentTypesMalformed(t *testing.T) {
	for _, pattern := range []string{"json", "text/", "/json", "*/json", "text/plain x", "", "text/plain; charset"} {
		t.Run(fmt.Sprintf("%q", pattern), func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "utf8http: ContentTypes: malformed media range") {
					t.Errorf("ContentTypes(%q) panicked with %v; want a malformed media range", pattern, r)
				}
			}()
			ContentTypes(pattern)
		})
	}
}
