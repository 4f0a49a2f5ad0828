package utf8http

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream"
	"github.com/utf8stream/utf8stream/internal/textgen"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// mwPolicies are the policies that every test of the middleware runs with.
var mwPolicies = utf8stream.Policies()

// mwInputs are request and response bodies. They hold no EE BE xx or EE BF
// xx, which OPTU8 escapes although they are valid.
var mwInputs = []struct {
	desc string
	in   string
}{
	{"empty", ""},
	{"ascii", `{"name":"hello"}`},
	{"valid", "héllo, 世界 🙂 \uFFFD"},
	{"continuation", "a\x80b"},
	{"first byte", "\xffabc"},
	{"truncated end", "abc\xe2\x82"},
	{"overlong", "\xc0\xafx"},
	{"surrogate", "x\xed\xa0\x80y"},
	{"windows1252", "caf\xe9 \x93quoted\x94 \x81"},
	{"several", "\xf0\x90\x80 \xe0\x80 \xf4\x90\x80\x80 é\xc2"},
	{"invalid1pct", string(textgen.Make("invalid1pct", 3000))},
	{"random", string(textgen.Make("random", 600))},
}

// firstInvalid returns the offset of the first ill-formed byte in b, or -1.
func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// expected returns what policy p should make of in, computed without the
// package: by x/text's UTF-8 decoder for Replace and by unicode/utf8 and
// x/text's charmap for the others. Every ill-formed byte is part of exactly
// one maximal subpart, and utf8.DecodeRune reports each such byte alone, so
// a byte walk gives Drop, Windows1252 and BackslashReplace (which writes
// \xNN per byte, as Python's backslashreplace does). For the escapes it returns nil:
// see checkOutput. It also returns the number of ill-formed subparts.
func expected(t *testing.T, p utf8stream.Policy, in []byte) (want []byte, subparts int) {
	t.Helper()
	replaced, _, err := transform.Bytes(unicode.UTF8.NewDecoder(), in)
	if err != nil {
		t.Fatal(err)
	}
	subparts = bytes.Count(replaced, []byte("\uFFFD")) - bytes.Count(in, []byte("\uFFFD"))
	switch p {
	case utf8stream.Reject:
		if i := firstInvalid(in); i >= 0 {
			return in[:i], 1
		}
		return in, 0
	case utf8stream.Replace:
		return replaced, subparts
	case utf8stream.Drop, utf8stream.Windows1252, utf8stream.BackslashReplace:
		want = []byte{}
		for i := 0; i < len(in); {
			r, n := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && n == 1 {
				switch p {
				case utf8stream.BackslashReplace:
					want = fmt.Appendf(want, `\x%02x`, in[i])
				case utf8stream.Windows1252:
					d, err := charmap.Windows1252.NewDecoder().Bytes(in[i : i+1])
					if err != nil {
						t.Fatal(err)
					}
					want = append(want, d...)
				}
			} else {
				want = append(want, in[i:i+n]...)
			}
			i += n
		}
		return want, subparts
	}
	return nil, subparts
}

// checkOutput reports how got, the output of p for in, differs from what is
// expected, or "" if it does not.
func checkOutput(t *testing.T, p utf8stream.Policy, in, got []byte) string {
	t.Helper()
	if p == utf8stream.SurrogateEscape || p == utf8stream.OPTU8 {
		restored, _, err := transform.Bytes(utf8stream.NewUnescaper(p), got)
		if err != nil || !bytes.Equal(restored, in) {
			return fmt.Sprintf("restoring %q gives %q, %v; want the input", got, restored, err)
		}
		if p == utf8stream.OPTU8 && !utf8.Valid(got) {
			return fmt.Sprintf("OPTU8 output %q is not valid UTF-8", got)
		}
		if firstInvalid(in) < 0 && !bytes.Equal(got, in) {
			return fmt.Sprintf("valid input changed to %q", got)
		}
		return ""
	}
	if want, _ := expected(t, p, in); !bytes.Equal(got, want) {
		return fmt.Sprintf("got %q; want %q", got, want)
	}
	return ""
}

