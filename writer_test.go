package utf8stream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/utf8stream/utf8stream/internal/textgen"
	"golang.org/x/text/transform"
)

// writeChunks writes in to a new Writer in pieces of the given sizes (the
// last size repeats) and closes it.
func writeChunks(p Policy, in []byte, sizes []int, opts ...Option) ([]byte, error) {
	var buf bytes.Buffer
	w := NewWriter(&buf, p, opts...)
	var err error
	for i, k := 0, 0; i < len(in) && err == nil; k++ {
		n := min(sizes[min(k, len(sizes)-1)], len(in)-i)
		var m int
		m, err = w.Write(in[i : i+n])
		if err == nil && m != n {
			return buf.Bytes(), errors.New("short count without error")
		}
		i += n
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return buf.Bytes(), err
}

// TestWriterSplitEverywhere writes every vector split at every position,
// and in pieces of 1 to 12 bytes, and checks output and error against
// transform.String of the whole.
func TestWriterSplitEverywhere(t *testing.T) {
	for _, tc := range vectors {
		for _, in := range []string{tc.in, "ab" + tc.in + "😀" + tc.in} {
			for _, p := range allPolicies {
				want, wantErr := transformString(NewTransformer(p), in)
				check := func(how string, got []byte, err error) {
					t.Helper()
					if string(got) != want || !sameError(err, wantErr) {
						t.Fatalf("%v %s %q %s: got %q, %v; want %q, %v", p, tc.desc, in, how, got, err, want, wantErr)
					}
				}
				for cut := 0; cut <= len(in); cut++ {
					got, err := writeChunks(p, []byte(in), []int{cut, len(in)})
					check("split", got, err)
				}
				for size := 1; size <= 12; size++ {
					got, err := writeChunks(p, []byte(in), []int{size})
					check("pieces", got, err)
				}
			}
		}
	}
}

func TestWriterLongInputs(t *testing.T) {
	for _, name := range []string{"invalid1pct", "random", "hindi"} {
		in := textgen.Make(name, 100_000)
		for _, p := range allPolicies {
			want, wantErr := transformString(NewTransformer(p), string(in))
			for _, sizes := range [][]int{{100_000}, {1}, {7}, {4096}, {3, 5000, 1, 2, 9999}} {
				got, err := writeChunks(p, in, sizes, BufferSize(100))
				if string(got) != want || !sameError(err, wantErr) {
					t.Fatalf("%v %s sizes %v: got %d bytes, %v; want %d bytes, %v", p, name, sizes, len(got), err, len(want), wantErr)
				}
			}
		}
	}
}

func TestWriterRejectCounts(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, Reject)
	if n, err := w.Write([]byte("héllo \xE2")); n != 8 || err != nil {
		t.Fatalf("Write = %d, %v; want 8, nil (the unfinished byte is kept)", n, err)
	}
	n, err := w.Write([]byte("\x82\xACok\xC0\xAFrest"))
	var e *Error
	if n != 4 || !errors.As(err, &e) || e.Offset != 12 || !bytes.Equal(e.Bytes, []byte{0xC0}) {
		t.Fatalf("Write = %d, %v; want 4, *Error at 12", n, err)
	}
	if got := buf.String(); got != "héllo €ok" {
		t.Fatalf("wrote %q; want %q", got, "héllo €ok")
	}
	if n, err2 := w.Write([]byte("more")); n != 0 || err2 != err {
		t.Fatalf("Write after error = %d, %v; want 0 and the same error", n, err2)
	}
	if err2 := w.Close(); err2 != err {
		t.Fatalf("Close = %v; want the same error", err2)
	}
}

func TestWriterCloseTruncated(t *testing.T) {
	for _, p := range allPolicies {
		var buf bytes.Buffer
		w := NewWriter(&buf, p)
		if _, err := w.Write([]byte("ab\xF0\x9F\x98")); err != nil {
			t.Fatal(err)
		}
		if buf.String() != "ab" {
			t.Fatalf("%v: before Close wrote %q; want \"ab\"", p, buf.String())
		}
		err := w.Close()
		want, _, _ := refTransform(p, []byte("ab\xF0\x9F\x98"), refOpts{})
		if buf.String() != string(want) {
			t.Errorf("%v: after Close wrote %q; want %q", p, buf.String(), want)
		}
		var e *Error
		if (p == Reject) != errors.As(err, &e) || p == Reject && (e.Offset != 2 || len(e.Bytes) != 3) {
			t.Errorf("%v: Close = %v", p, err)
		}
		if err2 := w.Close(); err2 != err {
			t.Errorf("%v: second Close = %v; want %v", p, err2, err)
		}
		if n, err := w.Write([]byte("x")); n != 0 || err == nil {
			t.Errorf("%v: Write after Close = %d, %v; want an error", p, n, err)
		}
	}
}

