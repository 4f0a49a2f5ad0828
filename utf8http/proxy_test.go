package utf8http

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream"
	"github.com/utf8stream/utf8stream/internal/textgen"
)

// proxyTo returns an httputil.ReverseProxy to the server at target, with a
// transport of its own that is closed when the test ends.
func proxyTo(t *testing.T, target string) *httputil.ReverseProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.Transport = tr
	rp.ErrorLog = log.New(io.Discard, "", 0)
	return rp
}

// deployments are the places of Middleware in the end-to-end tests: around
// the application's handler, or around a ReverseProxy to a server running
// the handler alone.
var deployments = []string{"direct", "proxy"}

// deploy serves app on a loopback port over proto, behind
// Middleware(p, opts...) as deployment says, and returns its URL and a
// client.
func deploy(t *testing.T, app http.Handler, deployment, proto string, p utf8stream.Policy, opts ...Option) (string, *http.Client) {
	t.Helper()
	h := app
	if deployment == "proxy" {
		backend, _ := serveLocal(t, app)
		h = proxyTo(t, backend)
	}
	return serveProto(t, Middleware(p, opts...)(h), proto)
}

// get sends a GET with the given Accept-Encoding ("" for the client's
// default) and returns the response, its body and the error that reading
// the body ended with.
func get(t *testing.T, client *http.Client, url, acceptEncoding string) (*http.Response, []byte, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

func TestMiddlewareRejectDeployed(t *testing.T) {
	valid := string(textgen.Make("russian", 8<<10)) // more than the ResponseBuffer
	tests := []struct {
		desc    string
		length  bool     // the handler sets Content-Length
		writes  []string // "flush" flushes
		status  int      // 0: the client must see the response broken
		proxied int      // the status behind a ReverseProxy, if not status
	}{
		{"small", true, []string{`{"a":"hello`, "\xff\"}"}, 500, 0},
		{"small unknown length", false, []string{`{"a":"hello`, "\xff\"}"}, 500, 0},
		{"flush before body", false, []string{"flush", `{"a":"hello`, "\xff\"}"}, 500, 0},
		{"flush before body, length", true, []string{"flush", `{"a":"hello`, "\xff\"}"}, 500, 0},
		{"ill-formed first", false, []string{"\xc0\xaf"}, 500, 0},
		{"late", true, []string{valid, "\xff"}, 0, 0},
		{"late chunked", false, []string{valid, "\xff"}, 0, 0},
		{"late chunked, flushed", false, []string{"flush", valid, "flush", "\xff"}, 0, 0},
		{"after a flush", false, []string{`{"a":"hello`, "flush", "wait", "\xff\"}"}, 0, 0},
		// ReverseProxy does not pass on flushes of a response with a length.
		{"after a flush, length", true, []string{`{"a":"hello`, "flush", "\xff\"}"}, 0, 500},
		{"valid", true, []string{valid}, 200, 0},
		{"valid chunked", false, []string{"flush", valid[:100], "flush", valid[100:]}, 200, 0},
		{"valid small", false, []string{`{"a":"hello"}`}, 200, 0},
	}
	for _, proto := range protos {
		for _, dep := range deployments {
			for _, tc := range tests {
				t.Run(fmt.Sprintf("%s/%s/%s", proto, dep, tc.desc), func(t *testing.T) {
					var body, before string // before: what comes before a "wait"
					for _, w := range tc.writes {
						switch w {
						case "wait":
							before = body
						case "flush":
						default:
							body += w
						}
					}
					next := make(chan struct{})
					app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						w.Header().Set("Content-Type", "application/json")
						if tc.length {
							w.Header().Set("Content-Length", fmt.Sprint(len(body)))
						}
						for _, s := range tc.writes {
							switch s {
							case "flush":
								http.NewResponseController(w).Flush()
								continue
							case "wait":
								select {
								case <-next:
								case <-time.After(5 * time.Second):
									t.Error("the client did not get the flushed bytes")
								}
								continue
							}
							if _, err := io.WriteString(w, s); err != nil {
								return
							}
						}
					})
					url, client := deploy(t, app, dep, proto, utf8stream.Reject, Responses())
					resp, err := client.Get(url)
					if err != nil {
						t.Fatal(err)
					}
					defer resp.Body.Close()
					if before != "" {
						b := make([]byte, len(before))
						if _, err := io.ReadFull(resp.Body, b); err != nil || string(b) != before {
							t.Fatalf("flushed part = %q, %v; want %q", b, err, before)
						}
					}
					close(next)
					got, err := io.ReadAll(resp.Body)
					got = append([]byte(before), got...)
					status := tc.status
					if dep == "proxy" && tc.proxied != 0 {
						status = tc.proxied
					}
					switch status {
					case 0:
						at := firstInvalid([]byte(body))
						if err == nil {
							t.Errorf("response = %d with %d bytes and no error; want it broken", resp.StatusCode, len(got))
						}
						if resp.StatusCode != http.StatusOK || !utf8.Valid(got) || !strings.HasPrefix(body, string(got)) || len(got) > at {
							t.Errorf("response = %d %.40q...; want 200 and a valid prefix of the body up to byte %d", resp.StatusCode, got, at)
						}
					case 500:
						if err != nil || resp.StatusCode != 500 || string(got) != rejectedText {
							t.Errorf("response = %d %q, %v; want 500 %q", resp.StatusCode, got, err, rejectedText)
						}
					default:
						if err != nil || resp.StatusCode != 200 || string(got) != body {
							t.Errorf("response = %d %.40q, %v; want 200 and the body", resp.StatusCode, got, err)
						}
					}
				})
			}
		}
	}
}