// seen is what a recording handler saw of a request.
type seen struct {
	called      bool
	body        []byte
	err         error
	length      int64
	header      []string // the Content-Length header
	contentType []string
	encoding    []string // the Content-Encoding header
	stats       utf8stream.Stats
	statsOK     bool
	requests    int
	getBody     func() (io.ReadCloser, error)
}

// recorder returns a handler that reads the whole body into s, answers a
// rejected body with WriteError and otherwise writes "ok".
func recorder(s *seen) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.called = true
		s.requests++
		s.length = r.ContentLength
		s.header = r.Header["Content-Length"]
		s.contentType = r.Header["Content-Type"]
		s.encoding = r.Header["Content-Encoding"]
		s.getBody = r.GetBody
		s.body, s.err = io.ReadAll(r.Body)
		s.stats, s.statsOK = BodyStats(r)
		if WriteError(w, s.err) {
			return
		}
		io.WriteString(w, "ok")
	})
}

// post makes a POST request with the given body and Content-Type.
func post(body io.Reader, n int64, ct string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/", body)
	r.ContentLength = n
	if n >= 0 {
		r.Header.Set("Content-Length", strconv.FormatInt(n, 10))
	}
	if ct != "" {
		r.Header.Set("Content-Type", ct)
	}
	return r
}

func TestMiddlewareRequestPolicies(t *testing.T) {
	readers := []struct {
		desc string
		wrap func(io.Reader) io.Reader
	}{
		{"whole", func(r io.Reader) io.Reader { return r }},
		{"onebyte", iotest.OneByteReader},
		{"half", iotest.HalfReader},
		{"dataerr", iotest.DataErrReader},
	}
	for _, p := range mwPolicies {
		for _, tc := range mwInputs {
			for _, rc := range readers {
				t.Run(fmt.Sprintf("policy=%v/%s/%s", p, tc.desc, rc.desc), func(t *testing.T) {
					in := []byte(tc.in)
					var s seen
					h := Middleware(p)(recorder(&s))
					rec := httptest.NewRecorder()
					req := post(rc.wrap(bytes.NewReader(in)), int64(len(in)), "application/json")
					h.ServeHTTP(rec, req)
					if len(in) == 0 {
						// No body to check: the handler gets it as it is.
						if !s.called || len(s.body) != 0 || s.statsOK {
							t.Errorf("empty body: called %v, body %q, BodyStats ok %v", s.called, s.body, s.statsOK)
						}
						return
					}
					_, subparts := expected(t, p, in)
					if msg := checkOutput(t, p, in, s.body); msg != "" {
						t.Errorf("handler read: %s", msg)
					}
					if !s.statsOK || s.stats.Subparts != int64(subparts) {
						t.Errorf("BodyStats = %+v, %v; want %d subparts", s.stats, s.statsOK, subparts)
					}
					if len(req.Header["Content-Length"]) != 1 || req.ContentLength != int64(len(in)) {
						t.Errorf("the caller's request changed: ContentLength %d, header %q", req.ContentLength, req.Header["Content-Length"])
					}
					if p != utf8stream.Reject {
						if s.err != nil || rec.Code != http.StatusOK {
							t.Errorf("read error %v, status %d; want nil, 200", s.err, rec.Code)
						}
						if s.length != -1 || s.header != nil {
							t.Errorf("handler saw ContentLength %d, header %q; want -1 and none", s.length, s.header)
						}
						return
					}
					if s.length != int64(len(in)) || len(s.header) != 1 {
						t.Errorf("Reject: handler saw ContentLength %d, header %q; want %d", s.length, s.header, len(in))
					}
					at := firstInvalid(in)
					if at < 0 {
						if s.err != nil || rec.Code != http.StatusOK {
							t.Errorf("valid body: read error %v, status %d", s.err, rec.Code)
						}
						return
					}
					var e *utf8stream.Error
					if !errors.As(s.err, &e) || e.Offset != int64(at) {
						t.Fatalf("read error = %v; want an *Error at offset %d", s.err, at)
					}
					want := fmt.Sprintf("invalid UTF-8 in request body at byte %d\n", at)
					if rec.Code != http.StatusBadRequest || rec.Body.String() != want {
						t.Errorf("response = %d %q; want 400 %q", rec.Code, rec.Body, want)
					}
				})
			}
		}
	}
}

