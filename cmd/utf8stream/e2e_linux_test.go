//go:build linux

package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// e2eRun is one run of the built binary.
type e2eRun struct {
	args   []string
	dir    string     // working directory; the test's temporary directory if empty
	stdin  *os.File   // nil: empty
	stdout *os.File   // nil: captured
	extra  []*os.File // descriptors 3 and on
	uid    int        // when not 0, run as this user and group
}

func (r e2eRun) exec(t *testing.T, bin string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, r.args...)
	cmd.Dir = r.dir
	if r.stdin != nil {
		cmd.Stdin = r.stdin
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if r.stdout != nil {
		cmd.Stdout = r.stdout
	}
	cmd.ExtraFiles = r.extra
	if r.uid != 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(r.uid), Gid: uint32(r.uid)}}
	}
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("%s %q: %v", bin, r.args, err)
	}
	return out.String(), errOut.String(), code
}

// fileID is what a rewrite must keep or change.
type fileID struct {
	ino   uint64
	nlink uint64
	mtime time.Time
	mode  fs.FileMode
	data  string
}

func identify(t *testing.T, path string) fileID {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return fileID{st.Ino, uint64(st.Nlink), fi.ModTime(), fi.Mode(), string(data)}
}

// noTemps fails if dir holds a temporary file of -o or -w.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	for _, name := range listDir(t, dir) {
		if strings.Contains(name, ".utf8stream-") {
			t.Errorf("temporary file %s left in %s", name, dir)
		}
	}
}

var past = time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)

func TestEndToEndSameFile(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	orig := "a\xffb\n"
	f := writeFile(t, dir, "f.txt", []byte(orig))
	if err := os.Symlink("f.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	open := func(flag int) *os.File {
		file, err := os.OpenFile(f, flag, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { file.Close() })
		return file
	}
	tests := []struct {
		desc   string
		run    e2eRun
		stderr string
	}{
		{"-o INPUT < INPUT", e2eRun{args: []string{"fix", "-o", "f.txt"}, stdin: open(os.O_RDONLY)},
			"utf8stream: f.txt: the output is the input <stdin>; use -w to rewrite a file in place\n"},
		{"-o INPUT - < INPUT", e2eRun{args: []string{"fix", "-o", "f.txt", "-"}, stdin: open(os.O_RDONLY)},
			"utf8stream: f.txt: the output is the input <stdin>; use -w to rewrite a file in place\n"},
		{"-o INPUT INPUT", e2eRun{args: []string{"restore", "-policy", "optu8", "-o", "f.txt", "f.txt"}},
			"utf8stream: f.txt: the output is the input f.txt; use -w to rewrite a file in place\n"},
		{"-o LINK INPUT", e2eRun{args: []string{"fix", "-o", "link", "f.txt"}},
			"utf8stream: link: the output is the input f.txt; use -w to rewrite a file in place\n"},
		{"-o /dev/stdout INPUT >> INPUT", e2eRun{args: []string{"fix", "-o", "/dev/stdout", "f.txt"}, stdout: open(os.O_WRONLY | os.O_APPEND)},
			"utf8stream: /dev/stdout: the output is the input f.txt; use -w to rewrite a file in place\n"},
		{"INPUT >> INPUT", e2eRun{args: []string{"fix", "f.txt"}, stdout: open(os.O_WRONLY | os.O_APPEND)},
			"utf8stream: <stdout>: the output is the input f.txt; use -w to rewrite a file in place\n"},
		{"< INPUT >> INPUT", e2eRun{args: []string{"fix"}, stdin: open(os.O_RDONLY), stdout: open(os.O_WRONLY | os.O_APPEND)},
			"utf8stream: <stdout>: the output is the input <stdin>; use -w to rewrite a file in place\n"},
	}
	before := identify(t, f)
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			tc.run.dir = dir
			stdout, stderr, code := tc.run.exec(t, bin)
			if stdout != "" || stderr != tc.stderr || code != exitError {
				t.Errorf("%q: %q, %q, %d; want %q, 2", tc.run.args, stdout, stderr, code, tc.stderr)
			}
			if after := identify(t, f); after != before {
				t.Errorf("%q changed the input: %+v; was %+v", tc.run.args, after, before)
			}
			noTemps(t, dir)
		})
	}

	// -o to a file that is not an input, new or not, and to a pipe.
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	stdout, stderr, code := e2eRun{args: []string{"fix", "-o", "new.txt", "f.txt"}, dir: dir}.exec(t, bin)
	if got := identify(t, filepath.Join(dir, "new.txt")); got.data != "a\uFFFDb\n" || got.mode != 0o640 || stdout != "" || stderr != "" || code != exitOK {
		t.Errorf("fix -o NEW: %q %v, %q, %q, %d; want %q 0640 (0666 less the umask), 0", got.data, got.mode, stdout, stderr, code, "a\uFFFDb\n")
	}
	out := writeFile(t, dir, "out.txt", []byte("old"))
	if err := os.Chmod(out, 0o604); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = e2eRun{args: []string{"fix", "-policy", "drop", "-o", "out.txt", "f.txt", "-"}, dir: dir, stdin: open(os.O_RDONLY)}.exec(t, bin)
	if got := identify(t, out); got.data != "ab\nab\n" || got.mode != 0o604 || stdout != "" || stderr != "" || code != exitOK {
		t.Errorf("fix -o OLD: %q %v, %q, %q, %d; want %q 0604, 0", got.data, got.mode, stdout, stderr, code, "ab\nab\n")
	}
	stdout, stderr, code = e2eRun{args: []string{"fix", "-o", "/dev/stdout", "f.txt"}, dir: dir}.exec(t, bin)
	if stdout != "a\uFFFDb\n" || stderr != "" || code != exitOK {
		t.Errorf("fix -o /dev/stdout into a pipe: %q, %q, %d; want %q, 0", stdout, stderr, code, "a\uFFFDb\n")
	}

	// -o to a symbolic link to a file yet to be made, through a second
	// link in another directory: the file is made where the links lead,
	// as the shell's > makes it, and the links stay.
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{{"sub/made.txt", "dangling"}, {"../target.txt", "sub/made.txt"}} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	stdout, stderr, code = e2eRun{args: []string{"fix", "-o", "dangling", "f.txt"}, dir: dir}.exec(t, bin)
	got := identify(t, filepath.Join(dir, "target.txt"))
	if got.data != "a\uFFFDb\n" || stdout != "" || stderr != "" || code != exitOK {
		t.Errorf("fix -o DANGLING-LINK: target %q, %q, %q, %d; want %q, 0", got.data, stdout, stderr, code, "a\uFFFDb\n")
	}
	for _, l := range []string{"dangling", "sub/made.txt"} {
		if fi, err := os.Lstat(filepath.Join(dir, l)); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("fix -o DANGLING-LINK: %s is no longer a link (%v)", l, err)
		}
	}
	// The same through a link to a directory, where the link's .. is the
	// parent of the directory it leads to, not of the link.
	deep := filepath.Join(sub, "deep")
	if err := os.Mkdir(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/deep", filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../up.txt", filepath.Join(deep, "l")); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = e2eRun{args: []string{"fix", "-o", "alias/l", "f.txt"}, dir: dir}.exec(t, bin)
	got = identify(t, filepath.Join(sub, "up.txt"))
	if got.data != "a\uFFFDb\n" || stdout != "" || stderr != "" || code != exitOK {
		t.Errorf("fix -o DIR-LINK/LINK: sub/up.txt %q, %q, %q, %d; want %q, 0", got.data, stdout, stderr, code, "a\uFFFDb\n")
	}
	noTemps(t, dir)
	noTemps(t, sub)
}

