package utf8stream_test

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/utf8stream/utf8stream"
	"golang.org/x/text/transform"
)

// Repair a stream, keep the original bytes in valid UTF-8 with OPTU8, and
// restore them.
func Example() {
	in := "caf\xE9 \xF0\x9F\x98\x80 \xC0\xAF"

	repaired, _ := io.ReadAll(utf8stream.NewReader(strings.NewReader(in), utf8stream.Replace))
	fmt.Printf("%q\n", repaired)

	escaped, _, _ := transform.String(utf8stream.NewTransformer(utf8stream.OPTU8), in)
	restored, _, _ := transform.String(utf8stream.NewUnescaper(utf8stream.OPTU8), escaped)
	fmt.Println(restored == in)
	// Output:
	// "caf� 😀 ��"
	// true
}

func ExampleNewReader() {
	r := utf8stream.NewReader(strings.NewReader("ok\xFFok"), utf8stream.Reject)
	data, err := io.ReadAll(r)
	fmt.Printf("%q\n%v\n", data, err)
	// Output:
	// "ok"
	// utf8stream: invalid UTF-8 at offset 2: bytes FF: byte FF never appears in UTF-8
}

// A database load: PostgreSQL refuses NUL and invalid UTF-8 in text, so the
// loader's filter is Reject with NoNUL. Lines makes the error name the line,
// as the database would. A bufio.Scanner hands back the line cut short by
// the error as its last token, before Err reports the error.
func ExampleNewReader_database() {
	csv := "id,name\n1,Zoë\n2,a NUL\x00\n3,caf\xE9\n"
	r := utf8stream.NewReader(strings.NewReader(csv), utf8stream.Reject, utf8stream.NoNUL(), utf8stream.Lines())
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fmt.Printf("%q\n", sc.Text())
	}
	var e *utf8stream.Error
	if errors.As(sc.Err(), &e) {
		fmt.Printf("line %d, column %d: bytes % X: %s\n", e.Line, e.Column, e.Bytes, e.Reason())
	}
	// Output:
	// "id,name"
	// "1,Zoë"
	// "2,a NUL"
	// line 3, column 8: bytes 00: NUL byte
}

func ExampleNewWriter() {
	w := utf8stream.NewWriter(os.Stdout, utf8stream.Replace)
	// A character split across writes is put back together.
	w.Write([]byte("euro: \xE2\x82"))
	w.Write([]byte("\xAC, broken: \xE2\x82"))
	// Close settles the unfinished tail, and leaves os.Stdout open.
	w.Close()
	fmt.Println()
	// Output:
	// euro: €, broken: �
}

func ExampleNewTransformer() {
	t := utf8stream.NewTransformer(utf8stream.SurrogateEscape)
	s, _, _ := transform.String(t, "a\xFFb")
	fmt.Printf("%q\n", s)
	// Output:
	// "a\xed\xb3\xbfb"
}

func ExampleNewUnescaper() {
	escaped := "a\xEE\xBF\xBFb" // OPTU8 for a\xFFb
	s, _, _ := transform.String(utf8stream.NewUnescaper(utf8stream.OPTU8), escaped)
	fmt.Printf("%q\n", s)
	// Output:
	// "a\xffb"
}

func ExampleParsePolicy() {
	p, err := utf8stream.ParsePolicy("surrogateescape")
	fmt.Println(p, err)

	// A Policy is a flag.TextVar.
	fs := flag.NewFlagSet("tool", flag.ContinueOnError)
	var policy utf8stream.Policy
	fs.TextVar(&policy, "policy", utf8stream.Replace, "what to do with ill-formed input")
	fs.Parse([]string{"-policy", "optu8"})
	fmt.Println(policy)
	// Output:
	// surrogateescape <nil>
	// optu8
}

