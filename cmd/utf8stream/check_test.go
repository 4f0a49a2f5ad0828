package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// table37 is Table 3-7 of the Unicode Standard, Well-Formed UTF-8 Byte
// Sequences: the byte ranges of each kind of sequence.
var table37 = [][][2]byte{
	{{0x00, 0x7F}},
	{{0xC2, 0xDF}, {0x80, 0xBF}},
	{{0xE0, 0xE0}, {0xA0, 0xBF}, {0x80, 0xBF}},
	{{0xE1, 0xEC}, {0x80, 0xBF}, {0x80, 0xBF}},
	{{0xED, 0xED}, {0x80, 0x9F}, {0x80, 0xBF}},
	{{0xEE, 0xEF}, {0x80, 0xBF}, {0x80, 0xBF}},
	{{0xF0, 0xF0}, {0x90, 0xBF}, {0x80, 0xBF}, {0x80, 0xBF}},
	{{0xF1, 0xF3}, {0x80, 0xBF}, {0x80, 0xBF}, {0x80, 0xBF}},
	{{0xF4, 0xF4}, {0x80, 0x8F}, {0x80, 0xBF}, {0x80, 0xBF}},
}

// oracleError is one ill-formed subpart as the test computes it.
type oracleError struct {
	Line, Col, Offset int64
	Bytes             string // hex
}

// oracle lists the maximal ill-formed subparts of b with their positions,
// byte by byte: utf8.DecodeRune skips the well-formed sequences, and the
// length of an ill-formed subpart is that of the longest prefix of a row of
// Table 3-7 it matches, or 1.
func oracle(b []byte) []oracleError {
	var errs []oracleError
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			i += n
			continue
		}
		n = 1
		for _, row := range table37 {
			k := 0
			for k < len(row) && i+k < len(b) && row[k][0] <= b[i+k] && b[i+k] <= row[k][1] {
				k++
			}
			n = max(n, k)
		}
		line := 1 + bytes.Count(b[:i], []byte{'\n'})
		col := i - (bytes.LastIndexByte(b[:i], '\n') + 1) + 1
		errs = append(errs, oracleError{int64(line), int64(col), int64(i), hex.EncodeToString(b[i : i+n])})
		i += n
	}
	return errs
}

// boundaryDamage is what damaged puts across the 64 KiB read boundaries,
// starting before bytes before the boundary: a subpart cut by the boundary,
// or one whose reason depends on the byte after it.
var boundaryDamage = []struct {
	before int
	damage string
}{
	{1, "\xe1\x80A"},
	{2, "\xf0\x9f\x98\n"},
	{1, "\xed\xa0\x80"},
}

// damaged returns about size bytes of multi-line, multilingual text with
// ill-formed bytes of every kind, and boundaryDamage across the 64 KiB
// boundaries.
func damaged(rng *rand.Rand, size int) []byte {
	words := []string{"hello", "Grüße", "naïve", "Привет", "мир", "γειά", "שלום", "مرحبا", "नमस्ते", "日本語", "中文", "한국어", "😀", "𝄞", "\uFFFD", "\uE000", "\uFFFF"}
	bad := []string{"\x80", "\xbf", "\xc0\xaf", "\xc1", "\xc3", "\xe0\x80", "\xe0\xa0", "\xe1\x80", "\xed\xa0\x80", "\xed\xbf", "\xef\xbf", "\xf0\x80", "\xf0\x9f\x98", "\xf4\x90\x80\x80", "\xf5", "\xf8", "\xff", "\xe9"}
	var b []byte
	for len(b) < size {
		next := (len(b)>>16 + 1) << 16
		if k := len(b) >> 16; k < len(boundaryDamage) && next-len(b) < 64 {
			bd := boundaryDamage[k]
			for len(b) < next-bd.before {
				b = append(b, ' ')
			}
			b = append(b, bd.damage...)
			continue
		}
		switch x := rng.IntN(20); {
		case x == 0:
			b = append(b, '\n')
		case x < 3:
			b = append(b, bad[rng.IntN(len(bad))]...)
		default:
			b = append(b, words[rng.IntN(len(words))]...)
			b = append(b, ' ')
		}
	}
	return b
}

