// Package asmcheck reads the Go assembly of the kernel packages as the
// assembler sees it, with #include and #define expanded, so that tests can
// check properties of every function's instructions.
package asmcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// A Func is one TEXT symbol and the instructions that follow it, up to the
// next TEXT or the end of its file, in source order with macros expanded.
type Func struct {
	Name     string   // the symbol, such as "·validAVX2"
	File     string   // the .s file that holds it
	Line     int      // the line of its TEXT directive
	Frame    int      // the size of its frame, from the TEXT directive
	Requires []string // the features its "// Requires:" comment names
	Instrs   []Instr
}

// An Instr is one instruction after macro expansion.
type Instr struct {
	Op   string   // the mnemonic, such as "VPSHUFB"
	Args []string // the operands, trimmed
	Line int      // the line of the source file that produced it
}

// String returns the instruction as the assembler reads it.
func (in Instr) String() string {
	return strings.TrimSpace(in.Op + " " + strings.Join(in.Args, ", "))
}

type macro struct {
	params []string // nil for an object-like macro
	body   string
}

// ParseFile reads the .s file at path and returns its functions.
func ParseFile(path string) ([]Func, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p := &parser{dir: filepath.Dir(path), file: filepath.Base(path), macros: map[string]macro{}}
	if err := p.run(string(src), 0); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p.funcs, nil
}

// ParseDir returns the functions of every .s file in dir whose name matches
// the glob pattern, such as "*_amd64.s".
func ParseDir(dir, pattern string) ([]Func, error) {
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return nil, err
	}
	var funcs []Func
	for _, f := range files {
		fs, err := ParseFile(f)
		if err != nil {
			return nil, err
		}
		funcs = append(funcs, fs...)
	}
	return funcs, nil
}

type parser struct {
	dir, file string
	macros    map[string]macro
	funcs     []Func
	requires  []string // from the comment block being read
}

var (
	requiresRE = regexp.MustCompile(`^//\s*Requires:\s*(.*)$`)
	textRE     = regexp.MustCompile(`^TEXT\s+([^(\s]+)\(SB\).*\$(\d+)`)
	identRE    = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
)

// run reads src, whose first line is line base+1 of the file being parsed
// (base is 0 for the file itself and for included files, whose instructions
// are reported at the #include line).
func (p *parser) run(src string, includeLine int) error {
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		lineNo := i + 1
		if includeLine > 0 {
			lineNo = includeLine
		}
		line := strings.TrimSpace(lines[i])
		if m := requiresRE.FindStringSubmatch(line); m != nil && includeLine == 0 {
			p.requires = splitFeatures(m[1])
			continue
		}
		if strings.HasPrefix(line, "//") || line == "" {
			if line == "" {
				p.requires = nil
			}
			continue
		}
		// Join continuation lines.
		for strings.HasSuffix(line, `\`) && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(line, `\`) + "\n" + strings.TrimSpace(lines[i])
		}
		line = strings.TrimSuffix(line, `\`)
		switch {
		case strings.HasPrefix(line, "#include"):
			name := strings.Trim(strings.TrimSpace(strings.TrimPrefix(line, "#include")), `"<>`)
			if name == "textflag.h" || name == "go_asm.h" || name == "funcdata.h" {
				continue
			}
			b, err := os.ReadFile(filepath.Join(p.dir, name))
			if err != nil {
				return err
			}
			at := lineNo
			if err := p.run(string(b), at); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		case strings.HasPrefix(line, "#define"):
			p.define(strings.TrimSpace(strings.TrimPrefix(line, "#define")))
		case strings.HasPrefix(line, "#undef"):
			delete(p.macros, strings.TrimSpace(strings.TrimPrefix(line, "#undef")))
		case strings.HasPrefix(line, "#"):
			return fmt.Errorf("line %d: unsupported directive %q", lineNo, line)
		default:
			if m := textRE.FindStringSubmatch(line); m != nil {
				frame, _ := strconv.Atoi(m[2])
				p.funcs = append(p.funcs, Func{Name: m[1], File: p.file, Line: lineNo, Frame: frame, Requires: p.requires})
				p.requires = nil
				continue
			}
			if err := p.emit(stripComment(line), lineNo, 0); err != nil {
				return fmt.Errorf("line %d: %w", lineNo, err)
			}
		}
	}
	return nil
}

