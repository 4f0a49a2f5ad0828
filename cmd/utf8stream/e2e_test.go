package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var (
	binOnce sync.Once
	binDir  string // holds the binary; removed by TestMain
	binPath string
	binErr  error
	binSkip string // why the binary cannot be run here
)

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// buildBinary builds the command, once for all tests, into a directory that
// every user may read, and returns its path.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; skipped under -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "utf8stream-bin-"); binErr != nil {
			return
		}
		if binErr = os.Chmod(binDir, 0o755); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "utf8stream")
		out, err := exec.Command(goTool, "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		// Under qemu-user, GOARCH builds a binary the host cannot run.
		if err := exec.Command(binPath, "-version").Run(); err != nil {
			binSkip = fmt.Sprintf("cannot run the built binary: %v", err)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	if binSkip != "" {
		t.Skip(binSkip)
	}
	return binPath
}

// execBinary runs bin in the repository root and returns its output and
// exit status.
func execBinary(t *testing.T, bin string, stdin []byte, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = filepath.Join("..", "..")
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	return out.Bytes(), errOut.Bytes(), code
}

// golden compares got with testdata/name, or writes it there under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run EndToEnd -update to make it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestEndToEnd runs the built command on testdata/sample.txt, as the
// README does.
func TestEndToEnd(t *testing.T) {
	bin := buildBinary(t)
	sample, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sample.txt"))
	if err != nil {
		t.Fatal(err)
	}

	stdout, stderr, code := execBinary(t, bin, nil, "check", "testdata/sample.txt")
	if code != exitInvalid || len(stderr) > 0 {
		t.Errorf("check testdata/sample.txt: exit %d, stderr %q; want 1 and nothing", code, stderr)
	}
	golden(t, "sample.check.golden", stdout)

	stdout, stderr, code = execBinary(t, bin, nil, "check", "-json", "testdata/sample.txt")
	if code != exitInvalid || len(stderr) > 0 {
		t.Errorf("check -json: exit %d, stderr %q", code, stderr)
	}
	golden(t, "sample.check.json.golden", stdout)

	stdout, stderr, code = execBinary(t, bin, nil, "fix", "testdata/sample.txt")
	if code != exitOK || len(stderr) > 0 {
		t.Errorf("fix testdata/sample.txt: exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
	golden(t, "sample.fix.golden", stdout)
	if _, _, code := execBinary(t, bin, stdout, "check", "-q"); code != exitOK {
		t.Errorf("check of the fixed sample: exit %d; want 0", code)
	}

	stdout, stderr, code = execBinary(t, bin, sample, "fix", "-policy", "reject")
	if code != exitInvalid || !bytes.HasPrefix(sample, stdout) || len(stdout) >= len(sample) {
		t.Errorf("fix -policy reject: exit %d, %d bytes of output; want 1 and a prefix", code, len(stdout))
	}
	golden(t, "sample.reject.stderr.golden", stderr)

	// The round trip, through pipes and through the file system.
	for _, policy := range []string{"surrogateescape", "optu8"} {
		fixed, _, code := execBinary(t, bin, sample, "fix", "-policy", policy)
		back, _, code2 := execBinary(t, bin, fixed, "restore", "-policy", policy, "-")
		if code != exitOK || code2 != exitOK || !bytes.Equal(back, sample) {
			t.Errorf("%s: restore of fix: exit %d %d, equal %v", policy, code, code2, bytes.Equal(back, sample))
		}
		tmp := filepath.Join(t.TempDir(), "sample.txt")
		if err := os.WriteFile(tmp, sample, 0o600); err != nil {
			t.Fatal(err)
		}
		_, stderr, code = execBinary(t, bin, nil, "fix", "-w", "-policy", policy, tmp)
		got, _ := os.ReadFile(tmp)
		if code != exitOK || len(stderr) > 0 || !bytes.Equal(got, fixed) {
			t.Errorf("%s: fix -w: exit %d, %q, output equal to fix's: %v", policy, code, stderr, bytes.Equal(got, fixed))
		}
		_, _, code = execBinary(t, bin, nil, "restore", "-w", "-policy", policy, tmp)
		got, _ = os.ReadFile(tmp)
		if code != exitOK || !bytes.Equal(got, sample) {
			t.Errorf("%s: restore -w: exit %d, equal %v", policy, code, bytes.Equal(got, sample))
		}
	}

	stdout, _, code = execBinary(t, bin, nil, "-version")
	if code != exitOK || !strings.HasPrefix(string(stdout), "utf8stream ") {
		t.Errorf("-version: %q, %d", stdout, code)
	}
	_, stderr, code = execBinary(t, bin, nil, "fix", "-policy")
	if code != exitError || !strings.Contains(string(stderr), "flag needs an argument: -policy") {
		t.Errorf("fix -policy: %q, %d; want a usage error", stderr, code)
	}
	_, stderr, code = execBinary(t, bin, nil, "check", "testdata/no-such-file")
	if code != exitError || string(stderr) != "utf8stream: testdata/no-such-file: open: "+syscall.ENOENT.Error()+"\n" {
		t.Errorf("check of a missing file: %q, %d", stderr, code)
	}
}
