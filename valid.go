package utf8stream

import (
	"encoding/binary"
	"math/bits"
)

// validPrefixGeneric returns the length of the longest prefix of p made of
// complete, well-formed UTF-8 sequences. It is the reference that every
// faster implementation is tested against, and the fallback on every platform.
func validPrefixGeneric(p []byte) int {
	const hi = 0x8080808080808080
	i, n := 0, len(p)
	for i < n {
		if p[i] < 0x80 {
			// Skip ASCII a word at a time.
			for i+8 <= n {
				if w := binary.LittleEndian.Uint64(p[i:]) & hi; w != 0 {
					i += bits.TrailingZeros64(w) >> 3
					break
				}
				i += 8
			}
			for i < n && p[i] < 0x80 {
				i++
			}
			continue
		}
		x := first[p[i]]
		size := int(x & 7)
		if x == xx || i+size > n {
			return i
		}
		ar := acceptRanges[x>>4]
		if c := p[i+1]; c < ar.lo || ar.hi < c {
			return i
		}
		if size > 2 && p[i+2]&0xC0 != 0x80 || size > 3 && p[i+3]&0xC0 != 0x80 {
			return i
		}
		i += size
	}
	return i
}

// implInfo names an implementation of validPrefix and tells whether this
// machine supports it. Each platform's file lists its implementations in
// impls, "generic" first, and keeps the index of the one in use in impl.
type implInfo struct {
	name      string
	supported bool
}

// implNames returns the names of the implementations of validPrefix that
// this machine supports, "generic" first. Tests and benchmarks loop over it.
func implNames() []string {
	var names []string
	for _, im := range impls {
		if im.supported {
			names = append(names, im.name)
		}
	}
	return names
}

// setImpl makes validPrefix use the named implementation until restore is
// called. It panics if this machine does not support it. It is for tests
// and benchmarks, which must not run in parallel with each other while the
// implementation is switched.
func setImpl(name string) (restore func()) {
	for i, im := range impls {
		if im.name != name {
			continue
		}
		if !im.supported {
			panic("utf8stream: implementation " + name + " is not supported on this machine")
		}
		old := impl
		impl = i
		return func() { impl = old }
	}
	panic("utf8stream: unknown implementation " + name)
}
