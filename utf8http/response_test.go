package utf8http

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream"
	"github.com/utf8stream/utf8stream/internal/textgen"
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
// Content-Type ct and a Content-Length, through Middleware with Responses
// and opts, and returns the recorder and what the handler panicked with.
func serveResponse(p utf8stream.Policy, in []byte, k int, ct string, flush bool, opts ...Option) (rec *httptest.ResponseRecorder, panicked any) {
	h := Middleware(p, append([]Option{Responses()}, opts...)...)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(in)))
		w.WriteHeader(http.StatusOK)
		if flush {
			w.(http.Flusher).Flush() // before any byte: sends nothing
		}
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

// rejectedText is the body of the 500 that a rejected response becomes.
const rejectedText = "invalid UTF-8 in response body\n"

func TestMiddlewareResponsePolicies(t *testing.T) {
	for _, p := range mwPolicies {
		for _, tc := range mwInputs {
			for _, k := range []int{1, 2, 3, 7, 1 << 20} {
				for _, flush := range []bool{false, true} {
					for _, buffer := range []int{defaultResponseBuffer, 0} {
						t.Run(fmt.Sprintf("policy=%v/%s/write=%d/flush=%v/buffer=%d", p, tc.desc, k, flush, buffer), func(t *testing.T) {
							in := []byte(tc.in)
							rec, panicked := serveResponse(p, in, k, "text/plain; charset=utf-8", flush, ResponseBuffer(buffer))
							checkResponse(t, p, in, rec, panicked, flush, buffer)
						})
					}
				}
			}
		}
	}
}

// checkResponse checks what the client got of a response with the body in
// under policy p: the policy's output, or under Reject a 500 or an
// aborted response with a valid prefix of in. The handler flushed after
// each write if flush is set, and buffer is the ResponseBuffer.
func checkResponse(t *testing.T, p utf8stream.Policy, in []byte, rec *httptest.ResponseRecorder, panicked any, flush bool, buffer int) {
	t.Helper()
	held := !flush && buffer >= len(in) // so Reject must give a 500
	got := rec.Body.Bytes()
	if p != utf8stream.Reject {
		if panicked != nil || rec.Code != http.StatusOK {
			t.Fatalf("status %d, panic %v", rec.Code, panicked)
		}
		if msg := checkOutput(t, p, in, got); msg != "" {
			t.Error(msg)
		}
		// A response held whole until the handler returned gets its
		// length; one that went out before has none.
		cl, ok := rec.Header()["Content-Length"]
		switch {
		case ok && (len(cl) != 1 || cl[0] != strconv.Itoa(len(got))):
			t.Errorf("Content-Length = %q; want %d or none", cl, len(got))
		case !ok && !flush && buffer >= len(got):
			t.Errorf("response held whole has no Content-Length; want %d", len(got))
		case ok && buffer < len(got):
			t.Errorf("response longer than the buffer has Content-Length %q; want none", cl)
		}
		return
	}
	at := firstInvalid(in)
	switch {
	case at < 0:
		if panicked != nil || rec.Code != http.StatusOK || !bytes.Equal(got, in) {
			t.Errorf("valid response = %d %q, panic %v; want 200 %q", rec.Code, got, panicked, in)
		}
		if cl := rec.Header().Get("Content-Length"); cl != strconv.Itoa(len(in)) {
			t.Errorf("Reject: Content-Length = %q; want %d kept", cl, len(in))
		}
	case panicked == nil:
		// Nothing was sent, not even the header: the response became a 500.
		if rec.Code != http.StatusInternalServerError || rec.Body.String() != rejectedText {
			t.Errorf("rejected before any byte: %d %q; want 500 %q", rec.Code, rec.Body, rejectedText)
		}
		if cl := rec.Header().Get("Content-Length"); cl != strconv.Itoa(len(rejectedText)) {
			t.Errorf("500: Content-Length = %q; want %d", cl, len(rejectedText))
		}
	default:
		if panicked != http.ErrAbortHandler {
			t.Errorf("rejected after %d bytes: panic %v; want http.ErrAbortHandler", at, panicked)
		}
		if held {
			t.Errorf("rejected response was aborted although it was held whole; want a 500")
		}
		if len(got) == 0 || !utf8.Valid(got) || !bytes.HasPrefix(in, got) || len(got) > at {
			t.Errorf("aborted response sent %q; want a non-empty valid prefix of %q up to byte %d", got, in, at)
		}
	}
}