func ExampleError() {
	_, err := io.ReadAll(utf8stream.NewReader(strings.NewReader("abc\xED\xA0\x80"), utf8stream.Reject))
	var e *utf8stream.Error
	if errors.As(err, &e) {
		fmt.Printf("offset %d, bytes % X: %s\n", e.Offset, e.Bytes, e.Reason())
	}
	fmt.Println(errors.Is(err, utf8stream.ErrInvalid))
	// Output:
	// offset 3, bytes ED: ED must be followed by 80..9F (surrogate U+D800..U+DFFF, or a sequence cut short)
	// true
}

func ExampleOnInvalid() {
	var log []string
	t := utf8stream.NewTransformer(utf8stream.Replace, utf8stream.OnInvalid(func(e utf8stream.Error) {
		log = append(log, fmt.Sprintf("%d:% X", e.Offset, e.Bytes))
	}))
	transform.String(t, "a\xC3b\xF0\x9F\x98")
	fmt.Println(log, t.Stats())
	// Output:
	// [1:C3 3:F0 9F 98] 2 ill-formed subparts (4 bytes), first at offset 1
}

func ExampleStripBOM() {
	s, _, _ := transform.String(utf8stream.NewTransformer(utf8stream.Reject, utf8stream.StripBOM()), "\uFEFFhi\uFEFF")
	fmt.Printf("%q\n", s)
	// Output:
	// "hi\ufeff"
}

func ExampleNoNUL() {
	s, _, _ := transform.String(utf8stream.NewTransformer(utf8stream.Replace, utf8stream.NoNUL()), "a\x00b")
	fmt.Printf("%q\n", s)
	// Output:
	// "a�b"
}

func ExampleCESU8() {
	// U+1F600 as Java's CESU-8 writes it: a surrogate pair.
	s, _, _ := transform.String(utf8stream.NewTransformer(utf8stream.Reject, utf8stream.CESU8()), "\xED\xA0\xBD\xED\xB8\x80")
	fmt.Printf("%q\n", s)
	// Output:
	// "😀"
}

func ExampleWTF8() {
	// A Windows file name as Go's syscall package or Rust's OsString
	// writes it in WTF-8: a lone surrogate, U+D800, then U+1F600 as a
	// surrogate pair.
	name := "a\xED\xA0\x80b\xED\xA0\xBD\xED\xB8\x80.txt"
	s, _, err := transform.String(utf8stream.NewTransformer(utf8stream.Reject, utf8stream.WTF8()), name)
	fmt.Printf("%q %v\n", s, err)
	// Output:
	// "a\xed\xa0\x80b😀.txt" <nil>
}

func ExampleBMPOnly() {
	// Ready for a MySQL column in utf8mb3, which holds no character above
	// U+FFFF: Reject finds the first, Replace writes U+FFFD for each.
	in := "naïve ☃ 😀 \U0001D11E"
	_, _, err := transform.String(utf8stream.NewTransformer(utf8stream.Reject, utf8stream.BMPOnly()), in)
	fmt.Println(err)
	s, _, _ := transform.String(utf8stream.NewTransformer(utf8stream.Replace, utf8stream.BMPOnly()), in)
	fmt.Println(s)
	// Output:
	// utf8stream: invalid UTF-8 at offset 11: bytes F0 9F 98 80: character above U+FFFF
	// naïve ☃ � �
}

func ExampleModifiedUTF8() {
	s, _, _ := transform.String(utf8stream.NewTransformer(utf8stream.Reject, utf8stream.ModifiedUTF8()), "a\xC0\x80b")
	fmt.Printf("%q\n", s)
	// Output:
	// "a\x00b"
}

func ExampleReplacement() {
	s, _, _ := transform.String(utf8stream.NewTransformer(utf8stream.Replace, utf8stream.Replacement("?")), "na\xEFve")
	fmt.Println(s)
	// Output:
	// na?ve
}

func ExampleBufferSize() {
	r := utf8stream.NewReader(strings.NewReader("\xFF\xFE"), utf8stream.Drop, utf8stream.BufferSize(64<<10))
	data, err := io.ReadAll(r)
	fmt.Printf("%q %v\n", data, err)
	// Output:
	// "" <nil>
}

