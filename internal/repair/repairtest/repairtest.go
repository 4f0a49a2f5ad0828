// Package repairtest lists, for tests, what the root package's policies
// write for each ill-formed byte, as Specs of internal/repair: the one list
// of policies that the tests of both packages take. internal/repair's tests
// run the block loop and the kernels under each Spec against a reference
// repairer; the root package's tests check that each of its policies has
// a Spec here, under its name, that is the Spec it builds its table from.
// So a new policy must appear here, and is then tested in both.
package repairtest

import (
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// A Spec is a repair.Spec (the fields of the same names) with the policy
// and options of the root package that it stands for.
type Spec struct {
	// Name names the Spec in test names and benchmarks: the policy's
	// name, and "+nonul" with NoNUL or "?" with Replacement("?").
	Name string
	// Policy is the name of the root package's policy, as its String
	// method returns it; NoNUL and Replacement are its options.
	Policy      string
	NoNUL       bool
	Replacement string

	Out     func(dst []byte, b byte) int
	PerByte bool
	Stops   []byte
	Escaped func(b1, b2 byte) bool
}

// escaper returns an Out that writes b as U+x000+b, where lead and mid are
// the first two bytes for b = 0: ED B0 for U+DC00 (surrogateescape), EE BC
// for U+EF00 (optu8).
func escaper(lead, mid byte) func(dst []byte, b byte) int {
	return func(dst []byte, b byte) int {
		dst[0], dst[1], dst[2] = lead, mid|b>>6, 0x80|b&0x3F
		return 3
	}
}

// Specs are the Specs of every policy that has a table (all but reject),
// with the default options, and a few with options: NoNUL, whose byte 00
// the table stops at, and a 1-byte replacement.
var Specs = []Spec{
	{Name: "replace", Policy: "replace", Out: func(dst []byte, b byte) int { return copy(dst, "\uFFFD") }},
	{Name: "replace?", Policy: "replace", Replacement: "?", Out: func(dst []byte, b byte) int { return copy(dst, "?") }},
	{Name: "surrogateescape", Policy: "surrogateescape", Out: escaper(0xED, 0xB0), PerByte: true},
	{Name: "optu8", Policy: "optu8", Out: escaper(0xEE, 0xBC), PerByte: true, Escaped: func(b1, b2 byte) bool { return b1 >= 0xBE }},
	{Name: "optu8+nonul", Policy: "optu8", NoNUL: true, Out: escaper(0xEE, 0xBC), PerByte: true, Stops: []byte{0x00},
		Escaped: func(b1, b2 byte) bool { return b1 >= 0xBE || b1 == 0xBC && b2 == 0x80 }},
	{Name: "drop", Policy: "drop", Out: func(dst []byte, b byte) int { return 0 }, PerByte: true},
	{Name: "windows1252", Policy: "windows1252", Out: func(dst []byte, b byte) int {
		r := charmap.Windows1252.DecodeByte(b)
		// x/text maps the five undefined bytes to U+0080..U+009F
		// controls; the root package writes U+FFFD for them, and for NUL.
		if b == 0 || 0x80 <= r && r <= 0x9F {
			r = utf8.RuneError
		}
		return utf8.EncodeRune(dst, r)
	}, PerByte: true},
	// 4 bytes a byte: longer than the kernels' per-byte path takes.
	{Name: "backslashreplace", Policy: "backslashreplace", Out: func(dst []byte, b byte) int {
		const hex = "0123456789abcdef"
		dst[0], dst[1], dst[2], dst[3] = '\\', 'x', hex[b>>4], hex[b&15]
		return 4
	}, PerByte: true},
}
