package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// tree makes the files of a tree in a new directory: each key is a path
// with slashes, and its value the content, or "->TARGET" for a symbolic
// link.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(data, "->"); ok {
			if err := os.Symlink(target, path); err != nil {
				t.Skipf("no symbolic links: %v", err)
			}
			continue
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestDirectories(t *testing.T) {
	dir := tree(t, map[string]string{
		"b.txt":          "b\xff",
		"a/z.txt":        "z\xff",
		"a/ok.txt":       "ok",
		"a/y.png":        "\x89PNG\r\n\x1a\n\xff\xfe",
		"a/.hidden.txt":  "hidden\xff",
		".git/HEAD":      "ref\xff",
		"a/.cache/c.txt": "cache\xff",
		"link.txt":       "->b.txt",
		"linkdir":        "->a",
		"A.txt":          "A\xff",
	})
	j := func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }

	stdout, stderr, code := runCLI(t, nil, "check", "-l", dir)
	want := strings.Join([]string{j("A.txt"), j("a/y.png"), j("a/z.txt"), j("b.txt")}, "\n") + "\n"
	if stdout != want || stderr != "" || code != exitInvalid {
		t.Errorf("check -l DIR: %q, %q, %d; want %q, 1", stdout, stderr, code, want)
	}
	stdout, _, code = runCLI(t, nil, "check", j("a"))
	want = j("a/y.png") + ": binary file, 3 ill-formed subparts (3 bytes)\n" +
		j("a/z.txt") + ":1:2: offset 1: ill-formed bytes FF: byte FF never appears in UTF-8\n" +
		j("a/z.txt") + ": 1 ill-formed subpart (1 byte)\n"
	if stdout != want || code != exitInvalid {
		t.Errorf("check DIR:\n%s%d\nwant:\n%s1", stdout, code, want)
	}
	// A directory named on the command line is walked, hidden or a link.
	for _, arg := range []string{j("linkdir"), j("a/.cache"), j(".git")} {
		if stdout, _, code := runCLI(t, nil, "check", "-l", arg); stdout == "" || code != exitInvalid {
			t.Errorf("check -l %s: %q, %d; want a file and 1", arg, stdout, code)
		}
	}
	if stdout, _, code := runCLI(t, nil, "check", "-l", j("a/ok.txt"), j("b.txt")); stdout != j("b.txt")+"\n" || code != exitInvalid {
		t.Errorf("check -l FILES: %q, %d", stdout, code)
	}

	stdout, stderr, code = runCLI(t, nil, "fix", "-w", "-policy", "drop", dir)
	if want := "utf8stream: " + j("a/y.png") + ": binary file, skipped (PNG signature)\n"; stdout != "" || stderr != want || code != exitOK {
		t.Errorf("fix -w DIR: %q, %q, %d; want %q, 0", stdout, stderr, code, want)
	}
	for name, want := range map[string]string{
		"b.txt": "b", "a/z.txt": "z", "A.txt": "A", "a/ok.txt": "ok", "a/y.png": "\x89PNG\r\n\x1a\n\xff\xfe",
		"a/.hidden.txt": "hidden\xff", ".git/HEAD": "ref\xff", "a/.cache/c.txt": "cache\xff",
	} {
		if got, err := os.ReadFile(j(name)); string(got) != want {
			t.Errorf("after fix -w DIR, %s = %q, %v; want %q", name, got, err, want)
		}
	}
	if fi, err := os.Lstat(j("link.txt")); err != nil || fi.Mode().Type() != os.ModeSymlink {
		t.Errorf("link.txt is no longer a link: %v", err)
	}

	// fix -o of a directory writes its files one after another.
	out := filepath.Join(t.TempDir(), "out")
	if _, stderr, code := runCLI(t, nil, "fix", "-binary", "-o", out, j("a")); code != exitOK {
		t.Errorf("fix -o OUT DIR: %q, %d", stderr, code)
	}
	if got, _ := os.ReadFile(out); string(got) != "ok\uFFFDPNG\r\n\x1a\n\uFFFD\uFFFDz" {
		t.Errorf("fix -o OUT DIR wrote %q", got)
	}
	// An empty directory has no files: nothing to do.
	empty := t.TempDir()
	if stdout, stderr, code := runCLI(t, []byte("\xff"), "check", empty); stdout != "" || stderr != "" || code != exitOK {
		t.Errorf("check EMPTY: %q, %q, %d; want nothing, 0", stdout, stderr, code)
	}
}

