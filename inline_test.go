package utf8stream

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestInline checks, through the compiler's own report (-gcflags=-m), that
// the calls the short paths of Span and Transform make are inlined: at 64
// bytes each call on the way costs as much as the kernel's work, so a
// front that stops inlining after an edit is a slowdown no other test sees.
func TestInline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package again; -short skips it")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the report is checked for linux/amd64, where the kernels are")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(gobin, "build", "-gcflags=github.com/utf8stream/utf8stream=-m", "-o", "/dev/null", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	report := string(out)
	for _, want := range []struct{ file, msg string }{
		{"transformer.go", "can inline (*Transformer).Reset"},
		{"transformer.go", "inlining call to valid.QuickCopy"},
		{"transformer.go", "inlining call to valid.KernelCopy"},
		{"transformer.go", "inlining call to valid.KernelCopyBeforeEE"},
		{"transformer.go", "inlining call to valid.KernelCopyBMP"},
		{"transformer.go", "inlining call to valid.CopyFinish"},
		{"transformer.go", "inlining call to valid.QuickPrefix"},
		{"transformer.go", "inlining call to valid.ShortASCII"},
		{"transformer.go", "inlining call to valid.KernelPrefix"},
		{"transformer.go", "inlining call to valid.KernelPrefixBMP"},
		{"transformer.go", "inlining call to valid.Finish"},
		{"transformer.go", "inlining call to valid.KernelCopyLines"},
		{"transformer.go", "inlining call to valid.KernelPrefixLines"},
		{"transformer.go", "inlining call to (*Transformer).noteRun"},
		{"writer.go", "inlining call to (*Transformer).Reset"},
		{"reader.go", "inlining call to (*Transformer).Reset"},
	} {
		if !reported(report, want.file, want.msg) {
			t.Errorf("the compiler no longer reports %q in %s", want.msg, want.file)
		}
	}
}

// reported reports whether a line of the -m report from file ends with msg.
func reported(report, file, msg string) bool {
	for line := range strings.Lines(report) {
		line = strings.TrimSpace(line)
		if strings.HasSuffix(line, ": "+msg) && strings.HasPrefix(strings.TrimPrefix(line, "./"), file+":") {
			return true
		}
	}
	return false
}
