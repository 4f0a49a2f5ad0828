package utf8http_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/utf8stream/utf8stream"
	"github.com/utf8stream/utf8stream/utf8http"
)

// greet decodes a JSON name and greets it, saying how many ill-formed
// subparts the middleware repaired in the request body.
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

func Example() {
	body := "{\"name\": \"Andr\xe9\"}" // Latin-1 é: not UTF-8

	for _, p := range []utf8stream.Policy{utf8stream.Replace, utf8stream.Windows1252, utf8stream.Reject} {
		h := utf8http.Middleware(p)(http.HandlerFunc(greet))
		req := httptest.NewRequest(http.MethodPost, "/greet", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		fmt.Printf("%s: %d %s", p, rec.Code, rec.Body)
	}
	// Output:
	// replace: 200 hello, Andr� (1 repaired)
	// windows1252: 200 hello, André (1 repaired)
	// reject: 400 invalid UTF-8 in request body at byte 14
}
