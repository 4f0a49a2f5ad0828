package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
)

// A filter writes the converted form of one input to w, and its messages
// through e. It returns nil, an *invalidInput (already reported), a
// *readError, or an error of w.
type filter func(e *env, w io.Writer, in *input, name string) error

// invalidInput is what a filter returns when the policy refused the input.
// The filter has reported where.
type invalidInput struct{}

func (*invalidInput) Error() string { return "ill-formed UTF-8" }

// errSkipped is what a filter returns for an input that it leaves alone,
// having said why.
var errSkipped = errors.New("skipped")

// outputFlags are the flags that say where fix and restore write.
type outputFlags struct {
	out     string
	inPlace bool
	binary  bool
}

// define adds -o, -w and -binary to fs.
func (o *outputFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&o.out, "o", "", "write the output to `OUT` instead of standard output")
	fs.BoolVar(&o.inPlace, "w", false, "rewrite each file in place")
	fs.BoolVar(&o.binary, "binary", false, "with -o or -w, convert files that look binary too, rather than skip them")
}

// skipBinary reports whether in, the input shown as name, is to be left
// alone because it looks binary, and if so says so.
func (e *env) skipBinary(o *outputFlags, in *input, name string) bool {
	if o.binary {
		return false
	}
	kind := in.binaryKind()
	if kind == "" {
		return false
	}
	e.errorf(name, "binary file, skipped (%s)", kind)
	return true
}

func (o *outputFlags) validate(files []string) error {
	if o.inPlace {
		if o.out != "" {
			return errors.New("-o and -w cannot be used together")
		}
		if slices.Contains(files, "-") {
			return errors.New("-w needs files: it cannot rewrite standard input")
		}
	}
	return nil
}

// status turns the result of a filter into an exit status, reporting
// errors other than invalid input.
func (e *env) status(name string, err error) int {
	var ii *invalidInput
	switch {
	case err == nil, err == errSkipped:
		return exitOK
	case errors.As(err, &ii):
		return exitInvalid
	}
	e.ioError(name, err)
	return exitError
}

// isOutputError reports whether err, returned by a filter, is an error of
// its output.
func isOutputError(err error) bool {
	var ii *invalidInput
	var re *readError
	return err != nil && err != errSkipped && !errors.As(err, &ii) && !errors.As(err, &re)
}

// filterFiles runs f on each file and writes the results where o says: one
// after another to standard output or to -o's file, or each over its input.
// It returns the worst exit status.
func (e *env) filterFiles(files []string, o *outputFlags, f filter) int {
	if o.inPlace {
		status, _ := e.each(onceEach(files), func(e *env, name string) int {
			return e.rewriteStatus(name, o, f)
		})
		return status
	}

	if o.out == "" || o.out == "-" {
		if so, ok := e.stdout.(*os.File); ok {
			if err := e.sameFile(so.Stat, files); err != nil {
				e.errorf("<stdout>", "%v", err)
				return exitError
			}
		}
		status, _, err := e.concat(files, nil, f, e.stdout)
		if err != nil {
			e.ioError("<stdout>", err)
			return exitError
		}
		return status
	}

	oname := displayName(o.out)
	out, err := e.createOutput(o.out, files)
	if err != nil {
		e.errorf(oname, "%s", describeIOError(err))
		return exitError
	}
	status, written, err := e.concat(files, o, f, out)
	switch {
	case err != nil:
		out.abort()
		e.errorf(oname, "%s; %s", describeIOError(err), out.unchanged())
		return exitError
	case status == exitError:
		out.abort()
		e.errorf(oname, "%s after the errors above", out.unchanged())
		return exitError
	case written == 0 && len(files) > 0:
		// Every input was skipped: nothing replaces OUT.
		out.abort()
		return status
	}
	if err := out.commit(); err != nil {
		var pw *partialWrite
		if errors.As(err, &pw) {
			e.errorf(oname, "%v", err)
		} else {
			e.errorf(oname, "%s; %s", describeIOError(err), out.unchanged())
		}
		return exitError
	}
	return status
}

