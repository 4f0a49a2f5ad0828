package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/utf8stream/utf8stream"
	"golang.org/x/text/transform"
)

var restoreCommand = &command{
	name:     "restore",
	synopsis: "-policy surrogateescape|optu8 [-o OUT | -w] [-binary] [FILE | DIR...]",
	doc: `Restore undoes fix -policy surrogateescape or fix -policy optu8: it turns
each escape back into the byte it stands for and copies everything else, so
that fix followed by restore with the same policy (and the same -no-nul)
gives back the original bytes of every file. It reads the named files, or
standard input when there is no FILE or FILE is -, and writes like fix: to
standard output, to OUT with -o, or over each file with -w, in parallel,
through temporary files; it walks directories, and skips the files that
look binary under -o and -w unless -binary is given
(see utf8stream help fix).

Exit status: 0 on success, 2 after a usage error or an I/O error.

Examples:

	utf8stream restore -policy surrogateescape fixed.txt > original.bin
	utf8stream fix -policy optu8 data | utf8stream restore -policy optu8 | cmp - data
`,
	new: func() subcommand { return new(restoreCmd) },
}

type restoreCmd struct {
	policy   utf8stream.Policy
	output   outputFlags
	progress bool
	lib      libFlags
}

func (c *restoreCmd) define(fs *flag.FlagSet) {
	fs.TextVar(&c.policy, "policy", utf8stream.Reject, "the `P`olicy fix used: surrogateescape or optu8 (required)")
	c.output.define(fs)
	fs.BoolVar(&c.progress, "progress", false, "print progress to stderr even when it is not a terminal")
	c.lib.define(fs, nulFlag)
}

func (c *restoreCmd) validate(set map[string]bool, files []string) error {
	if !set["policy"] {
		return errors.New("-policy is required: surrogateescape or optu8")
	}
	if c.policy != utf8stream.SurrogateEscape && c.policy != utf8stream.OPTU8 {
		return fmt.Errorf("-policy %v has nothing to restore: use surrogateescape or optu8", c.policy)
	}
	return c.output.validate(files)
}

func (c *restoreCmd) exec(e *env, files []string) int {
	e.progress = c.progress
	opts := c.lib.options()
	return e.filterFiles(files, &c.output, func(e *env, w io.Writer, in *input, name string) error {
		u := utf8stream.NewUnescaper(c.policy, opts...)
		return e.filter(transform.NewWriter(w, u), w, in, name, nil)
	})
}