func TestMiddlewarePrevalidate(t *testing.T) {
	const limit = 64
	valid := strings.Repeat("é", limit/2)
	tests := []struct {
		desc   string
		p      utf8stream.Policy
		in     string
		status int
		body   string // of the response, if not "ok"
	}{
		{"at limit", utf8stream.Reject, valid, 200, ""},
		{"over limit", utf8stream.Reject, valid + "x", 413, "request body too large\n"},
		{"over limit replace", utf8stream.Replace, valid + "x", 413, "request body too large\n"},
		{"far over limit", utf8stream.Replace, strings.Repeat(valid, 1000), 413, "request body too large\n"},
		{"invalid", utf8stream.Reject, "héllo\xff", 400, "invalid UTF-8 in request body at byte 6\n"},
		{"invalid then over limit", utf8stream.Reject, "ab\xc0" + valid, 400, "invalid UTF-8 in request body at byte 2\n"},
		{"truncated at end", utf8stream.Reject, "ab\xe2\x82", 400, "invalid UTF-8 in request body at byte 2\n"},
		{"replace", utf8stream.Replace, "ab\xe2\x82cd\xff", 200, ""},
		{"drop", utf8stream.Drop, "ab\xe2\x82cd\xff", 200, ""},
		{"windows1252", utf8stream.Windows1252, "caf\xe9", 200, ""},
	}
	for _, tc := range tests {
		for _, chunked := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/chunked=%v", tc.desc, chunked), func(t *testing.T) {
				var s seen
				h := Middleware(tc.p, Prevalidate(limit))(recorder(&s))
				rec := httptest.NewRecorder()
				n := int64(len(tc.in))
				if chunked {
					n = -1
				}
				h.ServeHTTP(rec, post(iotest.OneByteReader(strings.NewReader(tc.in)), n, "text/plain"))
				if rec.Code != tc.status {
					t.Fatalf("status = %d %q; want %d", rec.Code, rec.Body, tc.status)
				}
				if tc.status != http.StatusOK {
					if s.called || rec.Body.String() != tc.body {
						t.Errorf("handler called %v, response %q; want false, %q", s.called, rec.Body, tc.body)
					}
					return
				}
				want, subparts := expected(t, tc.p, []byte(tc.in))
				if !bytes.Equal(s.body, want) || s.err != nil {
					t.Errorf("handler read %q, %v; want %q", s.body, s.err, want)
				}
				if s.length != int64(len(want)) || len(s.header) != 1 || s.header[0] != strconv.Itoa(len(want)) {
					t.Errorf("handler saw ContentLength %d, header %q; want %d", s.length, s.header, len(want))
				}
				if !s.statsOK || s.stats.Subparts != int64(subparts) {
					t.Errorf("BodyStats = %+v, %v; want %d subparts", s.stats, s.statsOK, subparts)
				}
				if s.getBody == nil {
					t.Fatal("GetBody is nil")
				}
				rc, err := s.getBody()
				if err != nil {
					t.Fatal(err)
				}
				if again, err := io.ReadAll(rc); !bytes.Equal(again, want) || err != nil {
					t.Errorf("GetBody gives %q, %v; want %q", again, err, want)
				}
			})
		}
	}
}

func TestMiddlewareCheckURL(t *testing.T) {
	tests := []struct {
		desc   string
		target string
		opts   []Option
		status int
	}{
		{"valid", "/caf%C3%A9?q=%E4%B8%96&x", []Option{CheckURL()}, 200},
		{"path", "/caf%E9", []Option{CheckURL()}, 400},
		{"query value", "/?q=%FF", []Option{CheckURL()}, 400},
		{"query key", "/?%C0%AF=1", []Option{CheckURL()}, 400},
		{"later pair", "/?a=1&b=caf%E9", []Option{CheckURL()}, 400},
		{"plus", "/?a=b+c", []Option{CheckURL()}, 200},
		{"broken escape", "/?a=%E9%zz", []Option{CheckURL()}, 200},
		{"NoNUL", "/?a=%00", []Option{CheckURL(), StreamOptions(utf8stream.NoNUL())}, 400},
		{"off by default", "/caf%E9?q=%FF", nil, 200},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var s seen
			h := Middleware(utf8stream.Replace, tc.opts...)(recorder(&s))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.target, nil))
			if rec.Code != tc.status || s.called != (tc.status == 200) {
				t.Errorf("GET %s = %d, handler called %v; want %d", tc.target, rec.Code, s.called, tc.status)
			}
		})
	}
}

