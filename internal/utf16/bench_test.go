package utf16

import (
	"testing"
	"unicode/utf16"

	"github.com/utf8stream/utf8stream/internal/textgen"
)

// BenchmarkKernels measures each implementation alone on 1 MiB of text
// (bytes of UTF-8 in both directions); compare with benchstat -col /impl.
func BenchmarkKernels(b *testing.B) {
	for _, name := range []string{"ascii", "latin1", "russian", "hindi", "chinese", "japanese", "korean", "emoji"} {
		text := textgen.Make(name, 1<<20)
		wide := le(utf16.Encode([]rune(string(text))))
		dst := make([]byte, 4*len(text)+64)
		for _, im := range impls {
			if !im.Supported() {
				continue
			}
			b.Run("input="+name+"/size=1048576/dir=widen/impl="+im.Name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					im.widen(dst, text)
				}
			})
			b.Run("input="+name+"/size=1048576/dir=narrow/impl="+im.Name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					im.narrow(dst, wide, 0, 0)
				}
			})
			// WidenValid, which validates as it widens, where it takes
			// the whole input.
			b.Run("input="+name+"/size=1048576/dir=widenvalid/impl="+im.Name, func(b *testing.B) {
				defer SetImpl(im.Name)()
				if _, ns := WidenValid(dst, text); ns < len(text)-64 {
					b.Skip("no WidenValid kernel")
				}
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					WidenValid(dst, text)
				}
			})
		}
	}
}