// closeTracker records whether Close was called.
type closeTracker struct {
	bytes.Buffer
	closed bool
}

func (c *closeTracker) Close() error { c.closed = true; return nil }

func TestWriterCloseLeavesUnderlyingOpen(t *testing.T) {
	var c closeTracker
	w := NewWriter(&c, Replace)
	w.Write([]byte("x"))
	w.Close()
	if c.closed {
		t.Fatal("Writer.Close closed the underlying writer")
	}
}

// limitWriter takes at most limit bytes in all; past that it takes what
// fits and returns err (or, if err is nil, a short count).
type limitWriter struct {
	buf   bytes.Buffer
	limit int
	err   error
}

func (w *limitWriter) Write(p []byte) (int, error) {
	room := w.limit - w.buf.Len()
	if len(p) <= room {
		return w.buf.Write(p)
	}
	w.buf.Write(p[:room])
	return room, w.err
}

// TestWriterExactCount makes the underlying writer fail after every possible
// number of bytes and checks that the count Write returns is exact: the
// output of the counted input is all written, and no more than a part of
// the next unit's output is.
func TestWriterExactCount(t *testing.T) {
	boom := errors.New("disk full")
	inputs := []string{
		strings.Repeat("abc", 50),
		"ab\xFFcd\xE2\x82\xACe\xC0\xAF" + strings.Repeat("é", 20) + "\xED\xA0\x80z",
		string(textgen.Make("invalid1pct", 700)),
		// 3-byte subparts, whose U+FFFD has the same length.
		strings.Repeat("ab\xF0\x9F\x98cd\xE2\x82", 20),
		// Subparts so dense that the block loop writes stretches of
		// them, in writes long enough for it to run: a short write
		// inside one finds its units again.
		string(textgen.Make("random", 1500)),
	}
	for _, in := range inputs {
		cuts := unitCuts(in)
		for _, p := range repairPolicies {
			full, _ := transformString(NewTransformer(p), in)
			for limit := 0; limit < len(full); limit += 1 + limit/50 {
				for _, werr := range []error{boom, nil} {
					for _, bufSize := range []int{16, 4096} {
						lw := &limitWriter{limit: limit, err: werr}
						w := NewWriter(lw, p, BufferSize(bufSize))
						total, err := 0, error(nil)
						chunk := 64
						if len(in) > 1000 {
							chunk = 1000
						}
						for i := 0; i < len(in) && err == nil; i += chunk {
							var n int
							n, err = w.Write([]byte(in[i:min(i+chunk, len(in))]))
							total += n
						}
						if err == nil {
							err = w.Close()
						}
						wantErr := werr
						if werr == nil {
							wantErr = io.ErrShortWrite
						}
						if err != wantErr {
							t.Fatalf("%v limit %d: error %v; want %v", p, limit, err, wantErr)
						}
						// Valid runs count byte by byte, so the count may
						// end inside a valid sequence, but never inside a
						// repaired unit of the whole stream.
						if cuts[total] == cutInsideSubpart {
							t.Fatalf("%v limit %d: count %d ends inside an ill-formed subpart", p, limit, total)
						}
						// The output for in[:total]: the units before the
						// last boundary, then the counted bytes of a valid
						// sequence, copied.
						b := total
						for cuts[b] != cutBoundary {
							b--
						}
						// A tail kept at the end of the input counts as
						// written; Close may fail to write its output.
						dst := make([]byte, 4*b+16)
						nd, _, _ := NewTransformer(p).Transform(dst, []byte(in[:b]), b < len(in))
						prefix := string(dst[:nd]) + in[b:total]
						wrote := lw.buf.String()
						if !strings.HasPrefix(wrote, prefix) {
							t.Fatalf("%v limit %d: count %d covers %q, but wrote %q", p, limit, total, prefix, wrote)
						}
						// What is written past the counted output is part
						// of one unit: at most one replacement or 3
						// escapes (12 bytes under BackslashReplace), or one character.
						if extra := len(wrote) - len(prefix); extra > 12 {
							t.Fatalf("%v limit %d: count %d is %d output bytes short of what was written", p, limit, total, extra)
						}
					}
				}
			}
		}
	}
}