func TestMiddlewareOnStats(t *testing.T) {
	type call struct {
		path       string
		body, resp utf8stream.Stats
	}
	var calls []call
	h := Middleware(utf8stream.Replace, Responses(), OnStats(func(r *http.Request, body, resp utf8stream.Stats) {
		calls = append(calls, call{r.URL.Path, body, resp})
	}))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "x\xff\xfey\xc0")
	}))
	h.ServeHTTP(httptest.NewRecorder(), post(strings.NewReader("a\x80b\x80"), 4, "text/plain"))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/get", nil))
	want := []call{
		{"/", utf8stream.Stats{Subparts: 2, Bytes: 2, First: 1}, utf8stream.Stats{Subparts: 3, Bytes: 3, First: 1}},
		{"/get", utf8stream.Stats{First: -1}, utf8stream.Stats{Subparts: 3, Bytes: 3, First: 1}},
	}
	if fmt.Sprint(calls) != fmt.Sprint(want) {
		t.Errorf("OnStats calls = %+v; want %+v", calls, want)
	}
}

// generator is an endless stream of text with an ill-formed byte every
// 100 bytes or so.
type generator struct{ n int }

func (g *generator) Read(p []byte) (int, error) {
	const text = "Grüße, 世界! The quick brown fox jumps over the lazy dog. Ça va? \xff"
	for i := range p {
		p[i] = text[g.n%len(text)]
		g.n++
	}
	return len(p), nil
}

func TestMiddlewareConstantMemory(t *testing.T) {
	const size = 16 << 20
	h := Middleware(utf8stream.Replace, Responses())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		if n, err := io.Copy(w, r.Body); n < size || err != nil {
			t.Errorf("io.Copy = %d, %v", n, err)
		}
	}))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	req := post(io.LimitReader(&generator{}, size), -1, "text/plain")
	h.ServeHTTP(discardWriter{http.Header{}}, req)
	runtime.ReadMemStats(&after)
	if total := after.TotalAlloc - before.TotalAlloc; total > 1<<20 {
		t.Errorf("a %d-byte body allocated %d bytes; want a constant amount", size, total)
	}
}

// discardWriter is a ResponseWriter that throws the body away.
type discardWriter struct{ h http.Header }

func (w discardWriter) Header() http.Header         { return w.h }
func (w discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w discardWriter) WriteHeader(int)             {}

// slowBody is a request body that a goroutine writes one byte at a time.
func slowBody(t *testing.T, in []byte) (io.ReadCloser, func()) {
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range in {
			if _, err := pw.Write(in[i : i+1]); err != nil {
				return // the transport stopped reading
			}
			time.Sleep(100 * time.Microsecond)
		}
		pw.Close()
	}()
	return pr, func() {
		pr.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the body writer did not stop")
		}
	}
}

func heapInUse() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// serveLocal serves h on a loopback port until the test ends and returns
// its URL and a client for it, over HTTP/1.1. At the end the client's idle
// connections are closed and the server is shut down, which must succeed.
func serveLocal(t *testing.T, h http.Handler) (url string, client *http.Client) {
	t.Helper()
	return serveProto(t, h, "http1")
}

// protos are the protocols of the end-to-end tests: HTTP/1.1, and HTTP/2
// without TLS (h2c with prior knowledge).
var protos = []string{"http1", "h2c"}