func TestMiddlewareResponseBuffer(t *testing.T) {
	valid := strings.Repeat("é", 100) // 200 bytes
	tests := []struct {
		desc    string
		buffer  int
		writes  []string
		flushAt int // flush after this many writes, or -1
		status  int // 0: aborted
		sent    string
	}{
		{"default holds 12 bytes", defaultResponseBuffer, []string{"{\"a\":\"hello", "\xff\"}"}, -1, 500, ""},
		{"within buffer", 256, []string{valid, "\xff"}, -1, 500, ""},
		{"over buffer", 100, []string{valid, "\xff"}, -1, 0, valid},
		{"over buffer in pieces", 100, []string{valid[:60], valid[60:120], valid[120:], "x\xff"}, -1, 0, valid + "x"},
		{"buffer filled exactly", 200, []string{valid, "\xff"}, -1, 500, ""},
		{"flush before body", 256, []string{"", valid, "\xff"}, 1, 500, ""},
		{"flush of a carried byte", 256, []string{"\xc3", "\xa9\xff"}, 1, 500, ""},
		{"flush after body", 256, []string{valid, "\xff"}, 1, 0, valid},
		{"none", 0, []string{"a", "\xff"}, -1, 0, "a"},
		{"negative", -1, []string{"a", "\xff"}, -1, 0, "a"},
		{"none, error first", 0, []string{"\xff"}, -1, 500, ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			h := Middleware(utf8stream.Reject, Responses(), ResponseBuffer(tc.buffer))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Etag", `"v1"`)
				for i, s := range tc.writes {
					if _, err := io.WriteString(w, s); err != nil {
						return
					}
					if i+1 == tc.flushAt {
						w.(http.Flusher).Flush()
					}
				}
			}))
			rec := httptest.NewRecorder()
			var panicked any
			func() {
				defer func() { panicked = recover() }()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
			}()
			if tc.status == 0 {
				if panicked != http.ErrAbortHandler || rec.Body.String() != tc.sent {
					t.Errorf("response %d %q, panic %v; want aborted after %q", rec.Code, rec.Body, panicked, tc.sent)
				}
				return
			}
			if panicked != nil || rec.Code != tc.status || rec.Body.String() != rejectedText {
				t.Errorf("response %d %q, panic %v; want %d %q", rec.Code, rec.Body, panicked, tc.status, rejectedText)
			}
			hd := rec.Header()
			if hd.Get("Etag") != "" || hd.Get("Cache-Control") != "no-store" || hd.Get("Content-Type") != "text/plain; charset=utf-8" {
				t.Errorf("500 header = %v; want no ETag, Cache-Control no-store, text/plain", hd)
			}
		})
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

// rawDeflate returns in compressed as raw deflate, without zlib's wrapper.
func rawDeflate(t testing.TB, in []byte) []byte {
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.DefaultCompression)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(in)
	fw.Close()
	return buf.Bytes()
}

