package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/utf8stream/utf8stream"
)

var checkCommand = &command{
	name:     "check",
	synopsis: "[-q | -l | -json] [-max N] [FILE...]",
	doc: `Check reports every ill-formed subpart of UTF-8 in the named files, or in
standard input when there is no FILE or FILE is -, one line each:

	NAME:LINE:COL: offset N: ill-formed bytes XX...: REASON

LINE counts newline (0A) bytes from 1, COL is the 1-based byte column and N
the 0-based byte offset in the file. A summary line with the count ends the
report of each file with errors. File names that are not valid UTF-8 are
shown quoted, so the output is always valid UTF-8.

Exit status: 0 if all input is valid UTF-8, 1 if some is not, 2 after a
usage error or an I/O error (an unreadable file is reported and the other
files are still checked).

Examples:

	utf8stream check notes.txt
	utf8stream check -l *.csv
	utf8stream check -q data.txt && echo valid
	curl -s https://example.com/ | utf8stream check -json -max 10
`,
	new: func() subcommand { return new(checkCmd) },
}

type checkCmd struct {
	quiet, list, json bool
	max               int
	progress          bool
	lib               libFlags
}

func (c *checkCmd) define(fs *flag.FlagSet) {
	fs.BoolVar(&c.quiet, "q", false, "print nothing; report through the exit status only")
	fs.BoolVar(&c.list, "l", false, "print only the names of the files that hold ill-formed UTF-8")
	fs.BoolVar(&c.json, "json", false, "print one JSON object per ill-formed subpart: name, line, col, offset, bytes (hex), reason")
	fs.IntVar(&c.max, "max", 0, "list at most `N` subparts per file; the summary still counts all (0: no limit)")
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

// jsonError is the -json form of one ill-formed subpart.
type jsonError struct {
	Name   string `json:"name"`
	Line   int64  `json:"line"`
	Col    int64  `json:"col"`
	Offset int64  `json:"offset"`
	Bytes  string `json:"bytes"`
	Reason string `json:"reason"`
}

func (c *checkCmd) exec(e *env, files []string) int {
	e.progress = c.progress
	out := bufio.NewWriterSize(e.stdout, bufSize)
	buf := make([]byte, bufSize)
	status := exitOK
	for _, name := range files {
		status = max(status, c.file(e, out, buf, name))
		if err := out.Flush(); err != nil {
			e.ioError("<stdout>", err)
			return exitError
		}
	}
	return status
}

// file checks one input and returns its exit status.
func (c *checkCmd) file(e *env, out *bufio.Writer, buf []byte, name string) int {
	shown := displayName(name)
	in, err := e.open(name)
	if err != nil {
		e.ioError(shown, err)
		return exitError
	}
	defer in.Close()

	var count, nbytes int64
	pos := newTracker()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	report := func(ue utf8stream.Error) {
		count++
		nbytes += int64(len(ue.Bytes))
		if c.quiet || c.list || (c.max > 0 && count > int64(c.max)) {
			return
		}
		line, col, next := pos.where(&ue)
		if c.json {
			enc.Encode(jsonError{shown, line, col, ue.Offset, hex.EncodeToString(ue.Bytes), describe(&ue, next)})
			return
		}
		fmt.Fprintln(out, formatError(shown, line, col, &ue, next))
	}
	// Drop writes nothing for an ill-formed subpart, and io.Discard takes
	// the rest: all that is left is the calls of report.
	w := utf8stream.NewWriter(io.Discard, utf8stream.Drop, append(c.lib.options(), utf8stream.OnInvalid(report))...)
	prog := e.newProgress(shown)
	flush := func() error {
		if out.Buffered() > 0 {
			prog.clear()
			return out.Flush()
		}
		return nil
	}
	stop := func() bool {
		// -q and -l need only know that there is an error.
		if (c.quiet || c.list) && count > 0 {
			return true
		}
		// Keep the listing flowing on long inputs; a failed write to
		// stdout stops the check.
		return flush() != nil
	}
	err = pump(w, in, buf, pos, prog, nil, stop)
	if err == nil {
		err = w.Close()
	}
	prog.clear()
	if err != nil {
		if err := out.Flush(); err != nil {
			return exitError // exec reports it
		}
		e.ioError(shown, err)
		return exitError
	}
	if count == 0 {
		return exitOK
	}
	switch {
	case c.quiet, c.json:
	case c.list:
		fmt.Fprintln(out, shown)
	default:
		s := fmt.Sprintf("%s: %d ill-formed %s (%d %s)", shown, count, plural(count, "subpart"), nbytes, plural(nbytes, "byte"))
		if c.max > 0 && count > int64(c.max) {
			s += fmt.Sprintf(", first %d listed", c.max)
		}
		fmt.Fprintln(out, s)
	}
	return exitInvalid
}

func plural(n int64, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
