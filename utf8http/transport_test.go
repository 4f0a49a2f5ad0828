package utf8http

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"

	"github.com/utf8stream/utf8stream"
)

// closeCounter is a RoundTripper that counts the Close calls on the
// response bodies of base.
type closeCounter struct {
	base   http.RoundTripper
	closed atomic.Int32
}

func (c *closeCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(r)
	if err == nil {
		resp.Body = &countedBody{resp.Body, &c.closed}
	}
	return resp, err
}

type countedBody struct {
	io.ReadCloser
	n *atomic.Int32
}

func (b *countedBody) Close() error {
	b.n.Add(1)
	return b.ReadCloser.Close()
}

// textServer serves in, in 7-byte writes, as application/json, compressed
// with the coding the query names ("gzip", "deflate", "raw" for raw
// deflate, "br" for a coding Transport cannot decode, or none), with the
// Content-Type the query names as type. With ?auto, it compresses with
// gzip when the request accepts it; with ?truncate, it sends half the
// body. It records
// the Accept-Encoding of each request.
func textServer(t *testing.T, proto string, in []byte) (url string, client *http.Client, accept func() []string) {
	var mu sync.Mutex
	var seen []string
	url, client = serveProto(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Accept-Encoding"))
		mu.Unlock()
		coding := r.URL.Query().Get("coding")
		if r.URL.Query().Has("auto") && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			coding = "gzip"
		}
		body := in
		switch coding {
		case "gzip", "deflate":
			body = compress(t, coding, in)
			w.Header().Set("Content-Encoding", coding)
		case "raw":
			body = rawDeflate(t, in)
			w.Header().Set("Content-Encoding", "deflate")
		case "br":
			w.Header().Set("Content-Encoding", "br")
		}
		if r.URL.Query().Has("truncate") {
			body = body[:len(body)/2]
		}
		ct := r.URL.Query().Get("type")
		if ct == "" {
			ct = "application/json"
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		for i := 0; i < len(body); i += 7 {
			w.Write(body[i:min(i+7, len(body))])
		}
	}), proto)
	return url, client, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

func TestTransportPolicies(t *testing.T) {
	requests := []struct {
		desc, query, accept string
		decoded             bool // the response came compressed and Transport decoded it
	}{
		{"plain", "", "", false},
		{"gzip by the base transport", "?auto", "", false},
		{"gzip asked for", "?coding=gzip", "gzip, br", true},
		{"deflate", "?coding=deflate", "deflate", true},
		{"raw deflate", "?coding=raw", "deflate", true},
	}
	for _, proto := range protos {
		for _, p := range mwPolicies {
			for _, tc := range mwInputs {
				for _, rq := range requests {
					t.Run(fmt.Sprintf("%s/policy=%v/%s/%s", proto, p, tc.desc, rq.desc), func(t *testing.T) {
						if testing.Short() && rq.desc != "plain" && tc.desc != "several" && tc.desc != "invalid1pct" {
							t.Skip("compressed bodies of two inputs only with -short")
						}
						in := []byte(tc.in)
						url, client, accepted := textServer(t, proto, in)
						cc := &closeCounter{base: client.Transport}
						client.Transport = Transport(cc, p)
						req, err := http.NewRequest(http.MethodGet, url+rq.query, nil)
						if err != nil {
							t.Fatal(err)
						}
						if rq.accept != "" {
							req.Header.Set("Accept-Encoding", rq.accept)
						}
						resp, err := client.Do(req)
						if err != nil {
							t.Fatal(err)
						}
						got, rerr := io.ReadAll(iotest.OneByteReader(resp.Body))
						if err := resp.Body.Close(); err != nil || cc.closed.Load() != 1 {
							t.Errorf("Close = %v, original closed %d times; want nil, 1", err, cc.closed.Load())
						}
						if req.Header.Get("Accept-Encoding") != rq.accept {
							t.Errorf("the request changed: Accept-Encoding %q", req.Header.Get("Accept-Encoding"))
						}
						for _, ae := range accepted() {
							if strings.Contains(ae, "br") {
								t.Errorf("server saw Accept-Encoding %q; want no br", ae)
							}
						}
						if rq.decoded && len(in) > 0 {
							if ce := resp.Header.Get("Content-Encoding"); ce != "" || !resp.Uncompressed {
								t.Errorf("decoded response has Content-Encoding %q, Uncompressed %v", ce, resp.Uncompressed)
							}
						}
						switch {
						case p != utf8stream.Reject:
							if rerr != nil {
								t.Fatal(rerr)
							}
							if msg := checkOutput(t, p, in, got); msg != "" {
								t.Error(msg)
							}
							if resp.ContentLength != -1 || resp.Header["Content-Length"] != nil {
								t.Errorf("ContentLength %d, header %q; want -1 and none", resp.ContentLength, resp.Header["Content-Length"])
							}
						case firstInvalid(in) < 0:
							if rerr != nil || !bytes.Equal(got, in) {
								t.Errorf("Body = %q, %v; want %q", got, rerr, in)
							}
						default:
							at := firstInvalid(in)
							var e *utf8stream.Error
							if !errors.As(rerr, &e) || e.Offset != int64(at) || !bytes.Equal(got, in[:at]) {
								t.Errorf("Body = %q, %v; want %q and an *Error at %d", got, rerr, in[:at], at)
							}
						}
					})
				}
			}
		}
	}
}

