package utf8http

import (
	"bufio"
	"errors"
	"net"
	"net/http"

	"github.com/utf8stream/utf8stream"
)

// responseWriter applies the policy to a textual response body. The status
// is held back until the first bytes go out, so that a response rejected
// before that can still become a 500.
type responseWriter struct {
	rw      http.ResponseWriter
	m       *middleware
	head    bool
	wr      *utf8stream.Writer // nil unless the body is checked
	code    int                // the status the handler set, or 0
	decided bool               // wr is settled
	sent    bool               // rw.WriteHeader was called
	hijack  bool               // the handler took over the connection
	err     error              // the *Error that ended a rejected response
}

// Unwrap returns the wrapped ResponseWriter, for [http.ResponseController].
func (w *responseWriter) Unwrap() http.ResponseWriter { return w.rw }

func (w *responseWriter) Header() http.Header { return w.rw.Header() }

func (w *responseWriter) WriteHeader(code int) {
	if w.sent || w.code != 0 {
		return
	}
	if code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols {
		w.rw.WriteHeader(code) // informational: more headers follow
		return
	}
	w.code = code
	if _, ok := w.rw.Header()["Content-Type"]; ok {
		w.decide(nil)
	}
}

// decide settles whether the body is checked, sniffing the Content-Type
// from p if the handler set none. A body with a Content-Encoding other
// than identity is not checked.
func (w *responseWriter) decide(p []byte) {
	if w.decided {
		return
	}
	w.decided = true
	if w.head || w.code == http.StatusNoContent || w.code == http.StatusNotModified {
		return
	}
	h := w.rw.Header()
	if coding, ok := contentCoding(h["Content-Encoding"]); coding != "" || !ok {
		return // compressed: not text, and left to net/http as it is
	}
	ct, ok := h["Content-Type"]
	if !ok && p != nil {
		ct = []string{http.DetectContentType(p)}
		h["Content-Type"] = ct
	}
	if !w.m.responseType(ct) {
		return
	}
	if w.m.resizes {
		h.Del("Content-Length")
	}
	w.wr = utf8stream.NewWriter(sink{w}, w.m.p, w.m.o.stream...)
}

// send passes the held-back status on.
func (w *responseWriter) send() {
	if w.sent {
		return
	}
	w.sent = true
	if w.code != 0 {
		w.rw.WriteHeader(w.code)
	}
}

// sink is what the Writer writes to.
type sink struct{ w *responseWriter }

func (s sink) Write(p []byte) (int, error) {
	s.w.send()
	return s.w.rw.Write(p)
}

func (w *responseWriter) Write(p []byte) (int, error) {
	if w.code == 0 && !w.sent {
		w.code = http.StatusOK
	}
	if w.err != nil {
		return 0, w.err
	}
	if len(p) == 0 && !w.decided {
		return 0, nil // nothing to sniff yet
	}
	w.decide(p)
	if w.wr == nil || w.hijack {
		w.send()
		return w.rw.Write(p)
	}
	n, err := w.wr.Write(p)
	if err != nil {
		w.fail(err)
	}
	return n, err
}

// fail handles an error of the Writer. A rejected body becomes a 500 if
// nothing was sent yet, and aborts the response otherwise.
func (w *responseWriter) fail(err error) {
	var e *utf8stream.Error
	if !errors.As(err, &e) || w.err != nil {
		return
	}
	w.err = e
	if w.sent {
		panic(http.ErrAbortHandler)
	}
	w.code = 0
	http.Error(w.rw, "invalid UTF-8 in response body", http.StatusInternalServerError)
	w.sent = true
}

// Flush sends what the handler wrote except an unfinished sequence at its
// end, which waits for the bytes that complete it or for the handler to
// return.
func (w *responseWriter) Flush() { w.FlushError() }

// FlushError is Flush for [http.ResponseController], which returns the
// error of the wrapped ResponseWriter.
func (w *responseWriter) FlushError() error {
	w.decide(nil)
	w.send()
	return http.NewResponseController(w.rw).Flush()
}

// Hijack lets the handler take over the connection, for
// [http.ResponseController]. What the Writer holds back is discarded.
func (w *responseWriter) Hijack() (c net.Conn, rw *bufio.ReadWriter, err error) {
	c, rw, err = http.NewResponseController(w.rw).Hijack()
	if err == nil {
		w.hijack, w.sent, w.decided = true, true, true
	}
	return c, rw, err
}

// finish writes what the Writer holds back once the handler has returned,
// and the status if no body was written.
func (w *responseWriter) finish() {
	if w.hijack || w.err != nil {
		return
	}
	w.decide(nil)
	if w.wr != nil {
		if err := w.wr.Close(); err != nil {
			w.fail(err)
			return
		}
	}
	w.send()
}
