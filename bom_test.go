package utf8stream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// TestDetectBOM checks what DetectBOM makes of the start of a stream, for
// the Transformer, the Reader, the Writer and the helpers: a UTF-16 mark
// switches to UTF-16 under the policy, a UTF-8 mark is removed, anything
// else is UTF-8 and is checked.
func TestDetectBOM(t *testing.T) {
	for _, tc := range []struct {
		desc string
		in   string
		p    Policy
		want string
		off  int64 // of the *Error, or -1
	}{
		{"UTF-16LE", "\xFF\xFEc\x00a\x00f\x00\xE9\x00", Reject, "café", -1},
		{"UTF-16BE", "\xFE\xFF\x00c\x00a\x00f\x00\xE9", Reject, "café", -1},
		{"UTF-16LE pair", "\xFF\xFE\x3D\xD8\x00\xDE", Reject, "😀", -1},
		{"UTF-16LE lone surrogate", "\xFF\xFEa\x00\x00\xD8b\x00", Reject, "a", 4},
		{"UTF-16LE lone surrogate replaced", "\xFF\xFEa\x00\x00\xD8b\x00", Replace, "a\uFFFDb", -1},
		{"UTF-16LE odd tail", "\xFF\xFEa\x00b", Replace, "a\uFFFD", -1},
		{"UTF-16LE odd tail rejected", "\xFF\xFEa\x00b", Reject, "a", 4},
		{"UTF-16LE escape restored", "\xFF\xFEa\x00\xE9\xDC", SurrogateEscape, "a\xE9", -1},
		{"UTF-16LE second mark is content", "\xFF\xFE\xFF\xFEa\x00", Reject, "\uFEFFa", -1},
		{"UTF-16LE only the mark", "\xFF\xFE", Reject, "", -1},
		{"UTF-32LE mark is UTF-16LE then U+0000", "\xFF\xFE\x00\x00a\x00\x00\x00", Reject, "\x00a\x00", -1},
		{"UTF-8 mark removed", "\xEF\xBB\xBFcaf\xC3\xA9", Reject, "café", -1},
		{"UTF-8 mark, then checked", "\xEF\xBB\xBFcaf\xE9", Reject, "caf", 6},
		{"UTF-8 mark, then repaired", "\xEF\xBB\xBFcaf\xE9", Replace, "caf\uFFFD", -1},
		{"no mark: UTF-8 checked", "caf\xE9", Reject, "caf", 3},
		{"no mark: FF alone", "\xFF", Replace, "\uFFFD", -1},
		{"no mark: FE alone", "\xFEa", Replace, "\uFFFDa", -1},
		{"no mark: EF BB", "\xEF\xBB", Replace, "\uFFFD", -1},
		{"no mark: FF FF", "\xFF\xFFa", Replace, "\uFFFD\uFFFDa", -1},
		{"empty", "", Reject, "", -1},
		{"mark later is content", "a\xEF\xBB\xBF", Reject, "a\uFEFF", -1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			check := func(how string, got []byte, err error) {
				t.Helper()
				var e *Error
				if string(got) != tc.want || (tc.off < 0) != (err == nil) || err != nil && (!errors.As(err, &e) || e.Offset != tc.off) {
					t.Fatalf("%s(%q) = %q, %v; want %q, error at %d", how, tc.in, got, err, tc.want, tc.off)
				}
			}
			got, err := transformOnce(NewTransformer(tc.p, DetectBOM()), []byte(tc.in))
			check("Transform", got, err)
			for _, rc := range readerCases(3) {
				for _, size := range []int{1, 5, 64} {
					got, err := readSmall(NewReader(rc.mk(tc.in), tc.p, DetectBOM()), size)
					if err == io.EOF {
						err = nil
					}
					check("Reader via "+rc.name, got, err)
				}
			}
			var buf bytes.Buffer
			n, err := NewReader(strings.NewReader(tc.in), tc.p, DetectBOM()).WriteTo(&buf)
			if n != int64(buf.Len()) {
				t.Fatalf("WriteTo = %d; wrote %d", n, buf.Len())
			}
			check("WriteTo", buf.Bytes(), err)
			for cut := 0; cut <= len(tc.in); cut++ {
				got, err := writeChunks(tc.p, []byte(tc.in), []int{cut, 1}, DetectBOM())
				check("Writer", got, err)
			}
			got, err = Bytes([]byte(tc.in), tc.p, DetectBOM())
			check("Bytes", got, err)
			s, err := String(tc.in, tc.p, DetectBOM())
			check("String", []byte(s), err)
			got, err = Append([]byte("x"), []byte(tc.in), tc.p, DetectBOM())
			check("Append", got[1:], err)
		})
	}
}