// TestWriterShortWriteOnInvalid checks that the Writer reports to the
// OnInvalid function what the Transformer does on dense input, written in
// pieces that the block loop and its tail take; and that a short write
// inside output that the block loop wrote, whose units Write then finds
// again to count its input, reports no subpart twice.
func TestWriterShortWriteOnInvalid(t *testing.T) {
	in := textgen.Make("random", 4000)
	var want []Error
	transform.Bytes(NewTransformer(Replace, OnInvalid(func(e Error) { want = append(want, e) })), in)
	for _, size := range []int{100, 137, 1000, len(in)} {
		var got []Error
		w := NewWriter(io.Discard, Replace, OnInvalid(func(e Error) { got = append(got, e) }))
		for i := 0; i < len(in); i += size {
			w.Write(in[i:min(i+size, len(in))])
		}
		if err := w.Close(); err != nil || !cmp.Equal(got, want) {
			t.Fatalf("pieces of %d: %d calls, Close %v; want the Transformer's %d", size, len(got), err, len(want))
		}
	}
	for _, limit := range []int{1, 100, 1000, 3000, 6000} {
		var offs []int64
		lw := &limitWriter{limit: limit, err: errors.New("disk full")}
		w := NewWriter(lw, Replace, OnInvalid(func(e Error) { offs = append(offs, e.Offset) }))
		n, err := w.Write(in)
		if err == nil {
			t.Fatalf("limit %d: Write = %d, nil; want an error", limit, n)
		}
		if s := w.Stats(); int64(len(offs)) != s.Subparts || len(offs) == 0 {
			t.Fatalf("limit %d: %d calls of OnInvalid; Stats has %d subparts", limit, len(offs), s.Subparts)
		}
		for i := 1; i < len(offs); i++ {
			if offs[i] <= offs[i-1] {
				t.Fatalf("limit %d: OnInvalid at offset %d after %d", limit, offs[i], offs[i-1])
			}
		}
	}
}

const (
	cutBoundary      = iota // between two units
	cutInsideValid          // inside a well-formed sequence
	cutInsideSubpart        // inside a maximal ill-formed subpart
)

// unitCuts says, for each position 0..len(in), where it falls in the whole
// stream's units, using the oracle's segmentation.
func unitCuts(in string) []int {
	cuts := make([]int, len(in)+1)
	for i := 0; i < len(in); {
		n, inside := refSeq([]byte(in[i:])), cutInsideValid
		if n == 0 {
			n, inside = refSubpart([]byte(in[i:]), false), cutInsideSubpart
		}
		for k := 1; k < n; k++ {
			cuts[i+k] = inside
		}
		i += n
	}
	return cuts
}

func TestWriterValidPassThrough(t *testing.T) {
	// Valid input reaches the underlying writer in the caller's slice.
	in := textgen.Make("korean", 10_000)
	var rec recordWriter
	w := NewWriter(&rec, Replace)
	w.Write(in)
	w.Close()
	if len(rec.calls) != 1 || &rec.calls[0][0] != &in[0] || len(rec.calls[0]) != len(in) {
		t.Fatalf("valid input was not passed through as one write of the caller's slice: %d writes", len(rec.calls))
	}
}

type recordWriter struct{ calls [][]byte }

func (w *recordWriter) Write(p []byte) (int, error) {
	w.calls = append(w.calls, p)
	return len(p), nil
}

func TestWriterReset(t *testing.T) {
	var a, b bytes.Buffer
	w := NewWriter(&a, Reject)
	w.Write([]byte("x\xE2\x82"))
	w.Reset(&b)
	w.Write([]byte("\xACy"))
	err := w.Close()
	var e *Error
	if !errors.As(err, &e) || e.Offset != 0 {
		t.Fatalf("after Reset: Close = %v; want *Error at offset 0 (the carried bytes were dropped)", err)
	}
	if a.String() != "x" || b.String() != "" {
		t.Fatalf("wrote %q and %q", a.String(), b.String())
	}
}

