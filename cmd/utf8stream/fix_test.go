package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"

	"github.com/utf8stream/utf8stream"
	"golang.org/x/text/transform"
)

func TestFixPolicies(t *testing.T) {
	in := "ok\n\xe1\x80 caf\xe9 \xed\xa0\x80 \xee\xbe\x80 \xf0\x9f\x98"
	tests := []struct {
		policy string
		want   string
	}{
		{"replace", "ok\n\uFFFD caf\uFFFD \uFFFD\uFFFD\uFFFD \uEF80 \uFFFD"},
		{"drop", "ok\n caf  \uEF80 "},
		{"windows1252", "ok\n\u00E1\u20AC caf\u00E9 \u00ED\u00A0\u20AC \uEF80 \u00F0\u0178\u02DC"},
		{"surrogateescape", "ok\n\xed\xb3\xa1\xed\xb2\x80 caf\xed\xb3\xa9 \xed\xb3\xad\xed\xb2\xa0\xed\xb2\x80 \xee\xbe\x80 \xed\xb3\xb0\xed\xb2\x9f\xed\xb2\x98"},
		{"optu8", "ok\n\uEFE1\uEF80 caf\uEFE9 \uEFED\uEFA0\uEF80 \uEFEE\uEFBE\uEF80 \uEFF0\uEF9F\uEF98"},
		{"Replace", "ok\n\uFFFD caf\uFFFD \uFFFD\uFFFD\uFFFD \uEF80 \uFFFD"},
	}
	for _, tc := range tests {
		t.Run(tc.policy, func(t *testing.T) {
			for _, size := range []int{1, 3, 64 << 10} {
				setBufSize(t, size)
				var stdout, stderr bytes.Buffer
				code := run([]string{"fix", "-policy", tc.policy}, iotest.OneByteReader(strings.NewReader(in)), &stdout, &stderr)
				if stdout.String() != tc.want || stderr.Len() > 0 || code != exitOK {
					t.Errorf("bufSize %d: fix -policy %s = %q, %q, %d; want %q, 0", size, tc.policy, stdout.String(), stderr.String(), code, tc.want)
				}
			}
			// The library is the reference for what each policy writes.
			p, err := utf8stream.ParsePolicy(tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			lib, _, err := transform.String(utf8stream.NewTransformer(p), in)
			if err != nil || lib != tc.want {
				t.Errorf("the library writes %q, %v; the table says %q", lib, err, tc.want)
			}
		})
	}
	stdout, _, _ := runCLI(t, []byte("a\xffb"), "fix")
	if stdout != "a\uFFFDb" {
		t.Errorf("fix = %q; want replace as the default policy", stdout)
	}
}

func TestFixReject(t *testing.T) {
	tests := []struct {
		desc, in, stdout, stderr string
		code                     int
	}{
		{"valid", "ok\nfine", "ok\nfine", "", 0},
		{"FF", "ok\nab\xffcd", "ok\nab", "<stdin>:2:3: offset 5: ill-formed bytes FF: byte FF never appears in UTF-8\n", 1},
		{"surrogate", "ok\n\xed\xa0\x80", "ok\n", "<stdin>:2:1: offset 3: ill-formed bytes ED: surrogate U+D800..U+DFFF (ED must be followed by 80..9F)\n", 1},
		{"truncated", "ok\nxy\xe1\x80", "ok\nxy", "<stdin>:2:3: offset 5: ill-formed bytes E1 80: truncated sequence at end of input\n", 1},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			for _, size := range []int{1, 2, 64 << 10} {
				setBufSize(t, size)
				stdout, stderr, code := runCLI(t, []byte(tc.in), "fix", "-policy", "reject")
				if stdout != tc.stdout || stderr != tc.stderr || code != tc.code {
					t.Errorf("bufSize %d: fix -policy reject %q = %q, %q, %d; want %q, %q, %d", size, tc.in, stdout, stderr, code, tc.stdout, tc.stderr, tc.code)
				}
			}
		})
	}

	// The other files are still written.
	dir := t.TempDir()
	a := writeFile(t, dir, "a.txt", []byte("one\xfftwo\n"))
	b := writeFile(t, dir, "b.txt", []byte("three\n"))
	out := filepath.Join(dir, "out.txt")
	stdout, stderr, code := runCLI(t, nil, "fix", "-policy", "reject", "-o", out, a, b)
	got, _ := os.ReadFile(out)
	if string(got) != "onethree\n" || stdout != "" || code != exitInvalid {
		t.Errorf("fix -policy reject -o = %q, stdout %q, exit %d; want %q, 1", got, stdout, code, "onethree\n")
	}
	if want := a + ":1:4: offset 3: ill-formed bytes FF: byte FF never appears in UTF-8\n"; stderr != want {
		t.Errorf("stderr %q; want %q", stderr, want)
	}
}

