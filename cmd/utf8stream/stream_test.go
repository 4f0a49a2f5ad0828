package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/utf8stream/utf8stream"
)

// TestMappedFileShrinks checks that a mapped file truncated while it is
// read gives a read error, not a crash.
func TestMappedFileShrinks(t *testing.T) {
	setMapMin(t, true)
	path := writeFile(t, t.TempDir(), "f.txt", bytes.Repeat([]byte("0123456789abcdef"), 1<<16))
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	in, err := openFile(f, true)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if in.data == nil {
		t.Skip("files are not mapped on this system")
	}
	if err := os.Truncate(path, 100); err != nil {
		t.Fatal(err)
	}
	w := utf8stream.NewWriter(io.Discard, utf8stream.Replace)
	func() {
		defer func() {
			if r := recover(); r != nil {
				// qemu-user reports the fault at address 0, which the
				// runtime takes for a nil pointer.
				t.Skipf("the fault came without its address: %v", r)
			}
		}()
		err = pump(w, in, newTracker(), nil, nil, nil)
	}()
	var re *readError
	if !errors.As(err, &re) || !errors.Is(err, errFault) {
		t.Errorf("pump over a truncated mapping = %v; want a *readError with errFault", err)
	}
}

// TestStdinFile checks standard input that is a regular file, mapped or
// read, from the offset it was left at: positions count from there, and
// the offset ends at the end of the file.
func TestStdinFile(t *testing.T) {
	body := strings.Repeat("line\n", 100<<10) + "bad \xff\n"
	path := writeFile(t, t.TempDir(), "f.txt", []byte("skipped\n"+body))
	for _, mapped := range []bool{false, true} {
		t.Run(fmt.Sprintf("mapped=%v", mapped), func(t *testing.T) {
			setMapMin(t, mapped)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.Seek(8, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := run([]string{"check", "-json"}, f, &stdout, &stderr)
			want := fmt.Sprintf(`{"type":"subpart","name":"<stdin>","line":%d,"col":5,"offset":%d,"bytes":"ff","reason":"byte FF never appears in UTF-8"}`, 100<<10+1, len(body)-2)
			if first, _, _ := strings.Cut(stdout.String(), "\n"); first != want || stderr.Len() > 0 || code != exitInvalid {
				t.Errorf("check -json < FILE: %q, %q, %d; want %q, 1", first, stderr.String(), code, want)
			}
			if off, _ := f.Seek(0, io.SeekCurrent); off != int64(8+len(body)) {
				t.Errorf("offset of standard input after check: %d; want %d", off, 8+len(body))
			}
		})
	}
}

// shortWriter takes one byte less than it is given, without an error.
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return max(len(p)-1, 0), nil }

func TestReadAndWriteErrors(t *testing.T) {
	tests := []struct {
		desc   string
		args   []string
		stdin  io.Reader
		stdout io.Writer
		stderr string
	}{
		{"read error", []string{"fix"}, iotest.TimeoutReader(strings.NewReader(strings.Repeat("x", 100<<10))), io.Discard,
			"utf8stream: <stdin>: read: timeout\n"},
		{"read error in check", []string{"check"}, io.MultiReader(strings.NewReader("ok"), iotest.ErrReader(errors.New("cable cut"))), io.Discard,
			"utf8stream: <stdin>: read: cable cut\n"},
		{"short write", []string{"fix"}, strings.NewReader("hello"), shortWriter{},
			"utf8stream: <stdout>: short write\n"},
		{"short write in check", []string{"check"}, strings.NewReader("\xff"), shortWriter{},
			"utf8stream: <stdout>: short write\n"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var stderr bytes.Buffer
			code := run(tc.args, tc.stdin, tc.stdout, &stderr)
			if stderr.String() != tc.stderr || code != exitError {
				t.Errorf("%q: %q, %d; want %q, 2", tc.args, stderr.String(), code, tc.stderr)
			}
		})
	}
}
