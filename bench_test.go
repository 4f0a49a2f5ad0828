package utf8stream

import (
	"bytes"
	"io"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream/internal/textgen"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
)

// Benchmarks are named input=NAME/size=N/policy=P/impl=I so that benchstat
// can slice them, e.g. benchstat -col /impl. The peers (copy, utf8.Valid,
// x/text's unicode.UTF8 decoder, runes.ReplaceIllFormed) run in
// BenchmarkPeers on the same inputs; sonic and segmentio run in the nested
// module ./bench, so that the library does not depend on them.
//
//	go test -run '^$' -bench . -count 10 > new.txt && benchstat new.txt

var benchSizes = []int{64, 4 << 10, 1 << 20}

type benchInput struct {
	name string
	size int
	data []byte
}

var benchInputCache []benchInput

func benchInputs() []benchInput {
	if benchInputCache == nil {
		for _, name := range textgen.Names {
			for _, size := range benchSizes {
				benchInputCache = append(benchInputCache, benchInput{name, size, textgen.Make(name, size)})
			}
		}
	}
	return benchInputCache
}

func (in benchInput) label() string {
	return "input=" + in.name + "/size=" + strconv.Itoa(in.size)
}

func (in benchInput) valid() bool { return utf8.Valid(in.data) }

// forImpls runs f once per validation implementation this machine has.
func forImpls(b *testing.B, f func(b *testing.B)) {
	for _, name := range implNames() {
		b.Run("impl="+name, func(b *testing.B) {
			defer setImpl(name)()
			f(b)
		})
	}
}

var benchPolicies = allPolicies

// BenchmarkSpan measures validation: how fast Span finds that valid input
// is valid (or where ill-formed input stops).
func BenchmarkSpan(b *testing.B) {
	for _, in := range benchInputs() {
		b.Run(in.label(), func(b *testing.B) {
			forImpls(b, func(b *testing.B) {
				t := NewTransformer(Reject)
				b.SetBytes(int64(len(in.data)))
				b.ReportAllocs()
				for b.Loop() {
					t.Reset()
					t.Span(in.data, true)
				}
			})
		})
	}
}

// BenchmarkPieces measures a stream passed in 64-byte pieces, as a
// writer of short lines or records does: Span under Reject and Transform
// under Replace, with an unfinished sequence at the end of a piece carried
// to the next, on the 4 KiB inputs.
func BenchmarkPieces(b *testing.B) {
	const piece = 64
	for _, in := range benchInputs() {
		if in.size != 4<<10 {
			continue
		}
		dst := make([]byte, 4<<10) // as transform.Writer and transform.Reader have
		for _, p := range []Policy{Reject, Replace} {
			if p == Reject && !in.valid() {
				continue
			}
			b.Run(in.label()+"/policy="+p.String(), func(b *testing.B) {
				forImpls(b, func(b *testing.B) {
					t := NewTransformer(p)
					b.SetBytes(int64(len(in.data)))
					b.ReportAllocs()
					for b.Loop() {
						t.Reset()
						for off := 0; off < len(in.data); {
							end := off + piece
							if end+utf8.UTFMax > len(in.data) {
								end = len(in.data) // no piece shorter than a sequence
							}
							var n int
							var err error
							if p == Reject {
								n, err = t.Span(in.data[off:end], end == len(in.data))
							} else {
								_, n, err = t.Transform(dst, in.data[off:end], end == len(in.data))
							}
							if n == 0 {
								b.Fatalf("no progress at %d: %v", off, err)
							}
							off += n
						}
					}
				})
			})
		}
	}
}

// BenchmarkTransform measures one pass of Transform over the input into a
// destination large enough for all of it.
func BenchmarkTransform(b *testing.B) {
	for _, in := range benchInputs() {
		dst := make([]byte, 4*len(in.data)+64)
		for _, p := range benchPolicies {
			if p == Reject && !in.valid() {
				continue
			}
			b.Run(in.label()+"/policy="+p.String(), func(b *testing.B) {
				forImpls(b, func(b *testing.B) {
					t := NewTransformer(p)
					b.SetBytes(int64(len(in.data)))
					b.ReportAllocs()
					for b.Loop() {
						t.Reset()
						if _, _, err := t.Transform(dst, in.data, true); err != nil {
							b.Fatal(err)
						}
					}
				})
			})
		}
	}
}