func TestFixOptions(t *testing.T) {
	tests := []struct {
		desc string
		args []string
		in   string
		want string
	}{
		{"BOM kept", nil, "\uFEFFa\uFEFF", "\uFEFFa\uFEFF"},
		{"-strip-bom", []string{"-strip-bom"}, "\uFEFFa\uFEFF", "a\uFEFF"},
		{"NUL kept", nil, "a\x00b", "a\x00b"},
		{"-no-nul", []string{"-no-nul"}, "a\x00b", "a\uFFFDb"},
		{"-no-nul drop", []string{"-no-nul", "-policy", "drop"}, "a\x00b", "ab"},
		{"CESU-8", nil, "\xed\xa0\xbd\xed\xb8\x80", "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"-cesu8", []string{"-cesu8"}, "\xed\xa0\xbd\xed\xb8\x80", "😀"},
		{"-mutf8", []string{"-mutf8"}, "a\xc0\x80b", "a\x00b"},
		{"-mutf8 -cesu8", []string{"-mutf8", "-cesu8"}, "\xc0\x80\xed\xa0\xbd\xed\xb8\x80", "\x00😀"},
		{"-replacement", []string{"-replacement", "?"}, "a\xffb\xe1\x80c", "a?b?c"},
		{"-replacement empty", []string{"-replacement", ""}, "a\xffb", "ab"},
		{"-replacement long", []string{"-replacement", "<bad>"}, "\xff", "<bad>"},
		{"-replacement with -policy replace", []string{"-policy", "replace", "-replacement", "¿"}, "\xff", "¿"},
		{"-policy backslashreplace", []string{"-policy", "backslashreplace"}, "caf\xe9 \xe2\x82!", `caf\xe9 \xe2\x82!`},
		{"lone surrogate", nil, "a\xed\xa0\x80", "a\uFFFD\uFFFD\uFFFD"},
		{"-wtf8", []string{"-wtf8"}, "a\xed\xa0\x80 \xed\xa0\xbd\xed\xb8\x80 \xed\xa0", "a\xed\xa0\x80 😀 \uFFFD"},
		{"-bmp-only", []string{"-bmp-only"}, "☃😀", "☃\uFFFD"},
		{"-bmp-only -policy backslashreplace", []string{"-bmp-only", "-policy", "backslashreplace"}, "☃😀", `☃\xf0\x9f\x98\x80`},
		{"-bmp-only -wtf8", []string{"-bmp-only", "-wtf8", "-policy", "drop"}, "a\xed\xa0\xbd\xed\xb8\x80b\xed\xa0\x80", "ab\xed\xa0\x80"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, []byte(tc.in), append([]string{"fix"}, tc.args...)...)
			if stdout != tc.want || stderr != "" || code != exitOK {
				t.Errorf("fix %q %q = %q, %q, %d; want %q, 0", tc.args, tc.in, stdout, stderr, code, tc.want)
			}
		})
	}
}

func TestFixStats(t *testing.T) {
	tests := []struct {
		desc, policy, in, stderr string
	}{
		{"none", "replace", "ok", "<stdin>: no ill-formed subparts\n"},
		{"one", "drop", "a\xffb", "<stdin>: 1 ill-formed subpart (1 byte) repaired with drop, the first at offset 1\n"},
		{"several", "replace", "ab\xe1\x80\xff\xed\xa0\x80", "<stdin>: 5 ill-formed subparts (6 bytes) repaired with replace, the first at offset 2\n"},
		{"escaped", "optu8", "\xff\xee\xbe\x80", "<stdin>: 1 ill-formed subpart (1 byte) repaired with optu8, the first at offset 0; 1 valid sequence escaped\n"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, stderr, code := runCLI(t, []byte(tc.in), "fix", "-stats", "-policy", tc.policy)
			if stderr != tc.stderr || code != exitOK {
				t.Errorf("fix -stats -policy %s %q: stderr %q, exit %d; want %q, 0", tc.policy, tc.in, stderr, code, tc.stderr)
			}
		})
	}
}