// splitFeatures splits "AVX2, BMI1 and POPCNT." into its feature names.
func splitFeatures(s string) []string {
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	s = strings.ReplaceAll(s, " and ", ", ")
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func stripComment(s string) string {
	var b strings.Builder
	for l := range strings.SplitSeq(s, "\n") {
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

func (p *parser) define(def string) {
	name := identRE.FindString(def)
	rest := def[len(name):]
	var m macro
	if strings.HasPrefix(rest, "(") {
		end := strings.Index(rest, ")")
		m.params = []string{}
		for a := range strings.SplitSeq(rest[1:end], ",") {
			if a = strings.TrimSpace(a); a != "" {
				m.params = append(m.params, a)
			}
		}
		rest = rest[end+1:]
	}
	m.body = stripComment(rest)
	p.macros[name] = m
}

// emit expands the macros in text and records its instructions.
func (p *parser) emit(text string, line, depth int) error {
	if depth > 50 {
		return fmt.Errorf("macro expansion too deep")
	}
	for stmt := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '\n' || r == ';' }) {
		stmt = strings.TrimSpace(stmt)
		// Labels.
		for {
			id := identRE.FindString(stmt)
			if id != "" && strings.HasPrefix(stmt, id+":") {
				stmt = strings.TrimSpace(stmt[len(id)+1:])
				continue
			}
			break
		}
		if stmt == "" {
			continue
		}
		op := identRE.FindString(stmt)
		if m, ok := p.macros[op]; ok && strings.HasPrefix(stmt, op) {
			rest := stmt[len(op):]
			body := m.body
			if m.params != nil {
				rest = strings.TrimSpace(rest)
				if !strings.HasPrefix(rest, "(") {
					return fmt.Errorf("macro %s used without arguments", op)
				}
				args, tail, err := splitArgs(rest)
				if err != nil {
					return fmt.Errorf("macro %s: %w", op, err)
				}
				if len(args) != len(m.params) {
					return fmt.Errorf("macro %s: %d arguments, want %d", op, len(args), len(m.params))
				}
				body = substitute(body, m.params, args) + "\n" + tail
			} else {
				body += rest
			}
			if err := p.emit(body, line, depth+1); err != nil {
				return err
			}
			continue
		}
		if len(p.funcs) == 0 {
			// DATA and GLOBL before the first function.
			continue
		}
		in := Instr{Op: op, Line: line}
		if args := strings.TrimSpace(stmt[len(op):]); args != "" {
			for a := range strings.SplitSeq(args, ",") {
				in.Args = append(in.Args, strings.TrimSpace(a))
			}
		}
		// Operands can be object-like macros too (register names).
		for i, a := range in.Args {
			in.Args[i] = p.expandOperand(a, 0)
		}
		if in.Op == "DATA" || in.Op == "GLOBL" {
			continue
		}
		f := &p.funcs[len(p.funcs)-1]
		f.Instrs = append(f.Instrs, in)
	}
	return nil
}

func (p *parser) expandOperand(a string, depth int) string {
	if depth > 20 {
		return a
	}
	return identRE.ReplaceAllStringFunc(a, func(id string) string {
		if m, ok := p.macros[id]; ok && m.params == nil {
			return p.expandOperand(strings.TrimSpace(m.body), depth+1)
		}
		return id
	})
}

// splitArgs splits "(a, b(c, d), e) tail" into its top-level arguments and
// what follows the closing parenthesis.
func splitArgs(s string) (args []string, tail string, err error) {
	depth, start := 0, 1
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[start:i]))
				return args, s[i+1:], nil
			}
		case ',':
			if depth == 1 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return nil, "", fmt.Errorf("unbalanced parentheses in %q", s)
}

func substitute(body string, params, args []string) string {
	return identRE.ReplaceAllStringFunc(body, func(id string) string {
		for i, p := range params {
			if id == p {
				return args[i]
			}
		}
		return id
	})
}
