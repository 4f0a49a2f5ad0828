package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// tempFile is the part of *os.File that temporary output files are written
// through. Tests replace createTemp to make it fail.
type tempFile interface {
	io.ReadWriteSeeker
	Name() string
	Chmod(mode fs.FileMode) error
	Chown(uid, gid int) error
	Sync() error
	Close() error
}

// createTemp creates a new file in dir, open for reading and writing, with
// the permissions perm less the umask, and a name made of pattern with its
// last "*" replaced by a random string, as os.CreateTemp does.
var createTemp = func(dir, pattern string, perm fs.FileMode) (tempFile, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndexByte(pattern, '*'); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && try < 10000 {
			continue
		}
		if err != nil {
			return nil, err
		}
		return f, nil
	}
}

// temps holds the names of the temporary files being written, for
// removeTemps to remove. Its lock is held while a temporary file is created
// and registered, renamed over its file, or copied back into a file with
// other links, so that a signal never catches one of them half done.
var temps struct {
	sync.Mutex
	names map[string]bool
}

// removeTemps removes every temporary file still being written, and keeps
// new ones from being created or put in place. The program is about to
// exit.
func removeTemps() {
	temps.Lock()
	for name := range temps.names {
		os.Remove(name)
	}
	temps.names = nil
	// temps stays locked: a file waiting to be renamed must not be.
}

// createRegistered is createTemp, with the new file in temps.
func createRegistered(dir, pattern string, perm fs.FileMode) (tempFile, error) {
	temps.Lock()
	defer temps.Unlock()
	tmp, err := createTemp(dir, pattern, perm)
	if err != nil {
		return nil, err
	}
	if temps.names == nil {
		temps.names = make(map[string]bool)
	}
	temps.names[tmp.Name()] = true
	return tmp, nil
}

// An atomicFile is the new content of a file, written to a temporary file
// .NAME.utf8stream-XXXX in the same directory and put in place by commit:
// renamed over the file, or, when the file has other hard links, copied
// back into it, so that every link sees the new content. Until commit, the
// file stays as it was.
type atomicFile struct {
	path string   // the file, with symbolic links resolved
	tmp  tempFile // the new content
	size int64    // bytes written to tmp
	orig *os.File // the file, open for writing, when it has other links
}

