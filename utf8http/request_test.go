package utf8http

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/utf8stream/utf8stream"
)

// compress returns in compressed with the content coding c: gzip, x-gzip,
// deflate (the zlib format) or identity.
func compress(t testing.TB, c string, in []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch strings.ToLower(c) {
	case "gzip", "x-gzip":
		w = gzip.NewWriter(&buf)
	case "deflate":
		w = zlib.NewWriter(&buf)
	case "identity":
		return in
	default:
		t.Fatalf("unknown coding %q", c)
	}
	if _, err := w.Write(in); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestMiddlewareContentEncoding(t *testing.T) {
	codings := []string{"gzip", "x-gzip", "GZip", "deflate", "identity", "identity, gzip", "deflate,identity"}
	for _, p := range []utf8stream.Policy{utf8stream.Reject, utf8stream.Replace, utf8stream.OPTU8} {
		for _, tc := range mwInputs[1:] {
			for _, coding := range codings {
				for _, limit := range []int64{0, 1 << 20} {
					name := fmt.Sprintf("policy=%v/%s/encoding=%s/prevalidate=%d", p, tc.desc, coding, limit)
					t.Run(name, func(t *testing.T) {
						in := []byte(tc.in)
						applied := "identity"
						for c := range strings.SplitSeq(coding, ",") {
							if c = strings.TrimSpace(c); c != "identity" {
								applied = c
							}
						}
						body := compress(t, applied, in)
						status, reply, s := sendLocal(t, Middleware(p, Prevalidate(limit)),
							newPost(body, "Content-Type", "application/json", "Content-Encoding", coding))
						identity := applied == "identity"
						switch {
						case !s.called:
						case identity && (len(s.encoding) != 1 || s.encoding[0] != coding):
							t.Errorf("handler saw Content-Encoding %q; want %q kept", s.encoding, coding)
						case !identity && s.encoding != nil:
							t.Errorf("handler saw Content-Encoding %q; want none", s.encoding)
						}
						at := firstInvalid(in)
						if p == utf8stream.Reject && at >= 0 {
							want := fmt.Sprintf("invalid UTF-8 in request body at byte %d\n", at)
							if status != http.StatusBadRequest || reply != want {
								t.Errorf("response = %d %q; want 400 %q", status, reply, want)
							}
							if limit > 0 && s.called {
								t.Errorf("handler called after Prevalidate rejected the body")
							}
							if limit == 0 && !bytes.Equal(s.body, in[:at]) {
								t.Errorf("handler read %q; want the valid prefix %q", s.body, in[:at])
							}
							return
						}
						if status != http.StatusOK || reply != "ok" || s.err != nil {
							t.Fatalf("response = %d %q, handler's read error %v; want 200 \"ok\"", status, reply, s.err)
						}
						if msg := checkOutput(t, p, in, s.body); msg != "" {
							t.Errorf("handler read: %s", msg)
						}
						switch {
						case limit > 0:
							if s.length != int64(len(s.body)) || len(s.header) != 1 || s.header[0] != fmt.Sprint(len(s.body)) {
								t.Errorf("Prevalidate: handler saw ContentLength %d, header %q; want %d", s.length, s.header, len(s.body))
							}
						case !identity || p != utf8stream.Reject:
							if s.length != -1 || s.header != nil {
								t.Errorf("handler saw ContentLength %d, header %q; want -1 and none", s.length, s.header)
							}
						}
					})
				}
			}
		}
	}
}

// TestMiddlewareContentEncodingEmpty checks that a request body of no
// bytes with Content-Encoding gzip or deflate reaches the handler as an
// empty body, as net/http's client and Responses take an empty compressed
// response, whether sent with a Content-Length of 0 or chunked.
func TestMiddlewareContentEncodingEmpty(t *testing.T) {
	for _, coding := range []string{"gzip", "deflate"} {
		for _, chunked := range []bool{false, true} {
			for _, limit := range []int64{0, 1 << 20} {
				t.Run(fmt.Sprintf("%s/chunked=%v/prevalidate=%d", coding, chunked, limit), func(t *testing.T) {
					post := newPost(nil, "Content-Type", "text/plain", "Content-Encoding", coding)
					req := func(url string) *http.Request {
						r := post(url)
						if chunked {
							r.Body = io.NopCloser(strings.NewReader(""))
							r.ContentLength = -1
							r.TransferEncoding = []string{"chunked"}
						}
						return r
					}
					status, reply, s := sendLocal(t, Middleware(utf8stream.Reject, Prevalidate(limit)), req)
					if status != http.StatusOK || !s.called || len(s.body) != 0 || s.err != nil {
						t.Errorf("response = %d %q, handler called %v, read %q, %v; want 200 and an empty body", status, reply, s.called, s.body, s.err)
					}
				})
			}
		}
	}
}

func TestMiddlewareContentEncodingRefused(t *testing.T) {
	in := []byte("{\"name\":\"Andr\xe9\"}")
	tests := []struct {
		desc     string
		ct       string
		encoding []string // the Content-Encoding fields
		status   int
	}{
		{"br", "application/json", []string{"br"}, 415},
		{"zstd", "text/plain", []string{"zstd"}, 415},
		{"compress", "application/json", []string{"compress"}, 415},
		{"unknown", "application/json", []string{"x-custom"}, 415},
		{"chain", "application/json", []string{"gzip, gzip"}, 415},
		{"chain of fields", "application/json", []string{"deflate", "gzip"}, 415},
		{"chain with unknown", "application/json", []string{"gzip, br"}, 415},
		{"no content type", "", []string{"br"}, 415},
		{"binary br", "application/octet-stream", []string{"br"}, 200},
		{"binary gzip", "image/png", []string{"gzip"}, 200},
		{"latin1 gzip", "text/plain; charset=latin1", []string{"gzip"}, 200},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			header := []string{}
			if tc.ct != "" {
				header = append(header, "Content-Type", tc.ct)
			}
			for _, e := range tc.encoding {
				header = append(header, "Content-Encoding", e)
			}
			var accept []string
			mw := func(h http.Handler) http.Handler {
				h = Middleware(utf8stream.Replace)(h)
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					h.ServeHTTP(w, r)
					accept = w.Header()["Accept-Encoding"]
				})
			}
			status, reply, s := sendLocal(t, mw, newPost(in, header...))
			if status != tc.status {
				t.Fatalf("status = %d %q; want %d", status, reply, tc.status)
			}
			if status == http.StatusUnsupportedMediaType {
				if s.called {
					t.Error("handler was called")
				}
				if want := "gzip, deflate"; len(accept) != 1 || accept[0] != want {
					t.Errorf("Accept-Encoding = %q; want %q", accept, want)
				}
				return
			}
			// A body that is not checked passes untouched, encoded.
			if !bytes.Equal(s.body, in) || s.statsOK || fmt.Sprint(s.encoding) != fmt.Sprint(tc.encoding) {
				t.Errorf("handler read %q with Content-Encoding %q, checked %v; want it untouched", s.body, s.encoding, s.statsOK)
			}
		})
	}
}

