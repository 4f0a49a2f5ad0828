package utf8http_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"

	"github.com/utf8stream/utf8stream"
	"github.com/utf8stream/utf8stream/utf8http"
)

// upstream answers with gzip-compressed JSON holding a Latin-1 byte, as
// a backend behind a proxy might.
func upstream(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Encoding", "gzip")
	zw := gzip.NewWriter(w)
	io.WriteString(zw, "{\"name\": \"Andr\xe9\"}")
	zw.Close()
}

func ExampleResponses() {
	backend := httptest.NewServer(http.HandlerFunc(upstream))
	defer backend.Close()
	u, _ := url.Parse(backend.URL)
	proxy := httputil.NewSingleHostReverseProxy(u)

	for _, p := range []utf8stream.Policy{utf8stream.Replace, utf8stream.Reject} {
		front := httptest.NewServer(utf8http.Middleware(p, utf8http.Responses())(proxy))
		resp, err := http.Get(front.URL) // asks for gzip, and decodes it
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		front.Close()
		fmt.Printf("%v: %d %s", p, resp.StatusCode, body)
		fmt.Println()
	}
	// Output:
	// replace: 200 {"name": "Andr�"}
	// reject: 500 invalid UTF-8 in response body
}