// TestDetectBOMKeepsPolicy shows the pitfall of x/text's usual idiom: with
// unicode.BOMOverride a UTF-8 mark turns the policy off, so that ill-formed
// input after it passes; DetectBOM removes the mark and goes on checking.
func TestDetectBOMKeepsPolicy(t *testing.T) {
	in := "\xEF\xBB\xBFcaf\xE9"
	got, _, err := transform.String(unicode.BOMOverride(NewTransformer(Reject)), in)
	if err != nil || got != "caf\xE9" {
		t.Fatalf("BOMOverride(Reject)(%q) = %q, %v; the pitfall has gone: update this test and the docs", in, got, err)
	}
	got, _, err = transform.String(NewTransformer(Reject, DetectBOM()), in)
	var e *Error
	if got != "caf" || !errors.As(err, &e) || e.Offset != 6 {
		t.Fatalf("DetectBOM(Reject)(%q) = %q, %v; want \"caf\" and an error at 6", in, got, err)
	}
	// And a UTF-16 stream is checked too, where BOMOverride decodes it
	// with x/text's decoder, which replaces.
	in16 := "\xFF\xFEa\x00\x00\xD8"
	got, _, err = transform.String(NewTransformer(Reject, DetectBOM()), in16)
	if got != "a" || !errors.As(err, &e) || e.Offset != 4 || e.Form != "UTF-16LE" {
		t.Fatalf("DetectBOM(Reject)(%q) = %q, %v; want \"a\" and a UTF-16LE error at 4", in16, got, err)
	}
}

// TestDetectBOMReaderIOTest runs iotest.TestReader on a Reader that finds a
// UTF-16 mark, and one that finds a UTF-8 mark.
func TestDetectBOMReaderIOTest(t *testing.T) {
	text := strings.Repeat("Grüße, 世界! ", 50)
	u16, _ := unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewEncoder().String(text)
	for _, in := range []string{u16, "\xEF\xBB\xBF" + text} {
		for _, p := range allPolicies {
			if err := iotest.TestReader(NewReader(strings.NewReader(in), p, DetectBOM()), []byte(text)); err != nil {
				t.Errorf("%v % X...: %v", p, in[:4], err)
			}
		}
	}
}

// TestDetectBOMWriterShortWrite checks that a Writer in UTF-16 reports, when
// the underlying writer takes part of the output, the bytes of p whose
// output it took: the output of the counted input is all written, and no
// more than a part of the next unit's output is.
func TestDetectBOMWriterShortWrite(t *testing.T) {
	in := []byte("\xFF\xFE" + strings.Repeat("a\x00\xE9\x00\x3D\xD8\x00\xDEb\x00\x00\xD8c\x00\x2D\x4E", 20))
	full, err := writeChunks(Replace, in, []int{len(in)}, DetectBOM())
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("full")
	for limit := range full {
		for _, bufSize := range []int{16, 4096} {
			lw := &limitWriter{limit: limit, err: boom}
			w := NewWriter(lw, Replace, DetectBOM(), BufferSize(bufSize))
			n, err := w.Write(in)
			if err == nil {
				err = w.Close()
			}
			if err != boom {
				t.Fatalf("limit %d: error %v; want %v", limit, err, boom)
			}
			if n%2 != 0 {
				t.Fatalf("limit %d: count %d ends inside a unit", limit, n)
			}
			tr := NewTransformer(Replace, DetectBOM())
			dst := make([]byte, 4*len(in))
			nd, _, _ := tr.Transform(dst, in[:n], false)
			wrote := lw.buf.Bytes()
			if !bytes.HasPrefix(wrote, dst[:nd]) || len(wrote)-nd >= 4 {
				t.Fatalf("limit %d buffer %d: count %d covers %q, but wrote %q", limit, bufSize, n, dst[:nd], wrote)
			}
		}
	}
}