// Each policy on the same input: a Latin-1 "é", a truncated "€" and a
// surrogate.
func Example_policies() {
	in := "caf\xE9 \xE2\x82 \xED\xA0\x80"
	for _, p := range []utf8stream.Policy{
		utf8stream.Reject, utf8stream.Replace, utf8stream.SurrogateEscape,
		utf8stream.OPTU8, utf8stream.Drop, utf8stream.Windows1252,
		utf8stream.BackslashReplace,
	} {
		out, _, err := transform.String(utf8stream.NewTransformer(p), in)
		fmt.Printf("%-16s %+q %v\n", p, out, err != nil)
	}
	// Output:
	// reject           "caf" true
	// replace          "caf\ufffd \ufffd \ufffd\ufffd\ufffd" false
	// surrogateescape  "caf\xed\xb3\xa9 \xed\xb3\xa2\xed\xb2\x82 \xed\xb3\xad\xed\xb2\xa0\xed\xb2\x80" false
	// optu8            "caf\uefe9 \uefe2\uef82 \uefed\uefa0\uef80" false
	// drop             "caf  " false
	// windows1252      "caf\u00e9 \u00e2\u201a \u00ed\u00a0\u20ac" false
	// backslashreplace "caf\\xe9 \\xe2\\x82 \\xed\\xa0\\x80" false
}

// BackslashReplace keeps what the bytes were, readable, in a log line.
func Example_backslashReplace() {
	w := utf8stream.NewWriter(os.Stdout, utf8stream.BackslashReplace)
	fmt.Fprintf(w, "user=%s path=%s\n", "caf\xE9", "/tmp/\xFF\xFE")
	w.Close()
	// Output:
	// user=caf\xe9 path=/tmp/\xff\xfe
}

// Encoding plugs a policy into code written for golang.org/x/text/encoding.
func ExampleEncoding() {
	e := utf8stream.Encoding(utf8stream.OPTU8)
	escaped, _ := e.NewDecoder().String("a\xFFb")
	raw, _ := e.NewEncoder().String(escaped)
	fmt.Printf("%+q %q\n", escaped, raw)
	// Output:
	// "a\uefffb" "a\xffb"
}

func ExampleValid() {
	fmt.Println(utf8stream.Valid([]byte("naïve")), utf8stream.Valid([]byte("na\xEFve")))
	// Output:
	// true false
}

func ExampleValidString() {
	fmt.Println(utf8stream.ValidString("日本語"), utf8stream.ValidString("\xED\xA0\x80"))
	// Output:
	// true false
}

func ExampleBytes() {
	out, err := utf8stream.Bytes([]byte("caf\xE9"), utf8stream.Windows1252)
	fmt.Printf("%q %v\n", out, err)
	// Output:
	// "café" <nil>
}

// Under Reject the helpers return the valid prefix and the error.
func ExampleString() {
	s, err := utf8stream.String("ok \xF0\x9F\x98 ok", utf8stream.Replace)
	fmt.Printf("%+q %v\n", s, err)
	s, err = utf8stream.String("ok \xF0\x9F\x98 ok", utf8stream.Reject)
	fmt.Printf("%q %v\n", s, err)
	// Output:
	// "ok \ufffd ok" <nil>
	// "ok " utf8stream: invalid UTF-8 at offset 3: bytes F0 9F 98: F0 9F 98 must be followed by 80..BF
}

// Append reuses a buffer: with room for the output it allocates nothing.
func ExampleAppend() {
	buf := make([]byte, 0, 64)
	for _, line := range []string{"first\n", "sec\xFFond\n"} {
		buf, _ = utf8stream.Append(buf[:0], []byte(line), utf8stream.Replace)
		fmt.Printf("%+q\n", buf)
	}
	// Output:
	// "first\n"
	// "sec\ufffdond\n"
}

