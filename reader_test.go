package utf8stream

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
	"unsafe"

	"github.com/utf8stream/utf8stream/internal/textgen"
	"golang.org/x/text/transform"
)

// chunkReader returns at most n bytes per Read.
type chunkReader struct {
	s string
	n int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.n)], r.s)
	r.s = r.s[k:]
	return k, nil
}

func iotestChunkReader(s string, n int) io.Reader { return &chunkReader{s, n} }

// randomReader returns 0 to max bytes per Read, some reads empty.
type randomReader struct {
	s   string
	max int
	rng *rand.Rand
}

func (r *randomReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.rng.IntN(r.max+1))], r.s)
	r.s = r.s[k:]
	return k, nil
}

// readAllErr reads r to the end, as io.ReadAll does, and also returns
// io.EOF rather than nil.
func readAllErr(r io.Reader) ([]byte, error) {
	var out []byte
	buf := make([]byte, 512)
	for range 1 << 20 {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return out, err
		}
	}
	return out, errors.New("reader never ended")
}

// readSmall reads r with a buffer of n bytes.
func readSmall(r io.Reader, n int) ([]byte, error) {
	var out []byte
	buf := make([]byte, n)
	for range 1 << 22 {
		k, err := r.Read(buf)
		out = append(out, buf[:k]...)
		if err != nil {
			return out, err
		}
	}
	return out, errors.New("reader never ended")
}

type readerCase struct {
	name string
	mk   func(s string) io.Reader
}

func readerCases(seed uint64) []readerCase {
	return []readerCase{
		{"whole", func(s string) io.Reader { return strings.NewReader(s) }},
		{"OneByteReader", func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) }},
		{"HalfReader", func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) }},
		{"DataErrReader", func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) }},
		{"chunks of 2", func(s string) io.Reader { return iotestChunkReader(s, 2) }},
		{"chunks of 3", func(s string) io.Reader { return iotestChunkReader(s, 3) }},
		{"random", func(s string) io.Reader {
			return &randomReader{s, 5, rand.New(rand.NewPCG(seed, 1))}
		}},
	}
}

// TestReaderChunking reads every vector through every chunking reader, with
// caller buffers large and small, and checks output and error against
// transform.String of the whole input.
func TestReaderChunking(t *testing.T) {
	for _, tc := range vectors {
		// Long runs on both sides exercise the direct path.
		for _, in := range []string{tc.in, strings.Repeat("x", 40) + tc.in + strings.Repeat("ü", 30)} {
			for _, p := range allPolicies {
				want, wantErr := transformString(NewTransformer(p), in)
				if wantErr == nil {
					wantErr = io.EOF
				}
				for _, rc := range readerCases(uint64(len(in))) {
					for _, bufSize := range []int{1, 3, 17, 512} {
						got, err := readSmall(NewReader(rc.mk(in), p), bufSize)
						if string(got) != want || !sameError(err, wantErr) {
							t.Fatalf("%v %s %q via %s, buffer %d: got %q, %v; want %q, %v",
								p, tc.desc, in, rc.name, bufSize, got, err, want, wantErr)
						}
					}
				}
			}
		}
	}
}

// readMixed reads r to its end with caller buffers whose sizes cycle
// through sizes, so that a Read with a buffer too small to read into
// directly may follow one that left an unfinished sequence behind.
func readMixed(r io.Reader, sizes []int) ([]byte, error) {
	var out []byte
	for i := range 1 << 22 {
		buf := make([]byte, sizes[i%len(sizes)])
		k, err := r.Read(buf)
		out = append(out, buf[:k]...)
		if err != nil {
			return out, err
		}
	}
	return out, errors.New("reader never ended")
}

// TestReaderMixedReads reads every vector with caller buffers of changing
// sizes, above and below minDirect, and checks output and error against
// transform.String of the whole input.
func TestReaderMixedReads(t *testing.T) {
	sizes := [][]int{
		{minDirect + 1, 1, 2 * minDirect, 2, minDirect, 3},
		{1, minDirect + 3, minOut, minDirect - 1},
	}
	for _, tc := range vectors {
		in := strings.Repeat("ж", 20) + tc.in + "日本語" + tc.in + strings.Repeat("x", 9)
		for _, p := range allPolicies {
			want, wantErr := transformString(NewTransformer(p), in)
			if wantErr == nil {
				wantErr = io.EOF
			}
			for _, rc := range readerCases(uint64(len(in))) {
				for _, sz := range sizes {
					got, err := readMixed(NewReader(rc.mk(in), p), sz)
					if string(got) != want || !sameError(err, wantErr) {
						t.Fatalf("%v %s %q via %s, buffers %v: got %q, %v; want %q, %v",
							p, tc.desc, in, rc.name, sz, got, err, want, wantErr)
					}
				}
			}
		}
	}
}

