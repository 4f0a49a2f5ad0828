package utf8stream

import (
	"errors"
	"strconv"

	"github.com/utf8stream/utf8stream/internal/reason"
)

// ErrInvalid is the error that every *[Error] wraps: errors.Is(err, ErrInvalid)
// reports whether err is about ill-formed UTF-8.
var ErrInvalid = errors.New("utf8stream: invalid UTF-8")

// Error describes one ill-formed subpart of the input. [Reject] returns it;
// the other policies report it to an [OnInvalid] callback.
type Error struct {
	Offset int64 // stream offset of the first byte of the ill-formed subpart
	// Bytes is a copy of the maximal ill-formed subpart: 1 to 3 bytes, or
	// 00 under [NoNUL]; under [BMPOnly], the 4 bytes of a character above
	// U+FFFF, or the 6 of a surrogate pair under [CESU8] or [WTF8].
	Bytes []byte
	// Line and Column locate the subpart with the [Lines] option: Line
	// counts newline (0A) bytes from 1, and Column is the 1-based byte
	// column. Both are 0 without it.
	Line, Column int64
}

// Error returns a message such as
// "utf8stream: invalid UTF-8 at offset 7: bytes E9: E9 must be followed by 80..BF",
// or with a Line, "utf8stream: invalid UTF-8 at line 2, column 3 (offset 7): ...".
func (e *Error) Error() string {
	at := "offset " + strconv.FormatInt(e.Offset, 10)
	if e.Line > 0 {
		at = "line " + strconv.FormatInt(e.Line, 10) + ", column " + strconv.FormatInt(e.Column, 10) + " (" + at + ")"
	}
	return "utf8stream: invalid UTF-8 at " + at + ": bytes " + reason.Hex(e.Bytes) + ": " + e.Reason()
}

// Unwrap returns [ErrInvalid].
func (e *Error) Unwrap() error { return ErrInvalid }

// Reason says in a few words why the bytes are ill-formed, such as
// "unexpected continuation byte" or "E9 must be followed by 80..BF". Its
// words are those of the utf8stream command's reports, which also see the
// byte after the subpart: a lone E0, ED, F0 or F4 reads "overlong encoding",
// "surrogate" or "above U+10FFFF" there, where Reason names both that and a
// sequence cut short.
func (e *Error) Reason() string { return reason.Of(e.Bytes, reason.Unknown) }
