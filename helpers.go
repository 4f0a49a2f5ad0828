package utf8stream

import (
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/utf8stream/utf8stream/internal/valid"
	"golang.org/x/text/transform"
)

// Valid reports whether b is made entirely of well-formed UTF-8 sequences.
// Its answer is that of [utf8.Valid]; it does not allocate.
func Valid(b []byte) bool {
	if len(b) >= valid.Short {
		return valid.Prefix(b) == len(b)
	}
	// A few bytes, checked here: a call on the way costs as much as
	// the loop.
	for i := 0; i < len(b); {
		for b[i] < utf8.RuneSelf {
			if i++; i == len(b) {
				return true
			}
		}
		size, lo, hi := valid.Lead(b[i])
		if size == 0 || i+size > len(b) || b[i+1] < lo || hi < b[i+1] ||
			size > 2 && b[i+2]&0xC0 != 0x80 || size > 3 && b[i+3]&0xC0 != 0x80 {
			return false
		}
		i += size
	}
	return true
}

// ValidString reports whether s is made entirely of well-formed UTF-8
// sequences. Its answer is that of [utf8.ValidString]; it does not allocate.
func ValidString(s string) bool {
	return Valid(stringBytes(s))
}

// Bytes returns a new slice holding what policy p, with opts, makes of b.
// Under [Reject] it returns the valid prefix of b (every byte before the
// first ill-formed subpart) and an *[Error], as a [Reader] delivers them; it
// returns a nil error whenever the output is complete.
func Bytes(b []byte, p Policy, opts ...Option) ([]byte, error) {
	return Append(make([]byte, 0, len(b)), b, p, opts...)
}

// String returns what policy p, with opts, makes of s. When that is s
// itself, as for valid input under every policy but [OPTU8] with an escape
// in it, String returns s and allocates nothing. Under [Reject] it returns
// the valid prefix of s and an *[Error], as [Bytes] does.
func String(s string, p Policy, opts ...Option) (string, error) {
	var t Transformer
	t.init(p, opts)
	src := stringBytes(s)
	n, err := t.Span(src, true)
	if err == nil {
		return s, nil
	}
	if p == Reject && !t.c.o.detectBOM {
		if _, k := t.c.unit(src[n:], true); k == kInvalid {
			// Span stopped at the first ill-formed subpart, where
			// Transform stops at once with the *Error and writes
			// nothing.
			_, _, err := t.Transform(nil, src[n:], true)
			return s[:n], err
		}
	}
	out := make([]byte, n, len(s)+len(s)/8+16)
	copy(out, s[:n])
	out, err = t.appendRest(out, src[n:])
	if len(out) == 0 {
		return "", err
	}
	return unsafe.String(&out[0], len(out)), err
}

// Append appends what policy p, with opts, makes of src to dst and returns
// the extended slice. It allocates nothing when dst has room for the output;
// for valid input that is len(src) bytes. Under [Reject] it appends the
// valid prefix of src and returns an *[Error], as [Bytes] does. dst and src
// must not overlap.
func Append(dst, src []byte, p Policy, opts ...Option) ([]byte, error) {
	var t Transformer
	t.init(p, opts)
	return t.appendRest(dst, src)
}

// appendRest appends t's output for src, the rest of the stream, to dst.
func (t *Transformer) appendRest(dst, src []byte) ([]byte, error) {
	for {
		if cap(dst)-len(dst) < len(src) {
			// Room for valid input; the loop grows dst again where the
			// policy writes more than it reads.
			dst = slices.Grow(dst, len(src))
		}
		nd, ns, err := t.Transform(dst[len(dst):cap(dst)], src, true)
		dst = dst[:len(dst)+nd]
		src = src[ns:]
		if err != transform.ErrShortDst {
			return dst, err
		}
		dst = slices.Grow(dst, len(src)+len(src)/2+maxReplacement)
	}
}

// stringBytes returns the bytes of s without a copy. The caller must not
// write to them.
func stringBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
