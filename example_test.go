package utf8stream_test

import (
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
	// offset 3, bytes ED: ED must be followed by 80..9F
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
	// [1:C3 3:F0 9F 98] {2 4 1 0}
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
