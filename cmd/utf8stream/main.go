// Command utf8stream checks, repairs and restores UTF-8 in files and pipes.
//
// Usage:
//
//	utf8stream check [-q | -l | -json] [-max N] [-binary] [FILE | DIR...]
//	utf8stream fix [-policy P] [-o OUT | -w] [-binary] [-stats] [FILE | DIR...]
//	utf8stream restore -policy surrogateescape|optu8 [-o OUT | -w] [-binary] [FILE | DIR...]
//	utf8stream help COMMAND
//	utf8stream -version
//
// Check lists the ill-formed subparts of each file, 20 at most by default,
// with their line, column and offset, and counts them all. Fix writes the
// input with each ill-formed subpart repaired by a policy of package
// utf8stream; with -o or -w it writes a temporary file and replaces the
// output only when all went well; an output that is not a regular file,
// such as /dev/stdout, is written directly. Restore undoes fix for the two
// policies that escape ill-formed bytes reversibly. With no FILE, or when
// FILE is -, they read standard input; a DIR is walked for its regular
// files, as gofmt -l does. Fix and restore skip the files that look binary
// under -o and -w, unless -binary is given. Several files are handled in
// parallel and reported in the order given. Run "utf8stream help COMMAND"
// for the flags of each.
//
// The exit status is 0 on success, 1 when check finds or fix -policy reject
// meets ill-formed UTF-8, and 2 after a usage error or an I/O error. On
// SIGINT, SIGTERM or SIGHUP the commands remove their temporary files and
// end by the signal.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// Exit statuses.
const (
	exitOK      = 0 // all input valid, or repaired
	exitInvalid = 1 // ill-formed UTF-8 found (check) or refused (fix -policy reject)
	exitError   = 2 // usage error or I/O error
)

func main() {
	catchSignals()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// A subcommand holds the flag values of one command.
type subcommand interface {
	// define binds the command's flags to fs.
	define(fs *flag.FlagSet)
	// validate checks the parsed flags and arguments; set lists the flags
	// given on the command line.
	validate(set map[string]bool, files []string) error
	// exec runs the command on files (never empty: "-" is standard input)
	// and returns the exit status.
	exec(e *env, files []string) int
}

// A command is an entry of the command table.
type command struct {
	name     string
	synopsis string // the arguments after the name
	doc      string // what help prints before the flags
	new      func() subcommand
}

var commands = []*command{checkCommand, fixCommand, restoreCommand}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

const mainDoc = `utf8stream checks, repairs and restores UTF-8 in files and pipes.

Usage:

	utf8stream check [-q | -l | -json] [-max N] [-binary] [FILE | DIR...]
	utf8stream fix [-policy P] [-o OUT | -w] [-binary] [-stats] [FILE | DIR...]
	utf8stream restore -policy surrogateescape|optu8 [-o OUT | -w] [-binary] [FILE | DIR...]
	utf8stream help COMMAND
	utf8stream -version

With no FILE, or when FILE is -, the commands read standard input; a DIR
is walked for its regular files, as gofmt -l does. They stream: memory
use does not grow with the size of the input.
They work on several files in parallel, one per processor, and report
in the order of the arguments. Flags may follow file names; -- ends them.

Exit status: 0 on success, 1 when check finds ill-formed UTF-8 or
fix -policy reject refuses it, 2 after a usage error or an I/O error;
128 + N when signal N interrupted the run, its temporary files removed.

Examples:

	utf8stream check notes.txt
	utf8stream fix -policy replace -o clean.txt notes.txt
	utf8stream fix -policy surrogateescape -binary -w data.bin
	utf8stream restore -policy surrogateescape -binary -w data.bin

Run "utf8stream help COMMAND" for the flags of a command.
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("utf8stream", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	version := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, mainDoc)
			return exitOK
		}
		return usageError(stderr, "", "")
	}
	if *version {
		fmt.Fprintln(stdout, versionString())
		return exitOK
	}
	if fs.NArg() == 0 {
		return usageError(stderr, "", "no command given")
	}
	name, rest := fs.Arg(0), fs.Args()[1:]
	if name == "help" {
		return help(rest, stdout, stderr)
	}
	c := lookup(name)
	if c == nil {
		return usageError(stderr, "", fmt.Sprintf("unknown command %q", name))
	}
	return c.run(rest, stdin, stdout, stderr)
}

// usageError prints msg, if any, and a hint at the usage of command name
// ("" for the main usage), and returns exitError.
func usageError(stderr io.Writer, name, msg string) int {
	prog := "utf8stream"
	if name != "" {
		prog += " " + name
	}
	if msg != "" {
		fmt.Fprintf(stderr, "%s: %s\n", prog, msg)
	}
	if c := lookup(name); c != nil {
		fmt.Fprintf(stderr, "usage: utf8stream %s %s\nRun 'utf8stream help %s' for details.\n", c.name, c.synopsis, c.name)
	} else {
		fmt.Fprintf(stderr, "Run 'utf8stream -h' for usage.\n")
	}
	return exitError
}

func help(args []string, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		fmt.Fprint(stdout, mainDoc)
		return exitOK
	case 1:
		if c := lookup(args[0]); c != nil {
			c.help(stdout)
			return exitOK
		}
		return usageError(stderr, "", fmt.Sprintf("help: unknown command %q", args[0]))
	}
	return usageError(stderr, "", "help: give one command name")
}

// flagSet returns a FlagSet that holds the flags of c's subcommand s. Errors
// go to stderr; the caller prints the usage text.
func (c *command) flagSet(s subcommand, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("utf8stream "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	s.define(fs)
	return fs
}

func (c *command) help(w io.Writer) {
	fmt.Fprintf(w, "usage: utf8stream %s %s\n\n%s\nFlags:\n", c.name, c.synopsis, c.doc)
	fs := c.flagSet(c.new(), w)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

func (c *command) run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	s := c.new()
	fs := c.flagSet(s, stderr)
	files, err := parseArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			c.help(stdout)
			return exitOK
		}
		// The flag package has printed what was wrong.
		return usageError(stderr, c.name, "")
	}
	set := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if len(files) == 0 {
		files = []string{"-"}
	}
	if err := s.validate(set, files); err != nil {
		return usageError(stderr, c.name, err.Error())
	}
	files, walkErrs := expand(files)
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, terminal: isTerminal(stderr), walkErrs: walkErrs}
	return s.exec(e, files)
}

// parseArgs parses the flags in args and returns the other arguments.
// Flags may come after other arguments, as grep allows; "--" ends the
// flags.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(rest, args[i+1:]...), nil
		case len(a) < 2 || a[0] != '-':
			rest = append(rest, a)
			continue
		}
		// A flag, and its value when it takes one not given after "=".
		n := 1
		if name := strings.TrimLeft(a, "-"); !strings.Contains(name, "=") && i+1 < len(args) {
			if f := fs.Lookup(name); f != nil && !isBoolFlag(f) {
				n = 2
			}
		}
		if err := fs.Parse(args[i : i+n]); err != nil {
			return nil, err
		}
		i += n - 1
	}
	return rest, nil
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// versionString returns the module version and revision the binary was
// built from, and the Go release that built it.
func versionString() string {
	v := "(unknown)"
	var extra []string
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision":
				extra = append(extra, "revision "+s.Value)
			case s.Key == "vcs.modified" && s.Value == "true":
				extra = append(extra, "modified")
			}
		}
	}
	s := fmt.Sprintf("utf8stream %s %s %s/%s", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}