// TestReaderLongInputs reads generated text with 1% ill-formed bytes through
// small random reads.
func TestReaderLongInputs(t *testing.T) {
	size := 100_000
	if testing.Short() && sampled {
		size = 20_000 // a sample: see sampled
	}
	for _, name := range []string{"invalid1pct", "random", "emoji"} {
		in := string(textgen.Make(name, size))
		for _, p := range allPolicies {
			want, wantErr := transformString(NewTransformer(p), in)
			if wantErr == nil {
				wantErr = io.EOF
			}
			for _, rc := range readerCases(7) {
				got, err := readAllErr(NewReader(rc.mk(in), p))
				if string(got) != want || !sameError(err, wantErr) {
					t.Fatalf("%v %s via %s: got %d bytes, %v; want %d bytes, %v", p, name, rc.name, len(got), err, len(want), wantErr)
				}
			}
		}
	}
}

// TestReaderIOTest runs iotest.TestReader on every policy, on valid input
// and, for the repairing policies, on ill-formed input.
func TestReaderIOTest(t *testing.T) {
	for _, name := range []string{"ascii", "japanese", "invalid1pct"} {
		in := string(textgen.Make(name, 10_000))
		for _, p := range allPolicies {
			want, err := transformString(NewTransformer(p), in)
			if err != nil {
				continue // Reject on ill-formed input: not a plain reader
			}
			for _, rc := range readerCases(3) {
				if err := iotest.TestReader(NewReader(rc.mk(in), p), []byte(want)); err != nil {
					t.Errorf("%v %s via %s: %v", p, name, rc.name, err)
				}
			}
		}
	}
}

// TestReaderDataBeforeError checks that Reject returns the valid prefix with
// a nil error, then the *Error, and that the error is sticky.
func TestReaderDataBeforeError(t *testing.T) {
	r := NewReader(strings.NewReader("valid text\xF5more"), Reject)
	buf := make([]byte, 100)
	n, err := r.Read(buf)
	if n != 10 || err != nil || string(buf[:n]) != "valid text" {
		t.Fatalf("first Read = %d %q, %v; want 10 \"valid text\", nil", n, buf[:n], err)
	}
	for range 2 {
		n, err = r.Read(buf)
		var e *Error
		if n != 0 || !errors.As(err, &e) || e.Offset != 10 || !bytes.Equal(e.Bytes, []byte{0xF5}) {
			t.Fatalf("next Read = %d, %v; want 0, *Error at 10", n, err)
		}
	}
}

// errReader returns its data and then err, which is not io.EOF.
type errReader struct {
	data string
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	n := copy(p, r.data)
	r.data = r.data[n:]
	if r.data == "" {
		return n, r.err
	}
	return n, nil
}

// TestReaderUnderlyingError checks that a non-EOF error of the underlying
// reader comes after the bytes before it and beats a validation error.
func TestReaderUnderlyingError(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		desc, in, want string
		p              Policy
	}{
		{"valid", "héllo", "héllo", Reject},
		{"unfinished tail is dropped", "ab\xE2\x82", "ab", Replace},
		{"ill-formed before the error is repaired", "a\xFFb", "a\uFFFDb", Replace},
		{"read error beats validation error", "a\xFFb", "a", Reject},
	} {
		for _, bufSize := range []int{1, 512} {
			got, err := readSmall(NewReader(&errReader{tc.in, boom}, tc.p), bufSize)
			if string(got) != tc.want || err != boom {
				t.Errorf("%s (buffer %d): got %q, %v; want %q, boom", tc.desc, bufSize, got, err, tc.want)
			}
		}
	}
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestReaderNoProgress(t *testing.T) {
	_, err := NewReader(zeroReader{}, Replace).Read(make([]byte, 64))
	if err != io.ErrNoProgress {
		t.Fatalf("Read = %v; want io.ErrNoProgress", err)
	}
}