func TestEndToEndUnchanged(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	tests := []struct {
		desc    string
		args    []string
		in      string
		want    string
		changed bool
	}{
		{"fix valid", []string{"fix", "-w"}, "héllo\nwörld\n", "héllo\nwörld\n", false},
		{"fix empty", []string{"fix", "-w"}, "", "", false},
		{"fix reject valid", []string{"fix", "-w", "-policy", "reject"}, "ok\n", "ok\n", false},
		{"fix optu8 valid", []string{"fix", "-w", "-policy", "optu8"}, "ok\n", "ok\n", false},
		{"restore nothing escaped", []string{"restore", "-w", "-policy", "optu8"}, "ok \xff\n", "ok \xff\n", false},
		{"fix invalid", []string{"fix", "-w"}, "ok \xff\n", "ok \uFFFD\n", true},
		{"fix invalid at the end", []string{"fix", "-w", "-policy", "drop"}, "ok\xe2\x82", "ok", true},
		{"fix -strip-bom", []string{"fix", "-w", "-strip-bom"}, "\uFEFFok", "ok", true},
		{"restore", []string{"restore", "-w", "-policy", "optu8"}, "ok \uEFFF\n", "ok \xff\n", true},
	}
	for _, size := range []int{100, 300 << 10} { // read, and mapped
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s/size=%d", tc.desc, size), func(t *testing.T) {
				pad := strings.Repeat("x", size)
				in, want := pad+tc.in, pad+tc.want
				if strings.HasPrefix(tc.in, "\uFEFF") {
					in, want = tc.in+pad, tc.want+pad
				}
				f := writeFile(t, dir, "f.txt", []byte(in))
				if err := os.Chtimes(f, past, past); err != nil {
					t.Fatal(err)
				}
				before := identify(t, f)
				stdout, stderr, code := e2eRun{args: append(tc.args, "f.txt"), dir: dir}.exec(t, bin)
				after := identify(t, f)
				if stdout != "" || stderr != "" || code != exitOK || after.data != want {
					t.Errorf("%q: %q, %q, %d, file %q; want nothing, 0, %q", tc.args, stdout, stderr, code, strings.Trim(after.data, "x"), tc.want)
				}
				if tc.changed {
					if after.ino == before.ino || after.mtime.Equal(past) {
						t.Errorf("%q: the file was not replaced: inode %d, mtime %v", tc.args, after.ino, after.mtime)
					}
				} else if after != before {
					t.Errorf("%q: the unchanged file was touched: %+v; was %+v", tc.args, after, before)
				}
				noTemps(t, dir)
			})
		}
	}
}

