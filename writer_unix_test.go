//go:build unix

package utf8stream

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
)

// appendChild, when set in the environment, makes TestWriterAppendProcesses
// the child that appends lines to the file it names.
const appendChild = "UTF8STREAM_TEST_APPEND_CHILD"

// appendLine returns line i of child k: its number and text with
// ill-formed bytes of three kinds in turn, which the Writer repairs a unit
// at a time (Latin-1, and NUL under NoNUL, hundreds of units), and in the
// block loop (random bytes), and a newline at the end.
func appendLine(k, i int) []byte {
	b := fmt.Appendf(nil, "child %d line %06d ", k, i)
	switch i % 3 {
	case 0:
		b = append(b, "caf\xE9 au lait"...)
	case 1:
		b = append(b, bytes.Repeat([]byte("a\x00\xE9"), 100+i%200)...)
	case 2:
		r := rand.New(rand.NewPCG(uint64(k), uint64(i)))
		for range 200 + i%800 {
			c := byte(r.Uint32())
			if c == '\n' {
				c = ' '
			}
			b = append(b, c)
		}
	}
	return append(b, '\n')
}

// TestWriterAppendProcesses runs 4 processes, each of which writes lines
// to one file opened with O_APPEND through a Writer, one Write per line,
// and checks that no line is torn: each is whole, in its writer's order.
func TestWriterAppendProcesses(t *testing.T) {
	const procs = 4
	lines := 10000
	if testing.Short() {
		lines = 2000
	}
	opts := []Option{NoNUL()}
	if path := os.Getenv(appendChild); path != "" {
		k, _ := strconv.Atoi(os.Getenv(appendChild + "_ID"))
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		w := NewWriter(f, Replace, opts...)
		for i := range lines {
			if _, err := w.Write(appendLine(k, i)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return
	}
	path := t.TempDir() + "/app.log"
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for k := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriterAppendProcesses$", "-test.short="+strconv.FormatBool(testing.Short()))
		cmd.Env = append(os.Environ(), appendChild+"="+path, appendChild+"_ID="+strconv.Itoa(k))
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Start(); err != nil {
			if errors.Is(err, syscall.ENOEXEC) {
				// The binary runs under an emulator (qemu-user), which
				// the kernel does not know to start again.
				t.Skip("cannot start the test binary again:", err)
			}
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for k, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v", k, err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	next := make([]int, procs)
	torn := 0
	// Split after each newline: the lines may hold CR, which
	// bufio.ScanLines would drop before a newline.
	for _, b := range bytes.SplitAfter(data, []byte("\n")) {
		if len(b) == 0 {
			continue
		}
		line := string(b)
		var k, i int
		if _, err := fmt.Sscanf(line, "child %d line %d ", &k, &i); err != nil || k < 0 || k >= procs || i != next[k] {
			torn++
			if torn <= 3 {
				t.Errorf("line %.80q: not the next line of a child (%v)", line, next)
			}
			continue
		}
		want, _ := Bytes(appendLine(k, i), Replace, opts...)
		if line != string(want) {
			torn++
			if torn <= 3 {
				t.Errorf("child %d line %d = %.80q; want %.80q", k, i, line, want)
			}
		}
		next[k]++
	}
	for k, n := range next {
		if n != lines {
			t.Errorf("child %d: %d lines in order; want %d", k, n, lines)
		}
	}
	if torn > 0 {
		t.Errorf("%d torn lines", torn)
	}
}