func TestFixFiles(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.txt", []byte("a\xff\n"))
	b := writeFile(t, dir, "b.txt", []byte("b\xe1\x80"))
	missing := filepath.Join(dir, "missing.txt")

	// Each file is a stream of its own: b's truncated tail is not
	// completed by the next input.
	stdout, stderr, code := runCLI(t, []byte("\x80c"), "fix", a, missing, b, "-")
	if want := "a\uFFFD\nb\uFFFD\uFFFDc"; stdout != want {
		t.Errorf("stdout %q; want %q", stdout, want)
	}
	if want := "utf8stream: " + missing + ": open: " + syscall.ENOENT.Error() + "\n"; stderr != want || code != exitError {
		t.Errorf("stderr %q, exit %d; want %q, 2", stderr, code, want)
	}

	out := filepath.Join(dir, "out.txt")
	stdout, stderr, code = runCLI(t, nil, "fix", "-policy", "drop", "-o", out, a, b)
	got, _ := os.ReadFile(out)
	if string(got) != "a\nb" || stdout != "" || stderr != "" || code != exitOK {
		t.Errorf("fix -o: %q, %q, %q, %d; want %q, 0", got, stdout, stderr, code, "a\nb")
	}

	// -o naming an input would truncate it before it is read.
	stdout, stderr, code = runCLI(t, nil, "fix", "-o", a, b, a)
	got, _ = os.ReadFile(a)
	if string(got) != "a\xff\n" || code != exitError || !strings.Contains(stderr, "use -w") || stdout != "" {
		t.Errorf("fix -o INPUT: %q, %q, %d; want the input untouched, exit 2", got, stderr, code)
	}

	stdout, stderr, code = runCLI(t, nil, "fix", "-o", filepath.Join(dir, "no", "such", "dir"), a)
	if code != exitError || !strings.Contains(stderr, "open: "+syscall.ENOENT.Error()) || stdout != "" {
		t.Errorf("fix -o into a missing directory: %q, %d; want exit 2", stderr, code)
	}

	stdout, stderr, code = runCLI(t, []byte("x\xff"), "fix", "-o", "-")
	if stdout != "x\uFFFD" || stderr != "" || code != exitOK {
		t.Errorf("fix -o -: %q, %q, %d; want standard output", stdout, stderr, code)
	}
}

// errWriter fails every write.
type errWriter struct{ n int }

func (w *errWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("disk on fire")
}

func TestFixStdoutFailure(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.txt", []byte("a\n"))
	b := writeFile(t, dir, "b.txt", []byte("b\n"))
	var stderr bytes.Buffer
	w := &errWriter{}
	code := run([]string{"fix", a, b}, nil, w, &stderr)
	if want := "utf8stream: <stdout>: disk on fire\n"; stderr.String() != want || code != exitError {
		t.Errorf("fix to a failing stdout: %q, %d; want %q, 2", stderr.String(), code, want)
	}
	if w.n != 1 {
		t.Errorf("%d writes to the failing stdout; want 1: the first failure ends the run", w.n)
	}
	stderr.Reset()
	code = run([]string{"check", a, writeFile(t, dir, "c.txt", []byte("\xff"))}, nil, &errWriter{}, &stderr)
	if want := "utf8stream: <stdout>: disk on fire\n"; stderr.String() != want || code != exitError {
		t.Errorf("check to a failing stdout: %q, %d; want %q, 2", stderr.String(), code, want)
	}
}