func TestEndToEndHardLink(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	for _, size := range []int{10, 300 << 10} {
		t.Run(fmt.Sprintf("size=%d", size), func(t *testing.T) {
			pad := strings.Repeat("y", size)
			f := writeFile(t, dir, "f.txt", []byte(pad+"caf\xe9\n"))
			g := filepath.Join(dir, "g.txt")
			os.Remove(g)
			if err := os.Link(f, g); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(f, 0o640); err != nil {
				t.Fatal(err)
			}
			before := identify(t, f)
			stdout, stderr, code := e2eRun{args: []string{"fix", "-w", "-policy", "windows1252", "f.txt"}, dir: dir}.exec(t, bin)
			if stdout != "" || stderr != "" || code != exitOK {
				t.Fatalf("fix -w LINKED: %q, %q, %d", stdout, stderr, code)
			}
			want := pad + "café\n"
			for _, name := range []string{f, g} {
				got := identify(t, name)
				if got.data != want || got.ino != before.ino || got.nlink != 2 || got.mode != 0o640 {
					t.Errorf("%s after fix -w: %q, inode %d, %d links, %v; want %q, inode %d, 2 links, 0640",
						name, got.data[size:], got.ino, got.nlink, got.mode, "café\n", before.ino)
				}
			}
			noTemps(t, dir)
		})
	}

	// -o into a file with two links writes into it as well.
	out := writeFile(t, dir, "out.txt", []byte("old"))
	out2 := filepath.Join(dir, "out2.txt")
	if err := os.Link(out, out2); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "in.txt", []byte("new\xff"))
	if _, stderr, code := (e2eRun{args: []string{"fix", "-policy", "drop", "-o", "out2.txt", "in.txt"}, dir: dir}).exec(t, bin); code != exitOK {
		t.Fatalf("fix -o LINKED: %q, %d", stderr, code)
	}
	if a, b := identify(t, out), identify(t, out2); a.data != "new" || a != b {
		t.Errorf("fix -o LINKED: %+v and %+v; want both %q, one inode", a, b, "new")
	}
}

// unprivileged is the user that the read-only tests run as: nobody.
const unprivileged = 65534