// checkJSON runs check -json and decodes its output: the subpart records,
// and the file records that end the report of each file.
func checkJSON(t *testing.T, stdin io.Reader, args ...string) ([]oracleError, []jsonSubpart, int) {
	t.Helper()
	got, full, _, code := checkJSONFiles(t, stdin, args...)
	return got, full, code
}

func checkJSONFiles(t *testing.T, stdin io.Reader, args ...string) ([]oracleError, []jsonSubpart, []jsonFile, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"check", "-json", "-binary"}, args...), stdin, &out, &errOut)
	if errOut.Len() > 0 {
		t.Errorf("check -json: stderr %q", errOut.String())
	}
	var got []oracleError
	var subparts []jsonSubpart
	var files []jsonFile
	for _, line := range bytes.SplitAfter(out.Bytes(), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var rec struct{ Type string }
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("check -json: %v in %q", err, line)
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		switch rec.Type {
		case "subpart":
			var je jsonSubpart
			if err := dec.Decode(&je); err != nil {
				t.Fatalf("check -json: %v in %q", err, line)
			}
			subparts = append(subparts, je)
			got = append(got, oracleError{je.Line, je.Col, je.Offset, je.Bytes})
		case "file":
			var jf jsonFile
			if err := dec.Decode(&jf); err != nil {
				t.Fatalf("check -json: %v in %q", err, line)
			}
			files = append(files, jf)
		default:
			t.Fatalf("check -json: record of type %q: %q", rec.Type, line)
		}
	}
	return got, subparts, files, code
}

func diffErrors(t *testing.T, desc string, got, want []oracleError) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d errors; want %d", desc, len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("%s: error %d = %+v; want %+v", desc, i, got[i], want[i])
		}
	}
}

// sampled is set where UTF8STREAM_TEST_SAMPLE is, as CI sets it for its
// runs under qemu-user and Node: the longest tests take a sample there, of
// the same Go as the native runs take whole, which emulation only slows.
var sampled = os.Getenv("UTF8STREAM_TEST_SAMPLE") != ""

func TestCheckPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	input := damaged(rng, 200<<10)
	want := oracle(input)
	if len(want) < 1000 {
		t.Fatalf("the input has only %d errors", len(want))
	}
	// The boundary damage must be there for the test to mean something.
	for k := range boundaryDamage {
		b := int64(k+1) << 16
		found := false
		for _, e := range want {
			found = found || e.Offset < b && e.Offset+int64(len(e.Bytes)/2) >= b
		}
		if !found {
			t.Fatalf("no error reaches the read boundary at %d", b)
		}
	}
	path := writeFile(t, t.TempDir(), "in.txt", input)

	for _, mapped := range []bool{false, true} {
		t.Run(fmt.Sprintf("file/mapped=%v", mapped), func(t *testing.T) {
			setMapMin(t, mapped)
			got, full, code := checkJSON(t, nil, "-max", "0", path)
			if code != exitInvalid {
				t.Errorf("exit %d; want 1", code)
			}
			diffErrors(t, "check -json file", got, want)
			if len(full) > 0 && full[0].Name != path {
				t.Errorf("name %q; want %q", full[0].Name, path)
			}
		})
	}
	readers := []struct {
		desc string
		r    func(io.Reader) io.Reader
	}{
		{"OneByteReader", iotest.OneByteReader},
		{"HalfReader", iotest.HalfReader},
		{"DataErrReader", iotest.DataErrReader},
	}
	sizes := []int{1, 2, 3, 5, 7, 4096}
	if sampled {
		// Reads of a few bytes at a time of 200 KiB through the command
		// are the same Go in the native runs: a sample (see sampled).
		readers, sizes = readers[1:], []int{7, 4096}
	}
	for _, rd := range readers {
		t.Run("stdin/"+rd.desc, func(t *testing.T) {
			got, _, code := checkJSON(t, rd.r(bytes.NewReader(input)), "-max", "0")
			if code != exitInvalid {
				t.Errorf("exit %d; want 1", code)
			}
			diffErrors(t, "check -json stdin", got, want)
		})
	}
	for _, size := range sizes {
		for _, mapped := range []bool{false, true} {
			t.Run(fmt.Sprintf("bufSize=%d/mapped=%v", size, mapped), func(t *testing.T) {
				setBufSize(t, size)
				setMapMin(t, mapped)
				got, _, _ := checkJSON(t, nil, "-max", "0", path)
				diffErrors(t, "check -json", got, want)
			})
		}
	}
	t.Run("text", func(t *testing.T) {
		stdout, stderr, code := runCLI(t, nil, "check", "-max", "0", path)
		if code != exitInvalid || stderr != "" {
			t.Errorf("exit %d, stderr %q; want 1 and nothing", code, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		if len(lines) != len(want)+1 {
			t.Fatalf("%d lines; want %d errors and a summary", len(lines), len(want))
		}
		for i, w := range want {
			b, _ := hex.DecodeString(w.Bytes)
			prefix := fmt.Sprintf("%s:%d:%d: offset %d: ill-formed bytes % X: ", path, w.Line, w.Col, w.Offset, b)
			if !strings.HasPrefix(lines[i], prefix) {
				t.Fatalf("line %d = %q; want prefix %q", i, lines[i], prefix)
			}
		}
		surrogate := fmt.Sprintf("offset %d: ill-formed bytes ED: surrogate U+D800..U+DFFF", 3<<16-1)
		if !strings.Contains(stdout, surrogate) {
			t.Errorf("no line has %q", surrogate)
		}
		var n int
		for _, w := range want {
			n += len(w.Bytes) / 2
		}
		summary := fmt.Sprintf("%s: %d ill-formed subparts (%d bytes)", path, len(want), n)
		if got := lines[len(lines)-1]; got != summary {
			t.Errorf("summary %q; want %q", got, summary)
		}
	})
}

// TestCheckRandom compares check with the oracle on short random inputs
// made of pieces that are easy to get wrong.
func TestCheckRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alpha := []string{"a", "\n", "\x00", "\x80", "\xbf", "\xc0", "\xc2", "\xc2\x80", "\xdf", "\xe0", "\xe0\xa0", "\xe0\x80", "\xed", "\xed\x9f\xbf", "\xed\xa0", "\xef\xbf\xbd", "\xf0", "\xf0\x90", "\xf0\x90\x80", "\xf0\x8f", "\xf4\x8f\xbf\xbf", "\xf4\x90", "\xf5", "\xff", "é"}
	setBufSize(t, 3)
	for range 2000 {
		var in []byte
		for j := rng.IntN(16); j > 0; j-- {
			in = append(in, alpha[rng.IntN(len(alpha))]...)
		}
		got, _, code := checkJSON(t, iotest.OneByteReader(bytes.NewReader(in)), "-max", "0")
		want := oracle(in)
		diffErrors(t, fmt.Sprintf("check(%q)", in), got, want)
		if wantCode := min(len(want), 1); code != wantCode {
			t.Fatalf("check(%q): exit %d; want %d", in, code, wantCode)
		}
	}
}