func statFile(t *testing.T, path string) fs.FileInfo {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// listDir returns the names in dir.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestFixInPlace(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.txt", []byte("a\xffb\n"))
	if err := os.Chmod(a, 0o640); err != nil {
		t.Fatal(err)
	}
	b := writeFile(t, dir, "b.sh", []byte("#!/bin/sh\necho caf\xe9\n"))
	if err := os.Chmod(b, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("a.txt", link); err != nil {
		t.Fatal(err)
	}

	stdout, stderr, code := runCLI(t, nil, "fix", "-w", "-policy", "windows1252", a, b)
	if stdout != "" || stderr != "" || code != exitOK {
		t.Fatalf("fix -w: %q, %q, %d; want nothing, 0", stdout, stderr, code)
	}
	for _, f := range []struct {
		path, want string
		mode       fs.FileMode
	}{
		{a, "a\u00FFb\n", 0o640},
		{b, "#!/bin/sh\necho caf\u00E9\n", 0o755},
	} {
		got, _ := os.ReadFile(f.path)
		fi, err := os.Stat(f.path)
		if err != nil || string(got) != f.want || fi.Mode().Perm() != f.mode {
			t.Errorf("%s = %q, %v, %v; want %q, %v", f.path, got, fi.Mode().Perm(), err, f.want, f.mode)
		}
	}
	if names := listDir(t, dir); len(names) != 3 {
		t.Errorf("files left in the directory: %q; want a.txt, b.sh and link.txt", names)
	}

	// Root keeps the owner of the files it rewrites.
	if os.Geteuid() == 0 {
		if err := os.Chown(b, 4321, 8765); err != nil {
			t.Fatal(err)
		}
		if _, stderr, code := runCLI(t, nil, "fix", "-w", b); code != exitOK {
			t.Fatalf("fix -w: %q, %d", stderr, code)
		}
		uid, gid, ok := fileOwner(statFile(t, b))
		if ok && (uid != 4321 || gid != 8765) {
			t.Errorf("owner after fix -w: %d:%d; want 4321:8765", uid, gid)
		}
	}

	// A link is followed: the file it points to is rewritten.
	os.WriteFile(a, []byte("x\x80"), 0o640)
	stdout, stderr, code = runCLI(t, nil, "fix", "-w", "-policy", "drop", link)
	got, _ := os.ReadFile(a)
	fi, _ := os.Lstat(link)
	if string(got) != "x" || fi.Mode()&fs.ModeSymlink == 0 || stdout != "" || stderr != "" || code != exitOK {
		t.Errorf("fix -w LINK: %q, link mode %v, %q, %d; want %q, still a link", got, fi.Mode(), stderr, code, "x")
	}

	// Neither a device nor a missing file is rewritten, and the others are.
	os.WriteFile(a, []byte("y\x80"), 0o640)
	missing := filepath.Join(dir, "missing")
	_, stderr, code = runCLI(t, nil, "fix", "-w", "-policy", "drop", os.DevNull, missing, a)
	got, _ = os.ReadFile(a)
	if string(got) != "y" || code != exitError || !strings.Contains(stderr, "not a regular file") || !strings.Contains(stderr, missing+": lstat: "+syscall.ENOENT.Error()) {
		t.Errorf("fix -w DEVICE MISSING FILE: %q, %q, %d; want the file fixed and exit 2", got, stderr, code)
	}
}

func TestFixInPlaceReject(t *testing.T) {
	dir := t.TempDir()
	orig := []byte("line one\nline \xc3two\n")
	a := writeFile(t, dir, "a.txt", orig)
	b := writeFile(t, dir, "b.txt", []byte("fine\n"))
	before, _ := os.Stat(a)
	stdout, stderr, code := runCLI(t, nil, "fix", "-w", "-policy", "reject", a, b)
	if want := a + ":2:6: offset 14: ill-formed bytes C3: C3 must be followed by 80..BF\n"; stderr != want || stdout != "" || code != exitInvalid {
		t.Errorf("fix -w -policy reject: %q, %q, %d; want %q, 1", stdout, stderr, code, want)
	}
	got, _ := os.ReadFile(a)
	after, _ := os.Stat(a)
	if !bytes.Equal(got, orig) || !os.SameFile(before, after) {
		t.Errorf("the rejected file was changed: %q", got)
	}
	if names := listDir(t, dir); len(names) != 2 {
		t.Errorf("files left in the directory: %q; want a.txt and b.txt", names)
	}
}

// failingFile is a temporary file whose writes fail once it holds limit
// bytes, as on a full disk, or whose Sync fails.
type failingFile struct {
	*os.File
	limit    int
	written  int
	syncFail bool
	readFail bool
}

func (f *failingFile) Read(p []byte) (int, error) {
	if f.readFail {
		return 0, &fs.PathError{Op: "read", Path: f.Name(), Err: syscall.EIO}
	}
	return f.File.Read(p)
}

// WriteTo hides (*os.File).WriteTo, which io.Copy would call instead of Read.
func (f *failingFile) WriteTo(w io.Writer) (int64, error) {
	return io.Copy(w, struct{ io.Reader }{f})
}

func (f *failingFile) Write(p []byte) (int, error) {
	if f.written+len(p) > f.limit {
		n, _ := f.File.Write(p[:f.limit-f.written])
		f.written += n
		return n, &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	n, err := f.File.Write(p)
	f.written += n
	return n, err
}

func (f *failingFile) Sync() error {
	if f.syncFail {
		return &fs.PathError{Op: "sync", Path: f.Name(), Err: syscall.EIO}
	}
	return f.File.Sync()
}

func TestFixInPlaceWriteFailure(t *testing.T) {
	tests := []struct {
		desc   string
		file   failingFile
		stderr string
	}{
		{"write", failingFile{limit: 1000}, "write: " + syscall.ENOSPC.Error() + "; file left unchanged"},
		{"first write", failingFile{limit: 0}, "write: " + syscall.ENOSPC.Error() + "; file left unchanged"},
		{"sync", failingFile{limit: 1 << 30, syncFail: true}, "sync: " + syscall.EIO.Error() + "; file left unchanged"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			setBufSize(t, 256)
			var temps []string
			old := createTemp
			createTemp = func(dir, pattern string, perm fs.FileMode) (tempFile, error) {
				f, err := os.CreateTemp(dir, pattern)
				if err != nil {
					return nil, err
				}
				temps = append(temps, f.Name())
				ff := tc.file
				ff.File = f
				return &ff, nil
			}
			t.Cleanup(func() { createTemp = old })

			for _, mode := range []string{"-w", "-o"} {
				temps = nil
				dir := t.TempDir()
				orig := bytes.Repeat([]byte("0123456789abcde\xff"), 200)
				a := writeFile(t, dir, "a.txt", orig)
				args, target, kept, nfiles := []string{"fix", "-w", a}, a, orig, 1
				if mode == "-o" {
					kept = []byte("old output")
					target = writeFile(t, dir, "out.txt", kept)
					args, nfiles = []string{"fix", "-o", target, a}, 2
				}
				stdout, stderr, code := runCLI(t, nil, args...)
				if want := "utf8stream: " + target + ": " + tc.stderr + "\n"; stderr != want || stdout != "" || code != exitError {
					t.Errorf("fix %s: %q, %q, %d; want %q, 2", mode, stdout, stderr, code, want)
				}
				if got, _ := os.ReadFile(target); !bytes.Equal(got, kept) {
					t.Errorf("fix %s: the file was changed", mode)
				}
				if len(temps) != 1 {
					t.Fatalf("fix %s: %d temporary files made; want 1", mode, len(temps))
				}
				if _, err := os.Stat(temps[0]); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("fix %s: the temporary file %s is still there: %v", mode, temps[0], err)
				}
				if names := listDir(t, dir); len(names) != nfiles {
					t.Errorf("fix %s: files left in the directory: %q", mode, names)
				}
			}
		})
	}

	// When the temporary file cannot be made, the file stays as it is.
	dir := t.TempDir()
	a := writeFile(t, dir, "a.txt", []byte("\xff"))
	old := createTemp
	createTemp = func(dir, pattern string, perm fs.FileMode) (tempFile, error) {
		return nil, &fs.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: syscall.EACCES}
	}
	defer func() { createTemp = old }()
	_, stderr, code := runCLI(t, nil, "fix", "-w", a)
	if got, _ := os.ReadFile(a); string(got) != "\xff" || code != exitError || !strings.Contains(stderr, "open: "+syscall.EACCES.Error()+"; file left unchanged") {
		t.Errorf("fix -w without a temporary file: %q, %q, %d", got, stderr, code)
	}
}