func TestEndToEndReadOnly(t *testing.T) {
	bin := buildBinary(t)
	uid := 0
	switch {
	case os.Geteuid() == 0:
		uid = unprivileged
	case os.Geteuid() != 0:
		// Already unprivileged; the files below are ours.
	}
	dir, err := os.MkdirTemp("", "utf8stream-readonly-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	mk := func(name, data string, mode fs.FileMode) string {
		path := writeFile(t, dir, name, []byte(data))
		if uid != 0 {
			if err := os.Chown(path, uid, uid); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	ro := mk("ro.txt", "read \xff only\n", 0o444)
	rw := mk("rw.txt", "read \xff write\n", 0o644)
	valid := mk("valid.txt", "fine\n", 0o444)
	out := mk("out.txt", "old\n", 0o444)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if uid != 0 {
		if err := os.Chown(dir, uid, uid); err != nil {
			t.Fatal(err)
		}
	}
	// The directory is writable, so a rename over ro.txt would succeed.
	if f, err := os.OpenFile(ro, os.O_WRONLY, 0); uid == 0 && err == nil {
		f.Close()
		t.Skip("this user may write a read-only file")
	}

	roBefore, validBefore, outBefore := identify(t, ro), identify(t, valid), identify(t, out)
	stdout, stderr, code := e2eRun{args: []string{"fix", "-w", "ro.txt", "rw.txt", "valid.txt"}, dir: dir, uid: uid}.exec(t, bin)
	if want := "utf8stream: ro.txt: open: permission denied; file left unchanged\n"; stdout != "" || stderr != want || code != exitError {
		t.Errorf("fix -w READONLY: %q, %q, %d; want %q, 2", stdout, stderr, code, want)
	}
	if got := identify(t, ro); got != roBefore {
		t.Errorf("the read-only file changed: %+v; was %+v", got, roBefore)
	}
	if got := identify(t, valid); got != validBefore {
		t.Errorf("the valid read-only file changed: %+v; was %+v", got, validBefore)
	}
	if got := identify(t, rw); got.data != "read \uFFFD write\n" {
		t.Errorf("the writable file beside it was not fixed: %q", got.data)
	}

	stdout, stderr, code = e2eRun{args: []string{"fix", "-o", "out.txt", "rw.txt"}, dir: dir, uid: uid}.exec(t, bin)
	if want := "utf8stream: out.txt: open: permission denied\n"; stdout != "" || stderr != want || code != exitError {
		t.Errorf("fix -o READONLY: %q, %q, %d; want %q, 2", stdout, stderr, code, want)
	}
	if got := identify(t, out); got != outBefore {
		t.Errorf("the read-only output changed: %+v; was %+v", got, outBefore)
	}
	noTemps(t, dir)
}

// tmpfs mounts a file system of size bytes on a new directory, or skips the
// test when the system does not allow it.
func tmpfs(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d", size)); err != nil {
		t.Skipf("cannot mount a small file system: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

func TestEndToEndFullDisk(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	writeFile(t, dir, "bad.txt", []byte("a\xffb\n"))
	writeFile(t, dir, "big.txt", bytes.Repeat([]byte("0123456789\xff\n"), 20<<10))
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	for _, args := range [][]string{{"fix", "bad.txt"}, {"check", "bad.txt"}, {"check", "-json", "bad.txt", "big.txt"}, {"restore", "-policy", "optu8", "big.txt"}} {
		stdout, stderr, code := e2eRun{args: args, dir: dir, stdout: full}.exec(t, bin)
		if want := "utf8stream: <stdout>: write: no space left on device\n"; stdout != "" || stderr != want || code != exitError {
			t.Errorf("%q > /dev/full: %q, %d; want %q, 2", args, stderr, code, want)
		}
	}
	_, stderr, code := e2eRun{args: []string{"fix", "-o", "/dev/full", "big.txt"}, dir: dir}.exec(t, bin)
	if want := "utf8stream: /dev/full: write: no space left on device; output incomplete\n"; stderr != want || code != exitError {
		t.Errorf("fix -o /dev/full: %q, %d; want %q, 2", stderr, code, want)
	}

	// A file system with 40 KiB: 10 pages.
	small := tmpfs(t, 40<<10)
	tests := []struct {
		desc   string
		files  map[string]string
		link   bool // g.txt is a second link to f.txt
		args   []string
		stderr string
	}{
		{"-o NEW", nil, false, []string{"fix", "-o", "NEW", "big.txt"}, "NEW: write: no space left on device; file not created"},
		{"-o OLD", map[string]string{"out.txt": "old"}, false, []string{"fix", "-o", "out.txt", "big.txt"}, "out.txt: write: no space left on device; file left unchanged"},
		{"-w", map[string]string{"f.txt": strings.Repeat("\xff", 16<<10)}, false, []string{"fix", "-w", "f.txt"}, "f.txt: write: no space left on device; file left unchanged"},
		// 8 KiB that become 24 KiB: the temporary file fits, the copy back
		// into the linked file does not.
		{"-w LINKED", map[string]string{"f.txt": strings.Repeat("\xff", 8<<10)}, true, []string{"fix", "-w", "f.txt"}, "f.txt: fallocate: no space left on device; file left unchanged"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			for _, name := range listDir(t, small) {
				os.Remove(filepath.Join(small, name))
			}
			for name, data := range tc.files {
				writeFile(t, small, name, []byte(data))
			}
			if tc.link {
				if err := os.Link(filepath.Join(small, "f.txt"), filepath.Join(small, "g.txt")); err != nil {
					t.Fatal(err)
				}
			}
			before := map[string]fileID{}
			for _, name := range listDir(t, small) {
				before[name] = identify(t, filepath.Join(small, name))
			}
			args := slices.Clone(tc.args)
			for i, a := range args {
				if a == "big.txt" {
					args[i] = filepath.Join(dir, a)
				}
			}
			stdout, stderr, code := e2eRun{args: args, dir: small}.exec(t, bin)
			if want := "utf8stream: " + tc.stderr + "\n"; stdout != "" || stderr != want || code != exitError {
				t.Errorf("%q: %q, %q, %d; want %q, 2", tc.args, stdout, stderr, code, want)
			}
			after := map[string]fileID{}
			for _, name := range listDir(t, small) {
				after[name] = identify(t, filepath.Join(small, name))
			}
			if fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("%q changed the files: %v; were %v", tc.args, after, before)
			}
		})
	}
}

func TestEndToEndCheck(t *testing.T) {
	bin := buildBinary(t)

	// A binary gets one line; with -binary, 20 lines and a summary, and
	// all of them with -max 0 too.
	stdout, stderr, code := e2eRun{args: []string{"check", bin}}.exec(t, bin)
	if !strings.HasPrefix(stdout, bin+": binary file, ") || strings.Count(stdout, "\n") != 1 || stderr != "" || code != exitInvalid {
		t.Errorf("check BINARY: %q, %q, %d; want one line and exit 1", stdout, stderr, code)
	}
	stdout, stderr, code = e2eRun{args: []string{"check", "-binary", bin}}.exec(t, bin)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != exitInvalid || stderr != "" || len(lines) != defaultMax+2 || !strings.HasPrefix(lines[defaultMax], bin+": and ") {
		t.Fatalf("check BINARY: %d lines, %q, %d; want %d and exit 1:\n%s", len(lines), stderr, code, defaultMax+2, stdout)
	}
	var more, total, nbytes int
	if _, err := fmt.Sscanf(lines[defaultMax], bin+": and %d more ill-formed subparts (-max 0 lists all)", &more); err != nil {
		t.Errorf("%q: %v", lines[defaultMax], err)
	}
	if _, err := fmt.Sscanf(lines[defaultMax+1], bin+": %d ill-formed subparts (%d bytes)", &total, &nbytes); err != nil || total != more+defaultMax {
		t.Errorf("%q: %v; want %d subparts", lines[defaultMax+1], err, more+defaultMax)
	}
	all, _, _ := e2eRun{args: []string{"check", "-binary", "-max", "0", bin}}.exec(t, bin)
	if n := strings.Count(all, "\n"); n != total+1 {
		t.Errorf("check -max 0 BINARY: %d lines; want %d", n, total+1)
	}

	// -json: every record parses, names are plain strings, and each file
	// ends with its totals.
	dir := t.TempDir()
	// (Not FF FE, which check takes for the byte order mark of UTF-16LE.)
	writeFile(t, dir, "new\nline.txt", []byte("\xff\xfd\xfe"))
	writeFile(t, dir, "caf\xe9.txt", []byte("caf\xe9"))
	writeFile(t, dir, "ok.txt", []byte("ok"))
	stdout, stderr, code = e2eRun{args: []string{"check", "-json", "-max", "2", "new\nline.txt", "caf\xe9.txt", "missing.txt", "ok.txt"}, dir: dir}.exec(t, bin)
	if want := "utf8stream: missing.txt: open: no such file or directory\n"; stderr != want || code != exitError {
		t.Errorf("check -json: %q, %d; want %q, 2", stderr, code, want)
	}
	var recs []map[string]any
	for line := range strings.Lines(stdout) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("check -json: %v in %q", err, line)
		}
		recs = append(recs, rec)
	}
	want := []map[string]any{
		{"type": "subpart", "name": "new\nline.txt", "line": 1.0, "col": 1.0, "offset": 0.0, "bytes": "ff", "reason": "byte FF never appears in UTF-8"},
		{"type": "subpart", "name": "new\nline.txt", "line": 1.0, "col": 2.0, "offset": 1.0, "bytes": "fd", "reason": "byte FD never appears in UTF-8"},
		{"type": "file", "name": "new\nline.txt", "valid": false, "subparts": 3.0, "ill_formed_bytes": 3.0, "first_offset": 0.0, "listed": 2.0, "all_listed": false},
		{"type": "subpart", "name": "caf\uFFFD.txt", "name_hex": hex.EncodeToString([]byte("caf\xe9.txt")), "line": 1.0, "col": 4.0, "offset": 3.0, "bytes": "e9", "reason": "truncated sequence at end of input"},
		{"type": "file", "name": "caf\uFFFD.txt", "name_hex": hex.EncodeToString([]byte("caf\xe9.txt")), "valid": false, "subparts": 1.0, "ill_formed_bytes": 1.0, "first_offset": 3.0, "listed": 1.0, "all_listed": true},
		{"type": "file", "name": "missing.txt", "valid": false, "subparts": 0.0, "ill_formed_bytes": 0.0, "listed": 0.0, "all_listed": true, "error": "open: no such file or directory"},
		{"type": "file", "name": "ok.txt", "valid": true, "subparts": 0.0, "ill_formed_bytes": 0.0, "listed": 0.0, "all_listed": true},
	}
	if fmt.Sprint(recs) != fmt.Sprint(want) {
		t.Errorf("check -json:\n%v\nwant:\n%v", recs, want)
	}

	// Flags after the file names.
	writeFile(t, dir, "bad.txt", []byte("\xff"))
	for _, tc := range []struct {
		args []string
		code int
	}{{[]string{"check", "bad.txt", "-q"}, 1}, {[]string{"check", "ok.txt", "-q"}, 0}, {[]string{"check", "ok.txt", "bad.txt", "-q"}, 1}} {
		stdout, stderr, code := e2eRun{args: tc.args, dir: dir}.exec(t, bin)
		if stdout != "" || stderr != "" || code != tc.code {
			t.Errorf("%q: %q, %q, %d; want nothing and %d", tc.args, stdout, stderr, code, tc.code)
		}
	}
}