type badCountReader struct{}

func (badCountReader) Read(p []byte) (int, error) { return len(p) + 1, nil }

func TestReaderBadCount(t *testing.T) {
	for _, n := range []int{4, 64} {
		_, err := NewReader(badCountReader{}, Replace).Read(make([]byte, n))
		if err == nil {
			t.Errorf("Read(%d) with a reader that returns too much: nil error", n)
		}
	}
}

func TestReaderReset(t *testing.T) {
	r := NewReader(strings.NewReader("a\xFF"), Reject)
	if _, err := io.ReadAll(r); err == nil {
		t.Fatal("no error")
	}
	r.Reset(strings.NewReader("\xC3"))
	got, err := io.ReadAll(r)
	var e *Error
	if len(got) != 0 || !errors.As(err, &e) || e.Offset != 0 || !bytes.Equal(e.Bytes, []byte{0xC3}) {
		t.Fatalf("after Reset: %q, %v; want truncated sequence at 0", got, err)
	}
	if s := r.Stats(); s.Subparts != 1 || s.First != 0 {
		t.Fatalf("after Reset: Stats = %+v", s)
	}
}

// TestReaderResetMidStream resets Readers that hold input: an unfinished
// sequence carried from one Read to the next, or input and output not yet
// delivered. What a Reader reads after Reset must not depend on it.
func TestReaderResetMidStream(t *testing.T) {
	const next = "ok \xE2\x82\xAC \xFF end"
	for _, p := range allPolicies {
		want, wantErr := readSmall(NewReader(strings.NewReader(next), p), 64)
		for _, first := range []int{1, 5, minDirect, 64} {
			for _, in := range []string{"日本語", "abc\xE2\x82", "\xF0\x9F\x98\x80\xFF"} {
				r := NewReader(iotestChunkReader(in, 4), p)
				if _, err := r.Read(make([]byte, first)); err != nil && err != io.EOF && !errors.Is(err, ErrInvalid) {
					t.Fatalf("%v: first Read of %q: %v", p, in, err)
				}
				r.Reset(strings.NewReader(next))
				got, err := readSmall(r, 64)
				if !bytes.Equal(got, want) || !sameError(err, wantErr) {
					t.Errorf("%v, %q read %d bytes at first, then Reset: got %q, %v; want %q, %v",
						p, in, first, got, err, want, wantErr)
				}
			}
		}
	}
}

// TestReaderMatchesTransformReader compares the Reader with x/text's
// transform.NewReader around the same Transformer.
func TestReaderMatchesTransformReader(t *testing.T) {
	in := string(textgen.Make("invalid1pct", 50_000))
	for _, p := range allPolicies {
		want, werr := io.ReadAll(transform.NewReader(strings.NewReader(in), NewTransformer(p)))
		got, err := io.ReadAll(NewReader(strings.NewReader(in), p))
		if !bytes.Equal(got, want) || !sameError(err, werr) {
			t.Errorf("%v: Reader and transform.Reader differ: %d bytes, %v vs %d bytes, %v", p, len(got), err, len(want), werr)
		}
	}
}

// TestReaderAllocs checks that steady-state Read allocates nothing.
func TestReaderAllocs(t *testing.T) {
	for _, name := range []string{"japanese", "invalid1pct"} {
		in := textgen.Make(name, 64<<10)
		for _, p := range allPolicies {
			if p == Reject && name == "invalid1pct" {
				continue
			}
			br := bytes.NewReader(in)
			r := NewReader(br, p)
			buf := make([]byte, 4096)
			io.CopyBuffer(io.Discard, struct{ io.Reader }{r}, buf) // warm up buffers
			allocs := testing.AllocsPerRun(20, func() {
				br.Reset(in)
				r.Reset(br)
				for {
					if _, err := r.Read(buf); err != nil {
						break
					}
				}
			})
			if allocs != 0 {
				t.Errorf("%v %s: %v allocations per pass; want 0", p, name, allocs)
			}
		}
	}
}

// onlyReader hides every method but Read, such as WriterTo.
type onlyReader struct{ io.Reader }

