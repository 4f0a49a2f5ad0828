package utf8stream

// A bomMark is a byte order mark and the form of the input it announces.
type bomMark struct {
	mark string
	f    form
}

// bomMarks are the marks a stream in each base form can start with: for
// UTF-8 its own and, with DetectBOM, those of UTF-16, as the WHATWG
// Encoding Standard's decode reads them.
var bomMarks = [...][]bomMark{
	formUTF8:    {{"\xEF\xBB\xBF", formUTF8}, {"\xFF\xFE", formUTF16LE}, {"\xFE\xFF", formUTF16BE}},
	formUTF16LE: {{"\xFF\xFE", formUTF16LE}, {"\xFE\xFF", formUTF16BE}},
	formUTF16BE: {{"\xFF\xFE", formUTF16LE}, {"\xFE\xFF", formUTF16BE}},
	formUTF32LE: {{"\xFF\xFE\x00\x00", formUTF32LE}, {"\x00\x00\xFE\xFF", formUTF32BE}},
	formUTF32BE: {{"\xFF\xFE\x00\x00", formUTF32LE}, {"\x00\x00\xFE\xFF", formUTF32BE}},
}

// bomPrefix reports what a byte order mark to be stripped does at the
// start of src: skip is its length when src starts with one, to is the
// form of the input after it (the current one when there is none), and short is
// set when src is a proper prefix of one and more input decides. Under
// StripBOM only the mark of the base form counts; DetectBOM takes the
// other marks of bomMarks too.
func (t *Transformer) bomPrefix(src []byte, atEOF bool) (skip int, to form, short bool) {
	if !t.c.o.stripBOM || t.off != 0 || len(src) == 0 {
		return 0, t.inForm(), false
	}
	for _, m := range bomMarks[t.c.o.base] {
		if !t.c.o.detectBOM && m.f != t.c.o.base {
			continue
		}
		if len(src) >= len(m.mark) {
			if string(src[:len(m.mark)]) == m.mark {
				return len(m.mark), m.f, false
			}
		} else if !atEOF && string(src) == m.mark[:len(src)] {
			short = true
		}
	}
	return 0, t.inForm(), short
}
