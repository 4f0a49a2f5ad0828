package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream"
)

// defaultMax is the default of check -max.
const defaultMax = 20

var checkCommand = &command{
	name:     "check",
	synopsis: "[-q | -l | -json] [-max N] [-binary] [FILE | DIR...]",
	doc: `Check reports the ill-formed subparts of UTF-8 in the named files, or in
standard input when there is no FILE or FILE is -, one line each:

	NAME:LINE:COL: offset N: ill-formed bytes XX...: REASON

A file that starts with the byte order mark of UTF-16 or UTF-32 is not
checked as UTF-8; check says what it is and how to convert it, and counts
it as not valid:

	NAME: UTF-16LE text (byte-order mark FF FE), not UTF-8; convert it with: utf8stream fix -from utf-16 NAME

LINE counts newline (0A) bytes from 1, COL is the 1-based byte column and N
the 0-based byte offset in the file. At most 20 subparts are listed per
file (-max); two summary lines end the report of each file with errors, the
first only when the list was cut:

	NAME: and M more ill-formed subparts (-max 0 lists all)
	NAME: T ill-formed subparts (B bytes)

File names that are not valid UTF-8 are shown quoted, so the output is
always valid UTF-8.

A file that looks binary (a NUL byte in its first 8 KiB, or the signature
of a binary format: see utf8stream help fix) has its subparts counted, not
listed, unless -binary is given; one line reports it when it has any:

	NAME: binary file, T ill-formed subparts (B bytes)

With -json, check prints one JSON object per line: one per listed subpart,

	{"type":"subpart","name":NAME,"line":L,"col":C,"offset":N,
	 "bytes":HEX,"reason":R}

and one that ends the report of every file, valid or not:

	{"type":"file","name":NAME,"valid":BOOL,"subparts":T,"ill_formed_bytes":B,
	 "first_offset":N,"listed":K,"all_listed":BOOL,"binary":true,"form":FORM,
	 "error":MESSAGE}

NAME is the file name as a JSON string ("<stdin>" for standard input); a
name that is not valid UTF-8 also has its bytes in "name_hex". The totals
count every subpart, listed or not; "first_offset" is left out when there
is none, "binary" when the file does not look binary, "form" (utf-16le,
utf-16be, utf-32le or utf-32be) but after a byte order mark of UTF-16 or
UTF-32, and "error" when the file was read to its end.

The files are checked in parallel, one per processor, and reported in the
order given. A directory is walked as gofmt -l walks one: its regular
files in lexical order, without symbolic links or names that start with a
dot, such as .git. Flags may follow file names; -- ends the flags.

Exit status: 0 if all input is valid UTF-8, 1 if some is not, 2 after a
usage error or an I/O error (an unreadable file is reported and the other
files are still checked).

Examples:

	utf8stream check notes.txt
	utf8stream check -l *.csv
	utf8stream check -l .
	utf8stream check data.txt -q && echo valid
	utf8stream check -max 0 app.log
	curl -s https://example.com/ | utf8stream check -json
`,
	new: func() subcommand { return new(checkCmd) },
}

type checkCmd struct {
	quiet, list, json bool
	binary            bool
	max               int
	progress          bool
	lib               libFlags
}

func (c *checkCmd) define(fs *flag.FlagSet) {
	fs.BoolVar(&c.quiet, "q", false, "print nothing; report through the exit status only")
	fs.BoolVar(&c.list, "l", false, "print only the names of the files that hold ill-formed UTF-8")
	fs.BoolVar(&c.json, "json", false, "print JSON objects: one per listed subpart and one per file with the totals")
	fs.IntVar(&c.max, "max", defaultMax, "list at most `N` subparts per file, 0 for all; the summary counts all")
	fs.BoolVar(&c.binary, "binary", false, "list the subparts of files that look binary too, rather than count them only")
	fs.BoolVar(&c.progress, "progress", false, "print progress to stderr even when it is not a terminal")
	c.lib.define(fs, validityFlags)
}

func (c *checkCmd) validate(set map[string]bool, files []string) error {
	n := 0
	for _, f := range []string{"q", "l", "json"} {
		if set[f] {
			n++
		}
	}
	if n > 1 {
		return errors.New("-q, -l and -json cannot be used together")
	}
	if c.max < 0 {
		return fmt.Errorf("-max %d: must not be negative", c.max)
	}
	return nil
}

// jsonSubpart is the -json record of one ill-formed subpart.
type jsonSubpart struct {
	Type    string `json:"type"` // "subpart"
	Name    string `json:"name"`
	NameHex string `json:"name_hex,omitempty"`
	Line    int64  `json:"line"`
	Col     int64  `json:"col"`
	Offset  int64  `json:"offset"`
	Bytes   string `json:"bytes"`
	Reason  string `json:"reason"`
}