func TestTransportRefused(t *testing.T) {
	text := []byte(strings.Repeat("Grüße, 世界! ", 20))
	tests := []struct {
		desc, query string
		err         string // of RoundTrip, or of reading the body
	}{
		{"br", "?coding=br", `utf8http: response Content-Encoding "br" is not supported`},
		{"corrupt gzip", "?coding=gzip&truncate", "utf8http: corrupt gzip response body: "},
		{"binary br", "?coding=br&type=image/png", ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			url, client, _ := textServer(t, "http1", text)
			cc := &closeCounter{base: client.Transport}
			client.Transport = Transport(cc, utf8stream.Replace)
			req := httpGet(url + tc.query)
			req.Header.Set("Accept-Encoding", "gzip") // so that the base transport does not decode
			resp, err := client.Do(req)
			if strings.HasPrefix(tc.err, "utf8http: response Content-Encoding") {
				if err == nil || !strings.Contains(err.Error(), tc.err) || cc.closed.Load() != 1 {
					t.Errorf("Get = %v, body closed %d times; want %q and the body closed", err, cc.closed.Load(), tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, err := io.ReadAll(resp.Body)
			if tc.err == "" {
				if err != nil || !bytes.Equal(got, text) {
					t.Errorf("Body = %q, %v; want the bytes untouched", got, err)
				}
				return
			}
			if !bytes.HasPrefix(text, got) {
				t.Errorf("Body = %q; want a prefix of the text", got)
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("reading Body: %v; want %q", err, tc.err)
			}
		})
	}
}

// errTransport is a RoundTripper that fails.
type errTransport struct{ err error }

func (t errTransport) RoundTrip(*http.Request) (*http.Response, error) { return nil, t.err }

func TestTransportNilBase(t *testing.T) {
	url, _, _ := textServer(t, "http1", []byte("a\xffb"))
	client := &http.Client{Transport: Transport(nil, utf8stream.Replace)}
	defer http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := "a\uFFFDb"; err != nil || string(got) != want {
		t.Errorf("Body = %q, %v; want %q", got, err, want)
	}
	want := errors.New("no network")
	if _, err := Transport(errTransport{want}, utf8stream.Replace).RoundTrip(httpGet(url)); err != want {
		t.Errorf("RoundTrip = %v; want the base's error", err)
	}
}

func httpGet(url string) *http.Request {
	r, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		panic(err)
	}
	return r
}

func TestTransportCloseDuringRead(t *testing.T) {
	// Close while a Read waits for the server: the Read ends.
	release := make(chan struct{})
	url, client := serveLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer close(release)
	client.Transport = Transport(client.Transport, utf8stream.Reject)
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() {
		_, err := resp.Body.Read(make([]byte, 10))
		done <- err
	}()
	resp.Body.Close()
	if err := <-done; err == nil {
		t.Error("Read after Close succeeded")
	}
}

// memTransport is a RoundTripper that answers every request with body,
// with the given Content-Type and Content-Encoding, from memory.
type memTransport struct {
	body         []byte
	ct, encoding string
}

func (t *memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	h := http.Header{"Content-Type": {t.ct}, "Content-Length": {strconv.Itoa(len(t.body))}}
	if t.encoding != "identity" {
		h["Content-Encoding"] = []string{t.encoding}
	}
	return &http.Response{
		StatusCode:    http.StatusOK,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(t.body)),
		ContentLength: int64(len(t.body)),
		Request:       r,
	}, nil
}