// TestWriterMatchesTransformWriter compares the Writer with x/text's
// transform.NewWriter around the same Transformer.
func TestWriterMatchesTransformWriter(t *testing.T) {
	in := textgen.Make("invalid1pct", 50_000)
	for _, p := range allPolicies {
		var want bytes.Buffer
		tw := transform.NewWriter(&want, NewTransformer(p))
		_, werr := tw.Write(in)
		if cerr := tw.Close(); werr == nil {
			werr = cerr
		}
		got, err := writeChunks(p, in, []int{1000})
		if !bytes.Equal(got, want.Bytes()) || !sameError(err, werr) {
			t.Errorf("%v: Writer and transform.Writer differ: %d bytes, %v vs %d bytes, %v", p, len(got), err, want.Len(), werr)
		}
	}
}

func TestWriterAllocs(t *testing.T) {
	for _, name := range []string{"chinese", "invalid1pct"} {
		in := textgen.Make(name, 64<<10)
		for _, p := range allPolicies {
			if p == Reject && name == "invalid1pct" {
				continue
			}
			w := NewWriter(io.Discard, p)
			w.Write(in) // allocate buffers
			allocs := testing.AllocsPerRun(20, func() {
				w.Reset(io.Discard)
				for i := 0; i < len(in); i += 1000 {
					w.Write(in[i:min(i+1000, len(in))])
				}
				w.Close()
			})
			if allocs != 0 {
				t.Errorf("%v %s: %v allocations per pass; want 0", p, name, allocs)
			}
		}
	}
}

// refUnit is a unit of the reference segmentation: in[start:end], whose
// output is out; a copied unit's output is its input, byte for byte.
type refUnit struct {
	start, end int
	out        []byte
	copied     bool
}

// refUnits splits in into units with refSeq and refSubpart, the reference
// that shares no code with decode.go, and gives each its output under p.
// Under Reject the units stop before the first ill-formed subpart.
func refUnits(p Policy, in []byte) []refUnit {
	var units []refUnit
	for i := 0; i < len(in); {
		n := refSeq(in[i:])
		copied := n > 0
		if n == 0 {
			if p == Reject {
				break
			}
			n = refSubpart(in[i:], false)
		}
		out, _, _ := refTransform(p, in[i:i+n], refOpts{})
		copied = copied && bytes.Equal(out, in[i:i+n])
		units = append(units, refUnit{i, i + n, out, copied})
		i += n
	}
	return units
}

// reached returns how many bytes of in[a:b] have all of their output in
// the first k bytes of the output: a copied unit's bytes one by one, any
// other unit's all or none (so a unit with no output, under Drop, once the
// output before it is written).
func reached(units []refUnit, k, a, b int) int {
	count, pos := 0, 0
	for _, u := range units {
		for i := u.start; i < u.end; i++ {
			ok := pos+len(u.out) <= k
			if u.copied {
				ok = pos+(i-u.start) < k
			}
			if ok && a <= i && i < b {
				count++
			}
		}
		pos += len(u.out)
	}
	return count
}

// TestWriterCountExact splits inputs into two and three Writes at every
// point, over an underlying writer that takes k bytes for every k and then
// fails, with an error or with a short count. Every Write that succeeds
// must count all of its p; the one that fails must count exactly the bytes
// of its own p whose output reached the underlying writer; and what that
// writer got is a prefix of the output of the whole.
func TestWriterCountExact(t *testing.T) {
	boom := errors.New("disk full")
	inputs := []string{
		"a\xE6\x9C\xACb",
		"\xF0\x9F\x98\x80\xE2\x82\xACz",
		"x\xE2\x82y\xFF\xC3",
		"é\xED\xA0\x80\xEE\xBE\x80ü",
		"\xF0\x9F\x98\xC3\xA9\x80",
		// Long enough for the block loop and the kernels: two Writes only.
		string(textgen.Make("random", 150)),
		"ab\xE6\x9C" + string(textgen.Make("invalid1pct", 150)) + "\xF0\x9F\x98\x80",
	}
	if testing.Short() {
		// The short inputs at every split; of the long ones, which the
		// block loop takes, the first, at every seventh split.
		inputs = inputs[:len(inputs)-1]
	}
	for _, in := range inputs {
		for _, p := range allPolicies {
			units := refUnits(p, []byte(in))
			full, _, _ := refTransform(p, []byte(in), refOpts{})
			var splits [][]int
			step := 1
			if testing.Short() && len(in) >= 20 {
				step = 7 // the long input at every seventh split
			}
			for i := 0; i <= len(in); i += step {
				splits = append(splits, []int{i})
				for j := i; j <= len(in) && len(in) < 20 && !(testing.Short() && j%2 == 1); j++ {
					splits = append(splits, []int{i, j})
				}
			}
			for _, cut := range splits {
				bounds := append(append([]int{0}, cut...), len(in))
				for k := 0; k <= len(full); k++ {
					for _, werr := range []error{boom, nil} {
						lw := &limitWriter{limit: k, err: werr}
						w := NewWriter(lw, p)
						for i := 0; i+1 < len(bounds); i++ {
							a, b := bounds[i], bounds[i+1]
							n, err := w.Write([]byte(in[a:b]))
							if err == nil {
								if n != b-a {
									t.Fatalf("%v %q cut %v limit %d: Write(%q) = %d, nil; want %d", p, in, cut, k, in[a:b], n, b-a)
								}
								continue
							}
							if want := reached(units, lw.buf.Len(), a, b); n != want {
								t.Fatalf("%v %q cut %v limit %d err %v: Write(%q) = %d, %v; want %d (wrote %q)",
									p, in, cut, k, werr, in[a:b], n, err, want, lw.buf.Bytes())
							}
							break
						}
						w.Close()
						if !bytes.HasPrefix(full, lw.buf.Bytes()) {
							t.Fatalf("%v %q cut %v limit %d: wrote %q; not a prefix of %q", p, in, cut, k, lw.buf.Bytes(), full)
						}
					}
				}
			}
		}
	}
}