// TestReaderWriteTo checks io.Copy, which uses WriteTo, against Transform,
// for every vector and policy, from readers that are io.WriterTo and
// readers that are not.
func TestReaderWriteTo(t *testing.T) {
	sources := []readerCase{
		{"strings.Reader (WriterTo)", func(s string) io.Reader { return strings.NewReader(s) }},
		{"bytes.Reader (WriterTo)", func(s string) io.Reader { return bytes.NewReader([]byte(s)) }},
		{"OneByteReader", func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) }},
		{"DataErrReader", func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) }},
		{"chunks of 3", func(s string) io.Reader { return iotestChunkReader(s, 3) }},
	}
	for _, tc := range vectors {
		for _, in := range []string{tc.in, strings.Repeat("ж", 40) + tc.in + "x"} {
			for _, p := range allPolicies {
				want, wantErr := transformString(NewTransformer(p), in)
				for _, src := range sources {
					r := NewReader(src.mk(in), p)
					var buf bytes.Buffer
					n, err := io.Copy(&buf, r)
					if buf.String() != want || n != int64(len(want)) || !sameError(err, wantErr) {
						t.Fatalf("%v %s from %s: io.Copy = %d %q, %v; want %q, %v", p, tc.desc, src.name, n, buf.String(), err, want, wantErr)
					}
					// Afterwards the Reader is at the end of the stream.
					if m, err2 := r.Read(make([]byte, 8)); m != 0 || (err2 != io.EOF && !sameError(err2, wantErr)) {
						t.Fatalf("%v %s: Read after WriteTo = %d, %v", p, tc.desc, m, err2)
					}
				}
			}
		}
	}
}

// TestReaderWriteToAfterRead reads the first bytes of a stream with Read,
// the rest with WriteTo, and checks the result against reading all of it
// with Read: the same bytes, the same error, and the same Stats. The sources
// end with io.EOF, with io.EOF alongside the last data, with another error
// after data, and are or are not io.WriterTo.
func TestReaderWriteToAfterRead(t *testing.T) {
	boom := errors.New("boom")
	sources := []readerCase{
		{"chunks of 5", func(s string) io.Reader { return iotestChunkReader(s, 5) }},
		{"DataErrReader", func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) }},
		{"errReader", func(s string) io.Reader { return &errReader{s, boom} }},
		{"chunkWriterTo", func(s string) io.Reader { return &chunkWriterTo{s: s, n: 3} }},
		{"bytes.Reader", func(s string) io.Reader { return bytes.NewReader([]byte(s)) }},
	}
	inputs := []string{
		"héllo \xFF wörld \xE2\x82\xAC" + strings.Repeat("z", 100) + "\xC0",
		"日本語" + strings.Repeat("ж", 30) + "\xE2\x82",
		strings.Repeat("ok ", 20),
		// An error after more than a small Read's buffer takes: WriteTo
		// finds it in the input that Read left behind.
		strings.Repeat("a", 2*minOut) + "\xFF" + "b",
	}
	for _, in := range inputs {
		for _, p := range allPolicies {
			for _, src := range sources {
				for _, first := range []int{1, 2, 7, 16, 40, 200} {
					ref := NewReader(src.mk(in), p)
					want, wantErr := readSmall(ref, first)
					if wantErr == io.EOF {
						wantErr = nil
					}
					r := NewReader(src.mk(in), p)
					head := make([]byte, first)
					k, err := r.Read(head)
					var buf bytes.Buffer
					buf.Write(head[:k])
					if err == nil {
						_, err = r.WriteTo(&buf)
					} else if err == io.EOF {
						err = nil
					}
					if !bytes.Equal(buf.Bytes(), want) || !sameError(err, wantErr) || r.Stats() != ref.Stats() {
						t.Errorf("%v from %s, first %d, %q:\n got %q, %v, %+v\nwant %q, %v, %+v",
							p, src.name, first, in, buf.String(), err, r.Stats(), want, wantErr, ref.Stats())
					}
				}
			}
		}
	}
}

