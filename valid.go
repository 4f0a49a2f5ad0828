package utf8stream

import (
	"bytes"
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

// copyValidPrefixGeneric is copyValidPrefix in Go: validPrefixGeneric,
// then one copy of the bytes it accepts.
func copyValidPrefixGeneric(dst, src []byte) int {
	if len(dst) < len(src) {
		panic("utf8stream: copyValidPrefix: dst shorter than src")
	}
	n := validPrefixGeneric(src)
	copy(dst[:n], src)
	return n
}

// stopByte is where the stopping variants of validPrefix stop even in
// valid input: EE leads the sequences of OPTU8's escape range (U+EF80 to
// U+EFFF), which OPTU8 must escape, and of the rest of U+E000 to U+EFFF,
// which it copies.
const stopByte = 0xEE

// validPrefixStopGeneric returns validPrefixGeneric(p), or the offset of
// the first EE in that prefix if it is smaller.
func validPrefixStopGeneric(p []byte) int { return cutStop(p, validPrefixGeneric(p)) }

// copyValidPrefixStopGeneric is copyValidPrefixGeneric with the stop of
// validPrefixStopGeneric; what it copies past that stop is unspecified
// output, as copyValidPrefix allows.
func copyValidPrefixStopGeneric(dst, src []byte) int {
	return cutStop(src, copyValidPrefixGeneric(dst, src))
}

// cutStop returns n, or the offset of the first EE in p[:n] if there is one.
func cutStop(p []byte, n int) int {
	if i := bytes.IndexByte(p[:n], stopByte); i >= 0 {
		return i
	}
	return n
}

// kernelFinish finishes in Go after a kernel returned n < len(p): it backs
// up to the start of the sequence that holds p[n-1], at most 3
// continuation bytes, and validates from there, which stops at the error
// within a block or so. After a stopping kernel (stop), p[:n-1] holds no
// EE either. Where p[n-1] is EE (the kernels flag the byte after each
// EE), nothing before it was flagged, so p[:n-1] is the answer; where
// p[n] is EE the answer is at most n; elsewhere it is cut at an EE in the
// few bytes from n on.
func kernelFinish(p []byte, n int, stop bool) int {
	i := seqStart(p, n)
	if !stop {
		// The few ASCII bytes before the sequence at fault a byte at
		// a time: validPrefixGeneric's word would cost more than it
		// saves, as each load on the way waits for the one before.
		for i < len(p) && p[i] < 0x80 {
			i++
		}
		if i == len(p) || first[p[i]] == xx {
			return i // a byte that starts no sequence, as in random bytes
		}
		return i + validPrefixGeneric(p[i:])
	}
	if n > 0 && p[n-1] == stopByte {
		return n - 1
	}
	lim := len(p) // the scan in Go need not go past an EE at n
	if p[n] == stopByte {
		lim = n
	}
	m := i + validPrefixGeneric(p[i:lim])
	if m > n {
		m = n + cutStop(p[n:], m-n)
	}
	return m
}

// copyFinish is kernelFinish for the copying kernels, which copied
// src[:n] to dst: it copies the rest of the answer too.
func copyFinish(dst, src []byte, n int, stop bool) int {
	// The kernel copied src[:n], and i <= n. The answer m can be greater
	// than n where a kernel leaves the last bytes of a short input to Go,
	// so copy all of src[i:m]: a few bytes.
	i := seqStart(src, n)
	m := kernelFinish(src, n, stop)
	copy(dst[i:m], src[i:m])
	return m
}

// earlyStop returns the offset of a byte among the first 8 of p that
// starts no sequence and comes after only ASCII, or -1 if there is none
// or p is shorter than 8 bytes. That offset is validPrefix(p), found with
// no call of a kernel, which costs more than its work where binary data
// stops it within a few bytes.
func earlyStop(p []byte) int {
	if len(p) < 8 {
		return -1
	}
	if w := binary.LittleEndian.Uint64(p) & 0x8080808080808080; w != 0 {
		if i := bits.TrailingZeros64(w) >> 3; first[p[i]] == xx {
			return i
		}
	}
	return -1
}

// earlyCopy is earlyStop for the copying dispatchers: where it finds the
// answer, it copies the bytes before it too, as the first word of src
// (dst may take bytes past the answer).
func earlyCopy(dst, src []byte) int {
	i := earlyStop(src)
	if i >= 0 {
		binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
	}
	return i
}

// seqStart returns where the kernels' caller goes on in Go after a kernel
// returned n < len(p): the start of the sequence that holds p[n-1], found
// by backing up over at most 3 continuation bytes. From there the Go code
// stops at the error within a block or so.
func seqStart(p []byte, n int) int {
	i := n
	for k := 0; k < 4 && i > 0; k++ {
		i--
		if p[i]&0xC0 != 0x80 {
			break
		}
	}
	return i
}

// implInfo names an implementation of validPrefix and copyValidPrefix and
// tells whether this machine supports it. Each platform's file lists its
// implementations in impls, "generic" first, and keeps the index of the one
// in use in impl. The dispatchers switch on impl; valid and copyValid are
// the kernels (nil for generic), there so that tests can check that the
// two kernels of an implementation return the same n, and so are
// validStop and copyValidStop, the kernels that also stop at each EE.
type implInfo struct {
	name          string
	supported     bool
	valid         func(p []byte) int
	copyValid     func(dst, src []byte) int
	validStop     func(p []byte) int
	copyValidStop func(dst, src []byte) int
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

// setImpl makes validPrefix and copyValidPrefix use the named
// implementation until restore is called. It panics if this machine does not
// support it. It is for tests and benchmarks, which must not run in parallel
// with each other while the implementation is switched.
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
