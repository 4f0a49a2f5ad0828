package utf8stream

import (
	"testing"

	"github.com/utf8stream/utf8stream/internal/textgen"
	"golang.org/x/text/encoding/unicode"
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
			b.Run("input="+name+"/size=1048576/dir="+dir+"/impl="+impl, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					tr.Reset()
					if _, _, err := tr.Transform(dst, src, true); err != nil {
						b.Fatal(err)
					}
				}
			})
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