func TestEndToEndReadError(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	writeFile(t, dir, "ok.txt", []byte("ok\n"))
	out := writeFile(t, dir, "out.txt", []byte("old\n"))
	before := identify(t, out)
	// Reading /proc/self/mem from offset 0 fails with EIO.
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"check", "/proc/self/mem", "ok.txt"}, "utf8stream: /proc/self/mem: read: input/output error\n"},
		{[]string{"fix", "-o", "out.txt", "ok.txt", "/proc/self/mem"}, "utf8stream: /proc/self/mem: read: input/output error\nutf8stream: out.txt: file left unchanged after the errors above\n"},
		{[]string{"fix", "-w", "/proc/self/mem"}, "utf8stream: /proc/self/mem: read: input/output error\n"},
	} {
		_, stderr, code := e2eRun{args: tc.args, dir: dir}.exec(t, bin)
		if stderr != tc.stderr || code != exitError {
			t.Errorf("%q: %q, %d; want %q, 2", tc.args, stderr, code, tc.stderr)
		}
	}
	if got := identify(t, out); got != before {
		t.Errorf("the output changed after a read error: %+v; was %+v", got, before)
	}
	noTemps(t, dir)
}

// TestEndToEndOutputKinds runs fix -o into each kind of file that is not a
// regular file, and into regular files reached through descriptors: each
// is written directly, and a file opened for appending is appended to.
func TestEndToEndOutputKinds(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	writeFile(t, dir, "in.txt", []byte("caf\xe9\n"))
	const want = "caf\uFFFD\n"
	fix := func(t *testing.T, out string, r e2eRun) {
		t.Helper()
		r.args, r.dir = []string{"fix", "-o", out, "in.txt"}, dir
		_, stderr, code := r.exec(t, bin)
		if stderr != "" || code != exitOK {
			t.Errorf("fix -o %s: %q, %d; want nothing, 0", out, stderr, code)
		}
		noTemps(t, dir)
	}
	// appendTo opens a log holding one line, as the shell's >> does.
	appendTo := func(t *testing.T) (*os.File, fileID) {
		log := writeFile(t, dir, "app.log", []byte("earlier line\n"))
		f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f, identify(t, log)
	}
	checkLog := func(t *testing.T, before fileID) {
		t.Helper()
		after := identify(t, filepath.Join(dir, "app.log"))
		if after.data != "earlier line\n"+want || after.ino != before.ino {
			t.Errorf("app.log: %q, inode %d; want %q, inode %d", after.data, after.ino, "earlier line\n"+want, before.ino)
		}
	}

	for _, out := range []string{"/dev/stdout", "/proc/self/fd/1", "/dev/fd/1", "stdout-link"} {
		t.Run(">> FILE, -o "+out, func(t *testing.T) {
			os.Remove(filepath.Join(dir, "stdout-link"))
			if err := os.Symlink("/dev/stdout", filepath.Join(dir, "stdout-link")); err != nil {
				t.Fatal(err)
			}
			f, before := appendTo(t)
			fix(t, out, e2eRun{stdout: f})
			checkLog(t, before)
		})
	}
	t.Run("3>> FILE, -o /dev/fd/3", func(t *testing.T) {
		f, before := appendTo(t)
		fix(t, "/dev/fd/3", e2eRun{extra: []*os.File{f}})
		checkLog(t, before)
	})
	t.Run("2>> FILE, -o /dev/stderr", func(t *testing.T) {
		f, before := appendTo(t)
		cmd := exec.Command(bin, "fix", "-o", "/dev/stderr", "in.txt")
		cmd.Dir, cmd.Stderr = dir, f
		if out, err := cmd.Output(); err != nil || len(out) > 0 {
			t.Errorf("fix -o /dev/stderr: %q, %v", out, err)
		}
		checkLog(t, before)
	})
	t.Run("-o /dev/null", func(t *testing.T) {
		fix(t, "/dev/null", e2eRun{})
		if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Errorf("/dev/null is no longer a device: %v, %v", fi.Mode(), err)
		}
	})
	// reader reads r to its end in the background.
	reader := func(r func() (*os.File, error)) <-chan string {
		c := make(chan string, 1)
		go func() {
			f, err := r()
			if err != nil {
				c <- err.Error()
				return
			}
			defer f.Close()
			b, err := io.ReadAll(f)
			if err != nil {
				c <- err.Error()
			}
			c <- string(b)
		}()
		return c
	}
	t.Run("-o FIFO", func(t *testing.T) {
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		got := reader(func() (*os.File, error) { return os.Open(fifo) })
		fix(t, "fifo", e2eRun{})
		if s := <-got; s != want {
			t.Errorf("read from the FIFO: %q; want %q", s, want)
		}
		if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("the FIFO is no longer one: %v, %v", fi.Mode(), err)
		}
	})
	// viaStdout runs fix -o /dev/stdout with w, one end of a pipe or a
	// socket pair, as its standard output, and reads the other end r.
	viaStdout := func(t *testing.T, r, w *os.File) {
		got := reader(func() (*os.File, error) { return r, nil })
		fix(t, "/dev/stdout", e2eRun{stdout: w})
		w.Close()
		if s := <-got; s != want {
			t.Errorf("read: %q; want %q", s, want)
		}
	}
	t.Run("| pipe, -o /dev/stdout", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		viaStdout(t, r, w)
	})
	t.Run("socket pair, -o /dev/stdout", func(t *testing.T) {
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		viaStdout(t, os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w"))
	})
	t.Run("-o SOCKET", func(t *testing.T) {
		l, err := net.Listen("unix", filepath.Join(dir, "sock"))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		got := reader(func() (*os.File, error) {
			c, err := l.Accept()
			if err != nil {
				return nil, err
			}
			defer c.Close()
			return c.(*net.UnixConn).File()
		})
		fix(t, "sock", e2eRun{})
		if s := <-got; s != want {
			t.Errorf("read from the socket: %q; want %q", s, want)
		}
	})
	t.Run("-o TERMINAL", func(t *testing.T) {
		ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
		if err != nil {
			t.Skip(err)
		}
		defer ptm.Close()
		if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
			t.Skip(err)
		}
		n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
		if err != nil {
			t.Skip(err)
		}
		pts := fmt.Sprintf("/dev/pts/%d", n)
		// Keep the terminal open, so that its output waits to be read.
		keep, err := os.OpenFile(pts, os.O_RDWR|syscall.O_NOCTTY, 0)
		if err != nil {
			t.Skip(err)
		}
		defer keep.Close()
		fix(t, pts, e2eRun{})
		buf := make([]byte, 64)
		ptm.SetReadDeadline(time.Now().Add(10 * time.Second))
		k, err := ptm.Read(buf)
		// The terminal turns "\n" into "\r\n".
		if got := strings.ReplaceAll(string(buf[:k]), "\r\n", "\n"); got != want {
			t.Errorf("read from the terminal: %q, %v; want %q", got, err, want)
		}
	})
	t.Run("-o /dev/stdin", func(t *testing.T) {
		_, stderr, code := e2eRun{args: []string{"fix", "-o", "/dev/stdin", "in.txt"}, dir: dir}.exec(t, bin)
		if want := "utf8stream: /dev/stdin: standard input is not an output\n"; stderr != want || code != exitError {
			t.Errorf("fix -o /dev/stdin: %q, %d; want %q, 2", stderr, code, want)
		}
	})
	t.Run("-o /dev/fd/9, closed", func(t *testing.T) {
		_, stderr, code := e2eRun{args: []string{"fix", "-o", "/dev/fd/9", "in.txt"}, dir: dir}.exec(t, bin)
		if want := "utf8stream: /dev/fd/9: open: bad file descriptor\n"; stderr != want || code != exitError {
			t.Errorf("fix -o /dev/fd/9: %q, %d; want %q, 2", stderr, code, want)
		}
	})
}

