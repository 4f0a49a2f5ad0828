package utf8stream

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// An Option changes how a [Transformer], [Reader], [Writer] or [Unescaper]
// treats its input. Options that do not apply to a type are ignored by it.
type Option func(*options)

// maxReplacement bounds the length of a [Replacement] string, so that the
// output of one ill-formed subpart always fits in a small buffer.
const maxReplacement = 64

type options struct {
	settings
	onInvalid func(Error)
	// ln is the line count for Lines, the one field that changes: it
	// belongs to the value that owns this copy (a value with options has
	// one of its own), and so costs nothing to a value without Lines.
	ln lineCount
	// base is the form of the input at the start of the stream: UTF-8,
	// or UTF-16 or UTF-32 for the decoders of UTF16 and UTF32 and the
	// functions on []uint16 and []rune. It is no Option's: those
	// constructors set it.
	base form
	// slice is set for input that is a []uint16 or a []rune: offsets
	// count units, and BackslashReplace writes a code point as Python
	// does for a str.
	slice bool
}

// settings are the options that are values, comparable with ==, so that
// an [encoding.Encoding] can hold them.
type settings struct {
	bufSize     int
	stripBOM    bool
	detectBOM   bool
	noNUL       bool
	cesu8       bool
	mutf8       bool
	wtf8        bool
	bmpOnly     bool
	lines       bool
	replacement string
}

// defaultOptions are the options of a value made with none. It is never
// written to.
var defaultOptions = options{settings: settings{bufSize: 4096, replacement: "\uFFFD"}}

// init sets o to the defaults and applies opts. It works in place, so that
// o is not copied to the heap on its way to the functions.
func (o *options) init(opts []Option) {
	*o = defaultOptions
	for _, f := range opts {
		f(o)
	}
}

// BufferSize sets the size of the buffers a [Reader] or [Writer] allocates
// when it cannot work in the caller's slice. The default is 4096 bytes, and
// sizes below 16 count as 16. A Writer writes the output of a Write in one
// call when it is at most this size; its buffer has about 1 KiB more, room
// for the output of one more step of its work.
func BufferSize(n int) Option {
	return func(o *options) { o.bufSize = max(n, 16) }
}

// StripBOM removes one byte order mark (EF BB BF) at stream offset 0. A U+FEFF
// later in the stream is content and stays. By default the mark is kept, as
// x/text's unicode.UTF8 and Python's "utf-8" codec keep it.
func StripBOM() Option {
	return func(o *options) { o.stripBOM = true }
}

// DetectBOM reads the form of the input from a byte order mark at stream
// offset 0, as the WHATWG Encoding Standard's decode does: input that
// starts with FF FE or FE FF is UTF-16LE or UTF-16BE, decoded to UTF-8 under
// the policy as the decoder of [UTF16] does, and the mark is removed; a
// UTF-8 mark (EF BB BF) is removed, as with [StripBOM]; any other input is
// UTF-8 and is checked as usual. Unlike x/text's unicode.BOMOverride it
// never turns the policy off. For the decoders of [UTF16] and [UTF32] it
// reads the byte order from the mark (FF FE or FE FF; FF FE 00 00 or
// 00 00 FE FF) and removes it; their encoders, and the functions on
// []uint16 and []rune, take it as StripBOM. Off by default.
func DetectBOM() Option {
	return func(o *options) { o.detectBOM, o.stripBOM = true, true }
}

// NoNUL treats the byte 00 as ill-formed, so it goes through the policy:
// [Reject] stops at it, [Replace] and [Windows1252] write U+FFFD, [Drop]
// removes it, [SurrogateEscape] writes U+DC00 (ED B0 80) and [OPTU8] writes
// U+EF00 (EE BC 80), which then also escapes an EE BC 80 already in the input.
// An [Unescaper] for such output needs the same option. By default 00 is
// valid, as Unicode says.
//
// NUL is what databases and many C APIs refuse: PostgreSQL rejects both 00
// and invalid UTF-8 in text, as do protobuf's string fields for the latter,
// so NewReader(f, Reject, NoNUL()) is the filter for a loader, which then
// fails at the first byte the database would refuse, with its offset (and,
// with [Lines], its line), rather than in the middle of the load.
func NoNUL() Option {
	return func(o *options) { o.noNUL = true }
}

// CESU8 accepts a surrogate pair encoded as two 3-byte sequences (ED A0..AF xx
// ED B0..BF xx, as Java's and some databases' CESU-8 write characters above
// U+FFFF) and writes the character in its standard 4-byte form. An unpaired
// surrogate stays ill-formed. Off by default.
func CESU8() Option {
	return func(o *options) { o.cesu8 = true }
}

// ModifiedUTF8 accepts C0 80, Java's Modified UTF-8 form of U+0000, and writes
// 00. Combine it with [CESU8] to read all of Modified UTF-8. Off by default.
func ModifiedUTF8() Option {
	return func(o *options) { o.mutf8 = true }
}