// chanWriter sends a copy of each write to a channel.
type chanWriter chan []byte

func (w chanWriter) Write(p []byte) (int, error) {
	w <- bytes.Clone(p)
	return len(p), nil
}

// TestFixStreaming checks that fix and restore pass on what they read from
// a pipe before the pipe is closed, as they must on an endless one.
func TestFixStreaming(t *testing.T) {
	for _, args := range [][]string{{"fix"}, {"restore", "-policy", "optu8"}, {"check"}} {
		pr, pw := io.Pipe()
		out := make(chanWriter, 100)
		done := make(chan int)
		in, want := "line \xff\n", "line \uFFFD\n"
		switch args[0] {
		case "restore":
			in, want = "line \uEFFF\n", "line \xff\n"
		}
		go func() { done <- run(args, pr, out, io.Discard) }()
		var got []byte
		for i := range 3 {
			if args[0] == "check" {
				want = fmt.Sprintf("<stdin>:%d:6: offset %d: ill-formed bytes FF: byte FF never appears in UTF-8\n", i+1, 7*i+5)
			}
			if _, err := pw.Write([]byte(in)); err != nil {
				t.Fatal(err)
			}
			got = got[:0]
			for len(got) < len(want) {
				select {
				case p := <-out:
					got = append(got, p...)
				case <-time.After(10 * time.Second):
					t.Fatalf("%s: no output while the pipe stays open; got %q", args[0], got)
				}
			}
			if string(got) != want {
				t.Errorf("%s: output %q; want %q", args[0], got, want)
			}
		}
		pw.Close()
		<-done
	}
}