// BenchmarkOptions measures what WTF8 and BMPOnly cost on the valid inputs
// but emoji (whose characters BMPOnly rejects), against no option: Span
// under Reject, one Transform under Replace, and io.Copy from a Reader
// under Replace. Compare with benchstat -col /option.
func BenchmarkOptions(b *testing.B) {
	options := []struct {
		name string
		opts []Option
	}{{"none", nil}, {"wtf8", []Option{WTF8()}}, {"bmponly", []Option{BMPOnly()}}}
	for _, in := range benchInputs() {
		if !in.valid() || in.name == "emoji" {
			continue
		}
		dst := make([]byte, len(in.data))
		for _, op := range []string{"span", "transform", "reader"} {
			for _, o := range options {
				b.Run(in.label()+"/op="+op+"/option="+o.name, func(b *testing.B) {
					b.SetBytes(int64(len(in.data)))
					b.ReportAllocs()
					switch op {
					case "span":
						t := NewTransformer(Reject, o.opts...)
						for b.Loop() {
							t.Reset()
							if n, _ := t.Span(in.data, true); n != len(in.data) {
								b.Fatalf("Span = %d", n)
							}
						}
					case "transform":
						t := NewTransformer(Replace, o.opts...)
						for b.Loop() {
							t.Reset()
							if _, _, err := t.Transform(dst, in.data, true); err != nil {
								b.Fatal(err)
							}
						}
					case "reader":
						br := bytes.NewReader(in.data)
						r := NewReader(br, Replace, o.opts...)
						for b.Loop() {
							br.Reset(in.data)
							r.Reset(br)
							if _, err := io.Copy(io.Discard, r); err != nil {
								b.Fatal(err)
							}
						}
					}
				})
			}
		}
	}
}

// BenchmarkLines measures what the Lines option costs on valid text with a
// newline every 60 bytes or so, in several scripts: one Transform, io.Copy
// from a Reader and one Write, under Replace. Compare with benchstat
// -col /lines.
func BenchmarkLines(b *testing.B) {
	for _, in := range benchInputs() {
		if !in.valid() || in.size == 4<<10 {
			continue
		}
		data := bytes.Clone(in.data)
		last := 0
		for i, c := range data {
			if c == ' ' && i-last >= 60 {
				data[i], last = '\n', i
			}
		}
		dst := make([]byte, len(data))
		for _, op := range []string{"transform", "reader", "writer"} {
			for _, lines := range []bool{false, true} {
				var opts []Option
				name := "off"
				if lines {
					opts, name = []Option{Lines()}, "on"
				}
				b.Run(in.label()+"/op="+op+"/lines="+name, func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					switch op {
					case "transform":
						t := NewTransformer(Replace, opts...)
						for b.Loop() {
							t.Reset()
							if _, _, err := t.Transform(dst, data, true); err != nil {
								b.Fatal(err)
							}
						}
					case "reader":
						br := bytes.NewReader(data)
						r := NewReader(br, Replace, opts...)
						for b.Loop() {
							br.Reset(data)
							r.Reset(br)
							if _, err := io.Copy(io.Discard, r); err != nil {
								b.Fatal(err)
							}
						}
					case "writer":
						w := NewWriter(io.Discard, Replace, opts...)
						for b.Loop() {
							w.Reset(io.Discard)
							w.Write(data)
							if err := w.Close(); err != nil {
								b.Fatal(err)
							}
						}
					}
				})
			}
		}
	}
}

