package utf8http_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/utf8stream/utf8stream"
	"github.com/utf8stream/utf8stream/utf8http"
)

// legacy answers with JSON in Latin-1, which is not UTF-8.
func legacy(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, "{\"name\": \"Andr\xe9\"}")
}

func ExampleTransport() {
	srv := httptest.NewServer(http.HandlerFunc(legacy))
	defer srv.Close()

	for _, p := range []utf8stream.Policy{utf8stream.Windows1252, utf8stream.Reject} {
		client := &http.Client{Transport: utf8http.Transport(srv.Client().Transport, p)}
		resp, err := client.Get(srv.URL)
		if err != nil {
			fmt.Println(err)
			return
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close() // closes the server's body
		var e *utf8stream.Error
		if errors.As(err, &e) {
			fmt.Printf("%v: %q, then ill-formed byte %#x at offset %d\n", p, body, e.Bytes, e.Offset)
			continue
		}
		fmt.Printf("%v: %s\n", p, body)
	}
	// Output:
	// windows1252: {"name": "André"}
	// reject: "{\"name\": \"Andr", then ill-formed byte 0xe9 at offset 14
}