// waitTemp waits until dir holds a temporary file of -o or -w with data in
// it, and returns its path.
func waitTemp(t *testing.T, dir string, cmd *exec.Cmd) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for _, name := range listDir(t, dir) {
			if strings.Contains(name, ".utf8stream-") {
				if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && fi.Size() > 0 {
					return filepath.Join(dir, name)
				}
			}
		}
		time.Sleep(100 * time.Microsecond)
	}
	cmd.Process.Kill()
	t.Fatalf("no temporary file appeared in %s", dir)
	return ""
}

// stopMidway writes data to big.txt in dir, starts the command args, which
// rewrites it, and stops it with SIGSTOP while its temporary file holds
// less than half of the result. It tries a few times before it gives up.
func stopMidway(t *testing.T, dir string, data []byte, stderr *bytes.Buffer, args ...string) *exec.Cmd {
	t.Helper()
	for range 5 {
		writeFile(t, dir, "big.txt", data)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		if stderr != nil {
			cmd.Stderr = stderr
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		tmp := waitTemp(t, dir, cmd)
		cmd.Process.Signal(syscall.SIGSTOP)
		if ti, err := os.Stat(tmp); err == nil && ti.Size() < int64(len(data))/2 {
			return cmd
		}
		cmd.Process.Signal(syscall.SIGCONT)
		cmd.Wait()
		if stderr != nil {
			stderr.Reset()
		}
	}
	t.Skip("could not stop the run mid-way in five tries")
	return nil
}

// diedOf fails unless cmd, waited for, ended by the signal sig, and so
// with the status 128 + sig in a shell.
func diedOf(t *testing.T, cmd *exec.Cmd, sig syscall.Signal, stderr *bytes.Buffer) {
	t.Helper()
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != sig || stderr.Len() > 0 {
		t.Errorf("%q: %v, stderr %q; want killed by %v and nothing", cmd.Args, cmd.ProcessState, stderr, sig)
	}
}

// skipIgnored skips a test of the signal sig where this process ignores
// it, as under nohup: the command inherits that and, as it should, keeps
// ignoring it, so that the run would not end.
func skipIgnored(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if signal.Ignored(sig) {
		t.Skipf("%v is ignored where the test runs, as under nohup; the command keeps ignoring it", sig)
	}
}

// waitSignalled waits for cmd, which was sent a signal, and kills it and
// fails if it has not ended within a minute.
func waitSignalled(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	timer := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	cmd.Wait()
	if !timer.Stop() {
		t.Fatalf("%q did not end within a minute of the signal", cmd.Args)
	}
}

func TestEndToEndSignals(t *testing.T) {
	bin := buildBinary(t)
	big := bytes.Repeat([]byte("caf\xe9 au lait\n"), 16<<20/14)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		// -o with its input from a pipe, fed in part: the signal comes
		// mid-way, whatever the speed of the machine.
		t.Run("-o/"+sig.String(), func(t *testing.T) {
			skipIgnored(t, sig)
			dir := t.TempDir()
			out := writeFile(t, dir, "out.txt", []byte("old\n"))
			before := identify(t, out)
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer pw.Close()
			var stderr bytes.Buffer
			cmd := exec.Command(bin, "fix", "-o", "out.txt")
			cmd.Dir, cmd.Stdin, cmd.Stderr = dir, pr, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pr.Close()
			if _, err := pw.Write(big[:32<<10]); err != nil {
				t.Fatal(err)
			}
			waitTemp(t, dir, cmd)
			cmd.Process.Signal(sig)
			waitSignalled(t, cmd)
			diedOf(t, cmd, sig, &stderr)
			if after := identify(t, out); after != before {
				t.Errorf("out.txt changed: %+v; was %+v", after, before)
			}
			noTemps(t, dir)
		})
		// -w on a large file: the run is stopped while its temporary file
		// holds less than half of the result, so that the signal lands
		// mid-way.
		t.Run("-w/"+sig.String(), func(t *testing.T) {
			skipIgnored(t, sig)
			dir := t.TempDir()
			var stderr bytes.Buffer
			cmd := stopMidway(t, dir, big, &stderr, bin, "fix", "-w", "big.txt")
			f := filepath.Join(dir, "big.txt")
			before := identify(t, f)
			cmd.Process.Signal(sig)
			cmd.Process.Signal(syscall.SIGCONT)
			waitSignalled(t, cmd)
			diedOf(t, cmd, sig, &stderr)
			if after := identify(t, f); after != before {
				t.Errorf("big.txt changed: inode %d, %d bytes; was %d, %d", after.ino, len(after.data), before.ino, len(before.data))
			}
			noTemps(t, dir)
		})
	}

	// SIGKILL cannot be caught: its temporary file stays, and a later run
	// says where it is once it is old enough to be no other run's.
	t.Run("SIGKILL", func(t *testing.T) {
		dir := t.TempDir()
		f := filepath.Join(dir, "big.txt")
		cmd := stopMidway(t, dir, big, nil, bin, "fix", "-w", "big.txt")
		tmp := waitTemp(t, dir, cmd)
		cmd.Process.Kill()
		cmd.Wait()
		if err := os.WriteFile(f, []byte("caf\xe9\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := e2eRun{args: []string{"fix", "-w", "big.txt"}, dir: dir}.exec(t, bin)
		if stderr != "" || code != exitOK {
			t.Errorf("fix -w beside a fresh temporary file: %q, %d; want nothing, 0", stderr, code)
		}
		if err := os.Chtimes(tmp, past, past); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(f, []byte("caf\xe9\n"), 0o644)
		for _, args := range [][]string{{"fix", "-w", "big.txt"}, {"fix", "-o", "big.txt", "-"}} {
			_, stderr, code = e2eRun{args: args, dir: dir}.exec(t, bin)
			want := "utf8stream: " + filepath.Base(tmp) + ": temporary file of an interrupted run, last written " +
				past.Local().Format("2006-01-02 15:04:05") + "; remove it if no other utf8stream is at work on it\n"
			if stderr != want || code != exitOK {
				t.Errorf("%q beside an old temporary file: %q, %d; want %q, 0", args, stderr, code, want)
			}
		}
		if _, err := os.Stat(tmp); err != nil {
			t.Errorf("the old temporary file was removed: %v", err)
		}
	})

	// What a shell sees: 128 plus the signal's number. (After SIGINT a
	// shell may end the script itself, so that one is left out.)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run("shell/"+sig.String(), func(t *testing.T) {
			skipIgnored(t, sig)
			dir := t.TempDir()
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer pw.Close()
			var stdout bytes.Buffer
			cmd := exec.Command("/bin/sh", "-c", `"$0" "$@"; echo "status $?"`, bin, "fix", "-o", "out.txt")
			cmd.Dir, cmd.Stdin, cmd.Stdout = dir, pr, &stdout
			if err := cmd.Start(); err != nil {
				t.Skip(err)
			}
			pr.Close()
			pw.Write(big[:32<<10])
			waitTemp(t, dir, cmd)
			children := fmt.Sprintf("/proc/%d/task/%d/children", cmd.Process.Pid, cmd.Process.Pid)
			b, err := os.ReadFile(children)
			var pid int
			if _, serr := fmt.Sscan(string(b), &pid); err != nil || serr != nil {
				cmd.Process.Kill()
				cmd.Wait()
				t.Skipf("cannot find the shell's child in %s: %v %v", children, err, serr)
			}
			syscall.Kill(pid, sig)
			waitSignalled(t, cmd)
			if want := fmt.Sprintf("status %d\n", 128+int(sig)); stdout.String() != want {
				t.Errorf("the shell printed %q; want %q", stdout.String(), want)
			}
			noTemps(t, dir)
		})
	}

	// A signal ignored from the start, as under nohup, stays ignored.
	t.Run("ignored SIGHUP", func(t *testing.T) {
		dir := t.TempDir()
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd := exec.Command("/bin/sh", "-c", `trap "" HUP; exec "$0" "$@"`, bin, "fix", "-o", "out.txt")
		cmd.Dir, cmd.Stdin, cmd.Stderr = dir, pr, &stderr
		if err := cmd.Start(); err != nil {
			t.Skip(err)
		}
		pr.Close()
		pw.Write(big[:32<<10])
		waitTemp(t, dir, cmd)
		cmd.Process.Signal(syscall.SIGHUP)
		pw.Write([]byte("end\xff"))
		pw.Close()
		if err := cmd.Wait(); err != nil || stderr.Len() > 0 {
			t.Errorf("fix -o under nohup: %v, %q; want it to finish", err, stderr.String())
		}
		got, _ := os.ReadFile(filepath.Join(dir, "out.txt"))
		want := bytes.ReplaceAll(append(big[:32<<10:32<<10], "end\xff"...), []byte{0xe9}, []byte("\uFFFD"))
		want = bytes.ReplaceAll(want, []byte{0xff}, []byte("\uFFFD"))
		if !bytes.Equal(got, want) {
			t.Errorf("out.txt: %d bytes ending %q; want %d", len(got), got[max(len(got)-20, 0):], len(want))
		}
	})
}