// serveProto is serveLocal over proto, one of protos. The client speaks
// only proto, and fails a response in another.
func serveProto(t *testing.T, h http.Handler, proto string) (url string, client *http.Client) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	tr := &http.Transport{}
	if proto == "h2c" {
		srv.Protocols = new(http.Protocols)
		srv.Protocols.SetHTTP1(true)
		srv.Protocols.SetUnencryptedHTTP2(true)
		tr.Protocols = new(http.Protocols)
		tr.Protocols.SetUnencryptedHTTP2(true)
	}
	go srv.Serve(ln)
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	major := map[string]int{"http1": 1, "h2c": 2}[proto]
	return "http://" + ln.Addr().String() + "/", &http.Client{Transport: protoCheck{tr, major}, Timeout: 10 * time.Second}
}

// protoCheck is a RoundTripper that fails responses in another major
// version of HTTP than major.
type protoCheck struct {
	base  http.RoundTripper
	major int
}

func (c protoCheck) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(r)
	if err == nil && resp.ProtoMajor != c.major {
		resp.Body.Close()
		return nil, fmt.Errorf("response in %s; want HTTP/%d", resp.Proto, c.major)
	}
	return resp, err
}

// sendLocal serves mw around a recording handler on a loopback port, sends
// it the request that newReq makes for the server's URL, and returns the
// status and body of the response and what the handler saw.
func sendLocal(t *testing.T, mw func(http.Handler) http.Handler, newReq func(url string) *http.Request) (status int, reply string, s seen) {
	t.Helper()
	var mu sync.Mutex
	url, client := serveLocal(t, mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		recorder(&s).ServeHTTP(w, r)
	})))
	resp, err := client.Do(newReq(url))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return resp.StatusCode, string(b), s
}

// newPost returns a function that makes a POST request with body in and the
// given header fields, which may be empty. A Content-Type field is set
// only if given.
func newPost(in []byte, header ...string) func(url string) *http.Request {
	return func(url string) *http.Request {
		r, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(in))
		if err != nil {
			panic(err)
		}
		for i := 0; i+1 < len(header); i += 2 {
			r.Header[http.CanonicalHeaderKey(header[i])] = append(r.Header[http.CanonicalHeaderKey(header[i])], header[i+1])
		}
		return r
	}
}