// gzipApp wraps h so that it compresses its responses with gzip when the
// request accepts gzip, flushing the compressor when h flushes, as
// compressing middleware does. It records each Accept-Encoding it sees.
func gzipApp(h http.Handler, seen *[]string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ae := r.Header.Get("Accept-Encoding")
		*seen = append(*seen, ae)
		if !strings.Contains(ae, "gzip") {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Add("Vary", "Accept-Encoding")
		zw := gzip.NewWriter(w)
		defer zw.Close()
		h.ServeHTTP(gzipWriter{w, zw}, r)
	})
}

type gzipWriter struct {
	http.ResponseWriter
	zw *gzip.Writer
}

func (w gzipWriter) Write(p []byte) (int, error) { return w.zw.Write(p) }
func (w gzipWriter) Flush() {
	w.zw.Flush()
	http.NewResponseController(w.ResponseWriter).Flush()
}

func TestMiddlewareProxyCompressed(t *testing.T) {
	text := []byte("{\"name\":\"caf\xe9 \xe2\x82\xac \xf0\x9f\x99\x82 \xed\xa0\x80 x\xe2\x82\", \"more\": \"" + strings.Repeat("text to compress ", 300) + "\"}")
	clients := []struct {
		accept string // "" for the client's default: gzip, decoded by the client
		gzip   bool   // the response comes in gzip
	}{
		{"", false},
		{"gzip, deflate, br, zstd", true},
		{"br", false},
	}
	for _, proto := range protos {
		for _, p := range mwPolicies {
			for _, c := range clients {
				t.Run(fmt.Sprintf("%s/policy=%v/accept=%q", proto, p, c.accept), func(t *testing.T) {
					var seen []string
					app := gzipApp(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						w.Header().Set("Content-Type", "application/json")
						w.Write(text)
					}), &seen)
					url, client := deploy(t, app, "proxy", proto, p, Responses())
					resp, got, err := get(t, client, url, c.accept)
					if err != nil {
						t.Fatal(err)
					}
					want := "identity" // the client accepts no coding that decodes
					if c.accept != "br" {
						want = "gzip"
					}
					if len(seen) != 1 || !strings.Contains(seen[0], want) || strings.Contains(seen[0], "br") {
						t.Errorf("backend saw Accept-Encoding %q; want %s and no br", seen, want)
					}
					if p == utf8stream.Reject {
						if resp.StatusCode != 500 || string(got) != rejectedText {
							t.Errorf("response = %d %q; want 500 %q", resp.StatusCode, got, rejectedText)
						}
						return
					}
					if ce := resp.Header.Get("Content-Encoding"); (ce == "gzip") != c.gzip || ce != "" && ce != "gzip" {
						t.Errorf("Content-Encoding = %q; want gzip %v", ce, c.gzip)
					}
					if c.gzip {
						if got, err = gunzip(got); err != nil {
							t.Fatal(err)
						}
					}
					if msg := checkOutput(t, p, text, got); msg != "" {
						t.Error(msg)
					}
				})
			}
		}
		for _, accept := range []string{"identity, gzip;q=0", "gzip"} {
			t.Run(fmt.Sprintf("%s/streamed/accept=%q", proto, accept), func(t *testing.T) {
				next := make(chan struct{})
				app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/plain")
					io.WriteString(w, "héllo \xe2\x82")
					w.(http.Flusher).Flush()
					select {
					case <-next:
					case <-time.After(5 * time.Second):
						t.Error("the client did not read the flushed part")
					}
					io.WriteString(w, "\xac and \xe2")
				})
				var seen []string
				url, client := deploy(t, gzipApp(app, &seen), "proxy", proto, utf8stream.Replace, Responses())
				req, _ := http.NewRequest(http.MethodGet, url, nil)
				req.Header.Set("Accept-Encoding", accept)
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				var body io.Reader = resp.Body
				if accept == "gzip" {
					if ce := resp.Header.Get("Content-Encoding"); ce != "gzip" {
						t.Fatalf("Content-Encoding = %q; want gzip: a flushed body is compressed", ce)
					}
					if body, err = gzip.NewReader(resp.Body); err != nil {
						t.Fatal(err)
					}
				}
				first := make([]byte, len("héllo "))
				if _, err := io.ReadFull(body, first); err != nil || string(first) != "héllo " {
					t.Fatalf("first part = %q, %v", first, err)
				}
				close(next)
				rest, err := io.ReadAll(body)
				if want := "€ and \uFFFD"; err != nil || string(rest) != want {
					t.Errorf("rest = %q, %v; want %q", rest, err, want)
				}
				if len(seen) != 1 || !strings.Contains(seen[0], "gzip") {
					t.Errorf("backend saw Accept-Encoding %q; want gzip", seen)
				}
			})
		}
	}
}