func TestReaderWriteToErrors(t *testing.T) {
	boom := errors.New("boom")
	// The underlying reader fails: its error, after the good bytes, with an
	// unfinished sequence dropped.
	var buf bytes.Buffer
	_, err := io.Copy(&buf, NewReader(&errReader{"ok \xFF\xE2\x82", boom}, Replace))
	if err != boom || buf.String() != "ok \uFFFD" {
		t.Errorf("read error: %q, %v; want \"ok \\uFFFD\", boom", buf.String(), err)
	}
	// The destination fails: its error, and the count of what it took.
	lw := &limitWriter{limit: 5, err: boom}
	n, err := NewReader(strings.NewReader(strings.Repeat("abc", 10)), Reject).WriteTo(lw)
	if err != boom || n != 5 || lw.buf.String() != "abcab" {
		t.Errorf("write error: %d, %v, %q", n, err, lw.buf.String())
	}
	// Reject: the valid prefix, then the *Error.
	buf.Reset()
	n, err = NewReader(strings.NewReader("valid\xF8rest"), Reject).WriteTo(&buf)
	var e *Error
	if !errors.As(err, &e) || e.Offset != 5 || n != 5 || buf.String() != "valid" {
		t.Errorf("reject: %d %q, %v", n, buf.String(), err)
	}
}

func TestReaderWriteToAllocs(t *testing.T) {
	for _, p := range allPolicies {
		// Under Reject an ill-formed subpart ends the stream with an
		// *Error, which is allocated: give it valid text in pieces that
		// end inside sequences.
		in := textgen.Make("invalid1pct", 64<<10)
		if p == Reject {
			in = textgen.Make("chinese", 64<<10)
		}
		for _, src := range []func() io.Reader{
			func() io.Reader { return bytes.NewReader(in) },
			func() io.Reader { return onlyReader{bytes.NewReader(in)} },
		} {
			s := src()
			r := NewReader(s, p)
			io.Copy(io.Discard, r) // allocate buffers
			allocs := testing.AllocsPerRun(20, func() {
				r.Reset(s)
				switch s := s.(type) {
				case *bytes.Reader:
					s.Reset(in)
				case onlyReader:
					s.Reader.(*bytes.Reader).Reset(in)
				}
				r.WriteTo(io.Discard)
			})
			if allocs != 0 {
				t.Errorf("%v %T: %v allocations per WriteTo; want 0", p, s, allocs)
			}
		}
	}
}

// TestReaderMemoryBound reads ill-formed input into a caller buffer much
// larger than maxDirect: what the Reader keeps stays within maxDirect.
func TestReaderMemoryBound(t *testing.T) {
	in := textgen.Make("invalid1pct", 4<<20)
	for _, p := range repairPolicies {
		want, _ := transformString(NewTransformer(p), string(in))
		r := NewReader(bytes.NewReader(in), p)
		got, err := readSmall(r, 1<<20)
		if err != io.EOF || string(got) != want {
			t.Fatalf("%v: %d bytes, %v; want %d bytes", p, len(got), err, len(want))
		}
		if r.buf == nil {
			t.Fatalf("%v: the Reader kept no buffer for ill-formed input", p)
		}
		if c := cap(r.buf.src); c > maxDirect {
			t.Errorf("%v: the Reader kept a %d-byte buffer; want at most %d", p, c, maxDirect)
		}
	}
}

// chunkWriterTo is a source that is an io.WriterTo and hands its data to
// the writer n bytes at a time, as a file or a socket does.
type chunkWriterTo struct {
	s     string
	n     int
	reads int // calls of Read
}

func (c *chunkWriterTo) Read(p []byte) (int, error) {
	c.reads++
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}