func TestCheckReasons(t *testing.T) {
	tests := []struct {
		desc, in, want string
	}{
		{"continuation", "a\x80b", "<stdin>:1:2: offset 1: ill-formed bytes 80: unexpected continuation byte"},
		{"C0", "\xc0\xaf", "<stdin>:1:1: offset 0: ill-formed bytes C0: overlong encoding (C0 and C1 never appear)"},
		{"E0 overlong", "x\xe0\x80\x80", "<stdin>:1:2: offset 1: ill-formed bytes E0: overlong encoding (E0 must be followed by A0..BF)"},
		{"F0 overlong", "\xf0\x80\x80\x80", "<stdin>:1:1: offset 0: ill-formed bytes F0: overlong encoding (F0 must be followed by 90..BF)"},
		{"surrogate", "\n\n\xed\xa0\x80", "<stdin>:3:1: offset 2: ill-formed bytes ED: surrogate U+D800..U+DFFF (ED must be followed by 80..9F)"},
		{"F4 above", "\xf4\x90\x80\x80", "<stdin>:1:1: offset 0: ill-formed bytes F4: above U+10FFFF (F4 must be followed by 80..8F)"},
		{"F5", "\xf5\x80", "<stdin>:1:1: offset 0: ill-formed bytes F5: above U+10FFFF (F5..F7 never appear)"},
		{"FF", "\xff", "<stdin>:1:1: offset 0: ill-formed bytes FF: byte FF never appears in UTF-8"},
		{"Latin-1", "caf\xe9!", "<stdin>:1:4: offset 3: ill-formed bytes E9: E9 must be followed by 80..BF"},
		{"E0 then ASCII", "\xe0A", "<stdin>:1:1: offset 0: ill-formed bytes E0: E0 must be followed by A0..BF"},
		{"cut short", "\xe1\x80A", "<stdin>:1:1: offset 0: ill-formed bytes E1 80: E1 80 must be followed by 80..BF"},
		{"cut short by a lead", "\xf0\x9f\x98\xc3\xa9", "<stdin>:1:1: offset 0: ill-formed bytes F0 9F 98: F0 9F 98 must be followed by 80..BF"},
		{"truncated at end", "ok\n\xf0\x9f\x98", "<stdin>:2:1: offset 3: ill-formed bytes F0 9F 98: truncated sequence at end of input"},
		{"lone lead at end", "\xed", "<stdin>:1:1: offset 0: ill-formed bytes ED: truncated sequence at end of input"},
		{"continuation at end", "\xbf", "<stdin>:1:1: offset 0: ill-formed bytes BF: unexpected continuation byte"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			for _, size := range []int{1, 64 << 10} {
				setBufSize(t, size)
				stdout, stderr, code := runCLI(t, []byte(tc.in), "check", "-max", "1")
				first, _, _ := strings.Cut(stdout, "\n")
				if first != tc.want || code != exitInvalid || stderr != "" {
					t.Errorf("bufSize %d: check(%q) = %q, %d, stderr %q; want %q, 1", size, tc.in, first, code, stderr, tc.want)
				}
			}
		})
	}
}

