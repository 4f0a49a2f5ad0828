package utf8http

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream"
)

var (
	_ http.Flusher                              = (*responseWriter)(nil)
	_ http.Hijacker                             = (*responseWriter)(nil)
	_ interface{ Unwrap() http.ResponseWriter } = (*responseWriter)(nil)
	_ interface{ FlushError() error }           = (*responseWriter)(nil)
)

// flushes is a response split over writes, with a flush after each. hold
// is what must have reached the client after each flush under Replace.
var flushes = []struct{ write, hold string }{
	{"x\xe2", "x"},
	{"\x82", "x"},
	{"\xac", "x€"},
	{"\xf0\x9f", "x€"},
	{"\x99\x82 ", "x€🙂 "},
	{"\xe2\x82", "x€🙂 "},
	{"y", "x€🙂 \uFFFDy"},
	{"\xf0\x9f\x99", "x€🙂 \uFFFDy"},
}

func TestMiddlewareResponseFlush(t *testing.T) {
	h := Middleware(utf8stream.Replace, Responses())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Content-Length", "1000")
		rec := w.(interface{ Unwrap() http.ResponseWriter }).Unwrap().(*httptest.ResponseRecorder)
		rc := http.NewResponseController(w)
		for i, f := range flushes {
			io.WriteString(w, f.write)
			if i%2 == 0 {
				if err := rc.Flush(); err != nil {
					t.Fatalf("ResponseController.Flush = %v", err)
				}
			} else {
				w.(http.Flusher).Flush()
			}
			if got := rec.Body.String(); got != f.hold || !rec.Flushed {
				t.Errorf("after writing %q and flushing: client has %q (flushed %v); want %q", f.write, got, rec.Flushed, f.hold)
			}
		}
		if _, _, err := rc.Hijack(); !errors.Is(err, http.ErrNotSupported) {
			t.Errorf("Hijack through the wrapper = %v; want ErrNotSupported from the recorder", err)
		}
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if want := "x€🙂 \uFFFDy\uFFFD"; rec.Body.String() != want {
		t.Errorf("response = %q; want %q", rec.Body, want)
	}
	if cl := rec.Header()["Content-Length"]; cl != nil {
		t.Errorf("Content-Length = %q; want it deleted", cl)
	}
}

// serveResponse runs a handler that writes in in pieces of size k, with
// Content-Type ct and a Content-Length, and returns the recorder and what
// the handler panicked with.
func serveResponse(p utf8stream.Policy, in []byte, k int, ct string, flush bool) (rec *httptest.ResponseRecorder, panicked any) {
	h := Middleware(p, Responses())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(in)))
		w.WriteHeader(http.StatusOK)
		for i := 0; i < len(in); i += k {
			w.Write(in[i:min(i+k, len(in))])
			if flush {
				w.(http.Flusher).Flush()
			}
		}
	}))
	rec = httptest.NewRecorder()
	defer func() { panicked = recover() }()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	return rec, nil
}

func TestMiddlewareResponsePolicies(t *testing.T) {
	for _, p := range mwPolicies {
		for _, tc := range mwInputs {
			for _, k := range []int{1, 2, 3, 7, 1 << 20} {
				for _, flush := range []bool{false, true} {
					t.Run(fmt.Sprintf("policy=%v/%s/write=%d/flush=%v", p, tc.desc, k, flush), func(t *testing.T) {
						in := []byte(tc.in)
						rec, panicked := serveResponse(p, in, k, "text/plain; charset=utf-8", flush)
						got := rec.Body.Bytes()
						if p != utf8stream.Reject {
							if panicked != nil || rec.Code != http.StatusOK {
								t.Fatalf("status %d, panic %v", rec.Code, panicked)
							}
							if msg := checkOutput(t, p, in, got); msg != "" {
								t.Error(msg)
							}
							if cl := rec.Header()["Content-Length"]; cl != nil {
								t.Errorf("Content-Length = %q; want it deleted", cl)
							}
							return
						}
						at := firstInvalid(in)
						switch {
						case at < 0:
							if panicked != nil || !bytes.Equal(got, in) {
								t.Errorf("valid response = %q, panic %v; want %q", got, panicked, in)
							}
							if cl := rec.Header().Get("Content-Length"); cl != strconv.Itoa(len(in)) {
								t.Errorf("Reject: Content-Length = %q; want %d kept", cl, len(in))
							}
						case at == 0 && (!flush || panicked == nil):
							// Nothing was sent, not even the header: the
							// response becomes a 500. A flush sends the
							// header, and then the response is aborted.
							want := "invalid UTF-8 in response body\n"
							if panicked != nil || rec.Code != http.StatusInternalServerError || rec.Body.String() != want {
								t.Errorf("rejected before any byte: %d %q, panic %v; want 500 %q", rec.Code, rec.Body, panicked, want)
							}
						default:
							if panicked != http.ErrAbortHandler {
								t.Errorf("rejected after %d bytes: panic %v; want http.ErrAbortHandler", at, panicked)
							}
							if !utf8.Valid(got) || !bytes.HasPrefix(in, got) || len(got) > at {
								t.Errorf("aborted response sent %q; want a valid prefix of %q up to byte %d", got, in, at)
							}
						}
					})
				}
			}
		}
	}
}

