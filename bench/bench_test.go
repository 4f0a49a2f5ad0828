// Package bench compares utf8stream's validation with other Go UTF-8
// validators. It is a separate module so that the library does not depend
// on them.
package bench

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"testing"
	"time"
	"unicode/utf8"
	"unsafe"

	sonicutf8 "github.com/bytedance/sonic/utf8"
	segutf8 "github.com/segmentio/asm/utf8"
	"github.com/utf8stream/utf8stream"
	"github.com/utf8stream/utf8stream/internal/textgen"
)

var sizes = []int{64, 4096, 1 << 20}

// reuse is the reader-reset validator's Reader and source, made once.
var reuse = func() (r struct {
	br bytes.Reader
	rd *utf8stream.Reader
}) {
	r.rd = utf8stream.NewReader(nil, utf8stream.Reject)
	return r
}()

// validators are the ways of validating data that the benchmarks compare.
// Each reports whether data is valid UTF-8.
var validators = []struct {
	name  string
	valid func(t *utf8stream.Transformer, data []byte) bool
}{
	{"span", func(t *utf8stream.Transformer, data []byte) bool {
		t.Reset()
		n, _ := t.Span(data, true)
		return n == len(data)
	}},
	{"reader", func(_ *utf8stream.Transformer, data []byte) bool {
		_, err := io.Copy(io.Discard, utf8stream.NewReader(bytes.NewReader(data), utf8stream.Reject))
		return err == nil
	}},
	{"reader-reset", func(_ *utf8stream.Transformer, data []byte) bool {
		// A long-lived stream reuses its Reader: the io layer without
		// the cost of making one.
		reuse.br.Reset(data)
		reuse.rd.Reset(&reuse.br)
		_, err := io.Copy(io.Discard, reuse.rd)
		return err == nil
	}},
	{"sonic", func(_ *utf8stream.Transformer, data []byte) bool { return sonicutf8.Validate(data) }},
	{"segmentio", func(_ *utf8stream.Transformer, data []byte) bool { return segutf8.Valid(data) }},
	{"utf8.Valid", func(_ *utf8stream.Transformer, data []byte) bool { return utf8.Valid(data) }},
}

// TestValidatorsAgree checks that every validator agrees with utf8.Valid on
// the benchmark inputs and on the same inputs with an error near the end.
func TestValidatorsAgree(t *testing.T) {
	tr := utf8stream.NewTransformer(utf8stream.Reject)
	for _, name := range textgen.Names {
		for _, size := range append(sizes, 1, 100, 1000) {
			data := textgen.Make(name, size)
			bad := append(bytes.Clone(data), 'x', 0xED, 0xA0, 0x80)
			for _, in := range [][]byte{data, bad} {
				want := utf8.Valid(in)
				for _, v := range validators {
					if got := v.valid(tr, in); got != want {
						t.Errorf("%s(%s, %d bytes) = %v; utf8.Valid = %v", v.name, name, len(in), got, want)
					}
				}
			}
		}
	}
}

// BenchmarkValidate validates each input whole: Span of a Reject
// Transformer, io.Copy from a Reject Reader, and the peers.
func BenchmarkValidate(b *testing.B) {
	tr := utf8stream.NewTransformer(utf8stream.Reject)
	for _, name := range textgen.Names {
		for _, size := range sizes {
			data := textgen.Make(name, size)
			for _, v := range validators {
				b.Run(fmt.Sprintf("input=%s/size=%d/impl=%s", name, size, v.name), func(b *testing.B) {
					b.SetBytes(int64(size))
					b.ReportAllocs()
					for b.Loop() {
						v.valid(tr, data)
					}
				})
			}
		}
	}
}

// BenchmarkReaderFloor measures what the reader validator's expression
// costs without a Reader: io.Copy(io.Discard, bytes.NewReader(data)), an
// allocation and the io layer, no validation. No Reader made for each
// stream can be faster than this.
func BenchmarkReaderFloor(b *testing.B) {
	for _, name := range textgen.Names {
		for _, size := range sizes {
			data := textgen.Make(name, size)
			b.Run(fmt.Sprintf("input=%s/size=%d/impl=floor", name, size), func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					if n, err := io.Copy(io.Discard, bytes.NewReader(data)); n != int64(len(data)) || err != nil {
						b.Fatal(n, err)
					}
				}
			})
		}
	}
}

// callSizes are the sizes of the per-call benchmark: the short strings most
// programs validate (fields, log lines, small bodies), where a fixed cost per
// call shows.
var callSizes = []int{1, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 1024, 4096}

// BenchmarkValidCall validates one short input per call: Valid and Span
// beside utf8.Valid and sonic, on ASCII and on text of each script.
func BenchmarkValidCall(b *testing.B) {
	tr := utf8stream.NewTransformer(utf8stream.Reject)
	impls := []struct {
		name  string
		valid func([]byte) bool
	}{
		{"valid", utf8stream.Valid},
		{"span", func(data []byte) bool {
			tr.Reset()
			n, _ := tr.Span(data, true)
			return n == len(data)
		}},
		{"sonic", sonicutf8.Validate},
		{"utf8.Valid", utf8.Valid},
	}
	for _, name := range []string{"ascii", "latin1", "russian", "chinese", "emoji"} {
		for _, size := range callSizes {
			data := textgen.Make(name, size)
			for _, im := range impls {
				b.Run(fmt.Sprintf("input=%s/size=%d/impl=%s", name, size, im.name), func(b *testing.B) {
					b.SetBytes(int64(size))
					for b.Loop() {
						if !im.valid(data) {
							b.Fatal("invalid")
						}
					}
				})
			}
		}
	}
}

