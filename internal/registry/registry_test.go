package registry

import (
	"slices"
	"strings"
	"testing"
)

func TestSet(t *testing.T) {
	var sel int
	s := &Set{Package: "test", sel: &sel, Impls: []Impl{
		{Name: "generic"},
		{Name: "fast", Needs: []Feature{Has("A", true), Has("B", true)}},
		{Name: "faster", Needs: []Feature{Has("A", true), Has("C", false), Has("D", false)}, Advertised: true},
	}}
	if got, want := s.Names(), []string{"generic", "fast"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %q; want %q", got, want)
	}
	if got := s.Impls[2].Missing(); got != "C, D" {
		t.Errorf("Missing() = %q; want %q", got, "C, D")
	}
	restore := s.Select("fast")
	if sel != 1 || s.InUse() != "fast" {
		t.Errorf("after Select(fast): sel = %d, InUse() = %q", sel, s.InUse())
	}
	restore()
	if sel != 0 {
		t.Errorf("after restore: sel = %d; want 0", sel)
	}
	for _, bad := range []string{"faster", "none"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Select(%q) did not panic", bad)
				}
			}()
			s.Select(bad)
		}()
	}
}

func TestCheck(t *testing.T) {
	var sel int
	ok := &Set{Package: "p", sel: &sel, Impls: []Impl{{Name: "generic"}, {Name: "fast", Needs: []Feature{Has("A", true)}, Advertised: true}}}
	if got, err := ok.Check(); err != nil || got != "p kernels: generic, fast; in use: generic" {
		t.Errorf("Check() = %q, %v", got, err)
	}
	bad := &Set{Package: "p", sel: &sel, Impls: []Impl{{Name: "generic"}, {Name: "fast", Needs: []Feature{Has("A", true), Has("B", false)}, Advertised: true}}}
	if _, err := bad.Check(); err == nil || !strings.Contains(err.Error(), "fast (missing B)") {
		t.Errorf("Check() error = %v; want one naming fast (missing B)", err)
	}
}
