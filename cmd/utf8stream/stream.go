package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// bufSize is the size of every read buffer and output buffer. A mapped
// input is handed on in chunks of mapChunk() bytes. Tests shrink bufSize to
// move the chunk boundaries.
var bufSize = 64 << 10

// bufPool holds read buffers of bufSize bytes, and writerPool bufio.Writers
// of that size, which each file takes and gives back: on a tree of small
// files, a new buffer per file costs more than reading the file.
var bufPool, writerPool sync.Pool

// getBuf returns a buffer of bufSize bytes, for putBuf to give back.
func getBuf() []byte {
	if b, ok := bufPool.Get().(*[]byte); ok && len(*b) == bufSize {
		return *b
	}
	return make([]byte, bufSize)
}

func putBuf(b []byte) { bufPool.Put(&b) }

// newBufWriter returns a bufio.Writer of bufSize bytes that writes to w,
// for freeBufWriter to give back once flushed.
func newBufWriter(w io.Writer) *bufio.Writer {
	if bw, ok := writerPool.Get().(*bufio.Writer); ok && bw.Size() == bufSize {
		bw.Reset(w)
		return bw
	}
	return bufio.NewWriterSize(w, bufSize)
}

func freeBufWriter(bw *bufio.Writer) {
	bw.Reset(nil)
	writerPool.Put(bw)
}

// mapChunk returns the size of the chunks of a mapped input.
func mapChunk() int { return 16 * bufSize }

// mapMin is the size from which a regular file is mapped into memory rather
// than read; smaller files take no more than a few reads. Tests change it
// to run both paths.
var mapMin int64 = 256 << 10

// env is what a command runs with: the standard streams and how to report.
// Commands that work on several files give each file an env of its own,
// whose stdout and stderr keep the output in the order of the arguments.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	progress       bool             // -progress: report progress even when stderr is not a terminal
	terminal       bool             // stderr is a terminal
	head           func() bool      // reports whether output written now is shown now; nil means always
	fail           func(error)      // records an error of the output, which the command reports once; nil: none
	walkErrs       map[string]error // the errors of expand, by path
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

// An input is standard input or a named file, which pump reads to its end.
type input struct {
	r    io.Reader
	f    *os.File    // the file, or nil when standard input is not one
	fi   fs.FileInfo // f's, when f is not nil
	size int64       // the size of a regular file read from its start, or -1
	data []byte      // the whole input, when it is mapped into memory
	buf  []byte      // the read buffer, when it is not
	// peeked is set while buf[:npeek] holds the first bytes of the input,
	// which peek read and pump has yet to take, and perr the error that
	// ended that read.
	peeked bool
	npeek  int
	perr   error
	// close releases the input; standard input is not closed.
	close func() error
}

// open opens the input name; "-" is standard input.
func (e *env) open(name string) (*input, error) {
	if err, ok := e.walkErrs[name]; ok {
		return nil, err
	}
	if name == "-" {
		f, ok := e.stdin.(*os.File)
		if !ok {
			return &input{r: e.stdin, size: -1, buf: getBuf(), close: func() error { return nil }}, nil
		}
		return openFile(f, false)
	}
	f, err := openRead(name)
	if err != nil {
		return nil, err
	}
	in, err := openFile(f, true)
	if err != nil {
		f.Close()
	}
	return in, err
}

// openFile returns the input that reads f from its current offset. A
// regular file of mapMin bytes or more is mapped into memory where the
// system allows it; reading standard input that way moves its offset to the
// end, as reading it would. With owned set, Close closes f.
func openFile(f *os.File, owned bool) (*input, error) {
	in := &input{r: f, f: f}
	closeFile := func() error { return nil }
	if owned {
		closeFile = f.Close
	}
	in.close = closeFile
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	in.fi = fi
	in.size = -1
	if owned && fi.Mode().IsRegular() {
		in.size = fi.Size()
	}
	if fi.Mode().IsRegular() && fi.Size() >= mapMin {
		off := int64(0)
		if !owned {
			if off, err = f.Seek(0, io.SeekCurrent); err != nil {
				off = -1
			}
		}
		if off >= 0 && fi.Size()-off >= mapMin {
			if data, unmap, err := mapFile(f, off, fi.Size()-off); err == nil {
				in.data = data
				in.close = func() error {
					err := unmap()
					if !owned {
						f.Seek(0, io.SeekEnd)
					}
					if cerr := closeFile(); err == nil {
						err = cerr
					}
					return err
				}
				return in, nil
			}
		}
	}
	in.buf = getBuf()
	return in, nil
}

// peek returns the first bytes of the input without consuming them: all of
// a mapped input, otherwise what one read gives, which for a regular file
// is its first len(in.buf) bytes, and for a pipe what has been written so
// far, so that peeking never waits for more input. pump hands on those
// bytes first, and the error that ended the read after them.
func (in *input) peek() []byte {
	if in.data != nil {
		return in.data
	}
	if !in.peeked {
		n, err := 0, error(nil)
		for empty := 0; n == 0 && err == nil && empty < 100; empty++ {
			n, err = in.r.Read(in.buf)
		}
		if n < 0 || n > len(in.buf) {
			n, err = 0, errors.New("invalid count")
		}
		if n == 0 && err == nil {
			err = io.ErrNoProgress
		}
		in.peeked, in.npeek, in.perr = true, n, err
	}
	return in.buf[:in.npeek]
}