func (c *chunkWriterTo) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for c.s != "" {
		k := min(c.n, len(c.s))
		m, err := w.Write([]byte(c.s[:k]))
		n += int64(m)
		c.s = c.s[m:]
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// TestReaderWriteToChunks runs WriteTo from a source that writes in chunks
// of every size from 1 to 7 bytes and of 4096 bytes, under every policy,
// with and without NoNUL, and checks the output, the count, the error and
// the Stats against the oracle and a Transformer.
func TestReaderWriteToChunks(t *testing.T) {
	var inputs []string
	for _, tc := range vectors {
		inputs = append(inputs, tc.in, "ab\x00"+tc.in+"ж\xE2\x82")
	}
	for _, name := range []string{"invalid1pct", "random", "chinese"} {
		inputs = append(inputs, string(textgen.Make(name, 9000)))
	}
	for _, nul := range []bool{false, true} {
		var opts []Option
		if nul {
			opts = append(opts, NoNUL())
		}
		for _, p := range allPolicies {
			for _, in := range inputs {
				want, errOff, errBytes := refTransform(p, []byte(in), refOpts{noNUL: nul})
				tr := NewTransformer(p, opts...)
				transformString(tr, in)
				for _, size := range []int{1, 2, 3, 4, 5, 6, 7, 4096} {
					src := &chunkWriterTo{s: in, n: size}
					r := NewReader(src, p, opts...)
					var buf bytes.Buffer
					n, err := r.WriteTo(&buf)
					if src.reads > 0 {
						t.Fatalf("WriteTo called Read on an io.WriterTo")
					}
					var e *Error
					switch {
					case errOff < 0 && err != nil,
						errOff >= 0 && (!errors.As(err, &e) || e.Offset != errOff || !bytes.Equal(e.Bytes, errBytes)):
						t.Fatalf("%v NoNUL=%v chunks of %d, %q: error %v; want offset %d %q", p, nul, size, in, err, errOff, errBytes)
					case !bytes.Equal(buf.Bytes(), want) || n != int64(len(want)):
						t.Fatalf("%v NoNUL=%v chunks of %d, %q: %d %q; want %q", p, nul, size, in, n, buf.Bytes(), want)
					case r.Stats() != tr.Stats():
						t.Fatalf("%v NoNUL=%v chunks of %d, %q: Stats %+v; Transformer %+v", p, nul, size, in, r.Stats(), tr.Stats())
					}
				}
			}
		}
	}
}

// TestReaderWriteToShortWrite checks WriteTo under Reject against a
// destination that takes fewer bytes than it is given: the count of what it
// took, and io.ErrShortWrite, also when the bytes are those of a sequence
// completed across two chunks.
func TestReaderWriteToShortWrite(t *testing.T) {
	in := "ab€cd€€ef"
	for size := 1; size <= len(in); size++ {
		for limit := 0; limit <= len(in); limit++ {
			w := &limitWriter{limit: limit} // a nil err: a short write
			n, err := NewReader(&chunkWriterTo{s: in, n: size}, Reject).WriteTo(w)
			if limit >= len(in) {
				if err != nil || w.buf.String() != in || n != int64(len(in)) {
					t.Errorf("chunks of %d, limit %d: %d %q, %v; want all", size, limit, n, w.buf.String(), err)
				}
				continue
			}
			if err != io.ErrShortWrite || n != int64(w.buf.Len()) || w.buf.String() != in[:w.buf.Len()] || w.buf.Len() > limit {
				t.Errorf("chunks of %d, limit %d: %d %q, %v; want io.ErrShortWrite", size, limit, n, w.buf.String(), err)
			}
		}
	}
}

// TestReaderPerStream checks what the README says a stream costs under
// Reject: one allocation of a Reader of at most 160 bytes, since the
// buffers that only some streams need are made on first need, and copying
// valid text through WriteTo, with sequences split between chunks, needs none.
func TestReaderPerStream(t *testing.T) {
	if size := unsafe.Sizeof(Reader{}); size > 160 {
		t.Errorf("a Reader is %d bytes; the README says 160", size)
	}
	in := []byte(strings.Repeat("日本語 ж ü ", 200))
	src := &byteChunks{}
	allocs := testing.AllocsPerRun(20, func() {
		*src = byteChunks{b: in, n: 7}
		r := NewReader(src, Reject)
		if n, err := r.WriteTo(io.Discard); err != nil || n != int64(len(in)) {
			t.Fatalf("WriteTo = %d, %v; want %d, nil", n, err, len(in))
		}
		if r.buf != nil {
			t.Fatal("WriteTo of valid text under Reject made a readBuf")
		}
	})
	if allocs != 1 {
		t.Errorf("%v allocations per stream; want 1 (the Reader)", allocs)
	}
}

// byteChunks is an io.WriterTo that writes b to w n bytes at a time, with
// no allocation of its own. Its Read is never called here.
type byteChunks struct {
	b []byte
	n int
}

func (c *byteChunks) Read(p []byte) (int, error) { panic("byteChunks: Read") }

func (c *byteChunks) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for len(c.b) > 0 {
		m, err := w.Write(c.b[:min(c.n, len(c.b))])
		n += int64(m)
		c.b = c.b[m:]
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