// A file name that is not valid UTF-8 survives the trip to UTF-16 (a
// Windows API, a Java or JavaScript string) and back under SurrogateEscape:
// each ill-formed byte is one lone surrogate there.
func ExampleUTF16() {
	name := "caf\xE9.txt"
	e := utf8stream.UTF16(utf8stream.LittleEndian, utf8stream.SurrogateEscape)
	wide, _ := e.NewEncoder().String(name)
	fmt.Printf("% X\n", wide)
	back, _ := e.NewDecoder().String(wide)
	fmt.Println(back == name)
	// Output:
	// 63 00 61 00 66 00 E9 DC 2E 00 74 00 78 00 74 00
	// true
}

// The decoder of UTF32 replaces what UTF-32 cannot hold, a code unit at a
// time, and a truncated unit at the end.
func ExampleUTF32() {
	e := utf8stream.UTF32(utf8stream.BigEndian, utf8stream.Replace)
	s, _ := e.NewDecoder().String("\x00\x00\x00a\x00\x11\x00\x00\x00\x00\xD8\x00\x00\x00")
	fmt.Printf("%+q\n", s)
	// Output:
	// "a\ufffd\ufffd\ufffd"
}

// AppendUTF16 gives the code units that Go's own conversions cannot:
// the byte E9 is the lone surrogate U+DCE9.
func ExampleAppendUTF16() {
	units, _ := utf8stream.AppendUTF16(nil, []byte("caf\xE9"), utf8stream.SurrogateEscape)
	fmt.Printf("%X\n", units)
	// Output:
	// [63 61 66 DCE9]
}

// A []uint16 behaves as a Python str: a lone surrogate is an error under
// Reject, \udce9 under BackslashReplace, and under SurrogateEscape a byte
// where it is an escape and an error where it is not.
func ExampleAppendFromUTF16() {
	units := []uint16{'o', 'k', 0xDCE9, 0xD800}
	for _, p := range []utf8stream.Policy{utf8stream.Reject, utf8stream.BackslashReplace, utf8stream.Replace, utf8stream.SurrogateEscape} {
		out, err := utf8stream.AppendFromUTF16(nil, units, p)
		fmt.Printf("%v: %+q %v\n", p, out, err)
	}
	// Output:
	// reject: "ok" utf8stream: invalid UTF-16 at unit 2: bytes DC E9: lone surrogate U+DCE9
	// backslashreplace: "ok\\udce9\\ud800" <nil>
	// replace: "ok\ufffd\ufffd" <nil>
	// surrogateescape: "ok\xe9" utf8stream: invalid UTF-16 at unit 3: bytes D8 00: lone surrogate U+D800
}

func ExampleAppendRunes() {
	runes, _ := utf8stream.AppendRunes(nil, []byte("\xFF😀"), utf8stream.OPTU8)
	fmt.Printf("%U\n", runes)
	// Output:
	// [U+EFFF U+1F600]
}

func ExampleAppendFromRunes() {
	out, err := utf8stream.AppendFromRunes(nil, []rune{'a', 0xDCFF, 0x1F600}, utf8stream.SurrogateEscape)
	fmt.Printf("%q %v\n", out, err)
	// Output:
	// "a\xff😀" <nil>
}

// DetectBOM reads what Excel's "Unicode text" and many Windows tools write,
// UTF-16 with a byte order mark, and still checks UTF-8 after a UTF-8 mark,
// where x/text's unicode.BOMOverride would turn the policy off.
func ExampleDetectBOM() {
	for _, in := range []string{"\xFF\xFEc\x00a\x00f\x00\xE9\x00", "\xEF\xBB\xBFcaf\xE9"} {
		out, err := io.ReadAll(utf8stream.NewReader(strings.NewReader(in), utf8stream.Reject, utf8stream.DetectBOM()))
		fmt.Printf("%q %v\n", out, err)
	}
	// Output:
	// "café" <nil>
	// "caf" utf8stream: invalid UTF-8 at offset 6: bytes E9: E9 must be followed by 80..BF
}