func TestCheckFlags(t *testing.T) {
	in := "ok\nbad \xff here\nand \xc3 here \x80\n"
	tests := []struct {
		desc   string
		args   []string
		in     string
		code   int
		stdout string
	}{
		{"valid", nil, "héllo\n", 0, ""},
		{"empty", nil, "", 0, ""},
		{"default", nil, in, 1, "" +
			"<stdin>:2:5: offset 7: ill-formed bytes FF: byte FF never appears in UTF-8\n" +
			"<stdin>:3:5: offset 18: ill-formed bytes C3: C3 must be followed by 80..BF\n" +
			"<stdin>:3:12: offset 25: ill-formed bytes 80: unexpected continuation byte\n" +
			"<stdin>: 3 ill-formed subparts (3 bytes)\n"},
		{"dash", []string{"-"}, in, 1, "" +
			"<stdin>:2:5: offset 7: ill-formed bytes FF: byte FF never appears in UTF-8\n" +
			"<stdin>:3:5: offset 18: ill-formed bytes C3: C3 must be followed by 80..BF\n" +
			"<stdin>:3:12: offset 25: ill-formed bytes 80: unexpected continuation byte\n" +
			"<stdin>: 3 ill-formed subparts (3 bytes)\n"},
		{"-q", []string{"-q"}, in, 1, ""},
		{"-q valid", []string{"-q"}, "ok", 0, ""},
		{"-l", []string{"-l"}, in, 1, "<stdin>\n"},
		{"-l valid", []string{"-l"}, "ok", 0, ""},
		{"-max 1", []string{"-max", "1"}, in, 1, "" +
			"<stdin>:2:5: offset 7: ill-formed bytes FF: byte FF never appears in UTF-8\n" +
			"<stdin>: and 2 more ill-formed subparts (-max 0 lists all)\n" +
			"<stdin>: 3 ill-formed subparts (3 bytes)\n"},
		{"-max 2", []string{"-max", "2"}, in, 1, "" +
			"<stdin>:2:5: offset 7: ill-formed bytes FF: byte FF never appears in UTF-8\n" +
			"<stdin>:3:5: offset 18: ill-formed bytes C3: C3 must be followed by 80..BF\n" +
			"<stdin>: and 1 more ill-formed subpart (-max 0 lists all)\n" +
			"<stdin>: 3 ill-formed subparts (3 bytes)\n"},
		{"-max 3", []string{"-max", "3"}, in, 1, "" +
			"<stdin>:2:5: offset 7: ill-formed bytes FF: byte FF never appears in UTF-8\n" +
			"<stdin>:3:5: offset 18: ill-formed bytes C3: C3 must be followed by 80..BF\n" +
			"<stdin>:3:12: offset 25: ill-formed bytes 80: unexpected continuation byte\n" +
			"<stdin>: 3 ill-formed subparts (3 bytes)\n"},
		{"-json", []string{"-json", "-max", "2"}, in, 1, "" +
			`{"type":"subpart","name":"<stdin>","line":2,"col":5,"offset":7,"bytes":"ff","reason":"byte FF never appears in UTF-8"}` + "\n" +
			`{"type":"subpart","name":"<stdin>","line":3,"col":5,"offset":18,"bytes":"c3","reason":"C3 must be followed by 80..BF"}` + "\n" +
			`{"type":"file","name":"<stdin>","valid":false,"subparts":3,"ill_formed_bytes":3,"first_offset":7,"listed":2,"all_listed":false}` + "\n"},
		{"-json valid", []string{"-json"}, "ok\n", 0, "" +
			`{"type":"file","name":"<stdin>","valid":true,"subparts":0,"ill_formed_bytes":0,"listed":0,"all_listed":true}` + "\n"},
		{"one subpart", nil, "\xe1\x80", 1, "" +
			"<stdin>:1:1: offset 0: ill-formed bytes E1 80: truncated sequence at end of input\n" +
			"<stdin>: 1 ill-formed subpart (2 bytes)\n"},
		{"NUL is valid", nil, "a\x00b", 0, ""},
		{"-no-nul", []string{"-no-nul", "-binary"}, "a\x00b", 1, "" +
			"<stdin>:1:2: offset 1: ill-formed bytes 00: NUL byte\n" +
			"<stdin>: 1 ill-formed subpart (1 byte)\n"},
		{"binary", nil, "a\x00b\xff\xfe", 1, "<stdin>: binary file, 2 ill-formed subparts (2 bytes)\n"},
		{"binary -no-nul", []string{"-no-nul"}, "a\x00b", 1, "<stdin>: binary file, 1 ill-formed subpart (1 byte)\n"},
		{"binary -json", []string{"-json"}, "a\x00\xff", 1, "" +
			`{"type":"file","name":"<stdin>","valid":false,"subparts":1,"ill_formed_bytes":1,"first_offset":2,"listed":0,"all_listed":false,"binary":true}` + "\n"},
		{"binary -json valid", []string{"-json"}, "a\x00", 0, "" +
			`{"type":"file","name":"<stdin>","valid":true,"subparts":0,"ill_formed_bytes":0,"listed":0,"all_listed":true,"binary":true}` + "\n"},
		{"binary -l", []string{"-l"}, "a\x00\xff", 1, "<stdin>\n"},
		{"binary -q", []string{"-q"}, "a\x00\xff", 1, ""},
		{"binary -binary", []string{"-binary"}, "a\x00\xff", 1, "" +
			"<stdin>:1:3: offset 2: ill-formed bytes FF: byte FF never appears in UTF-8\n" +
			"<stdin>: 1 ill-formed subpart (1 byte)\n"},
		{"PNG", nil, "\x89PNG\r\n\x1a\n\xff", 1, "<stdin>: binary file, 2 ill-formed subparts (2 bytes)\n"},
		{"NUL after the first read", []string{"-max", "1"}, "\xff" + strings.Repeat("a", 70<<10) + "\x00", 1, "" +
			"<stdin>:1:1: offset 0: ill-formed bytes FF: byte FF never appears in UTF-8\n" +
			"<stdin>: 1 ill-formed subpart (1 byte)\n"},
		{"CESU-8", []string{"-q"}, "\xed\xa0\xbd\xed\xb8\x80", 1, ""},
		{"-cesu8", []string{"-cesu8"}, "\xed\xa0\xbd\xed\xb8\x80", 0, ""},
		{"-mutf8", []string{"-mutf8"}, "a\xc0\x80b", 0, ""},
		{"-wtf8", []string{"-wtf8"}, "a\xed\xa0\x80\xed\xa0\xbd\xed\xb8\x80", 0, ""},
		{"-wtf8 truncated", []string{"-wtf8"}, "a\xed\xa0", 1, "" +
			"<stdin>:1:2: offset 1: ill-formed bytes ED A0: truncated sequence at end of input\n" +
			"<stdin>: 1 ill-formed subpart (2 bytes)\n"},
		{"-bmp-only", []string{"-bmp-only"}, "a☃\n😀", 1, "" +
			"<stdin>:2:1: offset 5: ill-formed bytes F0 9F 98 80: character above U+FFFF\n" +
			"<stdin>: 1 ill-formed subpart (4 bytes)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, []byte(tc.in), append([]string{"check"}, tc.args...)...)
			if stdout != tc.stdout || code != tc.code || stderr != "" {
				t.Errorf("check %q on %q = %d\n%s\nstderr %q; want %d\n%s", tc.args, tc.in, code, stdout, stderr, tc.code, tc.stdout)
			}
		})
	}
}