func TestMiddlewareResponseContentTypes(t *testing.T) {
	const in = "a\xffb"
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff"
	tests := []struct {
		desc, ct, in, want string
	}{
		{"text", "text/plain", in, "a\uFFFDb"},
		{"json", "application/json", in, "a\uFFFDb"},
		{"latin1", "text/plain; charset=iso-8859-1", in, in},
		{"json latin1", "application/json; charset=iso-8859-1", in, "a\uFFFDb"},
		{"image", "image/png", in, in},
		{"sniffed text", "", in, "a\uFFFDb"},
		{"sniffed png", "", png, png},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			rec, panicked := serveResponse(utf8stream.Replace, []byte(tc.in), 1<<10, tc.ct, false)
			if panicked != nil || rec.Body.String() != tc.want {
				t.Errorf("response = %q, panic %v; want %q", rec.Body, panicked, tc.want)
			}
		})
	}
	// Without Responses nothing is touched.
	h := Middleware(utf8stream.Replace)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.(*httptest.ResponseRecorder); !ok {
			t.Errorf("ResponseWriter is wrapped without Responses: %T", w)
		}
		io.WriteString(w, in)
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Body.String() != in {
		t.Errorf("response without Responses = %q; want %q", rec.Body, in)
	}
}

func TestMiddlewareResponseContentEncoding(t *testing.T) {
	text := []byte("caf\xe9 \xe2\x82\xac \xff and more text to make it worth compressing")
	tests := []struct {
		desc     string
		ct       string // "" for none
		encoding string
		body     []byte
		checked  bool
	}{
		{"gzip", "text/plain; charset=utf-8", "gzip", compress(t, "gzip", text), false},
		{"gzip sniffed", "", "gzip", compress(t, "gzip", text), false},
		{"deflate json", "application/json", "deflate", compress(t, "deflate", text), false},
		{"br", "text/html", "br", text, false},
		{"unknown", "text/html", "x-custom", text, false},
		{"identity", "text/plain", "identity", text, true},
		{"none", "text/plain", "", text, true},
	}
	for _, p := range []utf8stream.Policy{utf8stream.Reject, utf8stream.Replace} {
		for _, tc := range tests {
			t.Run(fmt.Sprintf("policy=%v/%s", p, tc.desc), func(t *testing.T) {
				url, client := serveLocal(t, Middleware(p, Responses())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if tc.ct != "" {
						w.Header().Set("Content-Type", tc.ct)
					}
					if tc.encoding != "" {
						w.Header().Set("Content-Encoding", tc.encoding)
					}
					for i := 0; i < len(tc.body); i += 7 {
						w.Write(tc.body[i:min(i+7, len(tc.body))])
					}
				})))
				req, err := http.NewRequest(http.MethodGet, url, nil)
				if err != nil {
					t.Fatal(err)
				}
				// Asked for explicitly, the transport does not decode gzip.
				req.Header.Set("Accept-Encoding", "gzip, deflate, br")
				resp, err := client.Do(req)
				if err == nil {
					var got []byte
					got, err = io.ReadAll(resp.Body)
					resp.Body.Close()
					resp.Body = io.NopCloser(bytes.NewReader(got))
				}
				if tc.checked && p == utf8stream.Reject {
					// Ill-formed after the first bytes went out: aborted.
					if err == nil {
						t.Errorf("rejected response was not aborted")
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				got, _ := io.ReadAll(resp.Body)
				if ce := resp.Header.Get("Content-Encoding"); ce != tc.encoding {
					t.Errorf("Content-Encoding = %q; want %q", ce, tc.encoding)
				}
				if !tc.checked {
					if resp.StatusCode != http.StatusOK || !bytes.Equal(got, tc.body) {
						t.Errorf("response = %d %q; want 200 and the handler's bytes %q", resp.StatusCode, got, tc.body)
					}
					return
				}
				if msg := checkOutput(t, p, text, got); msg != "" {
					t.Error(msg)
				}
			})
		}
	}
}
