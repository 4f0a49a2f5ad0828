package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// bufSize is the size of every input and output buffer. Tests shrink it to
// move the chunk boundaries.
var bufSize = 64 << 10

// env is what a command runs with: the standard streams and how to report.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	progress       bool // -progress: report progress even when stderr is not a terminal
}

// displayName returns name as messages show it: "<stdin>" for "-", and
// quoted with strconv.Quote when it is not valid UTF-8 or holds a control
// character, so that every line the command prints is valid UTF-8 and one
// line.
func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	if !utf8.ValidString(name) || strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return strconv.Quote(name)
	}
	return name
}

// open opens the input name; "-" is standard input, which it does not close.
func (e *env) open(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(e.stdin), nil
	}
	return os.Open(name)
}

// errorf prints a message about the input or output shown as name.
func (e *env) errorf(name string, format string, args ...any) {
	fmt.Fprintf(e.stderr, "utf8stream: %s: %s\n", name, fmt.Sprintf(format, args...))
}

// ioError prints err, which happened on the file shown as name, without
// repeating the raw path that the os package puts in its errors.
func (e *env) ioError(name string, err error) {
	e.errorf(name, "%s", describeIOError(err))
}

func describeIOError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Op + ": " + le.Err.Error()
	}
	return err.Error()
}

// A readError is an error of the input, as opposed to one of the output.
type readError struct{ err error }

func (r *readError) Error() string { return r.err.Error() }
func (r *readError) Unwrap() error { return r.err }

// pump reads r to its end in chunks, hands each chunk first to pos, if not
// nil, and then to w. After a read that returned less than a full buffer,
// which on a pipe means the writer is slow, it calls flush, if not nil, so
// that output keeps up with input. It stops early when stop, if not nil,
// returns true after a chunk. Errors of r come back as a *readError.
func pump(w io.Writer, r io.Reader, buf []byte, pos *tracker, prog *progress, flush func() error, stop func() bool) error {
	var total int64
	for empty := 0; ; {
		n, rerr := r.Read(buf)
		if n < 0 || n > len(buf) {
			return &readError{errors.New("read: invalid count")}
		}
		if n > 0 {
			empty = 0
			chunk := buf[:n]
			if pos != nil {
				pos.feed(chunk, total)
			}
			total += int64(n)
			if _, err := w.Write(chunk); err != nil {
				return err
			}
			if pos != nil {
				// The next read overwrites the chunk.
				pos.count(total)
			}
			prog.update(total)
			if stop != nil && stop() {
				return nil
			}
			if n < len(buf) && rerr == nil && flush != nil {
				if err := flush(); err != nil {
					return err
				}
			}
		} else if rerr == nil {
			if empty++; empty >= 100 {
				return &readError{io.ErrNoProgress}
			}
		}
		if rerr == io.EOF {
			if pos != nil {
				pos.end(total)
			}
			return nil
		}
		if rerr != nil {
			return &readError{rerr}
		}
	}
}

// progressEvery is how often a progress line is printed.
var progressEvery = time.Second

// progress prints how far a long run has got to stderr, when stderr is a
// terminal or -progress asks for it. A nil *progress prints nothing.
type progress struct {
	w         io.Writer
	terminal  bool // rewrite one line; otherwise print a line per update
	name      string
	start     time.Time
	last      time.Time
	onTheLine bool // the terminal line holds a progress report
}

// newProgress returns a progress reporter for the input shown as name, or
// nil when none is wanted.
// filter pumps r through wc, which writes to w, and closes wc. A read error
// is returned as it is, without closing wc: an unfinished sequence must not
// be settled as if the input had ended.
func (e *env) filter(wc io.WriteCloser, w io.Writer, r io.Reader, name string, buf []byte, pos *tracker) error {
	prog := e.newProgress(name)
	var flush func() error
	if bw, ok := w.(*bufio.Writer); ok {
		flush = bw.Flush
	}
	err := pump(wc, r, buf, pos, prog, flush, nil)
	prog.clear()
	var re *readError
	if errors.As(err, &re) {
		return err
	}
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

func (e *env) newProgress(name string) *progress {
	term := isTerminal(e.stderr)
	if !term && !e.progress {
		return nil
	}
	now := time.Now()
	return &progress{w: e.stderr, terminal: term, name: name, start: now, last: now}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	// /dev/null is a character device too; progress written there is lost
	// and harmless.
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (p *progress) update(n int64) {
	if p == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	mb := float64(n) / 1e6
	rate := mb / max(now.Sub(p.start).Seconds(), 1e-9)
	if p.terminal {
		fmt.Fprintf(p.w, "\r%s: %.1f MB read, %.0f MB/s\x1b[K", p.name, mb, rate)
		p.onTheLine = true
	} else {
		fmt.Fprintf(p.w, "utf8stream: %s: %.1f MB read, %.0f MB/s\n", p.name, mb, rate)
	}
}

// clear removes the progress line from the terminal, before other output.
func (p *progress) clear() {
	if p != nil && p.onTheLine {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.onTheLine = false
	}
}
