package utf8stream

import (
	"errors"
	"strconv"
	"strings"

	"github.com/utf8stream/utf8stream/internal/reason"
)

// ErrInvalid is the error that every *[Error] wraps: errors.Is(err, ErrInvalid)
// reports whether err is about ill-formed input: UTF-8, or the UTF-16 and
// UTF-32 of [UTF16] and [UTF32].
var ErrInvalid = errors.New("utf8stream: invalid UTF-8")

// Error describes one ill-formed subpart of the input. [Reject] returns it;
// the other policies report it to an [OnInvalid] callback.
//
// Where the input is UTF-16 or UTF-32 (the decoders of [UTF16] and [UTF32],
// [DetectBOM]), the subpart is an ill-formed code unit: Offset is the
// stream offset of its first byte, and Bytes holds its bytes (1 to 4, and
// 3 for a high surrogate followed by a truncated unit). For the input of
// [AppendFromUTF16] and [AppendFromRunes], Offset counts units and Bytes
// holds the unit, high byte first.
type Error struct {
	Offset int64 // stream offset of the first byte of the ill-formed subpart
	// Bytes is a copy of the maximal ill-formed subpart: 1 to 3 bytes, or
	// 00 under [NoNUL]; under [BMPOnly], the 4 bytes of a character above
	// U+FFFF, or the 6 of a surrogate pair under [CESU8] or [WTF8].
	Bytes []byte
	// Line and Column locate the subpart with the [Lines] option, in UTF-8
	// input: Line counts newline (0A) bytes from 1, and Column is the
	// 1-based byte column. Both are 0 without it, and for UTF-16 and
	// UTF-32 input.
	Line, Column int64
	// Form names the encoding form of the input where it is not UTF-8:
	// "UTF-16LE", "UTF-16BE", "UTF-32LE" or "UTF-32BE" for a stream, and
	// "UTF-16" or "UTF-32" for a []uint16 or a []rune. It is "" for UTF-8.
	Form string
}

// Error returns a message such as
// "utf8stream: invalid UTF-8 at offset 7: bytes E9: E9 must be followed by 80..BF",
// with a Line "utf8stream: invalid UTF-8 at line 2, column 3 (offset 7): ...".
// For UTF-16 and UTF-32 input it reads such as "utf8stream: invalid UTF-16LE
// at offset 6: bytes 00 D8: lone surrogate U+D800", and for a []uint16 or
// []rune "utf8stream: invalid UTF-16 at unit 3: ...".
func (e *Error) Error() string {
	enc, at := e.Form, "offset "
	switch enc {
	case "":
		enc = "UTF-8"
	case "UTF-16", "UTF-32":
		at = "unit "
	}
	at += strconv.FormatInt(e.Offset, 10)
	if e.Line > 0 {
		at = "line " + strconv.FormatInt(e.Line, 10) + ", column " + strconv.FormatInt(e.Column, 10) + " (" + at + ")"
	}
	return "utf8stream: invalid " + enc + " at " + at + ": bytes " + reason.Hex(e.Bytes) + ": " + e.Reason()
}

// Unwrap returns [ErrInvalid].
func (e *Error) Unwrap() error { return ErrInvalid }

// Reason says in a few words why the bytes are ill-formed, such as
// "unexpected continuation byte" or "E9 must be followed by 80..BF". Its
// words are those of the utf8stream command's reports, which also see the
// byte after the subpart: a lone E0, ED, F0 or F4 reads "overlong encoding",
// "surrogate" or "above U+10FFFF" there, where Reason names both that and a
// sequence cut short.
func (e *Error) Reason() string {
	if e.Form != "" {
		return wideReason(e.Form, e.Bytes)
	}
	return reason.Of(e.Bytes, reason.Unknown)
}

// wideReason says why the unit b of UTF-16 or UTF-32 in the form named
// enc is ill-formed.
func wideReason(enc string, b []byte) string {
	f := formUTF16BE
	if strings.HasPrefix(enc, "UTF-32") {
		f = formUTF32BE
	}
	if strings.HasSuffix(enc, "LE") {
		f--
	}
	w := f.width()
	switch {
	case len(b) < w:
		return "truncated code unit at the end of the input"
	case len(b) > w:
		return "high surrogate followed by a truncated code unit at the end of the input"
	}
	u := f.unit(b)
	hex := strings.ToUpper(strconv.FormatUint(uint64(u), 16))
	switch {
	case u > 0x10FFFF:
		return "0x" + hex + " is above U+10FFFF"
	case w == 4:
		return "surrogate U+" + hex
	}
	return "lone surrogate U+" + hex
}
