package utf8stream

import (
	"strconv"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream/internal/textgen"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"golang.org/x/text/transform"
)

// BenchmarkUTF16 measures UTF-8 to UTF-16LE under Replace (dir=encode) and
// UTF-16LE to UTF-8 (dir=decode) on 1 MiB of each script, and the same
// with UTF-16BE (impl=bigendian), beside x/text (its unicode.UTF8 decoder
// chained with its UTF-16 encoder; its UTF-16 decoder), our own Transform
// under Replace on the same UTF-8, and a copy of the output. Throughput
// counts the bytes of the UTF-8 text in both directions, so that the two
// read alike; compare with benchstat -col /impl.
func BenchmarkUTF16(b *testing.B) {
	names := []string{"ascii", "latin1", "russian", "arabic", "hindi", "chinese", "japanese", "korean", "emoji", "invalid1pct"}
	le := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	for _, name := range names {
		text := textgen.Make(name, 1<<20)
		wide, _ := UTF16(LittleEndian, Replace).NewEncoder().Bytes(text)
		wideBE, _ := UTF16(BigEndian, Replace).NewEncoder().Bytes(text)
		fixed, _ := Bytes(text, Replace)
		dst := make([]byte, 4*len(text)+64)
		run := func(dir, impl string, tr transform.Transformer, src []byte) {
			runTransform(b, "input="+name+"/size=1048576/dir="+dir+"/impl="+impl, len(text), tr, dst, src)
		}
		copyRun := func(dir string, n int) {
			b.Run("input="+name+"/size=1048576/dir="+dir+"/impl=copy", func(b *testing.B) {
				src := make([]byte, n)
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					copy(dst, src)
				}
			})
		}
		run("encode", "utf8stream", UTF16(LittleEndian, Replace).NewEncoder().Transformer, text)
		run("encode", "bigendian", UTF16(BigEndian, Replace).NewEncoder().Transformer, text)
		run("encode", "xtext", transform.Chain(unicode.UTF8.NewDecoder(), le.NewEncoder()), text)
		run("encode", "transform", NewTransformer(Replace), text)
		copyRun("encode", len(wide))
		run("decode", "utf8stream", UTF16(LittleEndian, Replace).NewDecoder().Transformer, wide)
		run("decode", "bigendian", UTF16(BigEndian, Replace).NewDecoder().Transformer, wideBE)
		run("decode", "xtext", le.NewDecoder(), wide)
		copyRun("decode", len(fixed))
	}
}

// BenchmarkUTF16Dense measures the UTF-16LE decoder on 1 MiB of units
// that stop the kernels one after another (lone surrogates, the escapes of
// SurrogateEscape and OPTU8) and of random units, under the policies that
// meet them, beside x/text's decoder (which writes U+FFFD for a lone
// surrogate). Throughput counts the bytes of the UTF-16 input.
func BenchmarkUTF16Dense(b *testing.B) {
	const n = 1 << 19
	inputs := []struct {
		name     string
		unit     func(i int) uint32
		policies []Policy
	}{
		{"lonehigh", func(i int) uint32 { return 0xD800 + uint32(i%0x400) }, []Policy{Replace, Drop, BackslashReplace}},
		{"lonelow", func(i int) uint32 { return 0xDC00 + uint32(i%0x400) }, []Policy{Replace}},
		{"higha", func(i int) uint32 { return [2]uint32{0xDBFF, 'a'}[i%2] }, []Policy{Replace}},
		{"surrogateescape", func(i int) uint32 { return 0xDC80 + uint32(i%0x80) }, []Policy{SurrogateEscape}},
		{"optu8", func(i int) uint32 { return 0xEF80 + uint32(i%0x80) }, []Policy{OPTU8}},
		{"random", func(i int) uint32 { return uint32(i*0x9E3779B1) >> 16 }, []Policy{Replace}},
	}
	le := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	dst := make([]byte, 8*n+64)
	for _, in := range inputs {
		src := denseWide(formUTF16LE, n, in.unit)
		run := func(impl string, tr transform.Transformer) {
			runTransform(b, "input="+in.name+"/impl="+impl, len(src), tr, dst, src)
		}
		for _, p := range in.policies {
			run(p.String(), UTF16(LittleEndian, p).NewDecoder().Transformer)
		}
		run("xtext", le.NewDecoder())
	}
}

