package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/utf8stream/utf8stream"
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// This file holds fix -from and -to, which convert between UTF-8 and
// UTF-16 or UTF-32, and what check says about a file that starts with the
// byte order mark of one of them.

// fromForms and toForms are the values of fix -from and -to.
var (
	fromForms = []string{"utf-8", "utf-16le", "utf-16be", "utf-16", "utf-32le", "utf-32be", "utf-32", "auto"}
	toForms   = []string{"utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be"}
)

// convFlags are fix -from and -to.
type convFlags struct {
	from, to string // lower case; "" is utf-8
}

func (c *convFlags) define(fs *flag.FlagSet) {
	fs.Func("from", "read the input as `FORM`: utf-8 (the default), utf-16le, utf-16be, utf-32le, utf-32be,\nutf-16 or utf-32 (byte order from a byte order mark, else little-endian), or auto (UTF-16 or UTF-32 after\ntheir byte order marks, else UTF-8)", func(s string) error {
		return parseForm(&c.from, s, fromForms)
	})
	fs.Func("to", "write the output as `FORM`: utf-8 (the default), utf-16le, utf-16be, utf-32le or utf-32be, with no byte order mark", func(s string) error {
		return parseForm(&c.to, s, toForms)
	})
}

func parseForm(dst *string, s string, forms []string) error {
	s = strings.ToLower(s)
	if slices.Contains(forms, s) {
		*dst = s
		return nil
	}
	return fmt.Errorf("unknown form %q (want one of %s)", s, strings.Join(forms, ", "))
}

// active reports whether -from or -to asks for a conversion.
func (c *convFlags) active() bool {
	return c.from != "" && c.from != "utf-8" || c.to != "" && c.to != "utf-8"
}

// wideEncoding returns the encoding of package utf8stream for the form f,
// or nil for UTF-8. "utf-16" and "utf-32" read the byte order from a byte
// order mark.
func wideEncoding(f string, p utf8stream.Policy, opts []utf8stream.Option) encoding.Encoding {
	order := utf8stream.LittleEndian
	if strings.HasSuffix(f, "be") {
		order = utf8stream.BigEndian
	}
	if f == "utf-16" || f == "utf-32" {
		opts = append(opts[:len(opts):len(opts)], utf8stream.DetectBOM())
	}
	switch {
	case strings.HasPrefix(f, "utf-16"):
		return utf8stream.UTF16(order, p, opts...)
	case strings.HasPrefix(f, "utf-32"):
		return utf8stream.UTF32(order, p, opts...)
	}
	return nil
}

// writer returns the writer that fix writes an input that starts with
// head through to w: it decodes the input from the form of -from to UTF-8
// under the policy, and encodes that to the form of -to under the policy,
// so that with a policy that restores (surrogateescape, optu8) -to X and
// then -from X give back the original bytes. Its Close settles the end of
// the input but does not close w.
func (c *convFlags) writer(w io.Writer, head []byte, p utf8stream.Policy, opts []utf8stream.Option) io.WriteCloser {
	from := c.from
	if from == "auto" {
		switch from = markForm(head); from {
		case "":
			from = "utf-8"
		case "utf-8":
			opts = append(opts[:len(opts):len(opts)], utf8stream.StripBOM())
		default:
			// The decoder finds the mark again and removes it.
			from = from[:len(from)-2]
		}
	}
	return c.pipeline(w, from, p, opts)
}

// pipeline is writer for an input in the form from, which is not auto.
func (c *convFlags) pipeline(w io.Writer, from string, p utf8stream.Policy, opts []utf8stream.Option) io.WriteCloser {
	var out io.WriteCloser = nopCloser{w}
	if enc := wideEncoding(c.to, p, opts); enc != nil {
		out = &convertWriter{out: out, tw: transform.NewWriter(w, enc.NewEncoder())}
	}
	if dec := wideEncoding(from, p, opts); dec != nil {
		return &convertWriter{out: out, tw: transform.NewWriter(out, dec.NewDecoder())}
	}
	if c.to != "" && c.to != "utf-8" {
		// The encoder applies the policy to UTF-8 itself.
		return out
	}
	return &convertWriter{out: out, tw: utf8stream.NewWriter(w, p, opts...)}
}

