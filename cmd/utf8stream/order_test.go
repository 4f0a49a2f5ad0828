package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/iotest"
	"time"
)

// setParallel runs the rest of the test with n processors and slots that
// hold at most limit bytes.
func setParallel(t *testing.T, n, limit int) {
	oldProcs, oldLimit := runtime.GOMAXPROCS(n), slotLimit
	slotLimit = limit
	t.Cleanup(func() {
		runtime.GOMAXPROCS(oldProcs)
		slotLimit = oldLimit
	})
}

func TestEachOrder(t *testing.T) {
	setParallel(t, 8, 64)
	var files []string
	for i := range 200 {
		files = append(files, fmt.Sprint(i))
	}
	var running, most atomic.Int32
	var stdout, stderr bytes.Buffer
	e := &env{stdout: &stdout, stderr: &stderr}
	status, err := e.each(files, func(e *env, name string) int {
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		rng := rand.New(rand.NewPCG(uint64(len(name)), uint64(name[0])))
		// Lines longer than a slot holds, written in pieces, with
		// pauses, to both streams.
		for k := range 1 + rng.IntN(5) {
			fmt.Fprintf(e.stdout, "%s out %d %s\n", name, k, strings.Repeat("x", rng.IntN(100)))
			fmt.Fprintf(e.stderr, "%s err %d\n", name, k)
			time.Sleep(time.Duration(rng.IntN(200)) * time.Microsecond)
		}
		if name == "7" {
			return exitInvalid
		}
		return exitOK
	})
	if status != exitInvalid || err != nil {
		t.Errorf("each = %d, %v; want 1, nil", status, err)
	}
	if most.Load() < 2 && runtime.GOMAXPROCS(0) > 1 {
		t.Errorf("at most %d jobs ran at once; want several", most.Load())
	}
	for _, s := range []struct {
		name string
		buf  *bytes.Buffer
	}{{"stdout", &stdout}, {"stderr", &stderr}} {
		prev, k := -1, 0
		for line := range strings.SplitSeq(strings.TrimSuffix(s.buf.String(), "\n"), "\n") {
			var i, j int
			fmt.Sscanf(line, "%d", &i)
			fmt.Sscanf(strings.Fields(line)[2], "%d", &j)
			if i < prev || i == prev && j != k+1 || i > prev && j != 0 {
				t.Fatalf("%s: line %q after file %d line %d", s.name, line, prev, k)
			}
			prev, k = i, j
		}
		if prev != len(files)-1 {
			t.Errorf("%s: the last line is of file %d; want %d", s.name, prev, len(files)-1)
		}
	}
}

// TestParallelFiles checks that check, fix and restore on many files, run
// in parallel, print what they print on each file alone, in the order of
// the arguments, and rewrite each file as alone.
func TestParallelFiles(t *testing.T) {
	setParallel(t, 8, 1000)
	rng := rand.New(rand.NewPCG(9, 10))
	dir := t.TempDir()
	var files []string
	data := map[string][]byte{}
	for i := range 60 {
		name := filepath.Join(dir, fmt.Sprintf("f%02d.txt", i))
		var b []byte
		switch i % 5 {
		case 0:
			b = damaged(rng, rng.IntN(20<<10))
		case 1:
			b = []byte(strings.Repeat("valid ünïcödé\n", rng.IntN(30000)))
		case 2:
			b = damaged(rng, 300<<10)
		case 3:
			b = randomBytes(rng, rng.IntN(5000))
		case 4:
			if i%10 == 4 {
				files = append(files, name+".missing")
				continue
			}
			b = nil
		}
		data[name] = b
		files = append(files, writeFile(t, dir, filepath.Base(name), b))
	}
	for _, args := range [][]string{
		{"check"}, {"check", "-max", "0"}, {"check", "-json", "-max", "3"}, {"check", "-l"},
		{"fix"}, {"fix", "-stats", "-policy", "drop"}, {"fix", "-policy", "reject"}, {"fix", "-policy", "optu8"},
		{"restore", "-policy", "surrogateescape"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var wantOut, wantErr strings.Builder
			wantCode := 0
			for _, f := range files {
				stdout, stderr, code := runCLI(t, nil, append(args, f)...)
				wantOut.WriteString(stdout)
				wantErr.WriteString(stderr)
				wantCode = max(wantCode, code)
			}
			stdout, stderr, code := runCLI(t, nil, append(args, files...)...)
			if stdout != wantOut.String() {
				t.Errorf("stdout differs from the files run one by one: %d bytes, want %d", len(stdout), wantOut.Len())
			}
			if stderr != wantErr.String() || code != wantCode {
				t.Errorf("stderr, exit:\n%s%d\nwant:\n%s%d", stderr, code, wantErr.String(), wantCode)
			}
		})
	}

	// -w on all of them at once gives each file what fix gives it alone.
	want := map[string]string{}
	for name := range data {
		stdout, _, _ := runCLI(t, nil, "fix", "-policy", "windows1252", name)
		want[name] = stdout
	}
	_, stderr, code := runCLI(t, nil, append([]string{"fix", "-w", "-binary", "-policy", "windows1252"}, files...)...)
	if code != exitError || strings.Count(stderr, syscall.ENOENT.Error()) != 6 {
		t.Errorf("fix -w: %d, %q; want 2 and six missing files", code, stderr)
	}
	for name, w := range want {
		if got, _ := os.ReadFile(name); string(got) != w {
			t.Errorf("fix -w %s: %d bytes differ from fix's %d", name, len(got), len(w))
		}
	}
}

// TestParallelStdin checks that standard input named twice is read once,
// by the first.
func TestParallelStdin(t *testing.T) {
	setParallel(t, 8, 1<<20)
	in := strings.Repeat("0123456789\xff", 1000)
	var stdout, stderr bytes.Buffer
	code := run([]string{"fix", "-stats", "-policy", "drop", "-", "-", "-"}, iotest.OneByteReader(strings.NewReader(in)), &stdout, &stderr)
	wantErr := "<stdin>: 1000 ill-formed subparts (1000 bytes) repaired with drop, the first at offset 10\n" +
		"<stdin>: no ill-formed subparts\n<stdin>: no ill-formed subparts\n"
	if stdout.String() != strings.Repeat("0123456789", 1000) || stderr.String() != wantErr || code != exitOK {
		t.Errorf("fix - - -: %d bytes, %q, %d; want %d bytes, %q", stdout.Len(), stderr.String(), code, 10000, wantErr)
	}
}

func TestParallelStdoutFailure(t *testing.T) {
	setParallel(t, 8, 10)
	dir := t.TempDir()
	var files []string
	for i := range 50 {
		files = append(files, writeFile(t, dir, fmt.Sprintf("%d.txt", i), fmt.Appendf(nil, "file %d \xff\n", i)))
	}
	for _, cmd := range []string{"fix", "check"} {
		var stderr bytes.Buffer
		w := &errWriter{}
		code := run(append([]string{cmd}, files...), nil, w, &stderr)
		if want := "utf8stream: <stdout>: disk on fire\n"; stderr.String() != want || code != exitError {
			t.Errorf("%s to a failing stdout: %q, %d; want %q, 2", cmd, stderr.String(), code, want)
		}
		if w.n != 1 {
			t.Errorf("%s: %d writes to the failing stdout; want 1", cmd, w.n)
		}
	}
}