// gunzip returns b decoded from gzip.
func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func TestMiddlewareResponseContentEncoding(t *testing.T) {
	short := []byte("caf\xe9 \xe2\x82\xac \xff and more text to make it worth compressing")
	// Long enough, and random enough not to compress much, that its first
	// ill-formed byte comes after the default ResponseBuffer went out.
	long := append(textgen.Make("chinese", 30<<10), textgen.Make("invalid1pct", 10<<10)...)
	codings := []struct {
		desc, header string // the Content-Encoding field, or "" for none
		encode       func(testing.TB, []byte) []byte
	}{
		{"gzip", "gzip", func(t testing.TB, b []byte) []byte { return compress(t, "gzip", b) }},
		{"x-gzip", "x-gzip", func(t testing.TB, b []byte) []byte { return compress(t, "gzip", b) }},
		{"deflate", "deflate", func(t testing.TB, b []byte) []byte { return compress(t, "deflate", b) }},
		{"raw deflate", "Deflate", rawDeflate},
		{"identity", "identity", func(t testing.TB, b []byte) []byte { return b }},
		{"none", "", func(t testing.TB, b []byte) []byte { return b }},
	}
	accepts := []struct {
		header string
		gzip   bool // the response comes compressed with gzip
	}{
		{"gzip, deflate, br, zstd", true},
		{"identity", false},
		{"br;q=1, gzip;q=0", false},
		{"*", true},
	}
	for _, p := range mwPolicies {
		for _, text := range [][]byte{short, long} {
			for _, cd := range codings {
				for _, ae := range accepts {
					for _, k := range []int{1, 7, 1 << 20} {
						name := fmt.Sprintf("policy=%v/size=%d/encoding=%s/accept=%s/write=%d", p, len(text), cd.desc, ae.header, k)
						t.Run(name, func(t *testing.T) {
							if testing.Short() && len(text) > len(short) && (k == 1 || p != utf8stream.Reject && p != utf8stream.Replace) {
								t.Skip("long inputs under Reject and Replace, and in writes of more than a byte, only with -short")
							}
							body := cd.encode(t, text)
							var sawAccept []string
							url, client := serveLocal(t, Middleware(p, Responses())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
								sawAccept = r.Header["Accept-Encoding"]
								w.Header().Set("Content-Type", "application/json")
								w.Header().Set("Etag", `"v1"`)
								if cd.header != "" {
									w.Header().Set("Content-Encoding", cd.header)
								}
								w.Header().Set("Content-Length", strconv.Itoa(len(body)))
								for i := 0; i < len(body); i += k {
									if _, err := w.Write(body[i:min(i+k, len(body))]); err != nil {
										return
									}
								}
							})))
							req, err := http.NewRequest(http.MethodGet, url, nil)
							if err != nil {
								t.Fatal(err)
							}
							// Asked for explicitly, the client does not decode gzip.
							req.Header.Set("Accept-Encoding", ae.header)
							resp, err := client.Do(req)
							if err != nil {
								t.Fatal(err)
							}
							got, rerr := io.ReadAll(resp.Body)
							resp.Body.Close()
							for _, v := range sawAccept {
								if strings.Contains(v, "br") || strings.Contains(v, "zstd") || v == "*" {
									t.Errorf("handler saw Accept-Encoding %q; want only codings the middleware decodes", sawAccept)
								}
							}
							coded := cd.header != "" && cd.header != "identity"
							if p == utf8stream.Reject {
								// Compressed again, the long text is held a
								// second time, in the gzip writer and then
								// compressed, so it does not go out before its
								// ill-formed byte either.
								if len(text) == len(short) || coded && ae.gzip {
									if rerr != nil || resp.StatusCode != http.StatusInternalServerError || string(got) != rejectedText {
										t.Errorf("response = %d %q, %v; want 500 %q", resp.StatusCode, got, rerr, rejectedText)
									}
								} else if rerr == nil {
									t.Errorf("response = %d, %d bytes read without error; want it aborted", resp.StatusCode, len(got))
								}
								return
							}
							if rerr != nil || resp.StatusCode != http.StatusOK {
								t.Fatalf("response = %d, %v", resp.StatusCode, rerr)
							}
							ce := resp.Header.Get("Content-Encoding")
							switch {
							case !coded:
								if ce != cd.header {
									t.Errorf("Content-Encoding = %q; want %q kept", ce, cd.header)
								}
							case ae.gzip && len(text) > defaultResponseBuffer:
								if ce != "gzip" {
									t.Errorf("Content-Encoding = %q; want gzip", ce)
								}
								if got, err = gunzip(got); err != nil {
									t.Fatalf("response does not decode: %v", err)
								}
							default:
								// Not accepted, or held whole: sent as it is.
								if ce != "" {
									t.Errorf("Content-Encoding = %q; want none", ce)
								}
								if len(text) == len(short) && resp.ContentLength != int64(len(got)) {
									t.Errorf("held response has ContentLength %d; want %d", resp.ContentLength, len(got))
								}
							}
							if coded && !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
								t.Errorf("Vary = %q; want Accept-Encoding", resp.Header.Get("Vary"))
							}
							if coded && resp.Header.Get("Etag") != `W/"v1"` {
								t.Errorf("ETag = %q; want it weak", resp.Header.Get("Etag"))
							}
							if msg := checkOutput(t, p, text, got); msg != "" {
								t.Error(msg)
							}
						})
					}
				}
			}
		}
	}
}