func TestMiddlewareContentEncodingCorrupt(t *testing.T) {
	text := []byte(strings.Repeat("Grüße, 世界! ", 200))
	gz := compress(t, "gzip", text)
	zl := compress(t, "deflate", text)
	badCRC := bytes.Clone(gz)
	badCRC[len(badCRC)-8] ^= 1
	var raw bytes.Buffer
	fw, _ := flate.NewWriter(&raw, flate.DefaultCompression)
	fw.Write(text)
	fw.Close()
	tests := []struct {
		desc, coding string
		body         []byte
	}{
		{"not gzip", "gzip", text},
		{"empty gzip member", "gzip", gz[:5]},
		{"truncated gzip", "gzip", gz[:len(gz)/2]},
		{"gzip without trailer", "gzip", gz[:len(gz)-8]},
		{"gzip checksum", "gzip", badCRC},
		{"gzip trailing garbage", "gzip", append(bytes.Clone(gz), "garbage"...)},
		{"truncated deflate", "deflate", zl[:len(zl)/2]},
		{"deflate checksum", "deflate", append(bytes.Clone(zl[:len(zl)-1]), zl[len(zl)-1]^1)},
		{"deflate trailing garbage", "deflate", append(bytes.Clone(zl), "garbage"...)},
		{"raw deflate", "deflate", raw.Bytes()},
	}
	for _, tc := range tests {
		for _, p := range []utf8stream.Policy{utf8stream.Reject, utf8stream.Replace} {
			for _, limit := range []int64{0, 1 << 20} {
				t.Run(fmt.Sprintf("%s/policy=%v/prevalidate=%d", tc.desc, p, limit), func(t *testing.T) {
					status, reply, s := sendLocal(t, Middleware(p, Prevalidate(limit)),
						newPost(tc.body, "Content-Type", "text/plain", "Content-Encoding", tc.coding))
					want := "corrupt " + tc.coding + " request body\n"
					if status != http.StatusBadRequest || reply != want {
						t.Errorf("response = %d %q; want 400 %q", status, reply, want)
					}
					if limit > 0 {
						if s.called {
							t.Error("handler called after Prevalidate found the body corrupt")
						}
						return
					}
					var c *corruptError
					if !errors.As(s.err, &c) || !strings.HasPrefix(s.err.Error(), "utf8http: corrupt "+tc.coding+" request body: ") {
						t.Errorf("handler's read error = %v; want a corrupt %s body", s.err, tc.coding)
					}
					// What the handler got before the error is checked text.
					if !bytes.HasPrefix(text, s.body) {
						t.Errorf("handler read %q; want a prefix of the text", s.body)
					}
				})
			}
		}
	}
}