// concat writes the results of f on files one after another to w, and
// returns the worst exit status, how many files were not skipped, and the
// first error of w. With o, it skips the files that look binary, unless
// o.binary is set.
func (e *env) concat(files []string, o *outputFlags, f filter, w io.Writer) (int, int64, error) {
	je := *e
	je.stdout = w
	var written atomic.Int64
	status, err := je.each(files, func(e *env, name string) int {
		bw := newBufWriter(e.stdout)
		defer freeBufWriter(bw)
		err := e.filterOne(bw, name, o, f)
		if err != errSkipped {
			written.Add(1)
		}
		// Whatever the input, what was written stays written: under
		// reject that is the valid prefix.
		if ferr := bw.Flush(); ferr != nil && err == nil {
			err = ferr
		}
		if isOutputError(err) {
			// each reports it.
			e.fail(err)
			return exitError
		}
		return e.status(displayName(name), err)
	})
	return status, written.Load(), err
}

// filterOne opens the input name and runs f on it, unless o says to skip
// it.
func (e *env) filterOne(w io.Writer, name string, o *outputFlags, f filter) error {
	in, err := e.open(name)
	if err != nil {
		return &readError{err}
	}
	defer in.Close()
	if o != nil && e.skipBinary(o, in, displayName(name)) {
		return errSkipped
	}
	return f(e, w, in, displayName(name))
}

// sameFile returns an error if the output, which stat describes, is a
// regular file that is one of the inputs, standard input included: writing
// it would destroy the input before it is read.
func (e *env) sameFile(stat func() (fs.FileInfo, error), files []string) error {
	ofi, err := stat()
	if err != nil || !ofi.Mode().IsRegular() {
		return nil
	}
	for _, name := range files {
		var fi fs.FileInfo
		if name == "-" {
			f, ok := e.stdin.(*os.File)
			if !ok {
				continue
			}
			fi, err = f.Stat()
		} else {
			fi, err = os.Stat(name)
		}
		if err == nil && os.SameFile(ofi, fi) {
			return fmt.Errorf("the output is the input %s; use -w to rewrite a file in place", displayName(name))
		}
	}
	return nil
}

// An output is where -o writes: a regular file, replaced through an
// atomicFile, or another kind of file, such as /dev/stdout, a pipe or a
// terminal, written directly.
type output struct {
	io.Writer
	atomic *atomicFile  // nil for a file written directly
	close  func() error // closes a file written directly; nil: nothing to close
	exists bool
}

// createOutput opens the output name for the inputs files. A name that
// stands for an open descriptor, such as /dev/stdout, is written through
// that descriptor, whatever it leads to: a file opened for appending gets
// appended to.
func (e *env) createOutput(name string, files []string) (*output, error) {
	if fd, ok := descriptorPath(name); ok {
		return e.descriptorOutput(fd, name, files)
	}
	fi, err := os.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A symbolic link to a file yet to be made is followed, as the
		// shell's > follows it, rather than replaced by the output.
		if name, err = linkEnd(name); err != nil {
			return nil, err
		}
		e.noteLeftovers(name)
		a, err := createAtomic(name, nil)
		if err != nil {
			return nil, err
		}
		return &output{Writer: a, atomic: a}, nil
	case err != nil:
		return nil, err
	}
	if err := e.sameFile(func() (fs.FileInfo, error) { return fi, nil }, files); err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		var f *os.File
		if fi.Mode()&fs.ModeSocket != 0 {
			f, err = dialSocket(name)
		} else {
			f, err = os.OpenFile(name, os.O_WRONLY, 0)
		}
		if err != nil {
			return nil, err
		}
		return &output{Writer: f, close: f.Close, exists: true}, nil
	}
	path, err := filepath.EvalSymlinks(name)
	if err != nil {
		return nil, err
	}
	e.noteLeftovers(path)
	a, err := createAtomic(path, fi)
	if err != nil {
		return nil, err
	}
	return &output{Writer: a, atomic: a, exists: true}, nil
}