func TestCheckFiles(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.txt", []byte("fine\n"))
	bad := writeFile(t, dir, "bad.txt", []byte("x\xffy\n"))
	missing := filepath.Join(dir, "missing.txt")
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}

	stdout, stderr, code := runCLI(t, nil, "check", good, missing, sub, bad)
	if code != exitError {
		t.Errorf("exit %d; want 2", code)
	}
	wantOut := bad + ":1:2: offset 1: ill-formed bytes FF: byte FF never appears in UTF-8\n" + bad + ": 1 ill-formed subpart (1 byte)\n"
	if stdout != wantOut {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, wantOut)
	}
	wantErr := "utf8stream: " + missing + ": open: " + syscall.ENOENT.Error() + "\n"
	if stderr != wantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, wantErr)
	}

	stdout, stderr, code = runCLI(t, nil, "check", "-l", good, bad, good, bad)
	if want := bad + "\n" + bad + "\n"; stdout != want || stderr != "" || code != exitInvalid {
		t.Errorf("check -l = %q, %q, %d; want %q, 1", stdout, stderr, code, want)
	}

	stdout, stderr, code = runCLI(t, []byte("\xc0"), "check", good, "-")
	if want := "<stdin>:1:1: offset 0: ill-formed bytes C0: overlong encoding (C0 and C1 never appear)\n<stdin>: 1 ill-formed subpart (1 byte)\n"; stdout != want || stderr != "" || code != exitInvalid {
		t.Errorf("check good - = %q, %q, %d; want %q, 1", stdout, stderr, code, want)
	}
}

