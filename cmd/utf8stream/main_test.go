package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI calls run with stdin and returns what it wrote and its exit status.
func runCLI(t *testing.T, stdin []byte, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, bytes.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

// writeFile writes data to a new file name in dir and returns its path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// setMapMin makes the rest of the test map every regular file into memory,
// or none.
func setMapMin(t *testing.T, mapped bool) {
	t.Helper()
	if mapped {
		f, err := os.Open("main_test.go")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		_, unmap, err := mapFile(f, 0, 1)
		if err != nil {
			t.Skipf("files are not mapped on this system: %v", err)
		}
		unmap()
	}
	old := mapMin
	mapMin = math.MaxInt64
	if mapped {
		mapMin = 0
	}
	t.Cleanup(func() { mapMin = old })
}

// setBufSize sets bufSize for the rest of the test.
func setBufSize(t *testing.T, n int) {
	old := bufSize
	bufSize = n
	t.Cleanup(func() { bufSize = old })
}

func TestUsage(t *testing.T) {
	tests := []struct {
		desc       string
		args       []string
		code       int
		stdout     []string // substrings
		stderr     []string
		noStdout   bool
		emptyStder bool
	}{
		{desc: "no command", args: nil, code: 2, stderr: []string{"no command given", "utf8stream -h"}, noStdout: true},
		{desc: "-h", args: []string{"-h"}, code: 0, stdout: []string{"utf8stream check", "utf8stream fix", "utf8stream restore", "Examples:"}, emptyStder: true},
		{desc: "help", args: []string{"help"}, code: 0, stdout: []string{"Usage:"}, emptyStder: true},
		{desc: "help check", args: []string{"help", "check"}, code: 0, stdout: []string{"usage: utf8stream check", "Examples:", "utf8stream check notes.txt", "-json", "-max N",
			"At most 20 subparts are listed per", "(default 20)", "NAME: and M more ill-formed subparts (-max 0 lists all)",
			`{"type":"subpart"`, `{"type":"file"`, `"all_listed"`, `"name_hex"`, "in parallel", "Flags may follow file names; -- ends the flags",
			"NAME: binary file, T ill-formed subparts (B bytes)", `"binary":true`, "-binary", "gofmt -l"}, emptyStder: true},
		{desc: "help fix", args: []string{"help", "fix"}, code: 0, stdout: []string{"usage: utf8stream fix", "Examples:", "-policy P", "-replacement STRING", "-strip-bom", "(default replace)",
			"refuses an output that is one of the inputs, standard input\nincluded", ".NAME.utf8stream-XXXX", "untouched: same inode,\nsame modification time",
			"refuses a file it\nmay not write, as gofmt -w does", "several hard links is\nrewritten in place", "is\nrewritten once", "killed mid-way", "in parallel", "written directly",
			"-o /dev/stdout appends", "binary file, skipped", "NUL byte", "-binary", "SIGINT (Ctrl-C), SIGTERM and SIGHUP", "130, 143 or 129", "gofmt -l"}, emptyStder: true},
		{desc: "help restore", args: []string{"help", "restore"}, code: 0, stdout: []string{"usage: utf8stream restore", "Examples:", "-no-nul", "see utf8stream help fix"}, emptyStder: true},
		{desc: "help unknown", args: []string{"help", "frob"}, code: 2, stderr: []string{`unknown command "frob"`}, noStdout: true},
		{desc: "help two", args: []string{"help", "fix", "check"}, code: 2, stderr: []string{"one command"}, noStdout: true},
		{desc: "check -h", args: []string{"check", "-h"}, code: 0, stdout: []string{"usage: utf8stream check"}, emptyStder: true},
		{desc: "-version", args: []string{"-version"}, code: 0, stdout: []string{"utf8stream ", "go1."}, emptyStder: true},
		{desc: "unknown command", args: []string{"frob"}, code: 2, stderr: []string{`unknown command "frob"`}, noStdout: true},
		{desc: "unknown top flag", args: []string{"-frob"}, code: 2, stderr: []string{"flag provided but not defined: -frob"}, noStdout: true},
		{desc: "unknown flag", args: []string{"check", "-frob"}, code: 2, stderr: []string{"-frob", "usage: utf8stream check", "utf8stream help check"}, noStdout: true},
		{desc: "check -q -l", args: []string{"check", "-q", "-l"}, code: 2, stderr: []string{"cannot be used together"}, noStdout: true},
		{desc: "check -max -1", args: []string{"check", "-max", "-1"}, code: 2, stderr: []string{"negative"}, noStdout: true},
		{desc: "check -max x", args: []string{"check", "-max", "x"}, code: 2, stderr: []string{"invalid value"}, noStdout: true},
		{desc: "fix bad policy", args: []string{"fix", "-policy", "lenient"}, code: 2, stderr: []string{`unknown policy "lenient"`}, noStdout: true},
		{desc: "fix -o -w", args: []string{"fix", "-o", "x", "-w", "y"}, code: 2, stderr: []string{"-o and -w"}, noStdout: true},
		{desc: "fix -w stdin", args: []string{"fix", "-w"}, code: 2, stderr: []string{"standard input"}, noStdout: true},
		{desc: "fix -w -", args: []string{"fix", "-w", "-"}, code: 2, stderr: []string{"standard input"}, noStdout: true},
		{desc: "fix -replacement invalid", args: []string{"fix", "-replacement", "\xff"}, code: 2, stderr: []string{"not valid UTF-8"}, noStdout: true},
		{desc: "fix -replacement long", args: []string{"fix", "-replacement", strings.Repeat("x", 65)}, code: 2, stderr: []string{"more than 64"}, noStdout: true},
		{desc: "fix -replacement drop", args: []string{"fix", "-policy", "drop", "-replacement", "?"}, code: 2, stderr: []string{"-replacement applies to -policy replace"}, noStdout: true},
		{desc: "restore no policy", args: []string{"restore"}, code: 2, stderr: []string{"-policy is required"}, noStdout: true},
		{desc: "restore replace", args: []string{"restore", "-policy", "replace"}, code: 2, stderr: []string{"nothing to restore"}, noStdout: true},
		{desc: "restore -cesu8", args: []string{"restore", "-policy", "optu8", "-cesu8"}, code: 2, stderr: []string{"-cesu8"}, noStdout: true},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, nil, tc.args...)
			if code != tc.code {
				t.Errorf("run(%q) = %d; want %d\nstderr:\n%s", tc.args, code, tc.code, stderr)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("run(%q): stdout lacks %q:\n%s", tc.args, s, stdout)
				}
			}
			for _, s := range tc.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("run(%q): stderr lacks %q:\n%s", tc.args, s, stderr)
				}
			}
			if tc.noStdout && stdout != "" {
				t.Errorf("run(%q): stdout = %q; want nothing", tc.args, stdout)
			}
			if tc.emptyStder && stderr != "" {
				t.Errorf("run(%q): stderr = %q; want nothing", tc.args, stderr)
			}
		})
	}
}

