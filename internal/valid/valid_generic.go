package valid

import (
	"encoding/binary"
	"math/bits"
)

// prefixGeneric returns the length of the longest prefix of p made of
// complete, well-formed UTF-8 sequences. It is the reference that every
// kernel is tested against, and the fallback on every platform.
func prefixGeneric(p []byte) int { return prefixFirst(p, &first) }

// prefixBMPGeneric returns prefixGeneric(p), or the offset of the first
// byte F0..FF in that prefix if it is smaller. It stops there as at an
// error, so that it reads no further than a few bytes past its answer.
func prefixBMPGeneric(p []byte) int { return prefixFirst(p, &firstBMP) }

// prefixFirst is prefixGeneric with the first-byte table first, which
// may take lead bytes for bytes that start no sequence (firstBMP).
func prefixFirst(p []byte, first *[256]uint8) int {
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

// prefixShort is prefixGeneric for p of a few bytes, as unicode/utf8's
// Valid checks them: a byte at a time, where the word-at-a-time ASCII
// test costs more than it saves.
func prefixShort(p []byte) int {
	for i := 0; i < len(p); {
		for p[i] < 0x80 {
			if i++; i == len(p) {
				return i
			}
		}
		x := first[p[i]]
		size := int(x & 7)
		if x == xx || i+size > len(p) {
			return i
		}
		ar := acceptRanges[x>>4]
		if c := p[i+1]; c < ar.lo || ar.hi < c ||
			size > 2 && p[i+2]&0xC0 != 0x80 || size > 3 && p[i+3]&0xC0 != 0x80 {
			return i
		}
		i += size
	}
	return len(p)
}

// copyPrefixGeneric is CopyPrefix in Go: prefixGeneric, then one copy of
// the bytes it accepts.
func copyPrefixGeneric(dst, src []byte) int {
	if len(dst) < len(src) {
		panic("valid: CopyPrefix: dst shorter than src")
	}
	n := prefixGeneric(src)
	copy(dst[:n], src)
	return n
}

// prefixBeforeEEGeneric returns prefixGeneric(p), or the offset of the
// first EE in that prefix if it is smaller.
func prefixBeforeEEGeneric(p []byte) int { return cutEE(p, prefixGeneric(p)) }

// copyPrefixBeforeEEGeneric is copyPrefixGeneric with the stop of
// prefixBeforeEEGeneric; what it copies past that stop is unspecified
// output, as CopyPrefix allows.
func copyPrefixBeforeEEGeneric(dst, src []byte) int {
	return cutEE(src, copyPrefixGeneric(dst, src))
}

// copyPrefixBMPGeneric is copyPrefixGeneric with the stop of
// prefixBMPGeneric.
func copyPrefixBMPGeneric(dst, src []byte) int {
	if len(dst) < len(src) {
		panic("valid: CopyPrefixBMP: dst shorter than src")
	}
	n := prefixBMPGeneric(src)
	copy(dst[:n], src)
	return n
}