func TestCheckInvalidName(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "caf\xe9.txt")
	if err := os.WriteFile(name, []byte("caf\xe9\n"), 0o644); err != nil {
		t.Skipf("file system refuses a name that is not UTF-8: %v", err)
	}
	for _, args := range [][]string{{"check", name}, {"check", "-l", name}, {"check", name + ".missing"}} {
		stdout, stderr, code := runCLI(t, nil, args...)
		if !utf8.ValidString(stdout) || !utf8.ValidString(stderr) {
			t.Errorf("check %q: output is not valid UTF-8:\n%q\n%q", args, stdout, stderr)
		}
		if quoted := strconv.Quote(args[len(args)-1]); !strings.Contains(stdout+stderr, quoted) {
			t.Errorf("check %q: output does not name %s:\n%s%s", args, quoted, stdout, stderr)
		}
		if code == exitOK {
			t.Errorf("check %q: exit 0", args)
		}
	}
	_, full, files, _ := checkJSONFiles(t, nil, name)
	wantName, wantHex := strings.ToValidUTF8(name, "\uFFFD"), hex.EncodeToString([]byte(name))
	if len(full) != 1 || full[0].Name != wantName || full[0].NameHex != wantHex {
		t.Errorf("check -json = %+v; want one error named %q, %s", full, wantName, wantHex)
	}
	if len(files) != 1 || files[0].Name != wantName || files[0].NameHex != wantHex {
		t.Errorf("check -json = %+v; want one file named %q, %s", files, wantName, wantHex)
	}
	stdout, _, _ := runCLI(t, nil, "check", name)
	if want := strconv.Quote(name) + ":1:4: offset 3: ill-formed bytes E9: E9 must be followed by 80..BF\n"; !strings.HasPrefix(stdout, want) {
		t.Errorf("check = %q; want prefix %q", stdout, want)
	}
}

func TestProgress(t *testing.T) {
	old := progressEvery
	progressEvery = 0
	t.Cleanup(func() { progressEvery = old })
	setBufSize(t, 16)
	in := bytes.Repeat([]byte("0123456789\n"), 100)
	for _, cmd := range [][]string{{"check"}, {"fix"}, {"restore", "-policy", "optu8"}} {
		_, stderr, code := runCLI(t, in, append(cmd, "-progress")...)
		if code != exitOK || !strings.Contains(stderr, "utf8stream: <stdin>: 0.0 MB read") {
			t.Errorf("%s -progress: exit %d, stderr %q", cmd[0], code, stderr)
		}
		_, stderr, _ = runCLI(t, in, cmd...)
		if stderr != "" {
			t.Errorf("%s: stderr %q; want nothing when stderr is not a terminal", cmd[0], stderr)
		}
	}
}

// TestCheckSample checks the README's sample against the oracle, and that
// it holds every kind of damage it is meant to show.
func TestCheckSample(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "sample.txt")
	sample, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, full, code := checkJSON(t, nil, path)
	diffErrors(t, "check -json sample.txt", got, oracle(sample))
	if code != exitInvalid {
		t.Errorf("exit %d; want 1", code)
	}
	var reasons []string
	for _, e := range full {
		reasons = append(reasons, e.Reason)
	}
	all := strings.Join(reasons, "\n")
	for _, r := range []string{"unexpected continuation byte", "overlong encoding", "surrogate", "must be followed by 80..BF", "above U+10FFFF (F5..F7", "truncated sequence at end of input"} {
		if !strings.Contains(all, r) {
			t.Errorf("no error in the sample reads %q", r)
		}
	}
}
