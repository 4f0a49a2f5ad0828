package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// A filter writes the converted form of one input to w. It returns nil, an
// *invalidInput (already reported), a *readError, or an error of w.
type filter func(w io.Writer, r io.Reader, name string) error

// invalidInput is what a filter returns when the policy refused the input.
// The filter has reported where.
type invalidInput struct{}

func (*invalidInput) Error() string { return "ill-formed UTF-8" }

// outputFlags are the flags that say where fix and restore write.
type outputFlags struct {
	out     string
	inPlace bool
}

// define adds -o and -w to fs.
func (o *outputFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&o.out, "o", "", "write the output to `OUT` instead of standard output")
	fs.BoolVar(&o.inPlace, "w", false, "rewrite each file in place")
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
	case err == nil:
		return exitOK
	case errors.As(err, &ii):
		return exitInvalid
	}
	e.ioError(name, err)
	return exitError
}

// filterFiles runs f on each file and writes the results where o says: one
// after another to standard output or to -o's file, or each over its input.
// It returns the worst exit status.
func (e *env) filterFiles(files []string, o *outputFlags, f filter) int {
	if o.inPlace {
		status := exitOK
		for _, name := range files {
			err := e.rewrite(name, f)
			var ii *invalidInput
			var re *readError
			if err != nil && !errors.As(err, &ii) && !errors.As(err, &re) {
				e.errorf(displayName(name), "%s; file left unchanged", describeIOError(err))
				status = exitError
				continue
			}
			status = max(status, e.status(displayName(name), err))
		}
		return status
	}

	var w io.Writer = e.stdout
	wname := "<stdout>"
	if o.out != "" && o.out != "-" {
		wname = displayName(o.out)
		if err := sameFile(o.out, files); err != nil {
			e.errorf(wname, "%v", err)
			return exitError
		}
		out, err := os.Create(o.out)
		if err != nil {
			e.ioError(wname, err)
			return exitError
		}
		defer out.Close()
		w = out
	}
	bw := bufio.NewWriterSize(w, bufSize)
	status := exitOK
	for _, name := range files {
		shown := displayName(name)
		err := e.filterOne(bw, name, f)
		// Whatever the input, what was written stays written: under
		// reject that is the valid prefix.
		if ferr := bw.Flush(); ferr != nil && err == nil {
			err = ferr
		}
		var re *readError
		var ii *invalidInput
		if err != nil && !errors.As(err, &re) && !errors.As(err, &ii) {
			// The output failed: nothing more can be written.
			e.ioError(wname, err)
			return exitError
		}
		status = max(status, e.status(shown, err))
	}
	if c, ok := w.(io.Closer); ok && w != e.stdout {
		if err := c.Close(); err != nil {
			e.ioError(wname, err)
			return exitError
		}
	}
	return status
}

// filterOne opens the input name and runs f on it.
func (e *env) filterOne(w io.Writer, name string, f filter) error {
	in, err := e.open(name)
	if err != nil {
		return &readError{err}
	}
	defer in.Close()
	return f(w, in, displayName(name))
}

// sameFile returns an error if out names one of the input files, which
// os.Create would truncate before it is read.
func sameFile(out string, files []string) error {
	ofi, err := os.Stat(out)
	if err != nil {
		return nil // out does not exist yet, or os.Create will say why not
	}
	for _, name := range files {
		if name == "-" {
			continue
		}
		if fi, err := os.Stat(name); err == nil && os.SameFile(ofi, fi) {
			return fmt.Errorf("-o names the input %s; use -w to rewrite a file in place", displayName(name))
		}
	}
	return nil
}

// tempFile is the part of *os.File that -w writes through. Tests replace
// createTemp to make it fail.
type tempFile interface {
	io.Writer
	Name() string
	Chmod(mode fs.FileMode) error
	Chown(uid, gid int) error
	Sync() error
	Close() error
}

// createTemp creates the temporary file that -w writes, as os.CreateTemp.
var createTemp = func(dir, pattern string) (tempFile, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// rewrite runs f on the file name and replaces the file with the result.
// It writes a temporary file in the same directory, with the same
// permissions (and owner, when allowed), syncs it and renames it over the original only when all went
// well; otherwise it removes the temporary file and the original stays as
// it was. A symbolic link is followed, and the file it points to replaced.
func (e *env) rewrite(name string, f filter) (err error) {
	path, err := filepath.EvalSymlinks(name)
	if err != nil {
		return &readError{err}
	}
	in, err := os.Open(path)
	if err != nil {
		return &readError{err}
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return &readError{err}
	}
	if !fi.Mode().IsRegular() {
		return &readError{errors.New("not a regular file; -w rewrites regular files only")}
	}

	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := createTemp(dir, "."+base+".utf8stream-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return err
	}
	if uid, gid, ok := fileOwner(fi); ok {
		// Keep the owner where the system lets us, as when root rewrites
		// another user's file; otherwise the file becomes ours, as with
		// any editor that saves through a new file.
		tmp.Chown(uid, gid)
	}
	bw := bufio.NewWriterSize(tmp, bufSize)
	if err := f(bw, in, displayName(name)); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// Make the rename itself durable; not every system can sync a
	// directory, and the data is safe either way.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
