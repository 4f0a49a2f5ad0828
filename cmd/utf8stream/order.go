package main

import (
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// slotLimit is how many bytes of output a file that is not yet shown may
// hold in memory before its job waits for its turn.
var slotLimit = 1 << 20

// each runs job on every file, several at a time, one per processor, and
// shows their output in the order of files: the output of the first file
// not yet done goes straight to stdout and stderr, that of the others is
// held until their turn. Each job gets an env of its own. When stdout
// fails, the files not yet started are skipped. each returns the worst exit
// status and the first error of stdout, which the caller reports.
func (e *env) each(files []string, job func(e *env, name string) int) (status int, outErr error) {
	q := &queue{stdout: e.stdout, stderr: e.stderr}
	slots := make([]*slot, len(files))
	for i := range slots {
		slots[i] = &slot{q: q, done: make(chan struct{})}
		slots[i].turn.L = &slots[i].mu
	}
	workers := min(runtime.GOMAXPROCS(0), len(files))
	if stdinTwice(files) {
		// The first "-" reads standard input to its end and the others
		// find it empty, which only one job at a time, in order, ensures.
		workers = 1
	}
	// window bounds the files started and not yet shown. Each worker
	// takes a place in it, then the next file.
	window := make(chan struct{}, 4*workers)
	if len(slots) > 0 {
		// The first file's turn has come before any worker starts it, so
		// that its progress lines and output go straight through.
		slots[0].show()
	}
	var next atomic.Int64
	codes := make([]int, len(files))
	for range workers {
		go func() {
			for {
				window <- struct{}{}
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					<-window
					return
				}
				s := slots[i]
				if q.failed() != nil {
					codes[i] = exitError
				} else {
					je := *e
					je.stdout, je.stderr = &slotWriter{s, 0}, &slotWriter{s, 1}
					je.head, je.fail = s.isHead, q.fail
					codes[i] = job(&je, files[i])
				}
				close(s.done)
			}
		}()
	}
	for i, s := range slots {
		s.show()
		<-s.done
		<-window
		status = max(status, codes[i])
	}
	return status, q.failed()
}

// stdinTwice reports whether files names standard input more than once.
func stdinTwice(files []string) bool {
	n := 0
	for _, f := range files {
		if f == "-" {
			n++
		}
	}
	return n > 1
}

// A queue is where the slots of each write their output in turn.
type queue struct {
	stdout, stderr io.Writer
	mu             sync.Mutex
	err            error // the first error of stdout
}

func (q *queue) fail(err error) {
	q.mu.Lock()
	if q.err == nil {
		q.err = err
	}
	q.mu.Unlock()
}

func (q *queue) failed() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.err
}

// write writes p to the stream: 0 stdout, 1 stderr. Once stdout has
// failed, it writes nothing more there and returns that error. Errors of
// stderr are ignored, as fmt.Fprintf's are.
func (q *queue) write(stream int, p []byte) (int, error) {
	if stream == 1 {
		q.stderr.Write(p)
		return len(p), nil
	}
	if err := q.failed(); err != nil {
		return 0, err
	}
	n, err := q.stdout.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		q.fail(err)
	}
	return n, err
}

// A slot holds the output of one file until its turn.
type slot struct {
	q    *queue
	mu   sync.Mutex
	turn sync.Cond // broadcast when head is set
	head bool      // the slot's turn has come: write straight through
	held []segment // the output written before then
	size int       // bytes in held
	done chan struct{}
}

// A segment is output held for one stream.
type segment struct {
	stream int
	p      []byte
}

func (s *slot) isHead() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.head
}

// show writes what s holds and lets its later output through.
func (s *slot) show() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range s.held {
		s.q.write(g.stream, g.p)
	}
	s.held, s.size, s.head = nil, 0, true
	s.turn.Broadcast()
}

func (s *slot) write(stream int, p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.head && s.size > 0 && s.size+len(p) > slotLimit {
		s.turn.Wait()
	}
	if s.head {
		return s.q.write(stream, p)
	}
	if k := len(s.held) - 1; k >= 0 && s.held[k].stream == stream {
		s.held[k].p = append(s.held[k].p, p...)
	} else {
		s.held = append(s.held, segment{stream, slices.Clone(p)})
	}
	s.size += len(p)
	return len(p), nil
}

// A slotWriter writes to one stream of a slot.
type slotWriter struct {
	s      *slot
	stream int
}

func (w *slotWriter) Write(p []byte) (int, error) { return w.s.write(w.stream, p) }