// peekAtLeast is peek that reads on until it holds n bytes, the input
// ends, or a read fails, for a reader that hands over a few bytes at a
// time.
func (in *input) peekAtLeast(n int) []byte {
	b := in.peek()
	for empty := 0; in.data == nil && len(b) < n && len(b) < len(in.buf) && in.perr == nil && empty < 100; {
		k, err := in.r.Read(in.buf[in.npeek:])
		if k < 0 || k > len(in.buf)-in.npeek {
			k, err = 0, errors.New("invalid count")
		}
		if k == 0 && err == nil {
			if empty++; empty == 100 {
				err = io.ErrNoProgress
			}
		}
		in.npeek += k
		in.perr = err
		b = in.buf[:in.npeek]
	}
	return b
}

// binaryKind returns binaryKind of the first bytes of the input. A mapped
// input whose file shrank looks like text here; pump meets the fault again
// and reports it.
func (in *input) binaryKind() string {
	if in.data != nil {
		var err error
		defer catchFaults(&err)()
	}
	return binaryKind(in.peek())
}

// atEnd reports whether total bytes read are all of a regular file, by the
// size its descriptor reported when opened. Files of size 0, such as those
// of /proc, are read until a read returns io.EOF, and so are files whose
// size is not that of their content, such as those of /sys.
func (in *input) atEnd(total int64) bool {
	return in.size > 0 && total == in.size
}

// read reads into in.buf, as in.r.Read does, after handing on the bytes
// that peek read, which are there already.
func (in *input) read() (int, error) {
	if in.peeked {
		in.peeked = false
		return in.npeek, in.perr
	}
	return in.r.Read(in.buf)
}

// Close releases the input.
func (in *input) Close() error {
	if in.buf != nil {
		putBuf(in.buf)
		in.buf = nil
	}
	return in.close()
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

// newReadError returns the *readError of err, an error of Read, which is
// reported as "read: " and err if it does not say what failed itself.
func newReadError(err error) *readError {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		err = &fs.PathError{Op: "read", Err: err}
	}
	return &readError{err}
}

func (r *readError) Error() string { return r.err.Error() }
func (r *readError) Unwrap() error { return r.err }

// errFault is the error of a mapped input whose pages went away, as when
// another program truncates the file while it is read.
var errFault = errors.New("the file shrank while it was read")

// catchFaults makes a fault on memory, such as a mapped input whose file
// was truncated, panic in the calling goroutine rather than kill the
// program, and returns the function that the caller defers to turn that
// panic into a *readError in *err.
func catchFaults(err *error) func() {
	old := debug.SetPanicOnFault(true)
	return func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); !ok {
				panic(r)
			}
			*err = newReadError(errFault)
		}
	}
}

// pump hands in to w in chunks, to its end, each first to pos, if not nil.
// On a read that returned less than a full buffer, which on a pipe means
// the writer is slow, it calls flush, if not nil, so that output keeps up
// with input. It stops early when stop, if not nil, returns true after a
// chunk. Errors of the input come back as a *readError.
func pump(w io.Writer, in *input, pos *tracker, prog *progress, flush func() error, stop func() bool) (err error) {
	if in.data != nil {
		defer catchFaults(&err)()
		return pumpMapped(w, in.data, pos, prog, stop)
	}
	buf := in.buf
	var total int64
	for empty := 0; ; {
		n, rerr := in.read()
		if n < 0 || n > len(buf) {
			return newReadError(errors.New("invalid count"))
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
				return newReadError(io.ErrNoProgress)
			}
		}
		if rerr == nil && n > 0 && in.atEnd(total) {
			// Spare the read that would return io.EOF.
			rerr = io.EOF
		}
		if rerr == io.EOF {
			if pos != nil {
				pos.end(total)
			}
			return nil
		}
		if rerr != nil {
			return newReadError(rerr)
		}
	}
}

// pumpMapped is pump for an input mapped into memory. The tracker sees the
// whole input at once.
func pumpMapped(w io.Writer, data []byte, pos *tracker, prog *progress, stop func() bool) error {
	if pos != nil {
		pos.feed(data, 0)
		pos.end(int64(len(data)))
	}
	for off, chunk := 0, mapChunk(); off < len(data); {
		n := min(chunk, len(data)-off)
		if _, err := w.Write(data[off : off+n]); err != nil {
			return err
		}
		off += n
		prog.update(int64(off))
		if stop != nil && stop() {
			return nil
		}
	}
	return nil
}

// filter pumps in through wc, which writes to w, and closes wc. A read
// error is returned as it is, without closing wc: an unfinished sequence
// must not be settled as if the input had ended.
func (e *env) filter(wc io.WriteCloser, w io.Writer, in *input, name string, pos *tracker) error {
	prog := e.newProgress(name)
	var flush func() error
	if bw, ok := w.(*bufio.Writer); ok {
		flush = bw.Flush
	}
	err := pump(wc, in, pos, prog, flush, nil)
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

// progressEvery is how often a progress line is printed.
var progressEvery = time.Second

// progress prints how far a long run has got to stderr, when stderr is a
// terminal or -progress asks for it, and the file's output is the one
// being shown. A nil *progress prints nothing.
type progress struct {
	w         io.Writer
	terminal  bool        // rewrite one line; otherwise print a line per update
	head      func() bool // nil or whether to print now
	name      string
	start     time.Time
	last      time.Time
	onTheLine bool // the terminal line holds a progress report
}

// newProgress returns a progress reporter for the input shown as name, or
// nil when none is wanted.
func (e *env) newProgress(name string) *progress {
	if !e.terminal && !e.progress {
		return nil
	}
	now := time.Now()
	return &progress{w: e.stderr, terminal: e.terminal, head: e.head, name: name, start: now, last: now}
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
	if now.Sub(p.last) < progressEvery || p.head != nil && !p.head() {
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