// BenchmarkUTF32 measures UTF-8 to UTF-32LE under Replace (dir=encode) and
// back (dir=decode) on 1 MiB of text, beside x/text's UTF-32 (its
// unicode.UTF8 decoder chained with its UTF-32 encoder; its UTF-32
// decoder). Throughput counts the bytes of the UTF-8 text.
func BenchmarkUTF32(b *testing.B) {
	x := utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM)
	for _, name := range []string{"ascii", "latin1", "russian", "hindi", "chinese", "emoji", "invalid1pct"} {
		text := textgen.Make(name, 1<<20)
		wide, _ := UTF32(LittleEndian, Replace).NewEncoder().Bytes(text)
		dst := make([]byte, 4*len(text)+64)
		run := func(dir, impl string, tr transform.Transformer, src []byte) {
			runTransform(b, "input="+name+"/size=1048576/dir="+dir+"/impl="+impl, len(text), tr, dst, src)
		}
		run("encode", "utf8stream", UTF32(LittleEndian, Replace).NewEncoder().Transformer, text)
		run("encode", "xtext", transform.Chain(unicode.UTF8.NewDecoder(), x.NewEncoder()), text)
		run("decode", "utf8stream", UTF32(LittleEndian, Replace).NewDecoder().Transformer, wide)
		run("decode", "xtext", x.NewDecoder(), wide)
	}
}

// BenchmarkUTF16Call measures one call of AppendUTF16 (dir=encode) and of
// AppendFromUTF16 (dir=decode) on short text of each script, 16 bytes to 4
// KiB of UTF-8, into a slice with room, beside a loop of unicode/utf8 and
// unicode/utf16 (impl=stdlib) that does the same for valid text: the cost
// per call that 1 MiB figures hide.
func BenchmarkUTF16Call(b *testing.B) {
	for _, name := range []string{"ascii", "russian", "chinese", "emoji"} {
		for _, size := range []int{16, 32, 64, 256, 512, 1024, 4096} {
			text := textgen.Make(name, size)
			units, _ := AppendUTF16(nil, text, Replace)
			wide := make([]uint16, 0, len(text)+8)
			narrow := make([]byte, 0, 3*len(units)+8)
			prefix := "input=" + name + "/size=" + strconv.Itoa(size)
			b.Run(prefix+"/dir=encode/impl=utf8stream", func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					if _, err := AppendUTF16(wide, text, Replace); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(prefix+"/dir=encode/impl=stdlib", func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					dst := wide
					for i := 0; i < len(text); {
						r, n := utf8.DecodeRune(text[i:])
						dst = utf16.AppendRune(dst, r)
						i += n
					}
				}
			})
			b.Run(prefix+"/dir=decode/impl=utf8stream", func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					if _, err := AppendFromUTF16(narrow, units, Replace); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(prefix+"/dir=decode/impl=stdlib", func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					dst := narrow
					for i := 0; i < len(units); i++ {
						r := rune(units[i])
						if utf16.IsSurrogate(r) && i+1 < len(units) {
							r = utf16.DecodeRune(r, rune(units[i+1]))
							i++
						}
						dst = utf8.AppendRune(dst, r)
					}
				}
			})
		}
	}
}

// runTransform runs tr over the whole of src into dst as the benchmark
// name, counting size bytes a run.
func runTransform(b *testing.B, name string, size int, tr transform.Transformer, dst, src []byte) {
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			tr.Reset()
			if _, _, err := tr.Transform(dst, src, true); err != nil {
				b.Fatal(err)
			}
		}
	})
}
