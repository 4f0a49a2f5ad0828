// Command objcmp compares the assembly of two builds of a package: every
// TEXT symbol of the assembler's objects in two package archives, byte by
// byte at each offset from the function's start, with its relocations. It
// is the check for a change to a generator, or to the way a kernel is
// written, that is meant not to change the code:
//
//	go build -o /tmp/old.a ./internal/valid   # before the change
//	go build -o /tmp/new.a ./internal/valid   # after it
//	go -C _asm run ./objcmp /tmp/old.a /tmp/new.a
//
// It compares bytes, not the disassembly, which Go's objdump prints wrong
// for VEX and EVEX instructions (some as LOOP to an absolute address that
// moves with the object's layout). It exits with 1 when a function differs
// or is in one archive only.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: objcmp OLD.a NEW.a")
		os.Exit(2)
	}
	old, err := archive(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "objcmp:", err)
		os.Exit(2)
	}
	new, err := archive(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "objcmp:", err)
		os.Exit(2)
	}
	if diffs := compare(os.Stdout, old, new); diffs > 0 {
		os.Exit(1)
	}
}

// An insn is one instruction of a function: its offset from the
// function's start, its bytes in hex, and its relocation, if any.
type insn struct {
	off          int
	bytes, reloc string
}

// archive returns the functions of the assembly objects of the package
// archive a (every member but the compiler's _go_.o and __.PKGDEF).
func archive(a string) (map[string][]insn, error) {
	abs, err := filepath.Abs(a)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "objcmp")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	pack := exec.Command("go", "tool", "pack", "x", abs)
	pack.Dir = dir
	if out, err := pack.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go tool pack x %s: %v: %s", a, err, out)
	}
	members, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	funcs := map[string][]insn{}
	for _, m := range members {
		if m.Name() == "_go_.o" || m.Name() == "__.PKGDEF" {
			continue
		}
		out, err := exec.Command("go", "tool", "objdump", filepath.Join(dir, m.Name())).Output()
		if err != nil {
			return nil, fmt.Errorf("go tool objdump %s: %v", m.Name(), err)
		}
		if err := parse(strings.NewReader(string(out)), funcs); err != nil {
			return nil, err
		}
	}
	return funcs, nil
}

// parse adds the functions of an objdump listing to funcs. A line of a
// function is tab-separated: position, address, bytes, disassembly and an
// optional relocation.
func parse(r io.Reader, funcs map[string][]insn) error {
	var name string
	start := -1
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "TEXT "); ok {
			name, _, _ = strings.Cut(rest, " ")
			start = -1
			continue
		}
		var fields []string
		for f := range strings.SplitSeq(line, "\t") {
			if f = strings.TrimSpace(f); f != "" {
				fields = append(fields, f)
			}
		}
		if name == "" || len(fields) < 3 {
			continue
		}
		addr, err := strconv.ParseUint(strings.TrimPrefix(fields[1], "0x"), 16, 64)
		if err != nil {
			return fmt.Errorf("%s: %q: %v", name, line, err)
		}
		if start < 0 {
			start = int(addr)
		}
		in := insn{off: int(addr) - start, bytes: fields[2]}
		if len(fields) > 4 {
			in.reloc = fields[4]
		}
		funcs[name] = append(funcs[name], in)
	}
	return sc.Err()
}

// compare writes the functions that differ, and a summary line, and
// returns how many differ.
func compare(w io.Writer, old, new map[string][]insn) int {
	names := map[string]bool{}
	for n := range old {
		names[n] = true
	}
	for n := range new {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	diffs, count := 0, 0
	for _, n := range sorted {
		a, inOld := old[n]
		b, inNew := new[n]
		count += len(a)
		switch {
		case !inOld:
			fmt.Fprintf(w, "%s: only in the new archive\n", n)
			diffs++
		case !inNew:
			fmt.Fprintf(w, "%s: only in the old archive\n", n)
			diffs++
		default:
			for i := 0; i < max(len(a), len(b)); i++ {
				if i >= len(a) || i >= len(b) {
					fmt.Fprintf(w, "%s: %d instructions, now %d\n", n, len(a), len(b))
					diffs++
					break
				}
				if a[i] != b[i] {
					fmt.Fprintf(w, "%s: at +%#x: %s %s, now +%#x: %s %s\n", n, a[i].off, a[i].bytes, a[i].reloc, b[i].off, b[i].bytes, b[i].reloc)
					diffs++
					break
				}
			}
		}
	}
	fmt.Fprintf(w, "%d functions, %d instructions: %d differ\n", len(sorted), count, diffs)
	return diffs
}
