//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/utf8stream/utf8stream"
)

// TestFixInPlaceNamedTwice checks that fix -w and restore -w rewrite a file
// once however many names it is given by (the same path, a hard link, a
// symbolic link, a directory and a file in it), among other files that
// keep both workers busy: twice, the second escape of SurrogateEscape
// would not restore, and two jobs on one file at once would each read it
// while the other writes it. One restore gives the original back.
func TestFixInPlaceNamedTwice(t *testing.T) {
	dir := t.TempDir()
	orig := []byte("x \xff \xee\xbe\x80 y\n" + strings.Repeat("caf\xe9 na\xefve\n", 20000))
	a := writeFile(t, dir, "a", orig)
	if err := os.Link(a, filepath.Join(dir, "hard")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(dir, "soft")); err != nil {
		t.Fatal(err)
	}
	other := bytes.Repeat([]byte("\xc3 m\xc3\xa9 \n"), 50000)
	var names []string
	for _, n := range []string{"m1", "m2", "m3"} {
		names = append(names, writeFile(t, dir, n, other))
	}
	want, err := utf8stream.Bytes(orig, utf8stream.SurrogateEscape)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"fix", "-policy", "surrogateescape", "-w", a}, names...)
	args = append(args, filepath.Join(dir, "hard"), filepath.Join(dir, "soft"), a, dir)
	if _, stderr, code := runCLI(t, nil, args...); code != exitOK {
		t.Fatalf("fix -w: %q, %d", stderr, code)
	}
	if got, _ := os.ReadFile(a); !bytes.Equal(got, want) {
		t.Fatalf("after fix -w: %d bytes, %.40q...; want the input escaped once, %d bytes", len(got), got, len(want))
	}
	args[0] = "restore"
	if _, stderr, code := runCLI(t, nil, args...); code != exitOK {
		t.Fatalf("restore -w: %q, %d", stderr, code)
	}
	if got, _ := os.ReadFile(a); !bytes.Equal(got, orig) {
		t.Fatalf("after restore -w: %d bytes, %.40q...; want the original, %d bytes", len(got), got, len(orig))
	}
	if got := onceEach([]string{a, filepath.Join(dir, "hard"), "missing", filepath.Join(dir, "soft"), "missing", names[0], dir + "/./a"}); !slices.Equal(got, []string{a, "missing", "missing", names[0]}) {
		t.Errorf("onceEach = %q", got)
	}
}

// TestFixInPlaceFIFO checks that fix -w refuses a named pipe at once,
// without opening it, which would wait for a writer.
func TestFixInPlaceFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan struct{})
	var stderr string
	var code int
	go func() {
		_, stderr, code = runCLI(t, nil, "fix", "-w", fifo)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		// Let the run end, so that the test does not leak it.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		<-done
		t.Fatal("fix -w on a named pipe waited for a writer")
	}
	if code != exitError || !strings.Contains(stderr, "not a regular file") {
		t.Errorf("fix -w FIFO: %q, %d; want the refusal, %d", stderr, code, exitError)
	}
}

// TestDirectoryFileNamedDash checks that a file named "-" found by walking
// "." is that file, not standard input.
func TestDirectoryFileNamedDash(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("-", []byte("x\xff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, []byte("valid standard input\n"), "check", "-l", ".")
	if code != exitInvalid || strings.TrimSpace(stdout) != "./-" {
		t.Errorf("check -l . = %q, %q, %d; want ./- listed, %d", stdout, stderr, code, exitInvalid)
	}
}
