package utf8http_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/utf8stream/utf8stream"
	"github.com/utf8stream/utf8stream/utf8http"
)

// greet decodes a JSON name and greets it, saying how many ill-formed
// subparts the middleware repaired in the request body. It never looks at
// the Content-Type or Content-Encoding header: the middleware sees to both.
func greet(w http.ResponseWriter, r *http.Request) {
	var msg struct{ Name string }
	if err := json.NewDecoder(r.Body).Decode(&msg); err != nil {
		if !utf8http.WriteError(w, err) {
			http.Error(w, "bad JSON", http.StatusBadRequest)
		}
		return
	}
	stats, _ := utf8http.BodyStats(r)
	fmt.Fprintf(w, "hello, %s (%d repaired)\n", msg.Name, stats.Subparts)
}

// gzipped returns s compressed with gzip.
func gzipped(s string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	io.WriteString(zw, s)
	zw.Close()
	return buf.Bytes()
}

func Example() {
	h := utf8http.Middleware(utf8stream.Windows1252, utf8http.Prevalidate(1<<20))(http.HandlerFunc(greet))
	srv := httptest.NewUnstartedServer(h)
	// Prevalidate holds up to 1 MiB per request: bound what slow clients hold.
	srv.Config.ReadHeaderTimeout = 5 * time.Second
	srv.Config.ReadTimeout = 30 * time.Second
	srv.Start()
	defer srv.Close()

	body := "{\"name\": \"Andr\xe9\"}" // Latin-1 é: not UTF-8
	for _, req := range []struct {
		desc, contentType, encoding string
		body                        []byte
	}{
		{"json", "application/json", "", []byte(body)},
		{"no Content-Type", "", "", []byte(body)},
		{"gzip", "application/json", "gzip", gzipped(body)},
		{"brotli", "application/json", "br", []byte("never read")},
		// Not checked: encoding/json turns the é into U+FFFD unseen.
		// AllRequestBodies would check it.
		{"binary", "application/octet-stream", "", []byte(body)},
	} {
		r, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(req.body))
		if req.contentType != "" {
			r.Header.Set("Content-Type", req.contentType)
		}
		if req.encoding != "" {
			r.Header.Set("Content-Encoding", req.encoding)
		}
		resp, err := srv.Client().Do(r)
		if err != nil {
			fmt.Println(err)
			return
		}
		reply, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%s: %d %s", req.desc, resp.StatusCode, reply)
	}
	// Output:
	// json: 200 hello, André (1 repaired)
	// no Content-Type: 200 hello, André (1 repaired)
	// gzip: 200 hello, André (1 repaired)
	// brotli: 415 request body Content-Encoding is not supported
	// binary: 200 hello, Andr� (0 repaired)
}