// BenchmarkOptionsDense measures Transform under Replace with WTF8 and
// BMPOnly, against no option, where the options' units are frequent: 1%
// ill-formed text, random bytes, emoji (each of them ill-formed under
// BMPOnly) and WTF-8 text with a lone surrogate every 16 bytes or so. The
// general path takes those units one at a time.
func BenchmarkOptionsDense(b *testing.B) {
	options := []struct {
		name string
		opts []Option
	}{{"none", nil}, {"wtf8", []Option{WTF8()}}, {"bmponly", []Option{BMPOnly()}}}
	const size = 64 << 10
	lone := bytes.Repeat([]byte("wtf-8 \xED\xA0\x80 name, "), size/20)
	inputs := []benchInput{
		{"invalid1pct", size, textgen.Make("invalid1pct", size)},
		{"random", size, textgen.Make("random", size)},
		{"emoji", size, textgen.Make("emoji", size)},
		{"lone-surrogates", len(lone), lone},
	}
	for _, in := range inputs {
		dst := make([]byte, 4*len(in.data)+64)
		for _, o := range options {
			b.Run(in.label()+"/option="+o.name, func(b *testing.B) {
				t := NewTransformer(Replace, o.opts...)
				b.SetBytes(int64(len(in.data)))
				b.ReportAllocs()
				for b.Loop() {
					t.Reset()
					if _, _, err := t.Transform(dst, in.data, true); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkReader measures io.Copy(io.Discard, NewReader(...)), which
// includes the io layer: io.Copy calls the Reader's WriteTo, which takes
// the bytes.Reader's data through its own WriteTo.
func BenchmarkReader(b *testing.B) {
	for _, in := range benchInputs() {
		for _, p := range benchPolicies {
			if p == Reject && !in.valid() {
				continue
			}
			b.Run(in.label()+"/policy="+p.String(), func(b *testing.B) {
				br := bytes.NewReader(in.data)
				r := NewReader(br, p)
				b.SetBytes(int64(len(in.data)))
				b.ReportAllocs()
				for b.Loop() {
					br.Reset(in.data)
					r.Reset(br)
					if _, err := io.Copy(io.Discard, r); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkWriter measures one Write of the whole input and a Close.
func BenchmarkWriter(b *testing.B) {
	for _, in := range benchInputs() {
		for _, p := range benchPolicies {
			if p == Reject && !in.valid() {
				continue
			}
			b.Run(in.label()+"/policy="+p.String(), func(b *testing.B) {
				w := NewWriter(io.Discard, p)
				b.SetBytes(int64(len(in.data)))
				b.ReportAllocs()
				for b.Loop() {
					w.Reset(io.Discard)
					w.Write(in.data)
					if err := w.Close(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkUnescape measures the restore of each input's escaped form: the
// output of SurrogateEscape and OPTU8, which on random bytes is dense with
// escapes.
func BenchmarkUnescape(b *testing.B) {
	for _, in := range benchInputs() {
		for _, p := range reversiblePolicies {
			esc := make([]byte, 3*len(in.data))
			n, _, err := NewTransformer(p).Transform(esc, in.data, true)
			if err != nil {
				b.Fatal(err)
			}
			esc = esc[:n]
			dst := make([]byte, len(esc))
			b.Run(in.label()+"/policy="+p.String(), func(b *testing.B) {
				u := NewUnescaper(p)
				b.SetBytes(int64(len(esc)))
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := u.Transform(dst, esc, true); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPeers runs what Go users have today on the same inputs.
func BenchmarkPeers(b *testing.B) {
	for _, in := range benchInputs() {
		dst := make([]byte, 3*len(in.data)+64)
		peers := []struct {
			name string
			f    func()
		}{
			{"copy", func() { copy(dst, in.data) }},
			{"utf8.Valid", func() { utf8.Valid(in.data) }},
			{"xtext-utf8-decoder", func() {
				unicode.UTF8.NewDecoder().Transform(dst, in.data, true)
			}},
			{"runes.ReplaceIllFormed", func() {
				runes.ReplaceIllFormed().Transform(dst, in.data, true)
			}},
			{"transform.NewReader", func() {
				io.Copy(io.Discard, transform.NewReader(bytes.NewReader(in.data), NewTransformer(Replace)))
			}},
		}
		for _, peer := range peers {
			b.Run(in.label()+"/peer="+peer.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.data)))
				b.ReportAllocs()
				for b.Loop() {
					peer.f()
				}
			})
		}
	}
}

// BenchmarkHelpers measures the one-call helpers beside the Transformer
// calls they stand for, in one run so that their ratios can be read off:
// Valid beside Span, String beside Span (for valid input String only
// spans), Append beside Transform into a buffer.
func BenchmarkHelpers(b *testing.B) {
	for _, in := range benchInputs() {
		s := string(in.data)
		dst := make([]byte, 0, 3*len(in.data)+64)
		ops := []struct {
			name string
			f    func()
		}{
			{"span", func() { NewTransformer(Reject).Span(in.data, true) }},
			{"valid", func() { Valid(in.data) }},
			{"utf8.Valid", func() { utf8.Valid(in.data) }},
			{"string", func() { String(s, Replace) }},
			{"transform", func() { NewTransformer(Replace).Transform(dst[:cap(dst)], in.data, true) }},
			{"append", func() { Append(dst, in.data, Replace) }},
		}
		for _, op := range ops {
			b.Run(in.label()+"/op="+op.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.data)))
				b.ReportAllocs()
				for b.Loop() {
					op.f()
				}
			})
		}
	}
}

// cliffUnits are ill-formed units that input with no valid byte at all
// repeats: lone bytes, a lone surrogate's first two bytes (ED then A0,
// two subparts), truncated sequences of 3 and 2 bytes, an overlong pair.
var cliffUnits = []struct {
	name string
	unit []byte
}{
	{"ff", []byte{0xFF}},
	{"80", []byte{0x80}},
	{"eda0", []byte{0xED, 0xA0}},
	{"f09080", []byte{0xF0, 0x90, 0x80}},
	{"e282", []byte{0xE2, 0x82}},
	{"c0af", []byte{0xC0, 0xAF}},
}

// cliffInput returns size bytes: lead, then unit repeated.
func cliffInput(unit []byte, lead string, size int) []byte {
	return append([]byte(lead), bytes.Repeat(unit, size/len(unit)+1)...)[:size]
}

var cliffLeads = []struct{ name, lead string }{{"none", ""}, {"a", "a"}}

// BenchmarkCliff measures one Transform of input with no valid byte at
// all, against the same input with one valid byte in front: the two should
// run at the same speed. Compare with benchstat -col /lead.
func BenchmarkCliff(b *testing.B) {
	for _, u := range cliffUnits {
		for _, size := range []int{4 << 10, 1 << 20} {
			dst := make([]byte, 4*size+64)
			for _, p := range benchPolicies[1:] {
				for _, l := range cliffLeads {
					src := cliffInput(u.unit, l.lead, size)
					name := "input=" + u.name + "/size=" + strconv.Itoa(size) + "/policy=" + p.String() + "/lead=" + l.name
					b.Run(name, func(b *testing.B) {
						t := NewTransformer(p)
						b.SetBytes(int64(size))
						b.ReportAllocs()
						for b.Loop() {
							t.Reset()
							if _, _, err := t.Transform(dst, src, true); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
			}
		}
	}
}

// BenchmarkCliffStream is BenchmarkCliff under Replace for a stream: through
// a Reader (io.Copy), one Write to a Writer, Transform on 4 KiB pieces, and
// Transform on 1-byte pieces (at 4 KiB).
func BenchmarkCliffStream(b *testing.B) {
	pieces := func(t *Transformer, dst, src []byte, piece int) error {
		t.Reset()
		for off := 0; off < len(src); {
			end := min(off+piece, len(src))
			_, n, err := t.Transform(dst, src[off:end], end == len(src))
			if err != nil && err != transform.ErrShortSrc {
				return err
			}
			off += n
			if n == 0 && end < len(src) {
				// Transform keeps an unfinished sequence for the next piece.
				_, n, err = t.Transform(dst, src[off:min(end+piece, len(src))], end+piece >= len(src))
				if err != nil && err != transform.ErrShortSrc {
					return err
				}
				off += n
			}
		}
		return nil
	}
	for _, u := range cliffUnits[:3] {
		for _, via := range []string{"reader", "writer", "pieces4k", "pieces1"} {
			size := 1 << 20
			if via == "pieces1" {
				size = 4 << 10
			}
			dst := make([]byte, 4<<10*4+64)
			for _, l := range cliffLeads {
				src := cliffInput(u.unit, l.lead, size)
				name := "input=" + u.name + "/size=" + strconv.Itoa(size) + "/via=" + via + "/lead=" + l.name
				b.Run(name, func(b *testing.B) {
					br := bytes.NewReader(src)
					r := NewReader(br, Replace)
					w := NewWriter(io.Discard, Replace)
					t := NewTransformer(Replace)
					b.SetBytes(int64(size))
					b.ReportAllocs()
					for b.Loop() {
						var err error
						switch via {
						case "reader":
							br.Reset(src)
							r.Reset(br)
							_, err = io.Copy(io.Discard, r)
						case "writer":
							w.Reset(io.Discard)
							w.Write(src)
							err = w.Close()
						case "pieces4k":
							err = pieces(t, dst, src, 4<<10)
						case "pieces1":
							err = pieces(t, dst, src, 1)
						}
						if err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