func TestFixBinary(t *testing.T) {
	dir := tree(t, map[string]string{
		"nul.txt":  "a\x00b\xff",
		"late.txt": strings.Repeat("a", binaryHead) + "\x00\xff",
		"elf":      "\x7fELF\x02\x01\xff",
		"bz.txt":   "BZh is how it starts \xff",
		"bz2":      "BZh91AY&SY\xff",
		"text.txt": "caf\xe9",
	})
	j := func(name string) string { return filepath.Join(dir, name) }
	out := filepath.Join(dir, "out")
	os.WriteFile(out, []byte("old"), 0o644)
	for _, tc := range []struct {
		desc, file, skipped string
	}{
		{"NUL", "nul.txt", "NUL byte at offset 1"},
		{"ELF", "elf", "ELF signature"},
		{"bzip2", "bz2", "bzip2 signature"},
		{"NUL after 8 KiB", "late.txt", ""},
		{"BZh text", "bz.txt", ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, stderr, code := runCLI(t, nil, "fix", "-o", out, j(tc.file))
			got, _ := os.ReadFile(out)
			if tc.skipped == "" {
				if stderr != "" || code != exitOK || !strings.HasSuffix(string(got), "\uFFFD") {
					t.Errorf("fix -o OUT %s: %q, %d, %q; want it fixed", tc.file, stderr, code, got)
				}
				return
			}
			if want := "utf8stream: " + j(tc.file) + ": binary file, skipped (" + tc.skipped + ")\n"; stderr != want || code != exitOK {
				t.Errorf("fix -o OUT %s: %q, %d; want %q, 0", tc.file, stderr, code, want)
			}
			os.WriteFile(out, []byte("old"), 0o644)
			// Alone, it leaves OUT as it was; with a text file, OUT holds that one.
			runCLI(t, nil, "fix", "-o", out, j(tc.file))
			if got, _ := os.ReadFile(out); string(got) != "old" {
				t.Errorf("fix -o OUT BINARY: OUT = %q; want it unchanged", got)
			}
			runCLI(t, nil, "fix", "-o", out, j(tc.file), j("text.txt"))
			if got, _ := os.ReadFile(out); string(got) != "caf\uFFFD" {
				t.Errorf("fix -o OUT BINARY TEXT: OUT = %q; want %q", got, "caf\uFFFD")
			}
			// To standard output, or with -binary, it is fixed.
			for _, args := range [][]string{{"fix", j(tc.file)}, {"fix", "-binary", "-o", out, j(tc.file)}} {
				stdout, stderr, code := runCLI(t, nil, args...)
				if args[1] == "-binary" {
					b, _ := os.ReadFile(out)
					stdout = string(b)
				}
				if !strings.HasSuffix(stdout, "\uFFFD") || stderr != "" || code != exitOK {
					t.Errorf("%q: %q, %q, %d; want it fixed", args, stdout, stderr, code)
				}
			}
			// restore skips it too.
			_, stderr, _ = runCLI(t, nil, "restore", "-policy", "optu8", "-w", j(tc.file))
			if !strings.Contains(stderr, "binary file, skipped") {
				t.Errorf("restore -w BINARY: %q; want it skipped", stderr)
			}
		})
	}
	// A binary input on standard input, under -o.
	_, stderr, code := runCLI(t, []byte("\x00\xff"), "fix", "-o", out)
	if want := "utf8stream: <stdin>: binary file, skipped (NUL byte at offset 0)\n"; stderr != want || code != exitOK {
		t.Errorf("fix -o OUT < BINARY: %q, %d; want %q, 0", stderr, code, want)
	}
}

// BenchmarkCheckTree checks a tree of 10,000 small files, 100 to a
// directory, as check -q DIR does: what it measures is the cost per file.
func BenchmarkCheckTree(b *testing.B) {
	dir := b.TempDir()
	text := []byte(strings.Repeat("héllo wörld, ", 100))
	for i := range 10000 {
		sub := filepath.Join(dir, fmt.Sprintf("d%03d", i/100))
		if i%100 == 0 {
			if err := os.Mkdir(sub, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		p := text[:100+i%1000]
		for !utf8.Valid(p) {
			p = p[:len(p)-1]
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%03d.txt", i%100)), p, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, args := range [][]string{{"check", "-q"}, {"check"}} {
		b.Run("args="+strings.Join(args, "_"), func(b *testing.B) {
			for b.Loop() {
				if code := run(append(args, dir), nil, io.Discard, io.Discard); code != exitOK {
					b.Fatalf("%q: exit %d", args, code)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/file")
		})
	}
}