// descriptorOutput returns the output that writes to the open descriptor
// fd, which name stands for: standard output and standard error are the
// command's own.
func (e *env) descriptorOutput(fd int, name string, files []string) (*output, error) {
	o := &output{exists: true}
	var stat func() (fs.FileInfo, error)
	switch fd {
	case 0:
		return nil, errors.New("standard input is not an output")
	case 1, 2:
		o.Writer = e.stdout
		if fd == 2 {
			o.Writer = e.stderr
		}
		if f, ok := o.Writer.(*os.File); ok {
			stat = f.Stat
		}
	default:
		f, err := openDescriptor(fd, name)
		if err != nil {
			return nil, err
		}
		o.Writer, o.close, stat = f, f.Close, f.Stat
	}
	if stat != nil {
		if err := e.sameFile(stat, files); err != nil {
			if o.close != nil {
				o.close()
			}
			return nil, err
		}
	}
	return o, nil
}

// unchanged says what became of the output after an error.
func (o *output) unchanged() string {
	switch {
	case o.atomic == nil:
		return "output incomplete"
	case o.exists:
		return "file left unchanged"
	}
	return "file not created"
}

func (o *output) abort() {
	if o.atomic != nil {
		o.atomic.abort()
	} else if o.close != nil {
		o.close()
	}
}

func (o *output) commit() error {
	if o.atomic != nil {
		return o.atomic.commit()
	}
	if o.close != nil {
		return o.close()
	}
	return nil
}

// rewriteStatus rewrites the file name with f, reports any error, and
// returns the exit status.
func (e *env) rewriteStatus(name string, o *outputFlags, f filter) int {
	err := e.rewrite(name, o, f)
	var pw *partialWrite
	switch {
	case errors.As(err, &pw):
		e.errorf(displayName(name), "%v", err)
		return exitError
	case isOutputError(err):
		e.errorf(displayName(name), "%s; file left unchanged", describeIOError(err))
		return exitError
	}
	return e.status(displayName(name), err)
}

// errNotRegular is the error of -w on a file that is not a regular file.
var errNotRegular = errors.New("not a regular file; -w rewrites regular files only")

// onceEach returns files without the names of a file named before them, by
// the same path or another (a symbolic or a hard link, or a directory and a
// file in it), so that -w rewrites each file once: two jobs on one file
// would each read it while the other writes it, and a second escape of
// what the first escaped would not restore. Names that cannot be examined
// are kept, for their job to report.
func onceEach(files []string) []string {
	seen := make(map[any]bool, len(files))
	out := make([]string, 0, len(files))
	for _, name := range files {
		if id, ok := fileIdentity(name); ok {
			if seen[id] {
				continue
			}
			seen[id] = true
		}
		out = append(out, name)
	}
	return out
}

// fileIdentity returns what tells the file name leads to from every other
// file: its device and inode where the system has them, and otherwise its
// absolute path with symbolic links resolved.
func fileIdentity(name string) (any, bool) {
	if name == "-" {
		return nil, false
	}
	fi, err := os.Stat(name)
	if err != nil {
		return nil, false
	}
	if id, ok := deviceInode(fi); ok {
		return id, true
	}
	p, err := filepath.EvalSymlinks(name)
	if err != nil {
		return nil, false
	}
	if p, err = filepath.Abs(p); err != nil {
		return nil, false
	}
	return p, true
}

// rewrite runs f on the file name and replaces the file with the result,
// through an atomicFile. It leaves a file whose result is its own content
// untouched, and so is a file that looks binary, unless o.binary is set. A
// symbolic link is followed, and the file it points to replaced.
func (e *env) rewrite(name string, o *outputFlags, f filter) (err error) {
	if err, ok := e.walkErrs[name]; ok {
		return &readError{err}
	}
	path, err := filepath.EvalSymlinks(name)
	if err != nil {
		return &readError{err}
	}
	// Refused before it is opened: opening a named pipe would wait for a
	// writer, and read what it writes.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return &readError{errNotRegular}
	}
	fh, err := os.Open(path)
	if err != nil {
		return &readError{err}
	}
	in, err := openFile(fh, true)
	if err != nil {
		fh.Close()
		return &readError{err}
	}
	defer in.Close()
	if !in.fi.Mode().IsRegular() {
		return &readError{errNotRegular}
	}
	e.noteLeftovers(path)
	w := &rewriter{path: path, in: in}
	defer func() {
		if err != nil {
			w.abort()
		}
	}()
	if in.data != nil {
		defer catchFaults(&err)()
	}
	if e.skipBinary(o, in, displayName(name)) {
		return errSkipped
	}
	bw := newBufWriter(w)
	defer freeBufWriter(bw)
	if err := f(e, bw, in, displayName(name)); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return w.finish()
}