func TestMiddlewareServer(t *testing.T) {
	in := []byte("{\"name\":\"caf\xe9 \xe2\x82\xac \xf0\x9f\x99\x82 \xed\xa0\x80 x\xe2\x82\"}")
	baseGoroutines := runtime.NumGoroutine()
	baseHeap := heapInUse()

	for _, p := range mwPolicies {
		t.Run("policy="+p.String(), func(t *testing.T) {
			var mu sync.Mutex
			var s seen
			url, client := serveLocal(t, Middleware(p)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				recorder(&s).ServeHTTP(w, r)
			})))

			for range 3 { // on one kept-alive connection
				body, stop := slowBody(t, in)
				req, err := http.NewRequest(http.MethodPost, url, body)
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				reply, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				stop()
				if err != nil {
					t.Fatal(err)
				}

				mu.Lock()
				got, rerr, length := s.body, s.err, s.length
				mu.Unlock()
				if length != -1 {
					t.Errorf("handler saw ContentLength %d; want -1 (chunked)", length)
				}
				if msg := checkOutput(t, p, in, got); msg != "" {
					t.Errorf("handler read: %s", msg)
				}
				wantStatus, wantReply := http.StatusOK, "ok"
				if p == utf8stream.Reject {
					at := firstInvalid(in)
					wantStatus, wantReply = http.StatusBadRequest, fmt.Sprintf("invalid UTF-8 in request body at byte %d\n", at)
					if e := (*utf8stream.Error)(nil); !errors.As(rerr, &e) || e.Offset != int64(at) {
						t.Errorf("handler's read error = %v; want *Error at %d", rerr, at)
					}
				}
				if resp.StatusCode != wantStatus || string(reply) != wantReply {
					t.Errorf("client got %d %q; want %d %q", resp.StatusCode, reply, wantStatus, wantReply)
				}
			}
		})
	}

	t.Run("streamed response", func(t *testing.T) {
		next := make(chan struct{})
		url, client := serveLocal(t, Middleware(utf8stream.Replace, Responses())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rc := http.NewResponseController(w)
			if err := rc.SetWriteDeadline(time.Now().Add(10 * time.Second)); err != nil {
				t.Errorf("SetWriteDeadline through the wrapper: %v", err)
			}
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "héllo \xe2\x82")
			if err := rc.Flush(); err != nil {
				t.Errorf("Flush: %v", err)
			}
			select {
			case <-next:
			case <-time.After(5 * time.Second):
				t.Error("the client did not read the flushed part")
			}
			io.WriteString(w, "\xac and \xe2")
		})))
		resp, err := client.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		first := make([]byte, len("héllo "))
		if _, err := io.ReadFull(resp.Body, first); err != nil || string(first) != "héllo " {
			t.Fatalf("first part = %q, %v", first, err)
		}
		close(next)
		rest, err := io.ReadAll(resp.Body)
		if want := "€ and \uFFFD"; err != nil || string(rest) != want {
			t.Errorf("rest = %q, %v; want %q", rest, err, want)
		}
	})

	t.Run("hijack", func(t *testing.T) {
		url, client := serveLocal(t, Middleware(utf8stream.Replace, Responses())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			conn, bw, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Errorf("Hijack through the wrapper: %v", err)
				return
			}
			defer conn.Close()
			bw.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nhi\xff")
			bw.Flush()
		})))
		resp, err := client.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || string(got) != "hi\xff" {
			t.Errorf("hijacked response = %q, %v; want the raw bytes", got, err)
		}
	})

	if runtime.GOOS == "js" {
		// The js runtime handles the simulated network's events in a
		// goroutine of its own, which outlives the servers.
		baseGoroutines++
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > baseGoroutines && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > baseGoroutines {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after the servers closed; %d before\n%s", n, baseGoroutines, buf[:runtime.Stack(buf, true)])
	}
	if heap := heapInUse(); heap > baseHeap+2<<20 {
		t.Errorf("heap in use grew from %d to %d bytes", baseHeap, heap)
	}
}

// jsonBody is a resettable request body.
type jsonBody struct{ bytes.Reader }

func (b *jsonBody) Close() error { return nil }

// benchItem is an element of the JSON of the benchmarks.
type benchItem struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Tags  []string `json:"tags"`
	Notes string   `json:"notes"`
}

