package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// excelText is the content of an Excel "Unicode text" export: UTF-16LE
// with a byte order mark, tabs and CRLF.
const excelText = "Name\tCity\r\nZoë\tKöln\r\n日本\t😀\r\n"

func excelFile(t *testing.T) []byte {
	t.Helper()
	b, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(excelText))
	if err != nil || !bytes.HasPrefix(b, []byte{0xFF, 0xFE}) {
		t.Fatalf("encoding the Excel file: % X, %v", b, err)
	}
	return b
}

// TestCheckByteOrderMark checks what check says of files that start with
// the byte order mark of UTF-16 or UTF-32, a byte at a time from standard
// input and from files.
func TestCheckByteOrderMark(t *testing.T) {
	u32, _ := utf32.UTF32(utf32.BigEndian, utf32.UseBOM).NewEncoder().Bytes([]byte("abc"))
	dir := t.TempDir()
	for _, tc := range []struct {
		desc, form, mark string
		in               []byte
	}{
		{"Excel UTF-16LE", "UTF-16LE", "FF FE", excelFile(t)},
		{"UTF-16BE", "UTF-16BE", "FE FF", []byte("\xFE\xFF\x00a")},
		{"UTF-32BE", "UTF-32BE", "00 00 FE FF", u32},
		{"UTF-32LE, only the mark", "UTF-32LE", "FF FE 00 00", []byte("\xFF\xFE\x00\x00")},
		{"UTF-16LE, only the mark", "UTF-16LE", "FF FE", []byte("\xFF\xFE")},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			from := strings.ToLower(tc.form[:len(tc.form)-2])
			var stdout, stderr bytes.Buffer
			code := run([]string{"check"}, iotest.OneByteReader(bytes.NewReader(tc.in)), &stdout, &stderr)
			want := "<stdin>: " + tc.form + " text (byte-order mark " + tc.mark + "), not UTF-8; convert it with: utf8stream fix -from " + from + "\n"
			if code != exitInvalid || stdout.String() != want || stderr.Len() > 0 {
				t.Errorf("check: exit %d, %q, %q; want 1, %q", code, stdout.String(), stderr.String(), want)
			}
			name := filepath.Join(dir, "in file.txt")
			if err := os.WriteFile(name, tc.in, 0o600); err != nil {
				t.Fatal(err)
			}
			stdout.Reset()
			code = run([]string{"check", "-json", name}, nil, &stdout, &stderr)
			if code != exitInvalid || !strings.Contains(stdout.String(), `"valid":false,"subparts":0`) || !strings.Contains(stdout.String(), `"form":"`+strings.ToLower(tc.form)+`"`) {
				t.Errorf("check -json: exit %d, %q", code, stdout.String())
			}
			stdout.Reset()
			code = run([]string{"check", name}, nil, &stdout, &stderr)
			if want := "fix -from " + from + " '" + name + "'\n"; code != exitInvalid || !strings.HasSuffix(stdout.String(), want) {
				t.Errorf("check %s: exit %d, %q; want the end %q", name, code, stdout.String(), want)
			}
		})
	}
	// UTF-8 with its mark, or with bytes FF FE later on, is checked as
	// UTF-8.
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check"}, strings.NewReader("\xEF\xBB\xBFok"), &stdout, &stderr); code != exitOK || stdout.Len() > 0 {
		t.Errorf("check of UTF-8 with a mark: exit %d, %q", code, stdout.String())
	}
	if code := run([]string{"check"}, strings.NewReader("a\xFF\xFE"), &stdout, &stderr); code != exitInvalid || !strings.Contains(stdout.String(), "<stdin>:1:2: offset 1: ill-formed bytes FF") {
		t.Errorf("check of FF FE after a: exit %d, %q", code, stdout.String())
	}
}