func TestMiddlewareProxyUnsupportedCoding(t *testing.T) {
	// A backend that ignores Accept-Encoding.
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "br")
		w.Write([]byte("\x8b\x02\x80hello\x03"))
	})
	for _, proto := range protos {
		for _, p := range mwPolicies {
			t.Run(fmt.Sprintf("%s/policy=%v", proto, p), func(t *testing.T) {
				url, client := deploy(t, app, "proxy", proto, p, Responses())
				resp, got, err := get(t, client, url, "br, gzip")
				want := "response Content-Encoding is not supported\n"
				if err != nil || resp.StatusCode != http.StatusBadGateway || string(got) != want {
					t.Errorf("response = %d %q, %v; want 502 %q", resp.StatusCode, got, err, want)
				}
			})
		}
	}
}

func TestMiddlewareProxyBackendFails(t *testing.T) {
	// A backend whose connection breaks mid-body: the client must see a
	// broken response under every policy, never a complete one.
	big := textgen.Make("chinese", 32<<10)
	for _, proto := range protos {
		for _, p := range []utf8stream.Policy{utf8stream.Reject, utf8stream.Replace} {
			t.Run(fmt.Sprintf("%s/policy=%v", proto, p), func(t *testing.T) {
				app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/plain")
					w.Header().Set("Content-Length", fmt.Sprint(2*len(big)))
					w.Write(big)
					panic(http.ErrAbortHandler)
				})
				url, client := deploy(t, app, "proxy", proto, p, Responses())
				resp, got, err := get(t, client, url, "")
				if err == nil || !bytes.HasPrefix(big, got) {
					t.Errorf("response = %d with %d bytes, %v; want a prefix and an error", resp.StatusCode, len(got), err)
				}
				if errors.Is(err, io.EOF) {
					t.Errorf("error = %v; want no clean EOF", err)
				}
			})
		}
	}
}

// TestMiddlewareRejectUnframed checks, with a client of its own that
// speaks HTTP/1.0 (and HTTP/1.1 to a handler that asks for
// Transfer-Encoding identity), that a response rejected after bytes went
// out and that has no Content-Length, whose end is the connection's close,
// ends with a reset the client sees as an error, not with a close that
// makes it look complete; and that a valid one, or one with a
// Content-Length, ends as before.
func TestMiddlewareRejectUnframed(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("the simulated network has no reset")
	}
	valid := string(textgen.Make("russian", 12<<10)) // more than the ResponseBuffer
	tests := []struct {
		desc     string
		proto    string // of the request line
		identity bool   // the handler sets Transfer-Encoding identity
		length   bool   // the handler sets Content-Length
		body     string
		broken   bool // the client must see an error
	}{
		{"HTTP/1.0 late", "HTTP/1.0", false, false, valid + "\xff", true},
		{"HTTP/1.0 late, length", "HTTP/1.0", false, true, valid + "\xff", true},
		{"HTTP/1.0 valid", "HTTP/1.0", false, false, valid, false},
		{"HTTP/1.1 identity late", "HTTP/1.1", true, false, valid + "\xff", true},
		{"HTTP/1.1 identity valid", "HTTP/1.1", true, false, valid, false},
	}
	for _, dep := range deployments {
		for _, tc := range tests {
			t.Run(dep+"/"+tc.desc, func(t *testing.T) {
				app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/plain")
					if tc.length {
						w.Header().Set("Content-Length", strconv.Itoa(len(tc.body)))
					}
					if tc.identity {
						w.Header().Set("Transfer-Encoding", "identity")
					}
					for s := tc.body; len(s) > 0; {
						n := min(len(s), 3000)
						if _, err := io.WriteString(w, s[:n]); err != nil {
							return
						}
						s = s[n:]
					}
				})
				url, _ := deploy(t, app, dep, "http1", utf8stream.Reject, Responses())
				conn, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				conn.SetDeadline(time.Now().Add(10 * time.Second))
				fmt.Fprintf(conn, "GET / %s\r\nHost: test\r\nConnection: close\r\n\r\n", tc.proto)
				resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(resp.Body)
				if resp.StatusCode != http.StatusOK || !strings.HasPrefix(tc.body, string(got)) || !utf8.Valid(got) {
					t.Fatalf("response = %d, %d bytes (%.20q...); want 200 and a valid prefix of the body", resp.StatusCode, len(got), got)
				}
				if tc.broken && err == nil {
					t.Fatalf("response = %d with %d bytes and no error (%v); want it broken", resp.StatusCode, len(got), resp.Header)
				}
				if !tc.broken && (err != nil || string(got) != tc.body) {
					t.Fatalf("response = %d bytes, %v; want the body whole", len(got), err)
				}
			})
		}
	}
}