// createAtomic starts to replace the file at path, which fi describes, or
// which does not exist yet when fi is nil. It refuses a file that cannot be
// written, as gofmt -w does: being able to write the directory is not
// enough. The temporary file gets the file's permissions, and its owner
// where the system allows it; a new file gets the permissions os.Create
// gives.
func createAtomic(path string, fi fs.FileInfo) (*atomicFile, error) {
	a := &atomicFile{path: path}
	perm := fs.FileMode(0o666)
	if fi != nil {
		// Opening the file for writing asks the system whether it may
		// be written: its mode, its ACLs, a read-only mount.
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		if linkCount(fi) > 1 {
			a.orig = f
		} else {
			f.Close()
		}
		perm = 0o600
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := createRegistered(dir, "."+base+tempInfix+"*", perm)
	if err != nil {
		if a.orig != nil {
			a.orig.Close()
		}
		return nil, err
	}
	a.tmp = tmp
	if fi != nil {
		if uid, gid, ok := fileOwner(fi); ok {
			// Keep the owner where the system lets us, as when root
			// rewrites another user's file; otherwise the file becomes
			// ours, as with any editor that saves through a new file.
			// Chown comes first: it may clear the setuid bit.
			tmp.Chown(uid, gid)
		}
		if err := tmp.Chmod(fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
			a.abort()
			return nil, err
		}
	}
	return a, nil
}

func (a *atomicFile) Write(p []byte) (int, error) {
	n, err := a.tmp.Write(p)
	a.size += int64(n)
	return n, err
}

// abort removes the temporary file and leaves the file as it was.
func (a *atomicFile) abort() {
	a.tmp.Close()
	temps.Lock()
	os.Remove(a.tmp.Name())
	delete(temps.names, a.tmp.Name())
	temps.Unlock()
	if a.orig != nil {
		a.orig.Close()
	}
}

// commit syncs the new content and puts it in place. On an error the file
// stays as it was, except after a *partialWrite.
func (a *atomicFile) commit() error {
	if err := a.tmp.Sync(); err != nil {
		a.abort()
		return err
	}
	if a.orig != nil {
		return a.writeBack()
	}
	if err := a.tmp.Close(); err != nil {
		a.abort()
		return err
	}
	temps.Lock()
	err := os.Rename(a.tmp.Name(), a.path)
	if err == nil {
		delete(temps.names, a.tmp.Name())
	}
	temps.Unlock()
	if err != nil {
		a.abort()
		return err
	}
	// Make the rename itself durable; not every system can sync a
	// directory, and the data is safe either way.
	if d, err := os.Open(filepath.Dir(a.path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// A partialWrite is an error that left a file partly rewritten. Its whole
// new content is in the temporary file, which stays.
type partialWrite struct {
	err  error
	temp string // the temporary file
}

func (e *partialWrite) Error() string {
	return fmt.Sprintf("%s; the file is partly rewritten, its whole new content is in %s", describeIOError(e.err), displayName(e.temp))
}

func (e *partialWrite) Unwrap() error { return e.err }

// writeBack copies the synced temporary file into the file itself, keeping
// its inode and so its other links. It first reserves the space the new
// content needs, so that a full disk stops it before the file changes.
func (a *atomicFile) writeBack() error {
	if err := reserve(a.orig, a.size); err != nil {
		a.abort()
		return err
	}
	// A signal waits until the file is whole again.
	temps.Lock()
	defer temps.Unlock()
	// Here abort would deadlock; forget is what it does to the
	// temporary file.
	forget := func() {
		a.tmp.Close()
		a.orig.Close()
		os.Remove(a.tmp.Name())
		delete(temps.names, a.tmp.Name())
	}
	if _, err := a.tmp.Seek(0, io.SeekStart); err != nil {
		forget()
		return err
	}
	_, err := io.Copy(a.orig, a.tmp)
	if err == nil {
		err = a.orig.Truncate(a.size)
	}
	if err == nil {
		err = a.orig.Sync()
	}
	if cerr := a.orig.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		// The temporary file holds what the file should: it stays.
		a.tmp.Close()
		delete(temps.names, a.tmp.Name())
		return &partialWrite{err, a.tmp.Name()}
	}
	a.tmp.Close()
	os.Remove(a.tmp.Name())
	delete(temps.names, a.tmp.Name())
	return nil
}

// tempInfix is what the name of every temporary file holds, between the
// name of the file it replaces and a number.
const tempInfix = ".utf8stream-"

// leftoverAge is how long a temporary file must have gone unwritten to be
// taken for the leftover of a run that was killed.
const leftoverAge = time.Minute

// A leftover is a temporary file that a killed run left behind.
type leftover struct {
	path  string
	mtime time.Time
}

// leftoverDirs holds, per directory, the leftovers in it by the name of
// the file they were to replace. Each directory is read once per run.
var leftoverDirs sync.Map // directory -> map[string][]leftover

// leftoversOf returns the leftovers beside the file at path: files named
// .NAME.utf8stream-N, as createAtomic names them, and not written for
// leftoverAge.
func leftoversOf(path string) []leftover {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	m, ok := leftoverDirs.Load(dir)
	if !ok {
		m, _ = leftoverDirs.LoadOrStore(dir, scanLeftovers(dir))
	}
	return m.(map[string][]leftover)[base]
}

func scanLeftovers(dir string) map[string][]leftover {
	m := make(map[string][]leftover)
	entries, _ := os.ReadDir(dir)
	now := time.Now()
	for _, d := range entries {
		name := d.Name()
		i := strings.LastIndex(name, tempInfix)
		if i < 2 || name[0] != '.' || !d.Type().IsRegular() {
			continue
		}
		if _, err := strconv.ParseUint(name[i+len(tempInfix):], 10, 32); err != nil {
			continue
		}
		fi, err := d.Info()
		if err != nil || now.Sub(fi.ModTime()) < leftoverAge {
			continue
		}
		base := name[1:i]
		m[base] = append(m[base], leftover{filepath.Join(dir, name), fi.ModTime()})
	}
	return m
}

// noteLeftovers says where the leftovers beside the file at path are. They
// stay: another run may yet need one, such as the whole content of a
// hard-linked file whose rewrite failed half-way.
func (e *env) noteLeftovers(path string) {
	for _, l := range leftoversOf(path) {
		e.errorf(displayName(l.path), "temporary file of an interrupted run, last written %s; remove it if no other utf8stream is at work on it",
			l.mtime.Format("2006-01-02 15:04:05"))
	}
}
