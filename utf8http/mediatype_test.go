package utf8http

import (
	"net/http"
	"testing"

	"github.com/utf8stream/utf8stream"
)

// noCT stands for a request with no Content-Type field.
const noCT = "\x00none"

func TestMiddlewareContentTypes(t *testing.T) {
	in := []byte("{\"name\":\"Andr\xe9\"}")
	tests := []struct {
		desc    string
		ct      string // the Content-Type field, or noCT
		opts    []Option
		checked bool
		status  int
	}{
		{"text/plain", "text/plain; charset=utf-8", nil, true, 200},
		{"text/html upper case", "TEXT/HTML", nil, true, 200},
		{"text/csv quoted charset", `text/csv; charset="UTF8"`, nil, true, 200},
		{"json", "application/json", nil, true, 200},
		{"json suffix", "application/vnd.api+json; charset=utf-8", nil, true, 200},
		{"xml", "application/xml", nil, true, 200},
		{"xml suffix", "image/svg+xml", nil, true, 200},
		{"form", "application/x-www-form-urlencoded", nil, true, 200},
		{"ndjson", "application/x-ndjson", nil, true, 200},
		{"json latin1", "application/json; charset=iso-8859-1", nil, true, 200},
		{"json utf-16", "Application/JSON;charset=utf-16", nil, true, 200},
		{"json suffix latin1", "application/problem+json; charset=latin1", nil, true, 200},
		{"ndjson latin1", "application/x-ndjson; charset=latin1", nil, true, 200},
		{"json latin1 RequireUTF8", "application/json; charset=iso-8859-1", []Option{RequireUTF8()}, true, 200},
		{"json-seq latin1 listed", "application/json-seq; charset=latin1", []Option{ContentTypes("application/json-seq")}, true, 200},
		{"json latin1 not listed", "application/json; charset=latin1", []Option{ContentTypes("text/*")}, false, 200},
		{"xml latin1", "application/xml; charset=iso-8859-1", nil, false, 200},
		{"octet-stream", "application/octet-stream", nil, false, 200},
		{"png", "image/png", nil, false, 200},
		{"multipart", "multipart/form-data; boundary=x", nil, false, 200},
		{"no content type", noCT, nil, true, 200},
		{"empty content type", "", nil, true, 200},
		{"parameters only", "; charset=latin1", nil, true, 200},
		{"malformed", "json", nil, true, 200},
		{"malformed type", "application/json x", nil, true, 200},
		{"malformed with latin1", "json; charset=latin1", nil, true, 200},
		{"latin1", "text/plain; charset=ISO-8859-1", nil, false, 200},
		{"latin1 after other params", "text/plain; format=flowed; charset=latin1", nil, false, 200},
		{"latin1 RequireUTF8", "text/plain; charset=ISO-8859-1", []Option{RequireUTF8()}, false, 415},
		{"utf-8 RequireUTF8", "text/plain; charset=utf-8", []Option{RequireUTF8()}, true, 200},
		{"image RequireUTF8", "image/png", []Option{RequireUTF8()}, false, 200},
		{"no content type RequireUTF8", noCT, []Option{RequireUTF8()}, true, 200},
		{"custom list", "text/plain", []Option{ContentTypes("application/json")}, false, 200},
		{"custom list json", "application/json", []Option{ContentTypes("application/json")}, true, 200},
		{"custom list no content type", noCT, []Option{ContentTypes("text/csv")}, true, 200},
		{"custom wildcard", "application/octet-stream", []Option{ContentTypes("*/*")}, true, 200},
		{"custom suffix", "application/ld+json", []Option{ContentTypes("*+JSON")}, true, 200},
		{"empty list", "application/json", []Option{ContentTypes()}, false, 200},
		{"empty list no content type", noCT, []Option{ContentTypes()}, false, 200},
		{"all octet-stream", "application/octet-stream", []Option{AllRequestBodies()}, true, 200},
		{"all png", "image/png", []Option{AllRequestBodies()}, true, 200},
		{"all latin1", "text/plain; charset=latin1", []Option{AllRequestBodies()}, true, 200},
		{"all latin1 RequireUTF8", "text/plain; charset=latin1", []Option{AllRequestBodies(), RequireUTF8()}, false, 415},
		{"all empty list", "image/png", []Option{AllRequestBodies(), ContentTypes()}, true, 200},
		{"all empty list no content type", noCT, []Option{AllRequestBodies(), ContentTypes()}, true, 200},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var header []string
			if tc.ct != noCT {
				header = []string{"Content-Type", tc.ct}
			}
			status, reply, s := sendLocal(t, Middleware(utf8stream.Replace, tc.opts...), newPost(in, header...))
			if status != tc.status {
				t.Fatalf("status = %d %q; want %d", status, reply, tc.status)
			}
			if tc.status != http.StatusOK {
				if s.called {
					t.Errorf("handler was called")
				}
				return
			}
			if got := s.contentType; (tc.ct == noCT) != (got == nil) || tc.ct != noCT && got[0] != tc.ct {
				t.Fatalf("handler saw Content-Type %q; want %q", got, tc.ct)
			}
			want := in
			if tc.checked {
				want, _ = expected(t, utf8stream.Replace, in)
			}
			if string(s.body) != string(want) || s.statsOK != tc.checked {
				t.Errorf("handler read %q, BodyStats ok %v; want %q, %v", s.body, s.statsOK, want, tc.checked)
			}
			if !tc.checked && (s.length != int64(len(in)) || len(s.header) != 1) {
				t.Errorf("unchecked body: ContentLength %d, header %q; want both kept", s.length, s.header)
			}
		})
	}
}