func TestFixHugeLine(t *testing.T) {
	// A long input without newline goes through in bounded buffers.
	setBufSize(t, 4096)
	in := bytes.Repeat([]byte("\xe6\x97\xa5\xff"), 1<<16)
	stdout, stderr, code := runCLI(t, in, "fix", "-policy", "drop")
	if want := strings.Repeat("日", 1<<16); stdout != want || stderr != "" || code != 0 {
		t.Errorf("fix -policy drop: %d bytes, %q, %d; want %d bytes", len(stdout), stderr, code, len(want))
	}
	stdout, _, code = runCLI(t, in, "check", "-max", "1")
	if want := fmt.Sprintf("<stdin>: and %d more ill-formed subparts (-max 0 lists all)\n<stdin>: %d ill-formed subparts (%d bytes)\n", 1<<16-1, 1<<16, 1<<16); !strings.HasSuffix(stdout, want) || code != 1 {
		t.Errorf("check = %q, %d; want suffix %q", stdout, code, want)
	}
}

// TestFixInPlaceLinkedFailure checks a failure while a file with two links
// is rewritten in place: the message says so and names the temporary
// file, which holds the whole result.
func TestFixInPlaceLinkedFailure(t *testing.T) {
	var temps []string
	old := createTemp
	createTemp = func(dir, pattern string, perm fs.FileMode) (tempFile, error) {
		f, err := os.CreateTemp(dir, pattern)
		if err != nil {
			return nil, err
		}
		temps = append(temps, f.Name())
		return &failingFile{File: f, limit: 1 << 30, readFail: true}, nil
	}
	t.Cleanup(func() { createTemp = old })
	dir := t.TempDir()
	a := writeFile(t, dir, "a.txt", []byte("caf\xe9\n"))
	if err := os.Link(a, filepath.Join(dir, "b.txt")); err != nil {
		t.Skipf("no hard links: %v", err)
	}
	if linkCount(statFile(t, a)) < 2 {
		t.Skip("this system does not count links")
	}
	_, stderr, code := runCLI(t, nil, "fix", "-w", a)
	if len(temps) != 1 {
		t.Fatalf("%d temporary files made; want 1", len(temps))
	}
	want := "utf8stream: " + a + ": read: " + syscall.EIO.Error() + "; the file is partly rewritten, its whole new content is in " + temps[0] + "\n"
	if stderr != want || code != exitError {
		t.Errorf("fix -w: %q, %d; want %q, 2", stderr, code, want)
	}
	if got, err := os.ReadFile(temps[0]); string(got) != "caf\uFFFD\n" {
		t.Errorf("the temporary file holds %q, %v; want the whole result", got, err)
	}
}