// convertWriter writes through tw, a transform.Writer or a utf8stream.Writer,
// to out, which it closes after tw.
type convertWriter struct {
	out io.WriteCloser
	tw  io.WriteCloser
	err error
}

func (c *convertWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.tw.Write(p)
	c.err = err
	return n, err
}

// Close closes tw and then out. After a failed Write it returns that
// error: a transform.Writer's Close would transform again what it kept.
func (c *convertWriter) Close() error {
	if c.err != nil {
		return c.err
	}
	c.err = c.tw.Close()
	if err := c.out.Close(); c.err == nil {
		c.err = err
	}
	return c.err
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// peekHead returns the first bytes of in, 4 or all of it if it is
// shorter, without consuming them: the filter reads them again.
func peekHead(in *input) []byte {
	h := in.peekAtLeast(4)
	return h[:min(4, len(h))]
}

// A byteOrderMark is the mark of a form, as -from names the form.
type byteOrderMark struct {
	mark, form string
}

// byteOrderMarks are the marks markForm knows, UTF-32's before UTF-16's,
// whose marks begin theirs.
var byteOrderMarks = []byteOrderMark{
	{"\xFF\xFE\x00\x00", "utf-32le"}, {"\x00\x00\xFE\xFF", "utf-32be"},
	{"\xFF\xFE", "utf-16le"}, {"\xFE\xFF", "utf-16be"}, {"\xEF\xBB\xBF", "utf-8"},
}

// markForm returns the form whose byte order mark starts head, or "".
func markForm(head []byte) string {
	for _, m := range byteOrderMarks {
		if strings.HasPrefix(string(head), m.mark) {
			return m.form
		}
	}
	return ""
}

// wideMark returns the form (as -from names it) of UTF-16 or UTF-32 whose
// byte order mark starts head, or "".
func wideMark(head []byte) string {
	if f := markForm(head); f != "utf-8" {
		return f
	}
	return ""
}

// wideMarkMessage is what check says of a file that starts with the byte
// order mark of UTF-16 or UTF-32 (form, as -from names it): what it is and
// how to convert it.
func wideMarkMessage(shown, name, form string) string {
	var mark string
	for _, m := range byteOrderMarks {
		if m.form == form {
			mark = fmt.Sprintf("% X", m.mark)
		}
	}
	// -from utf-16 and utf-32 remove the mark, which with the order
	// named would be a U+FEFF of the text.
	cmd := "utf8stream fix -from " + form[:len(form)-2]
	if name != "-" {
		cmd += " " + shellQuote(name)
	}
	return fmt.Sprintf("%s: %s text (byte-order mark %s), not UTF-8; convert it with: %s", shown, strings.ToUpper(form), mark, cmd)
}

// shellQuote quotes s for a POSIX shell where it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,+:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// convert is fix for an input that -from or -to converts.
func (c *fixCmd) convert(e *env, w io.Writer, in *input, name string, opts []utf8stream.Option) error {
	var pos *tracker
	if c.policy == utf8stream.Reject {
		pos = newTracker()
	}
	var head []byte
	if c.conv.from == "auto" {
		head = peekHead(in)
	}
	err := e.filter(c.conv.writer(w, head, c.policy, opts), w, in, name, pos)
	var ue *utf8stream.Error
	if !errors.As(err, &ue) {
		return err
	}
	if ue.Form == "" && pos != nil {
		line, col, next := pos.where(ue)
		fmt.Fprintln(e.stderr, formatError(name, line, col, ue, next))
	} else {
		// Lines and columns of UTF-16 or UTF-32 are not those of bytes.
		fmt.Fprintf(e.stderr, "%s: offset %d: ill-formed %s bytes % X: %s\n", name, ue.Offset, ue.Form, ue.Bytes, ue.Reason())
	}
	return &invalidInput{}
}
