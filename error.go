package utf8stream

import (
	"errors"
	"fmt"
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
}

// Error returns a message such as
// "utf8stream: invalid UTF-8 at offset 7: bytes E0 80: E0 must be followed by A0..BF".
func (e *Error) Error() string {
	return fmt.Sprintf("utf8stream: invalid UTF-8 at offset %d: bytes % X: %s", e.Offset, e.Bytes, e.Reason())
}

// Unwrap returns [ErrInvalid].
func (e *Error) Unwrap() error { return ErrInvalid }

// Reason says in a few words why the bytes are ill-formed, such as
// "unexpected continuation byte" or "E0 must be followed by A0..BF".
// A subpart that ends the input can also read as "truncated sequence".
func (e *Error) Reason() string { return reason(e.Bytes) }

func reason(b []byte) string {
	if len(b) == 0 {
		return "empty subpart"
	}
	if len(b) > 3 {
		return "character above U+FFFF"
	}
	c := b[0]
	switch {
	case c == 0:
		return "NUL byte"
	case c < 0x80:
		return "unexpected ASCII byte"
	case c < 0xC0:
		return "unexpected continuation byte"
	case c < 0xC2:
		return "overlong encoding (C0 and C1 never appear)"
	case c >= 0xF8:
		return fmt.Sprintf("byte %02X never appears in UTF-8", c)
	case c >= 0xF5:
		return "above U+10FFFF (F5..F7 never appear)"
	}
	x := first[c]
	size := int(x & 7)
	if len(b) == 1 {
		ar := acceptRanges[x>>4]
		if ar.lo == 0x80 && ar.hi == 0xBF {
			return fmt.Sprintf("%02X must be followed by 80..BF", c)
		}
		return fmt.Sprintf("%02X must be followed by %02X..%02X", c, ar.lo, ar.hi)
	}
	if len(b) < size {
		return fmt.Sprintf("truncated sequence: % X needs %d more continuation byte(s)", b, size-len(b))
	}
	return "ill-formed sequence"
}