// TestEndToEndDirectory walks a tree that holds what a walk must not
// open, a FIFO, and a directory it may not read.
func TestEndToEndDirectory(t *testing.T) {
	bin := buildBinary(t)
	uid := 0
	if os.Geteuid() == 0 {
		uid = unprivileged
	}
	dir, err := os.MkdirTemp("", "utf8stream-walk-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.Chmod(filepath.Join(dir, "b", "locked"), 0o755)
		os.RemoveAll(dir)
	})
	for _, d := range []string{"a", "b/locked", "c"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, dir, "a/bad.txt", []byte("a\xff\n"))
	writeFile(t, dir, "b/locked/bad.txt", []byte("b\xff\n"))
	writeFile(t, dir, "c/bad.txt", []byte("c\xff\n"))
	if err := syscall.Mkfifo(filepath.Join(dir, "a", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if uid != 0 {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			return os.Lchown(path, uid, uid)
		})
	}
	if err := os.Chmod(filepath.Join(dir, "b", "locked"), 0o000); err != nil {
		t.Fatal(err)
	}
	if f, err := os.Open(filepath.Join(dir, "b", "locked")); uid == 0 && err == nil {
		f.Close()
		t.Skip("this user may read a locked directory")
	}
	stdout, stderr, code := e2eRun{args: []string{"check", "-l", "."}, dir: dir, uid: uid}.exec(t, bin)
	if want := "a/bad.txt\nc/bad.txt\n"; stdout != want || stderr != "utf8stream: b/locked: open: permission denied\n" || code != exitError {
		t.Errorf("check -l DIR: %q, %q, %d; want %q, a message for b/locked, 2", stdout, stderr, code, want)
	}
	stdout, stderr, code = e2eRun{args: []string{"fix", "-w", "."}, dir: dir, uid: uid}.exec(t, bin)
	if stdout != "" || stderr != "utf8stream: b/locked: open: permission denied\n" || code != exitError {
		t.Errorf("fix -w DIR: %q, %q, %d; want a message for b/locked, 2", stdout, stderr, code)
	}
	for _, name := range []string{"a/bad.txt", "c/bad.txt"} {
		if got := identify(t, filepath.Join(dir, name)); !strings.HasSuffix(got.data, "\uFFFD\n") {
			t.Errorf("fix -w DIR left %s as %q", name, got.data)
		}
	}
}