// TestFixFromTo converts with -from and -to through run, a byte at a time.
func TestFixFromTo(t *testing.T) {
	excel := excelFile(t)
	for _, tc := range []struct {
		args []string
		in   []byte
		want string
		code int
	}{
		{[]string{"-from", "utf-16"}, excel, excelText, exitOK},
		{[]string{"-from", "auto"}, excel, excelText, exitOK},
		{[]string{"-from", "UTF-16LE"}, excel, "\uFEFF" + excelText, exitOK},
		{[]string{"-from", "utf-16le", "-strip-bom"}, excel, excelText, exitOK},
		{[]string{"-from", "auto"}, []byte("\xEF\xBB\xBFcaf\xE9"), "caf\uFFFD", exitOK},
		{[]string{"-from", "auto"}, []byte("caf\xE9"), "caf\uFFFD", exitOK},
		{[]string{"-from", "auto"}, []byte("\x00\x00\xFE\xFF\x00\x00\x00a"), "a", exitOK},
		{[]string{"-from", "utf-32"}, []byte("a\x00\x00\x00\x00\xD8\x00\x00"), "a\uFFFD", exitOK},
		{[]string{"-from", "utf-16be"}, []byte("\x00a\xD8\x00\x00b\x00"), "a\uFFFDb\uFFFD", exitOK},
		{[]string{"-from", "utf-16be", "-policy", "backslashreplace"}, []byte("\x00a\xD8\x00\x00b\x00"), `a\xd8\x00b\x00`, exitOK},
		{[]string{"-from", "utf-16be", "-policy", "reject"}, []byte("\x00a\xD8\x00\x00b"), "a", exitInvalid},
		{[]string{"-to", "utf-16le"}, []byte("caf\xE9"), "c\x00a\x00f\x00\xFD\xFF", exitOK},
		{[]string{"-to", "utf-32be", "-policy", "optu8"}, []byte("\xE9"), "\x00\x00\xEF\xE9", exitOK},
		{[]string{"-to", "utf-16be", "-policy", "reject"}, []byte("ab\xE9"), "\x00a\x00b", exitInvalid},
		{[]string{"-from", "utf-16le", "-to", "utf-32le", "-policy", "surrogateescape"}, []byte("a\x00\xE9\xDC"), "a\x00\x00\x00\xE9\xDC\x00\x00", exitOK},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"fix"}, tc.args...), iotest.OneByteReader(bytes.NewReader(tc.in)), &stdout, &stderr)
		if code != tc.code || stdout.String() != tc.want || (code == exitOK) != (stderr.Len() == 0) {
			t.Errorf("fix %q (% X): exit %d, %q, %q; want %d, %q", tc.args, tc.in, code, stdout.String(), stderr.String(), tc.code, tc.want)
		}
	}
	var stdout, stderr bytes.Buffer
	run([]string{"fix", "-from", "utf-16be", "-policy", "reject"}, strings.NewReader("\x00a\xD8\x00\x00b"), &stdout, &stderr)
	if want := "<stdin>: offset 2: ill-formed UTF-16BE bytes D8 00: lone surrogate U+D800\n"; stderr.String() != want {
		t.Errorf("fix -from utf-16be -policy reject: stderr %q; want %q", stderr.String(), want)
	}
	for _, args := range [][]string{{"-from", "utf-7"}, {"-to", "auto"}, {"-to", "utf-16"}, {"-stats", "-to", "utf-16le"}} {
		stderr.Reset()
		if code := run(append([]string{"fix"}, args...), strings.NewReader(""), &stdout, &stderr); code != exitError || stderr.Len() == 0 {
			t.Errorf("fix %q: exit %d, %q; want a usage error", args, code, stderr.String())
		}
	}
}

// TestEndToEndConvert runs the built command on an Excel-style UTF-16LE
// file, and fix -to then -from on the sample, which holds ill-formed
// bytes, through files and pipes.
func TestEndToEndConvert(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	excel := filepath.Join(dir, "report.txt")
	if err := os.WriteFile(excel, excelFile(t), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := execBinary(t, bin, nil, "check", excel)
	want := excel + ": UTF-16LE text (byte-order mark FF FE), not UTF-8; convert it with: utf8stream fix -from utf-16 " + excel + "\n"
	if code != exitInvalid || string(stdout) != want || len(stderr) > 0 {
		t.Errorf("check: exit %d, %q, %q; want 1, %q", code, stdout, stderr, want)
	}
	out := filepath.Join(dir, "report.csv")
	_, stderr, code = execBinary(t, bin, nil, "fix", "-from", "utf-16", "-o", out, excel)
	got, _ := os.ReadFile(out)
	if code != exitOK || len(stderr) > 0 || string(got) != excelText {
		t.Errorf("fix -from utf-16 -o: exit %d, %q, output %q; want %q", code, stderr, got, excelText)
	}
	if _, _, code := execBinary(t, bin, nil, "check", "-q", out); code != exitOK {
		t.Errorf("check of the converted file: exit %d", code)
	}
	stdout, _, code = execBinary(t, bin, nil, "fix", "-from", "auto", excel)
	if code != exitOK || string(stdout) != excelText {
		t.Errorf("fix -from auto: exit %d, %q", code, stdout)
	}
	stdout, _, code = execBinary(t, bin, nil, "help", "fix")
	for _, s := range []string{"-from", "-to", "utf-16le", "utf-32be", "auto", "byte order mark", "surrogateescape"} {
		if code != exitOK || !bytes.Contains(stdout, []byte(s)) {
			t.Errorf("help fix: exit %d, no %q", code, s)
		}
	}

	sample, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sample.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, code := execBinary(t, bin, sample, "check", "-q"); code != exitInvalid {
		t.Fatalf("the sample is valid UTF-8; it should not be")
	}
	for _, policy := range []string{"surrogateescape", "optu8"} {
		for _, form := range []string{"utf-16le", "utf-16be", "utf-32le", "utf-32be"} {
			wide, stderr, code := execBinary(t, bin, sample, "fix", "-policy", policy, "-to", form)
			if code != exitOK || len(stderr) > 0 || len(wide) < len(sample) {
				t.Fatalf("%s -to %s: exit %d, %q, %d bytes", policy, form, code, stderr, len(wide))
			}
			back, stderr, code := execBinary(t, bin, wide, "fix", "-policy", policy, "-from", form)
			if code != exitOK || len(stderr) > 0 || !bytes.Equal(back, sample) {
				t.Errorf("%s: fix -from %s of fix -to %s: exit %d, %q; the original bytes back: %v", policy, form, form, code, stderr, bytes.Equal(back, sample))
			}
			// Through files, with -o and -w.
			name := filepath.Join(dir, policy+"."+form)
			if _, stderr, code := execBinary(t, bin, sample, "fix", "-policy", policy, "-to", form, "-o", name); code != exitOK || len(stderr) > 0 {
				t.Fatalf("fix -to %s -o: exit %d, %q", form, code, stderr)
			}
			if _, stderr, code := execBinary(t, bin, nil, "fix", "-policy", policy, "-from", form, "-w", name); code != exitOK || len(stderr) > 0 {
				t.Fatalf("fix -from %s -w: exit %d, %q", form, code, stderr)
			}
			if got, _ := os.ReadFile(name); !bytes.Equal(got, sample) {
				t.Errorf("%s %s: -o then -w does not give the original bytes back", policy, form)
			}
		}
	}
}