// WTF8 reads the input as WTF-8, the generalized UTF-8 of Rust's OsString on
// Windows and of JavaScript strings, in which a surrogate (U+D800..U+DFFF) is
// a 3-byte sequence ED A0..BF 80..BF. A lone surrogate is well-formed and is
// written unchanged, so [Reject] validates WTF-8; a high surrogate followed
// by a low one is written as the 4-byte sequence of their character, as
// [CESU8] does, which WTF8 includes. A truncated surrogate (ED A0..BF not
// followed by a continuation byte) is one maximal subpart. The rest is as in
// UTF-8. Off by default.
//
// A lone surrogate passes unchanged under every policy, [SurrogateEscape]
// included: a lone U+DC80..U+DCFF in the input then looks like one of its
// escapes, and an [Unescaper] turns it into the byte 80..FF, as CPython's
// surrogateescape encoder does with a string that holds one. Under [Drop] a
// high and a low surrogate that only dropped bytes kept apart are written
// as they are, as two 3-byte sequences, which a reader of WTF-8 joins.
func WTF8() Option {
	return func(o *options) { o.wtf8 = true }
}

// BMPOnly treats each character above U+FFFF as ill-formed, as MySQL's
// utf8mb3 does: its 4-byte sequence (F0..F4 and 3 continuation bytes) is one
// unit for the policy, and so are the 6 bytes of a surrogate pair under
// [CESU8] or [WTF8]. [Reject] stops at it, [Replace] writes one U+FFFD (or
// the [Replacement]), [Windows1252] writes one U+FFFD, [Drop] removes it,
// and [SurrogateEscape], [OPTU8] and [BackslashReplace] escape each of its
// bytes, so that an [Unescaper] restores it. [Stats] and [OnInvalid] count
// it as a subpart, and an [Error] holds all its bytes. Off by default.
func BMPOnly() Option {
	return func(o *options) { o.bmpOnly = true }
}

// Lines makes every *[Error], and each Error an [OnInvalid] function gets,
// carry the Line and Column of its subpart, so that a person can find it
// in an editor. Line counts newline (0A) bytes from 1, and Column is the
// 1-based byte column: the subpart's offset from the byte after the last
// newline before it, plus 1. A carriage return is a byte like any other:
// CR LF ends a line at its LF, and a lone CR ends none. These are the
// numbers that the utf8stream command reports. The count covers all the
// input consumed, whatever the chunks, and so costs on valid input too:
// the AVX2 and AVX-512 kernels on amd64 and the NEON kernels on arm64
// count newlines in the pass that validates (and copies), where the policy
// is not [OPTU8] and no [NoNUL], [BMPOnly] or [WTF8] is given; elsewhere
// the count is a second pass (bytes.Count). Off by default, when Line and
// Column are 0 and nothing is counted. The count is of UTF-8 input: for
// UTF-16 and UTF-32 input Line and Column stay 0.
func Lines() Option {
	return func(o *options) { o.lines = true }
}

// Replacement sets what [Replace] writes for each ill-formed subpart. The
// default is U+FFFD. Replacement panics if s is not valid UTF-8 or longer than
// 64 bytes; s may be empty.
func Replacement(s string) Option {
	if !utf8.ValidString(s) {
		panic("utf8stream: replacement " + strconv.Quote(s) + " is not valid UTF-8")
	}
	if len(s) > maxReplacement {
		panic("utf8stream: replacement is " + strconv.Itoa(len(s)) + " bytes, more than " + strconv.Itoa(maxReplacement))
	}
	return func(o *options) { o.replacement = s }
}

// OnInvalid sets a function that is called once for each ill-formed subpart,
// in stream order, as the subpart is consumed, whatever the policy. The Error
// it gets holds its own copy of the bytes. By default nothing is called.
//
// If f panics, the panic goes on to the caller, and the [Transformer],
// [Reader] or [Writer] that called f fails every later call with an error
// saying so, until Reset: the panic stopped it at a point that no count
// reported, so going on could lose or repeat bytes.
func OnInvalid(f func(Error)) Option {
	return func(o *options) { o.onInvalid = f }
}

// Stats counts the ill-formed input a [Transformer], [Reader] or [Writer] has
// consumed since it was made or last Reset.
type Stats struct {
	Subparts int64 // ill-formed subparts, each counted once
	Bytes    int64 // bytes in those subparts
	First    int64 // stream offset of the first one, or -1 if there was none
	Escaped  int64 // valid sequences that OPTU8 escaped: EE BE xx, EE BF xx, and EE BC 80 under NoNUL
}

// String returns a summary such as "2 ill-formed subparts (3 bytes), first
// at offset 7", or "no ill-formed input".
func (s Stats) String() string {
	var b strings.Builder
	if s.Subparts == 0 {
		b.WriteString("no ill-formed input")
	} else {
		b.WriteString(count(s.Subparts, "ill-formed subpart"))
		b.WriteString(" (" + count(s.Bytes, "byte") + "), first at offset " + strconv.FormatInt(s.First, 10))
	}
	if s.Escaped > 0 {
		b.WriteString(", " + count(s.Escaped, "valid sequence") + " escaped")
	}
	return b.String()
}

// count returns n and what it counts, such as "1 byte" or "2 bytes".
func count(n int64, what string) string {
	s := strconv.FormatInt(n, 10) + " " + what
	if n != 1 {
		s += "s"
	}
	return s
}
