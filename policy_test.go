package utf8stream

import (
	"fmt"
	"strings"
	"testing"
)

// TestPolicyOutOfRange checks that every constructor refuses a Policy
// that is none of the constants, rather than acting as one of them.
func TestPolicyOutOfRange(t *testing.T) {
	bad := Policy(42)
	for _, tc := range []struct {
		desc string
		f    func()
	}{
		{"NewTransformer", func() { NewTransformer(bad) }},
		{"NewReader", func() { NewReader(strings.NewReader("a"), bad) }},
		{"NewWriter", func() { NewWriter(new(strings.Builder), bad) }},
		{"NewUnescaper", func() { NewUnescaper(bad) }},
		{"Encoding", func() { Encoding(bad) }},
		{"Bytes", func() { Bytes([]byte("a"), bad) }},
		{"String", func() { String("a", bad) }},
		{"Append", func() { Append(nil, []byte("a"), bad) }},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			defer func() {
				msg := fmt.Sprint(recover())
				if !strings.Contains(msg, "utf8stream: unknown policy Policy(42)") {
					t.Errorf("%s(Policy(42)) panicked with %q; want unknown policy", tc.desc, msg)
				}
			}()
			tc.f()
		})
	}
	if _, err := Policy(42).MarshalText(); err == nil {
		t.Error("Policy(42).MarshalText() succeeded")
	}
}

func TestStatsString(t *testing.T) {
	for _, tc := range []struct {
		s    Stats
		want string
	}{
		{Stats{First: -1}, "no ill-formed input"},
		{Stats{Subparts: 1, Bytes: 1, First: 0}, "1 ill-formed subpart (1 byte), first at offset 0"},
		{Stats{Subparts: 2, Bytes: 3, First: 7, Escaped: 1}, "2 ill-formed subparts (3 bytes), first at offset 7, 1 valid sequence escaped"},
	} {
		if got := fmt.Sprint(tc.s); got != tc.want {
			t.Errorf("fmt.Sprint(%#v) = %q; want %q", tc.s, got, tc.want)
		}
	}
	// The counts of a real stream.
	tr := NewTransformer(Replace)
	transformString(tr, "a\xFFb\xE2\x82")
	if got, want := tr.Stats().String(), "2 ill-formed subparts (3 bytes), first at offset 1"; got != want {
		t.Errorf("Stats() = %q; want %q", got, want)
	}
}

// TestPolicies checks that Policies lists every policy once, in the order of
// the constants, and nothing past the last.
func TestPolicies(t *testing.T) {
	ps := Policies()
	for i, p := range ps {
		if p != Policy(i) {
			t.Errorf("Policies()[%d] = %v; want %v", i, p, Policy(i))
		}
		if q, err := ParsePolicy(p.String()); q != p || err != nil {
			t.Errorf("ParsePolicy(%q) = %v, %v; want %v, nil", p.String(), q, err, p)
		}
	}
	if last := ps[len(ps)-1]; last != BackslashReplace {
		t.Errorf("last of Policies() = %v; want %v", last, BackslashReplace)
	}
	if _, err := Policy(len(ps)).MarshalText(); err == nil {
		t.Errorf("Policy(%d).MarshalText() = nil error; want one: Policies() misses it", len(ps))
	}
	ps[0] = Replace
	if Policies()[0] != Reject {
		t.Error("Policies() returned a slice that a caller's write changed")
	}
}