// BenchmarkTransport measures a client request whose JSON response of
// about 1 KiB is read whole: from a base RoundTripper that answers from
// memory (policy=none), and through Transport. A gzip response is decoded
// by the caller without Transport, as http.Transport would, and by
// Transport with it.
func BenchmarkTransport(b *testing.B) {
	data := benchJSON(b, 1)
	for _, enc := range []string{"identity", "gzip"} {
		base := &memTransport{compress(b, enc, data), "application/json", enc}
		for _, bc := range []struct {
			name string
			rt   http.RoundTripper
		}{
			{"none", base},
			{"reject", Transport(base, utf8stream.Reject)},
			{"replace", Transport(base, utf8stream.Replace)},
		} {
			b.Run("encoding="+enc+"/policy="+bc.name, func(b *testing.B) {
				req := httpGet("http://example.com/items")
				req.Header.Set("Accept-Encoding", "gzip")
				buf := make([]byte, 32<<10)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					resp, err := bc.rt.RoundTrip(req)
					if err != nil {
						b.Fatal(err)
					}
					var body io.Reader = resp.Body
					if resp.Header.Get("Content-Encoding") == "gzip" {
						zr, err := gzip.NewReader(body)
						if err != nil {
							b.Fatal(err)
						}
						body = zr
					}
					n, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{body}, buf)
					resp.Body.Close()
					if err != nil || n != int64(len(data)) {
						b.Fatalf("read %d bytes, %v", n, err)
					}
				}
			})
		}
	}
}

// TestTransportOnStats checks that Transport calls the OnStats function
// once for each response whose body it checks, when the body is read to
// its end or closed first, with the caller's request, the Stats of an
// unchecked request body and those of a Reader over the same response
// body; and never for a body it does not check.
func TestTransportOnStats(t *testing.T) {
	in := []byte("caf\xe9 \xed\xa0\x80 ok " + strings.Repeat("z", 5000) + "\xf0\x9f")
	want := func(n int) utf8stream.Stats {
		r := utf8stream.NewReader(bytes.NewReader(in[:n]), utf8stream.Replace)
		io.Copy(io.Discard, r)
		return r.Stats()
	}
	for _, proto := range protos {
		for _, tc := range []struct {
			desc  string
			query string
			read  bool // read the body to its end before Close
			calls int
		}{
			{"read", "", true, 1},
			{"read, gzip", "?coding=gzip", true, 1},
			{"closed unread", "", false, 1},
			{"not checked", "?type=image/png", true, 0},
		} {
			t.Run(proto+"/"+tc.desc, func(t *testing.T) {
				url, client, _ := textServer(t, proto, in)
				var mu sync.Mutex
				var calls []utf8stream.Stats
				var seen []string
				client.Transport = Transport(client.Transport, utf8stream.Replace, OnStats(func(r *http.Request, body, response utf8stream.Stats) {
					mu.Lock()
					defer mu.Unlock()
					if body != noStats {
						t.Errorf("request body Stats %+v; want %+v", body, noStats)
					}
					calls = append(calls, response)
					seen = append(seen, r.Header.Get("Accept-Encoding"))
				}))
				req, err := http.NewRequest(http.MethodGet, url+tc.query, nil)
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Accept-Encoding", "gzip, br")
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				if tc.read {
					if _, err := io.ReadAll(resp.Body); err != nil {
						t.Fatal(err)
					}
				}
				resp.Body.Close()
				mu.Lock()
				defer mu.Unlock()
				if len(calls) != tc.calls {
					t.Fatalf("OnStats called %d times; want %d", len(calls), tc.calls)
				}
				if tc.calls == 0 {
					return
				}
				w := want(len(in))
				if !tc.read {
					w = want(0)
				}
				if calls[0] != w {
					t.Errorf("response Stats %+v; want %+v", calls[0], w)
				}
				if seen[0] != "gzip, br" {
					t.Errorf("OnStats saw Accept-Encoding %q; want the caller's request, %q", seen[0], "gzip, br")
				}
			})
		}
	}
}