// callWriter records each call of Write it gets.
type callWriter struct {
	calls [][]byte
}

func (w *callWriter) Write(p []byte) (int, error) {
	w.calls = append(w.calls, bytes.Clone(p))
	return len(p), nil
}

// writeCounted writes the pieces of in between the bounds to a new Writer,
// then closes it, and checks that each Write (and Close) whose output is
// at most size bytes reaches the underlying writer as one call (none when
// the output is empty). It returns what was written and the error.
func writeCounted(t *testing.T, desc string, p Policy, in []byte, bounds []int, size int, opts ...Option) ([]byte, error) {
	t.Helper()
	cw := new(callWriter)
	w := NewWriter(cw, p, append(opts, BufferSize(size))...)
	var err error
	check := func(what string) {
		t.Helper()
		var out int
		for _, c := range cw.calls {
			out += len(c)
		}
		if len(cw.calls) > 1 && out <= size {
			t.Fatalf("%s %v size %d bounds %v: %s, %d bytes of output, reached the underlying writer in %d calls: %q",
				desc, p, size, bounds, what, out, len(cw.calls), cw.calls)
		}
	}
	var all []byte
	for i := 0; i+1 < len(bounds) && err == nil; i++ {
		cw.calls = cw.calls[:0]
		_, err = w.Write(in[bounds[i]:bounds[i+1]])
		check(fmt.Sprintf("Write(%q)", in[bounds[i]:bounds[i+1]]))
		all = append(all, bytes.Join(cw.calls, nil)...)
	}
	cw.calls = cw.calls[:0]
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	check("Close")
	return append(all, bytes.Join(cw.calls, nil)...), err
}

