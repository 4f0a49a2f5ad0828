package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/utf8stream/utf8stream"
)

var fixCommand = &command{
	name:     "fix",
	synopsis: "[-policy P] [-from FORM] [-to FORM] [-o OUT | -w] [-binary] [-stats] [FILE | DIR...]",
	doc: `Fix writes the named files, or standard input when there is no FILE or FILE
is -, with each ill-formed subpart of UTF-8 repaired by the policy:

	reject           write the valid prefix, report the first error, exit 1
	replace          write U+FFFD (or -replacement) per maximal subpart
	surrogateescape  write U+DC80..U+DCFF per ill-formed byte (restore undoes it)
	optu8            write U+EF80..U+EFFF per ill-formed byte (restore undoes it)
	drop             write nothing for ill-formed subparts
	windows1252      decode each ill-formed byte as Windows-1252
	backslashreplace write \xNN per ill-formed byte, as Python does (for logs)

With -wtf8 the input is WTF-8, whose lone surrogates are valid; with
-bmp-only each character above U+FFFF is ill-formed, as in MySQL's utf8mb3,
and goes through the policy as one unit.

With -from the input is UTF-16 or UTF-32 and fix converts it to UTF-8,
each ill-formed code unit (a lone surrogate, an odd final byte, a value
above U+10FFFF) going through the policy as a subpart does: FORM is
utf-16le, utf-16be, utf-32le or utf-32be; utf-16 or utf-32 to read the
byte order from a byte order mark (FF FE, FE FF; FF FE 00 00, 00 00 FE
FF), which is removed, and take little-endian without one; or auto for
UTF-16 or UTF-32 after their marks and UTF-8 otherwise, as check tells
them apart. Excel's "Unicode text" and many Windows tools write UTF-16LE
with a mark. With -to the output is utf-16le, utf-16be, utf-32le or
utf-32be, with no mark. Under surrogateescape and optu8 each ill-formed
byte becomes one code unit (U+DC80..U+DCFF, U+EF80..U+EFFF) and -from
turns it back into the byte, so that fix -to X and then fix -from X, with
the same policy, give back the original bytes, as Python's
surrogateescape does. -from and -to may be given together.

Each file is a stream of its own: a sequence cut at the end of one file is
not completed by the next. Files are converted in parallel, one per
processor; their output and messages come in the order given. Flags may
follow file names; -- ends the flags. A directory is walked as gofmt -l
walks one: its regular files in lexical order, without symbolic links or
names that start with a dot, such as .git.

With -o or -w, a file that looks binary is left alone and reported as
"NAME: binary file, skipped (WHY)", unless -binary is given or -from names
a form other than utf-8 (UTF-16 and UTF-32 text holds NUL bytes). A file looks
binary, as to grep -I, when its first 8 KiB (of the first read, on a pipe)
hold a NUL byte, or when it starts with the signature of PNG, JPEG, GIF,
PDF, ELF, Mach-O, gzip, bzip2, xz, zstd, zip or 7z. When every input is
skipped, OUT stays as it was.

The output goes to standard output, to OUT with -o, or with -w over each
file. Fix refuses an output that is one of the inputs, standard input
included. -o and -w write a temporary file .NAME.utf8stream-XXXX beside the
file they replace, sync it, and put it in place only when all went well:
on an error the file stays as it was. So does OUT after an I/O error on any
input; reject still writes the valid prefix. An OUT that is not a regular
file (a pipe, a FIFO, a terminal, a socket, /dev/null) is written directly,
never replaced, and so is a name for an open descriptor (/dev/stdout,
/dev/stderr, /dev/fd/N) whatever file it leads to: with >> app.log,
-o /dev/stdout appends to app.log. A symbolic link OUT is followed, to a
file that exists or, as the shell's > does, to one it makes.

-w leaves a file whose result is its own content untouched: same inode,
same modification time. It follows symbolic links. It refuses a file it
may not write, as gofmt -w does, even in a writable directory; -o refuses
such an OUT too. The new file keeps the permissions of the old one, and its
owner when the system allows it. A file with several hard links is
rewritten in place, once the temporary file holds the whole result, so
that every link sees the fix; the space is reserved first, and should the
write still fail, the message names the temporary file, which is kept.
A file named twice (two paths, links, or a directory and a file in it) is
rewritten once.
SIGINT (Ctrl-C), SIGTERM and SIGHUP remove the temporary files and end fix
by the same signal (the shell shows status 130, 143 or 129): each file is
then as it was or wholly fixed. Only a fix killed mid-way by SIGKILL or a
crash can leave a .NAME.utf8stream-XXXX file behind: the file itself is
then as it was, unless fix was rewriting a hard-linked file in place, and
the temporary file holds the whole result. A later -o or -w of that file
says where such a file is, once it is a minute old, and leaves it.

Exit status: 0 on success (binary files skipped included), 1 when -policy
reject met ill-formed UTF-8, 2 after a usage error or an I/O error.

Examples:

	utf8stream fix notes.txt > clean.txt
	utf8stream fix -policy reject -o clean.txt notes.txt
	utf8stream fix -policy surrogateescape -w *.log
	utf8stream fix -w src/
	utf8stream fix -o /dev/stdout notes.txt >> all.txt
	tail -f app.log | utf8stream fix -policy windows1252
	utf8stream fix -policy backslashreplace app.log | grep '\\x'
	utf8stream fix -bmp-only -o utf8mb3.sql dump.sql
	utf8stream fix -from utf-16 -o report.csv report.txt
	utf8stream fix -policy surrogateescape -to utf-16le names.txt > names.utf16
`,
	new: func() subcommand { return new(fixCmd) },
}

