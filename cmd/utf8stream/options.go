package main

import (
	"errors"
	"flag"
	"fmt"
	"unicode/utf8"

	"github.com/utf8stream/utf8stream"
)

// maxReplacement is the longest -replacement that utf8stream.Replacement
// accepts.
const maxReplacement = 64

// libFlags are the flags that map to options of package utf8stream. Each
// command defines those that apply to it.
type libFlags struct {
	stripBOM, noNUL, cesu8, mutf8, wtf8, bmpOnly bool
	replacement                                  *string // nil: the default, U+FFFD
}

// Which library flags a command defines.
const (
	validityFlags = 1 << iota // -no-nul, -cesu8, -mutf8, -wtf8, -bmp-only: what counts as valid
	repairFlags               // -strip-bom, -replacement: what fix writes
	nulFlag                   // -no-nul alone, for restore
)

func (l *libFlags) define(fs *flag.FlagSet, which int) {
	if which&(validityFlags|nulFlag) != 0 {
		fs.BoolVar(&l.noNUL, "no-nul", false, "treat the byte 00 as ill-formed")
	}
	if which&validityFlags != 0 {
		fs.BoolVar(&l.cesu8, "cesu8", false, "accept CESU-8 surrogate pairs (ED A0..AF xx ED B0..BF xx) and write them as 4-byte UTF-8")
		fs.BoolVar(&l.mutf8, "mutf8", false, "accept C0 80, Java's Modified UTF-8 form of U+0000, and write it as 00")
		fs.BoolVar(&l.wtf8, "wtf8", false, "accept WTF-8: lone surrogates (ED A0..BF xx) are valid and kept, pairs are written as 4-byte UTF-8")
		fs.BoolVar(&l.bmpOnly, "bmp-only", false, "treat characters above U+FFFF (F0..F4 xx xx xx) as ill-formed, as MySQL's utf8mb3 does")
	}
	if which&repairFlags != 0 {
		fs.BoolVar(&l.stripBOM, "strip-bom", false, "remove a byte order mark (EF BB BF) at the start of each input")
		fs.Func("replacement", "with -policy replace, write `STRING` for each ill-formed subpart instead of U+FFFD\n(valid UTF-8, at most 64 bytes, may be empty)", func(s string) error {
			if !utf8.ValidString(s) {
				return errors.New("not valid UTF-8")
			}
			if len(s) > maxReplacement {
				return fmt.Errorf("%d bytes, more than %d", len(s), maxReplacement)
			}
			l.replacement = &s
			return nil
		})
	}
}

// options returns the library options the flags ask for.
func (l *libFlags) options() []utf8stream.Option {
	opts := []utf8stream.Option{utf8stream.BufferSize(bufSize)}
	if l.stripBOM {
		opts = append(opts, utf8stream.StripBOM())
	}
	if l.noNUL {
		opts = append(opts, utf8stream.NoNUL())
	}
	if l.cesu8 {
		opts = append(opts, utf8stream.CESU8())
	}
	if l.mutf8 {
		opts = append(opts, utf8stream.ModifiedUTF8())
	}
	if l.wtf8 {
		opts = append(opts, utf8stream.WTF8())
	}
	if l.bmpOnly {
		opts = append(opts, utf8stream.BMPOnly())
	}
	if l.replacement != nil {
		opts = append(opts, utf8stream.Replacement(*l.replacement))
	}
	return opts
}
