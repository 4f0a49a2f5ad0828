// Package registry keeps the implementations of the kernel packages
// (internal/valid, internal/repair): which ones this machine supports,
// which one is in use, and a way for tests and benchmarks to switch, in
// one place for every package, as crypto/internal/impl does for the
// standard library.
package registry

import (
	"errors"
	"slices"
	"strings"
)

// A Feature is a CPU feature a kernel needs, with whether this machine has
// it, as golang.org/x/sys/cpu reports it (after GODEBUG).
type Feature struct {
	Name string // as "// Requires:" lines spell it, such as "AVX512VBMI"
	Has  bool
}

// All reports whether the machine has every feature in fs.
func All(fs []Feature) bool {
	for _, f := range fs {
		if !f.Has {
			return false
		}
	}
	return true
}

// An Impl is one implementation of a package's kernels.
type Impl struct {
	Name string // such as "generic", "avx2", "avx512" or "neon"
	// Needs lists the features the implementation needs; it is
	// supported where the machine has all of them.
	Needs []Feature
	// Advertised is the feature that names the implementation's
	// instruction set, such as AVX512F for "avx512": where the machine
	// has it and the implementation is not supported, the tests fail
	// rather than skip it without a word.
	Advertised bool
}

// Supported reports whether the machine has every feature im needs.
func (im Impl) Supported() bool { return All(im.Needs) }

// Missing returns the names of the features im needs that the machine
// lacks, separated by commas.
func (im Impl) Missing() string {
	var m []string
	for _, f := range im.Needs {
		if !f.Has {
			m = append(m, f.Name)
		}
	}
	return strings.Join(m, ", ")
}

// A Set is the implementations of one package, in the order of the
// package's index of them, the reference first.
type Set struct {
	Package string
	Impls   []Impl
	sel     *int // the package's index of the implementation in use
}

var sets []*Set

// Register records the implementations of package pkg, whose hot paths
// read the index of the one in use from *sel, and returns their Set.
func Register(pkg string, sel *int, impls ...Impl) *Set {
	s := &Set{Package: pkg, Impls: impls, sel: sel}
	sets = append(sets, s)
	return s
}

// Sets returns every registered Set, in the order of registration.
func Sets() []*Set { return slices.Clone(sets) }

// Names returns the names of the implementations this machine supports,
// the reference first.
func (s *Set) Names() []string {
	var names []string
	for _, im := range s.Impls {
		if im.Supported() {
			names = append(names, im.Name)
		}
	}
	return names
}

// InUse returns the name of the implementation in use, or "none" where
// the package runs none (its callers' own loops serve).
func (s *Set) InUse() string {
	if *s.sel < 0 {
		return "none"
	}
	return s.Impls[*s.sel].Name
}

// Select makes the package use the named implementation until restore is
// called. It panics if the name is unknown or this machine does not
// support it. Tests that select must not run in parallel with each other.
func (s *Set) Select(name string) (restore func()) {
	i := slices.IndexFunc(s.Impls, func(im Impl) bool { return im.Name == name })
	switch {
	case i < 0:
		panic(s.Package + ": unknown implementation " + name)
	case !s.Impls[i].Supported():
		panic(s.Package + ": implementation " + name + " is not supported on this machine")
	}
	old := *s.sel
	*s.sel = i
	return func() { *s.sel = old }
}

// Has returns the Feature name, which this machine has where has is true.
func Has(name string, has bool) Feature { return Feature{Name: name, Has: has} }

// Check returns an error naming each implementation whose instruction set
// the machine advertises but which it cannot run, for the missing
// features, and otherwise a line saying which implementations the machine
// supports and which one is in use, for the test log.
func (s *Set) Check() (summary string, err error) {
	var bad []string
	for _, im := range s.Impls {
		if im.Advertised && !im.Supported() {
			bad = append(bad, im.Name+" (missing "+im.Missing()+")")
		}
	}
	if bad != nil {
		return "", errors.New(s.Package + ": the CPU advertises the instruction set of " +
			strings.Join(bad, ", ") + ", whose kernels cannot run here, so no test runs them")
	}
	return s.Package + " kernels: " + strings.Join(s.Names(), ", ") + "; in use: " + s.InUse(), nil
}