type fixCmd struct {
	policy   utf8stream.Policy
	output   outputFlags
	stats    bool
	progress bool
	lib      libFlags
	conv     convFlags
}

func (c *fixCmd) define(fs *flag.FlagSet) {
	fs.TextVar(&c.policy, "policy", utf8stream.Replace, "`P`olicy for ill-formed UTF-8: reject, replace, surrogateescape, optu8, drop, windows1252 or backslashreplace")
	c.output.define(fs)
	fs.BoolVar(&c.stats, "stats", false, "print to stderr how many subparts and bytes were repaired in each file")
	fs.BoolVar(&c.progress, "progress", false, "print progress to stderr even when it is not a terminal")
	c.lib.define(fs, validityFlags|repairFlags)
	c.conv.define(fs)
}

func (c *fixCmd) validate(set map[string]bool, files []string) error {
	if set["replacement"] && c.policy != utf8stream.Replace {
		return fmt.Errorf("-replacement applies to -policy replace, not %v", c.policy)
	}
	if c.stats && c.conv.active() {
		return errors.New("-stats cannot be used with -from or -to")
	}
	return c.output.validate(files)
}

func (c *fixCmd) exec(e *env, files []string) int {
	e.progress = c.progress
	opts := c.lib.options()
	if c.conv.from != "" && c.conv.from != "utf-8" {
		// UTF-16 and UTF-32 text holds NUL bytes: the binary rule is
		// for UTF-8 input.
		c.output.binary = true
	}
	return e.filterFiles(files, &c.output, func(e *env, w io.Writer, in *input, name string) error {
		if c.conv.active() {
			return c.convert(e, w, in, name, opts)
		}
		// Only reject reports a position.
		var pos *tracker
		wopts := opts
		if c.policy == utf8stream.Reject {
			pos = newTracker()
			wopts = append(opts[:len(opts):len(opts)], utf8stream.Lines())
		}
		uw := utf8stream.NewWriter(w, c.policy, wopts...)
		err := e.filter(uw, w, in, name, pos)
		var ue *utf8stream.Error
		if errors.As(err, &ue) && pos != nil {
			line, col, next := pos.where(ue)
			fmt.Fprintln(e.stderr, formatError(name, line, col, ue, next))
			return &invalidInput{}
		}
		if err == nil && c.stats {
			c.printStats(e, name, uw.Stats())
		}
		return err
	})
}

func (c *fixCmd) printStats(e *env, name string, s utf8stream.Stats) {
	if s.Subparts == 0 {
		fmt.Fprintf(e.stderr, "%s: no ill-formed subparts", name)
	} else {
		fmt.Fprintf(e.stderr, "%s: %d ill-formed %s (%d %s) repaired with %v, the first at offset %d",
			name, s.Subparts, plural(s.Subparts, "subpart"), s.Bytes, plural(s.Bytes, "byte"), c.policy, s.First)
	}
	if s.Escaped > 0 {
		fmt.Fprintf(e.stderr, "; %d valid %s escaped", s.Escaped, plural(s.Escaped, "sequence"))
	}
	fmt.Fprintln(e.stderr)
}