// jsonFile is the -json record that ends the report of a file.
type jsonFile struct {
	Type      string `json:"type"` // "file"
	Name      string `json:"name"`
	NameHex   string `json:"name_hex,omitempty"`
	Valid     bool   `json:"valid"`
	Subparts  int64  `json:"subparts"`
	Bytes     int64  `json:"ill_formed_bytes"`
	First     *int64 `json:"first_offset,omitempty"`
	Listed    int64  `json:"listed"`
	AllListed bool   `json:"all_listed"`
	Binary    bool   `json:"binary,omitempty"`
	Form      string `json:"form,omitempty"` // "utf-16le" and so on, after a byte order mark
	Error     string `json:"error,omitempty"`
}

// jsonName returns the name and name_hex fields of -json for the input
// name.
func jsonName(name string) (string, string) {
	switch {
	case name == "-":
		return "<stdin>", ""
	case !utf8.ValidString(name):
		return name, hex.EncodeToString([]byte(name))
	}
	return name, ""
}

func (c *checkCmd) exec(e *env, files []string) int {
	e.progress = c.progress
	status, err := e.each(files, c.file)
	if err != nil {
		e.ioError("<stdout>", err)
		return exitError
	}
	return status
}

// file checks one input and returns its exit status.
func (c *checkCmd) file(e *env, name string) int {
	shown := displayName(name)
	out := newBufWriter(e.stdout)
	defer freeBufWriter(out)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	jname, jhex := jsonName(name)
	var count, nbytes, listed int64
	first := int64(-1)
	binary := false // the input looks binary: count, do not list
	var form string // after a byte order mark of UTF-16 or UTF-32

	// finish ends the report of the file and returns its exit status.
	finish := func(err error) int {
		status := exitOK
		if count > 0 || form != "" {
			status = exitInvalid
		}
		if err != nil {
			status = exitError
		}
		switch {
		case c.json:
			rec := jsonFile{Type: "file", Name: jname, NameHex: jhex, Valid: status == exitOK,
				Subparts: count, Bytes: nbytes, Listed: listed, AllListed: listed == count, Binary: binary}
			if count > 0 {
				rec.First = &first
			}
			rec.Form = form
			if err != nil {
				rec.Error = describeIOError(err)
			}
			enc.Encode(rec)
		case form != "" && !c.quiet && !c.list && err == nil:
			fmt.Fprintln(out, wideMarkMessage(shown, name, form))
		case c.quiet || count == 0 && form == "" || err != nil:
		case c.list:
			fmt.Fprintln(out, shown)
		case binary:
			fmt.Fprintf(out, "%s: binary file, %d ill-formed %s (%d %s)\n", shown, count, plural(count, "subpart"), nbytes, plural(nbytes, "byte"))
		default:
			if more := count - listed; more > 0 {
				fmt.Fprintf(out, "%s: and %d more ill-formed %s (-max 0 lists all)\n", shown, more, plural(more, "subpart"))
			}
			fmt.Fprintf(out, "%s: %d ill-formed %s (%d %s)\n", shown, count, plural(count, "subpart"), nbytes, plural(nbytes, "byte"))
		}
		if ferr := out.Flush(); ferr != nil {
			e.fail(ferr)
			return exitError
		}
		if err != nil {
			e.ioError(shown, err)
		}
		return status
	}

	in, err := e.open(name)
	if err != nil {
		return finish(err)
	}
	defer in.Close()

	pos := newTracker()
	report := func(ue utf8stream.Error) {
		if count == 0 {
			first = ue.Offset
		}
		count++
		nbytes += int64(len(ue.Bytes))
		if c.quiet || c.list || binary || (c.max > 0 && count > int64(c.max)) {
			return
		}
		listed++
		line, col, next := pos.where(&ue)
		if c.json {
			enc.Encode(jsonSubpart{"subpart", jname, jhex, line, col, ue.Offset, hex.EncodeToString(ue.Bytes), describe(&ue, next)})
			return
		}
		fmt.Fprintln(out, formatError(shown, line, col, &ue, next))
	}
	// Drop writes nothing for an ill-formed subpart, and io.Discard takes
	// the rest: all that is left is the calls of report.
	if form = wideMark(peekHead(in)); form != "" {
		return finish(nil)
	}
	w := utf8stream.NewWriter(io.Discard, utf8stream.Drop, append(c.lib.options(), utf8stream.Lines(), utf8stream.OnInvalid(report))...)
	if !c.binary && !c.quiet && !c.list {
		binary = in.binaryKind() != ""
	}
	prog := e.newProgress(shown)
	stop := func() bool {
		// -q and -l need only know that there is an error.
		if (c.quiet || c.list) && count > 0 {
			return true
		}
		// Keep the listing flowing on long inputs; a failed write to
		// stdout stops the check.
		if out.Buffered() > 0 {
			prog.clear()
			return out.Flush() != nil
		}
		return false
	}
	err = pump(w, in, pos, prog, nil, stop)
	if err == nil {
		err = w.Close()
	}
	prog.clear()
	return finish(err)
}

func plural(n int64, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