func TestMiddlewareResponseContentEncodingRefused(t *testing.T) {
	text := []byte(strings.Repeat("Grüße, 世界! ", 20))
	gz := compress(t, "gzip", text)
	big := compress(t, "gzip", textgen.Make("chinese", 64<<10))
	badCRC := bytes.Clone(gz)
	badCRC[len(badCRC)-8] ^= 1
	tests := []struct {
		desc, ct, coding string
		body             []byte
		status           int // 0: aborted
		reply            string
	}{
		{"br", "application/json", "br", text, 502, "response Content-Encoding is not supported\n"},
		{"zstd", "text/plain", "zstd", text, 502, "response Content-Encoding is not supported\n"},
		{"unknown", "text/html", "x-custom", text, 502, "response Content-Encoding is not supported\n"},
		{"chain", "text/html", "gzip, gzip", compress(t, "gzip", gz), 502, "response Content-Encoding is not supported\n"},
		{"not gzip", "text/plain", "gzip", text, 502, "corrupt gzip response body\n"},
		{"truncated gzip", "text/plain", "gzip", gz[:len(gz)/2], 502, "corrupt gzip response body\n"},
		{"gzip checksum", "text/plain", "gzip", badCRC, 502, "corrupt gzip response body\n"},
		{"gzip trailing garbage", "text/plain", "gzip", append(bytes.Clone(gz), "garbage"...), 502, "corrupt gzip response body\n"},
		{"deflate trailing garbage", "text/plain", "deflate", append(compress(t, "deflate", text), "garbage"...), 502, "corrupt deflate response body\n"},
		{"truncated after the buffer", "text/plain", "gzip", big[:len(big)-100], 0, ""},
		{"empty gzip", "text/plain", "gzip", nil, 200, ""},
		{"binary br", "image/png", "br", text, 200, string(text)},
		{"binary corrupt gzip", "application/octet-stream", "gzip", text, 200, string(text)},
		{"untyped gzip", "", "gzip", gz, 200, string(gz)},
	}
	for _, p := range mwPolicies {
		for _, tc := range tests {
			t.Run(fmt.Sprintf("policy=%v/%s", p, tc.desc), func(t *testing.T) {
				url, client := serveLocal(t, Middleware(p, Responses())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if tc.ct != "" {
						w.Header().Set("Content-Type", tc.ct)
					}
					w.Header().Set("Content-Encoding", tc.coding)
					w.Header().Set("Etag", `"v1"`)
					w.Write(tc.body)
				})))
				req, err := http.NewRequest(http.MethodGet, url, nil)
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Accept-Encoding", "identity")
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				got, rerr := io.ReadAll(resp.Body)
				resp.Body.Close()
				if tc.status == 0 {
					if rerr == nil {
						t.Errorf("response = %d, %d bytes read without error; want it aborted", resp.StatusCode, len(got))
					}
					return
				}
				if rerr != nil || resp.StatusCode != tc.status || string(got) != tc.reply {
					t.Errorf("response = %d %q, %v; want %d %q", resp.StatusCode, got, rerr, tc.status, tc.reply)
				}
				if tc.status != http.StatusOK && (resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Etag") != "") {
					t.Errorf("%d has Content-Encoding %q, ETag %q; want neither", tc.status, resp.Header.Get("Content-Encoding"), resp.Header.Get("Etag"))
				}
			})
		}
	}
}

func TestMiddlewareResponseDecoderEnds(t *testing.T) {
	gz := compress(t, "gzip", textgen.Make("chinese", 64<<10))
	tests := []struct {
		desc  string
		write func(w http.ResponseWriter)
	}{
		{"handler panics", func(w http.ResponseWriter) {
			w.Write(gz[:len(gz)/2])
			panic(http.ErrAbortHandler)
		}},
		{"handler returns early", func(w http.ResponseWriter) { w.Write(gz[:len(gz)/2]) }},
		{"handler writes nothing", func(w http.ResponseWriter) {}},
		{"handler writes all", func(w http.ResponseWriter) { w.Write(gz) }},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			h := Middleware(utf8stream.Replace, Responses())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				w.Header().Set("Content-Encoding", "gzip")
				tc.write(w)
			}))
			before := runtime.NumGoroutine()
			for range 20 {
				func() {
					defer func() { recover() }()
					h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
				}()
			}
			deadline := time.Now().Add(5 * time.Second)
			for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if n := runtime.NumGoroutine(); n > before {
				t.Errorf("%d goroutines after 20 responses; %d before", n, before)
			}
		})
	}
}

func TestMiddlewareResponseRange(t *testing.T) {
	text := "Grüße, 世界! \xff " + strings.Repeat("x", 100)
	url, client := serveLocal(t, Middleware(utf8stream.Replace, Responses())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		http.ServeContent(w, r, "", time.Time{}, strings.NewReader(text))
	})))
	req := httpGet(url)
	req.Header.Set("Range", "bytes=3-9") // from within ü to within 世
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := strings.Replace(text, "\xff", "\uFFFD", 1); err != nil || resp.StatusCode != http.StatusOK || string(got) != want {
		t.Errorf("response = %d %q, %v; want 200 %q: the whole body, checked", resp.StatusCode, got, err, want)
	}
}
