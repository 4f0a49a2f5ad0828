package utf8stream

import (
	"errors"
	"strconv"
	"strings"
)

// Policy says what happens to ill-formed UTF-8. The zero value is [Reject].
// The constructors panic when given a value that is not one of the
// constants below, such as Policy(42).
type Policy uint8

const (
	// Reject stops at the first ill-formed subpart with an *[Error]. With [NoNUL] it also stops at 00: PostgreSQL refuses both NUL and invalid UTF-8, so NewReader(f, Reject, NoNUL()) is the filter of a database load.
	Reject Policy = iota
	// Replace emits one U+FFFD (EF BF BD) per maximal subpart.
	Replace
	// SurrogateEscape emits U+DC00+b (ED B2 80..ED B3 BF) per ill-formed byte b; the output is not valid UTF-8.
	SurrogateEscape
	// OPTU8 emits U+EF00+b (EE BE 80..EE BF BF) per ill-formed byte b, and escapes valid EE BE xx and EE BF xx byte by byte.
	OPTU8
	// Drop removes ill-formed subparts.
	Drop
	// Windows1252 decodes each ill-formed byte as Windows-1252 (U+0080..U+2122), and bytes it leaves undefined as U+FFFD.
	Windows1252
	// BackslashReplace emits \x and b in two lowercase hex digits (5C 78, then 30..39 or 61..66 twice) per ill-formed byte b, as Python's backslashreplace does; it is not reversible, since a \xNN already in the input looks the same. It is for plain-text logs, not JSON, where \x is no escape and the line stops parsing: use Replace there, or SurrogateEscape or OPTU8 to lose nothing.
	BackslashReplace

	numPolicies
)

var policyNames = [numPolicies]string{
	Reject:           "reject",
	Replace:          "replace",
	SurrogateEscape:  "surrogateescape",
	OPTU8:            "optu8",
	Drop:             "drop",
	Windows1252:      "windows1252",
	BackslashReplace: "backslashreplace",
}

// Policies returns every policy, in the order of their constants, from
// [Reject] to [BackslashReplace]. Each call returns a new slice.
func Policies() []Policy {
	ps := make([]Policy, numPolicies)
	for i := range ps {
		ps[i] = Policy(i)
	}
	return ps
}

// String returns the policy's name as [ParsePolicy] accepts it, such as "replace".
func (p Policy) String() string {
	if p < numPolicies {
		return policyNames[p]
	}
	return "Policy(" + strconv.Itoa(int(p)) + ")"
}

var errPolicy = errors.New("utf8stream: unknown policy")

// policyError is errPolicy with what was unknown.
type policyError struct{ what string }

func (e *policyError) Error() string { return errPolicy.Error() + " " + e.what }
func (e *policyError) Unwrap() error { return errPolicy }

// check panics if p is not one of the policies: a Policy made from a number
// out of range is a programming error, which must not act as another policy.
func (p Policy) check() {
	if p >= numPolicies {
		panic("utf8stream: unknown policy " + p.String())
	}
}

// ParsePolicy returns the policy named s. It accepts the names [Policy.String]
// returns, in any case, plus "surrogate-escape", "optu-8", "ignore" (for
// [Drop]), "cp1252" (for [Windows1252]) and "backslash-replace".
func ParsePolicy(s string) (Policy, error) {
	switch strings.ToLower(s) {
	case "reject", "strict":
		return Reject, nil
	case "replace":
		return Replace, nil
	case "surrogateescape", "surrogate-escape":
		return SurrogateEscape, nil
	case "optu8", "optu-8":
		return OPTU8, nil
	case "drop", "ignore":
		return Drop, nil
	case "windows1252", "windows-1252", "cp1252":
		return Windows1252, nil
	case "backslashreplace", "backslash-replace":
		return BackslashReplace, nil
	}
	return 0, &policyError{strconv.Quote(s) + " (want one of " + strings.Join(policyNames[:], ", ") + ")"}
}

// MarshalText implements [encoding.TextMarshaler].
func (p Policy) MarshalText() ([]byte, error) {
	if p >= numPolicies {
		return nil, &policyError{strconv.Itoa(int(p))}
	}
	return []byte(policyNames[p]), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler], so a Policy can be a
// flag with [flag.TextVar].
func (p *Policy) UnmarshalText(text []byte) error {
	q, err := ParsePolicy(string(text))
	if err != nil {
		return err
	}
	*p = q
	return nil
}