func TestDisplayName(t *testing.T) {
	tests := []struct{ desc, name, want string }{
		{"stdin", "-", "<stdin>"},
		{"plain", "dir/a.txt", "dir/a.txt"},
		{"non-ASCII", "données/été.txt", "données/été.txt"},
		{"invalid UTF-8", "caf\xe9.txt", `"caf\xe9.txt"`},
		{"newline", "a\nb", `"a\nb"`},
		{"U+FFFD is valid", "a\uFFFDb", "a\uFFFDb"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := displayName(tc.name); got != tc.want {
				t.Errorf("displayName(%q) = %q; want %q", tc.name, got, tc.want)
			}
		})
	}
}

func TestFlagsAfterFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, dir, "bad.txt", []byte("x\xff\n"))
	writeFile(t, dir, "-q", []byte("\xc0"))
	writeFile(t, dir, "good.txt", []byte("fine\n"))
	tests := []struct {
		desc   string
		args   []string
		stdin  string
		stdout string
		stderr string // substring
		code   int
	}{
		{"check FILE -q", []string{"check", "bad.txt", "-q"}, "", "", "", 1},
		{"check FILE -l FILE", []string{"check", "good.txt", "-l", "bad.txt"}, "", "bad.txt\n", "", 1},
		{"check FILE -max N", []string{"check", "bad.txt", "-max", "1", "-json"}, "", `{"type":"subpart","name":"bad.txt","line":1,"col":2,"offset":1,"bytes":"ff","reason":"byte FF never appears in UTF-8"}` + "\n" +
			`{"type":"file","name":"bad.txt","valid":false,"subparts":1,"ill_formed_bytes":1,"first_offset":1,"listed":1,"all_listed":true}` + "\n", "", 1},
		{"check FILE -max=N", []string{"check", "bad.txt", "-max=1", "-l"}, "", "bad.txt\n", "", 1},
		{"-- ends the flags", []string{"check", "-l", "--", "-q", "bad.txt"}, "", "-q\nbad.txt\n", "", 1},
		{"-- after a file", []string{"check", "good.txt", "-l", "--", "-q"}, "", "-q\n", "", 1},
		{"- is standard input", []string{"check", "-", "-l"}, "\xff", "<stdin>\n", "", 1},
		{"fix FILE -policy P", []string{"fix", "bad.txt", "-policy", "drop"}, "", "x\n", "", 0},
		{"fix FILE -policy=P", []string{"fix", "bad.txt", "-policy=drop", "-stats"}, "", "x\n", "bad.txt: 1 ill-formed subpart (1 byte) repaired with drop", 0},
		{"restore FILE -policy P", []string{"restore", "-", "-policy", "optu8"}, "a\uEFFF", "a\xff", "", 0},
		{"-o takes -- as its value", []string{"fix", "-o", "--", "bad.txt", "-policy", "drop"}, "", "", "", 0},
		{"unknown flag after a file", []string{"check", "good.txt", "-frob"}, "", "", "flag provided but not defined: -frob", 2},
		{"flag without its value", []string{"check", "good.txt", "-max"}, "", "", "flag needs an argument: -max", 2},
		{"conflict after a file", []string{"check", "bad.txt", "-q", "-l"}, "", "", "cannot be used together", 2},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, []byte(tc.stdin), tc.args...)
			if stdout != tc.stdout || code != tc.code || !strings.Contains(stderr, tc.stderr) || tc.stderr == "" && stderr != "" {
				t.Errorf("run(%q) = %q, %q, %d; want %q, %q, %d", tc.args, stdout, stderr, code, tc.stdout, tc.stderr, tc.code)
			}
		})
	}
	if got, err := os.ReadFile(filepath.Join(dir, "--")); err != nil || string(got) != "x\n" {
		t.Errorf("fix -o -- wrote %q, %v; want %q in the file --", got, err, "x\n")
	}
}