// benchJSON returns the JSON of the benchmarks: n times about 1 KiB of
// valid text in several scripts.
func benchJSON(b *testing.B, n int) []byte {
	var items []benchItem
	for i := range 10 * n {
		name := textgen.Valid[i%len(textgen.Valid)]
		items = append(items, benchItem{i, name, []string{"a", "ü", "日本"}, string(textgen.Make(name, 80+i/10))})
	}
	data, err := json.Marshal(items)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkMiddleware measures a request through the handler chain: a
// handler that decodes a JSON body of about 1 KiB, with no middleware
// (policy=none) and with Middleware, for a plain and a gzip body. Without
// the middleware the handler decodes gzip itself. The response/ benchmarks
// measure a handler that writes a JSON response of about 1 or 16 KiB, as a
// ReverseProxy relays it: with no middleware, and with Middleware and
// Responses. A gzip response is decoded and checked, and, for a client that
// accepts gzip, compressed again if it is longer than the ResponseBuffer:
// the 16 KiB one.
func BenchmarkMiddleware(b *testing.B) {
	type item = benchItem
	data := benchJSON(b, 1)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			body = zr
		}
		var got []item
		if err := json.NewDecoder(body).Decode(&got); err != nil {
			if !WriteError(w, err) {
				http.Error(w, err.Error(), http.StatusBadRequest)
			}
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	for _, enc := range []string{"identity", "gzip"} {
		encoded := compress(b, enc, data)
		for _, bc := range []struct {
			name string
			h    http.Handler
		}{
			{"none", handler},
			{"reject", Middleware(utf8stream.Reject)(handler)},
			{"replace", Middleware(utf8stream.Replace)(handler)},
		} {
			b.Run("encoding="+enc+"/policy="+bc.name, func(b *testing.B) {
				body := &jsonBody{}
				req := httptest.NewRequest(http.MethodPost, "/items", body)
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Content-Length", strconv.Itoa(len(encoded)))
				if enc != "identity" {
					req.Header.Set("Content-Encoding", enc)
				}
				req.ContentLength = int64(len(encoded))
				w := &statusWriter{h: http.Header{}}
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					body.Reset(encoded)
					w.code = 0
					bc.h.ServeHTTP(w, req)
					if w.code != http.StatusNoContent {
						b.Fatalf("status %d", w.code)
					}
				}
			})
		}
	}
	for _, size := range []int{1, 16} {
		data := benchJSON(b, size)
		for _, enc := range []string{"identity", "gzip"} {
			encoded := compress(b, enc, data)
			relay := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if enc != "identity" {
					w.Header().Set("Content-Encoding", enc)
				}
				w.Write(encoded)
			})
			for _, bc := range []struct {
				name string
				h    http.Handler
			}{
				{"none", relay},
				{"reject", Middleware(utf8stream.Reject, Responses())(relay)},
				{"replace", Middleware(utf8stream.Replace, Responses())(relay)},
			} {
				b.Run(fmt.Sprintf("response/size=%dK/encoding=%s/policy=%s", size, enc, bc.name), func(b *testing.B) {
					req := httptest.NewRequest(http.MethodGet, "/items", nil)
					req.Header.Set("Accept-Encoding", "gzip, deflate, br")
					w := &statusWriter{h: http.Header{}}
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					for b.Loop() {
						clear(w.h)
						w.code = 0
						bc.h.ServeHTTP(w, req)
						if w.code != http.StatusOK {
							b.Fatalf("status %d", w.code)
						}
					}
				})
			}
		}
	}
}

// statusWriter is a ResponseWriter that keeps the status and throws the
// body away.
type statusWriter struct {
	h    http.Header
	code int
}

func (w *statusWriter) Header() http.Header { return w.h }
func (w *statusWriter) Write(p []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return len(p), nil
}
func (w *statusWriter) WriteHeader(code int) { w.code = code }

func TestMiddlewareRejectOptionsResize(t *testing.T) {
	tests := []struct {
		desc   string
		opts   []Option
		in     string
		want   string
		length int64
	}{
		{"plain", nil, "\uFEFFab", "\uFEFFab", 5},
		{"StripBOM", []Option{StreamOptions(utf8stream.StripBOM())}, "\uFEFFab", "ab", -1},
		{"CESU8", []Option{StreamOptions(utf8stream.CESU8())}, "\xed\xa0\xbd\xed\xb8\x80", "😀", -1},
		{"ModifiedUTF8", []Option{StreamOptions(utf8stream.ModifiedUTF8())}, "a\xc0\x80b", "a\x00b", -1},
		{"BufferSize", []Option{StreamOptions(utf8stream.BufferSize(64))}, "ab", "ab", -1},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var s seen
			h := Middleware(utf8stream.Reject, tc.opts...)(recorder(&s))
			h.ServeHTTP(httptest.NewRecorder(), post(strings.NewReader(tc.in), int64(len(tc.in)), "text/plain"))
			if string(s.body) != tc.want || s.err != nil || s.length != tc.length {
				t.Errorf("handler read %q, %v with ContentLength %d; want %q, nil, %d", s.body, s.err, s.length, tc.want, tc.length)
			}
		})
	}
}

func TestMiddlewareStreamOptions(t *testing.T) {
	const in = "\uFEFFa\xffb"
	var s seen
	h := Middleware(utf8stream.Replace,
		StreamOptions(utf8stream.StripBOM()),
		StreamOptions(utf8stream.Replacement("?")))(recorder(&s))
	h.ServeHTTP(httptest.NewRecorder(), post(strings.NewReader(in), int64(len(in)), "text/plain"))
	if want := "a?b"; string(s.body) != want || s.err != nil {
		t.Errorf("handler read %q, %v; want %q: both StreamOptions applied", s.body, s.err, want)
	}
}
