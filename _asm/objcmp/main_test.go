package main

import (
	"strings"
	"testing"
)

// listing is go tool objdump's output for a function of three
// instructions at 0x100, the second with a relocation.
const listing = "TEXT pkg.f(SB) /x/f_amd64.s\n" +
	"  f_amd64.s:10\t0x100\t\t\t31c0\t\t\tXORL AX, AX\t\t\n" +
	"  f_amd64.s:11\t0x102\t\t\te900000000\t\tJMP 0x107\t\t[1:5]R_CALL:pkg.g\t\n" +
	"  f_amd64.s:12\t0x107\t\t\tc3\t\t\tRET\t\t\n"

func parsed(t *testing.T, s string) map[string][]insn {
	t.Helper()
	funcs := map[string][]insn{}
	if err := parse(strings.NewReader(s), funcs); err != nil {
		t.Fatal(err)
	}
	return funcs
}

func TestParse(t *testing.T) {
	got := parsed(t, listing)["pkg.f(SB)"]
	want := []insn{{0, "31c0", ""}, {2, "e900000000", "[1:5]R_CALL:pkg.g"}, {7, "c3", ""}}
	if len(got) != len(want) {
		t.Fatalf("parse: %v; want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("instruction %d: %+v; want %+v", i, got[i], want[i])
		}
	}
}

// TestCompare checks that the same function at another address is the
// same, and that another byte, another relocation and another length
// each differ.
func TestCompare(t *testing.T) {
	old := parsed(t, listing)
	for _, c := range []struct {
		desc, new string
		diffs     int
	}{
		{"moved", strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(listing, "0x100", "0x200"), "0x102", "0x202"), "0x107", "0x207"), 0},
		{"byte", strings.Replace(listing, "31c0", "31c9", 1), 1},
		{"relocation", strings.Replace(listing, "pkg.g", "pkg.h", 1), 1},
		{"shorter", strings.Join(strings.SplitAfter(listing, "\n")[:3], ""), 1},
		{"renamed", strings.Replace(listing, "pkg.f", "pkg.k", 1), 2},
	} {
		var out strings.Builder
		if got := compare(&out, old, parsed(t, c.new)); got != c.diffs {
			t.Errorf("%s: %d differ; want %d\n%s", c.desc, got, c.diffs, out.String())
		}
	}
}