// TestWriterOneWrite writes every vector, under every policy and option,
// split in two at every point and in pieces of 1 to 5 bytes, and checks
// that a Write whose output fits the buffer is one write, carried bytes
// included: no more than one call of the underlying writer unless the
// output is longer than the buffer size. Inputs longer than the buffer,
// dense with ill-formed bytes, take the block loop and its tail.
func TestWriterOneWrite(t *testing.T) {
	inputs := append([]string{}, optionVectors...)
	for _, tc := range vectors {
		inputs = append(inputs, tc.in, "ab"+tc.in+"😀"+tc.in)
	}
	long := []string{
		string(textgen.Make("random", 300)),
		string(textgen.Make("invalid1pct", 600)),
		strings.Repeat("caf\xE9 au lait\n", 40),
		strings.Repeat("\x00\xFF", 300), // NUL under NoNUL: a unit at a time
	}
	combos := append([]optCombo{{"none", 0}}, optCombos...)
	step := 1
	if testing.Short() {
		combos = []optCombo{{"none", 0}, {"NoNUL", 1}, {"all", 127}}
		step = 7
		if sampled {
			combos = combos[:1] // a sample: see sampled
		}
	}
	for _, combo := range combos {
		opts, _ := fuzzOptions(combo.o)
		for _, p := range allPolicies {
			for _, in := range inputs {
				desc := combo.name + " " + strconv.Quote(in)
				want, wantErr := transformString(NewTransformer(p, opts...), in)
				for _, size := range []int{16, 4096} {
					check := func(bounds []int) {
						t.Helper()
						got, err := writeCounted(t, desc, p, []byte(in), bounds, size, opts...)
						if string(got) != want || !sameError(err, wantErr) {
							t.Fatalf("%s %v size %d bounds %v: got %q, %v; want %q, %v", desc, p, size, bounds, got, err, want, wantErr)
						}
					}
					for cut := 0; cut <= len(in); cut++ {
						check([]int{0, cut, len(in)})
					}
					for piece := 1; piece <= 5; piece++ {
						bounds := []int{0}
						for i := piece; i < len(in); i += piece {
							bounds = append(bounds, i)
						}
						check(append(bounds, len(in)))
					}
				}
			}
			for _, in := range long {
				desc := combo.name + " " + fmt.Sprintf("%.20q", in)
				want, wantErr := transformString(NewTransformer(p, opts...), in)
				for _, size := range []int{16, 100, 700, 4096} {
					for cut := 0; cut <= len(in); cut += step {
						got, err := writeCounted(t, desc, p, []byte(in), []int{0, cut, len(in)}, size, opts...)
						if string(got) != want || !sameError(err, wantErr) {
							t.Fatalf("%s %v size %d cut %d: got %q, %v; want %q, %v", desc, p, size, cut, got, err, want, wantErr)
						}
					}
				}
			}
		}
	}
}

// TestWriterCountExactMerged checks the exact count of a Write that fails
// short after more units than a Writer keeps marks for (maxMarks), which it
// then merges into a stretch whose units it finds again: units of the
// general path, since NUL under NoNUL and a replacement longer than 8
// bytes keep the block loop out.
func TestWriterCountExactMerged(t *testing.T) {
	boom := errors.New("disk full")
	const repl = "<invalid!>"
	for _, tc := range []struct {
		desc string
		p    Policy
		opts []Option
		unit string // the ill-formed unit
		out  string // its output
	}{
		{"NoNUL Drop", Drop, []Option{NoNUL()}, "\x00", ""},
		{"NoNUL Replace", Replace, []Option{NoNUL()}, "\x00", "\uFFFD"},
		{"long replacement", Replace, []Option{Replacement(repl)}, "\xFF", repl},
		{"long replacement, Drop-like", Replace, []Option{Replacement(repl), NoNUL()}, "\x00", repl},
	} {
		// Units and valid bytes in turn, valid runs of 0 to 2 bytes,
		// more units than maxMarks: in[i] is a unit or a valid byte.
		var in []byte
		var units []refUnit
		var full []byte
		for i := range 3 * maxMarks {
			units = append(units, refUnit{len(in), len(in) + len(tc.unit), []byte(tc.out), false})
			in = append(in, tc.unit...)
			full = append(full, tc.out...)
			for range i % 3 {
				units = append(units, refUnit{len(in), len(in) + 1, []byte("v"), true})
				in = append(in, 'v')
				full = append(full, 'v')
			}
		}
		step := 1
		if testing.Short() {
			step = 13
			if sampled {
				step = 41 // a sample: see sampled
			}
		}
		for _, size := range []int{16, 4096, 1 << 16} {
			for k := 0; k <= len(full); k += step + k%7 {
				for _, werr := range []error{boom, nil} {
					lw := &limitWriter{limit: k, err: werr}
					w := NewWriter(lw, tc.p, append(tc.opts, BufferSize(size))...)
					n, err := w.Write(in)
					if err == nil {
						if n != len(in) || k < len(full) {
							t.Fatalf("%s size %d limit %d: Write = %d, nil; want an error", tc.desc, size, k, n)
						}
						continue
					}
					if want := reached(units, lw.buf.Len(), 0, len(in)); n != want {
						t.Fatalf("%s size %d limit %d err %v: Write = %d, %v; want %d (wrote %d bytes)", tc.desc, size, k, werr, n, err, want, lw.buf.Len())
					}
					if !bytes.HasPrefix(full, lw.buf.Bytes()) {
						t.Fatalf("%s size %d limit %d: wrote %q; not a prefix of %q", tc.desc, size, k, lw.buf.Bytes(), full)
					}
				}
			}
		}
	}
}