// A rewriter takes the result of -w for one file. While the result repeats
// the file's content, it only compares; at the first byte that differs it
// starts an atomicFile, so that a file that needs no change is not touched.
type rewriter struct {
	path    string
	in      *input
	same    int64       // bytes of result so far, all equal to the file's
	out     *atomicFile // nil until the result differs
	scratch []byte
}

func (w *rewriter) Write(p []byte) (int, error) {
	if w.out == nil {
		eq, err := w.equal(p)
		if err != nil {
			return 0, err
		}
		if eq {
			w.same += int64(len(p))
			return len(p), nil
		}
		if err := w.start(); err != nil {
			return 0, err
		}
	}
	return w.out.Write(p)
}

// size returns the size of the file.
func (w *rewriter) size() int64 {
	if w.in.data != nil {
		return int64(len(w.in.data))
	}
	return w.in.fi.Size()
}

// equal reports whether p is the content of the file at offset w.same.
func (w *rewriter) equal(p []byte) (bool, error) {
	off := w.same
	if off+int64(len(p)) > w.size() {
		return false, nil
	}
	if d := w.in.data; d != nil {
		return bytes.Equal(p, d[off:off+int64(len(p))]), nil
	}
	if w.scratch == nil {
		w.scratch = make([]byte, bufSize)
	}
	for len(p) > 0 {
		b := w.scratch[:min(len(p), len(w.scratch))]
		if n, err := w.in.f.ReadAt(b, off); n < len(b) {
			if err == io.EOF {
				return false, nil
			}
			return false, &readError{err}
		}
		if !bytes.Equal(b, p[:len(b)]) {
			return false, nil
		}
		p, off = p[len(b):], off+int64(len(b))
	}
	return true, nil
}

// start starts the atomicFile and copies into it the w.same bytes of the
// file that the result has repeated so far.
func (w *rewriter) start() error {
	out, err := createAtomic(w.path, w.in.fi)
	if err != nil {
		return err
	}
	if d := w.in.data; d != nil {
		_, err = out.Write(d[:w.same])
	} else {
		_, err = io.Copy(out, io.NewSectionReader(w.in.f, 0, w.same))
	}
	if err != nil {
		out.abort()
		return err
	}
	w.out = out
	return nil
}

// finish puts the result in place, unless it is the file's own content.
func (w *rewriter) finish() error {
	if w.out == nil {
		if w.same == w.size() {
			return nil
		}
		// The result is a prefix of the file.
		if err := w.start(); err != nil {
			return err
		}
	}
	err := w.out.commit()
	w.out = nil // committed or aborted
	return err
}

// abort removes the result, if started.
func (w *rewriter) abort() {
	if w.out != nil {
		w.out.abort()
		w.out = nil
	}
}

// linkEnd returns the path that name leads to through symbolic links, which
// need not exist: name itself where it is not a link.
func linkEnd(name string) (string, error) {
	for range 40 { // as Linux's limit on links in a path
		fi, err := os.Lstat(name)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return name, nil
		}
		target, err := os.Readlink(name)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			// Relative to the link's directory as the system finds it:
			// .. in target leaves that, not the path's last element.
			dir, err := filepath.EvalSymlinks(filepath.Dir(name))
			if err != nil {
				return "", err
			}
			target = filepath.Join(dir, target)
		}
		name = target
	}
	return "", &fs.PathError{Op: "open", Path: name, Err: errTooManyLinks}
}

var errTooManyLinks = errors.New("too many levels of symbolic links")