// ratioSize is the input size of BenchmarkRatio: the size of the lipsum
// texts that issue 30's targets were set on, in L2 but not L1.
const ratioSize = 64 << 10

// BenchmarkRatio reports, for each script, the speed of Span, of io.Copy
// from a Reject Reader and of one Transform under Replace against sonic's
// Validate, and Transform's against Span: each as the median, over the
// iterations, of the ratio of two times taken back to back, in turn. On a
// shared machine whose speed drifts by tens of percent from one second to
// the next, two times taken microseconds apart see the same machine, where
// the ns/op of separate benchmarks do not. Compare runs with benchstat on
// the metrics (higher is faster than the peer).
func BenchmarkRatio(b *testing.B) {
	tr := utf8stream.NewTransformer(utf8stream.Reject)
	rep := utf8stream.NewTransformer(utf8stream.Replace)
	var br bytes.Reader
	rd := utf8stream.NewReader(nil, utf8stream.Reject)
	for _, name := range textgen.Valid {
		data := textgen.Make(name, ratioSize)
		dst := make([]byte, 2*len(data))
		jobs := [...]func() bool{
			func() bool { tr.Reset(); n, _ := tr.Span(data, true); return n == len(data) },
			func() bool {
				br.Reset(data)
				rd.Reset(&br)
				_, err := io.Copy(io.Discard, rd)
				return err == nil
			},
			func() bool {
				rep.Reset()
				_, n, err := rep.Transform(dst, data, true)
				return n == len(data) && err == nil
			},
			func() bool { return sonicutf8.Validate(data) },
		}
		b.Run("input="+name, func(b *testing.B) {
			var times [len(jobs)][]float64
			i := 0
			for b.Loop() {
				// A different job first each time, so that none
				// always runs on a cache the one before warmed.
				for k := range jobs {
					j := (i + k) % len(jobs)
					t0 := time.Now()
					ok := jobs[j]()
					times[j] = append(times[j], float64(time.Since(t0)))
					if !ok {
						b.Fatal("invalid")
					}
				}
				i++
			}
			span, reader, transform, sonic := times[0], times[1], times[2], times[3]
			b.ReportMetric(medianRatio(sonic, span), "span/sonic")
			b.ReportMetric(medianRatio(sonic, reader), "reader/sonic")
			b.ReportMetric(medianRatio(span, transform), "transform/span")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// medianRatio returns the median over i of num[i]/den[i].
func medianRatio(num, den []float64) float64 {
	r := make([]float64, len(num))
	for i := range num {
		r[i] = num[i] / den[i]
	}
	slices.Sort(r)
	return r[len(r)/2]
}

// BenchmarkAlignment reports what a source or a destination off 32-byte
// alignment costs one Transform under Replace on 4 KiB held in cache: the
// medians of the ratios of its time to that of the aligned call, taken back
// to back as in BenchmarkRatio (1 is no cost). Stores that cross cache
// lines cost more than loads that do, which is why the AVX2 copying kernel
// aligns its stores from 1 KiB on.
func BenchmarkAlignment(b *testing.B) {
	const size = 4 << 10
	rep := utf8stream.NewTransformer(utf8stream.Replace)
	for _, name := range []string{"ascii", "latin1", "russian", "chinese"} {
		text := textgen.Make(name, size)
		src, srcOff, dst := aligned32(size), aligned32(size + 1)[1:], aligned32(size+1)
		copy(src, text)
		copy(srcOff, text)
		// The aligned call, then src and then dst one byte off.
		cases := [...]struct{ src, dst []byte }{
			{src, dst[:size]},
			{srcOff, dst[:size]},
			{src, dst[1:]},
		}
		b.Run("input="+name, func(b *testing.B) {
			var times [len(cases)][]float64
			i := 0
			for b.Loop() {
				for k := range cases {
					j := (i + k) % len(cases)
					t0 := time.Now()
					rep.Reset()
					_, n, err := rep.Transform(cases[j].dst, cases[j].src, true)
					times[j] = append(times[j], float64(time.Since(t0)))
					if n != size || err != nil {
						b.Fatal(n, err)
					}
				}
				i++
			}
			b.ReportMetric(medianRatio(times[1], times[0]), "src+1/aligned")
			b.ReportMetric(medianRatio(times[2], times[0]), "dst+1/aligned")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// aligned32 returns n bytes that start at a multiple of 32.
func aligned32(n int) []byte {
	p := make([]byte, n+31)
	off := -int(uintptr(unsafe.Pointer(&p[0]))) & 31
	return p[off : off+n]
}