// zeros is an endless stream of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestMiddlewarePrevalidateLimit checks the limit of Prevalidate, which
// bounds the decoded bytes of a compressed body and what the policy makes
// of them: a body at the limit reaches the handler whole with its exact
// length, one byte more gets 413, and so does a zip bomb or a small body
// that a repair makes many times larger, with what the request allocates
// bounded by the limit.
func TestMiddlewarePrevalidateLimit(t *testing.T) {
	const limit = 1 << 16
	valid := strings.Repeat("é", limit/2)
	// A zip bomb: 64 MiB of zeros in about 64 KiB of gzip.
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	if _, err := io.Copy(zw, io.LimitReader(zeros{}, 64<<20)); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	gz := func(s string) []byte { return compress(t, "gzip", []byte(s)) }
	bad := func(n int) string { return strings.Repeat("\xff", n) }
	long := utf8stream.Replacement(strings.Repeat("x", 64))
	const (
		replace   = utf8stream.Replace
		backslash = utf8stream.BackslashReplace
		drop      = utf8stream.Drop
	)
	tests := []struct {
		desc   string
		p      utf8stream.Policy
		opts   []utf8stream.Option
		body   []byte // sent with Content-Encoding gzip where it is gzip
		status int
		want   string // the handler's body, where status is 200
	}{
		{"gzip at limit", replace, nil, gz(valid), 200, valid},
		{"gzip over limit", replace, nil, gz(valid + "x"), 413, ""},
		{"bomb", replace, nil, bomb.Bytes(), 413, ""},
		{"replace at limit", replace, nil, []byte(bad(limit / 3)), 200, strings.Repeat("\uFFFD", limit/3)},
		{"replace over limit", replace, nil, []byte(bad(limit/3 + 1)), 413, ""},
		{"backslashreplace at limit", backslash, nil, []byte(bad(limit / 4)), 200, strings.Repeat(`\xff`, limit/4)},
		{"backslashreplace over limit", backslash, nil, []byte(bad(limit/4 + 1)), 413, ""},
		{"drop at limit", drop, nil, []byte(bad(limit)), 200, ""},
		{"drop over limit", drop, nil, []byte(bad(limit + 1)), 413, ""},
		{"long replacement, gzip", replace, []utf8stream.Option{long}, gz(bad(limit)), 413, ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			headers := []string{"Content-Type", "text/plain"}
			if bytes.HasPrefix(tc.body, []byte{0x1f, 0x8b}) {
				headers = append(headers, "Content-Encoding", "gzip")
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			status, reply, s := sendLocal(t, Middleware(tc.p, Prevalidate(limit), StreamOptions(tc.opts...)), newPost(tc.body, headers...))
			runtime.ReadMemStats(&after)
			if status != tc.status {
				t.Fatalf("status = %d %q; want %d", status, reply, tc.status)
			}
			if status != http.StatusOK {
				if s.called {
					t.Error("handler called")
				}
			} else if string(s.body) != tc.want || s.length != int64(len(tc.want)) {
				t.Errorf("handler read %d bytes, ContentLength %d; want %d", len(s.body), s.length, len(tc.want))
			}
			if total := after.TotalAlloc - before.TotalAlloc; total > 16<<20 {
				t.Errorf("the request allocated %d bytes; want a bound set by the limit of %d", total, limit)
			}
		})
	}
}

// lazyBody is a request body that records whether it was read.
type lazyBody struct {
	r    io.Reader
	read atomic.Bool
}

func (b *lazyBody) Read(p []byte) (int, error) {
	b.read.Store(true)
	return b.r.Read(p)
}

func TestMiddlewareContentEncodingExpectContinue(t *testing.T) {
	// A handler that answers without reading the body: the client, which
	// waits for "100 Continue", must never send it.
	url, client := serveLocal(t, Middleware(utf8stream.Reject)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "who are you?", http.StatusUnauthorized)
	})))
	client.Transport.(protoCheck).base.(*http.Transport).ExpectContinueTimeout = 10 * time.Second
	for _, coding := range []string{"identity", "gzip", "deflate"} {
		t.Run("encoding="+coding, func(t *testing.T) {
			body := &lazyBody{r: bytes.NewReader(compress(t, coding, []byte(`{"a":1}`)))}
			req, err := http.NewRequest(http.MethodPost, url, body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Content-Encoding", coding)
			req.Header.Set("Expect", "100-continue")
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || body.read.Load() {
				t.Errorf("status %d, body sent %v; want 401 and the body never sent", resp.StatusCode, body.read.Load())
			}
		})
	}
}
