package valid

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// The portable implementation, in Go, for the platforms without a kernel
// and for -tags purego: prefixPortable and the rest return what the
// generic functions return. ASCII goes 64 bytes at a time. The rest goes
// through a shift-based DFA, whose only dependency from one byte to the
// next is a shift, over the two halves of the input at once, so that
// their chains overlap, and over runs of ASCII 16 bytes at a time where it
// finds one. The DFA tells only whether a block holds an error;
// prefixGeneric finds where, from the start of the block. The BMP variants
// run the same code with dfaBMP and prefixBMPGeneric, which take the lead
// bytes F0..F4 for errors.

// The states of dfa are the shift counts that select them from a row:
// multiples of 6 below 64. stateErr absorbs: every row holds stateErr at
// bit 0. Only the low 6 bits of a state count: the loops carry the bits of
// the row above them from one byte to the next.
const (
	stateErr = 0 // an ill-formed sequence has been seen
	stateAcc = 6 // the bytes so far are complete sequences
)

// dfa is the transition table of the DFA: in state s, byte b leads to
// state dfa[b] >> s & 63. Row b holds at bit s the state that follows s
// on b. The states between sequences are stateErr and stateAcc; within a
// sequence, a state says how many continuation bytes are still needed and
// the range the next one must fall in, as Lead gives it for the second
// byte and 80..BF for the later ones. buildDFA derives the rows from the
// first-byte table.
var dfa = buildDFA(&first)

// dfaBMP is dfa for the BMP variants, built from firstBMP: the lead bytes
// F0..F4 lead to stateErr.
var dfaBMP = buildDFA(&firstBMP)

// dfaNeed is a state within a sequence: k more continuation bytes are
// needed, the next of which must be in lo..hi.
type dfaNeed struct {
	k      int
	lo, hi byte
}

// lead is Lead with the first-byte table first.
func lead(first *[256]uint8, b byte) (size int, lo, hi byte) {
	x := first[b]
	ar := acceptRanges[x>>4]
	return int(x & 7), ar.lo, ar.hi
}

// buildDFA returns the DFA of the first-byte table first. It numbers the states within a sequence from
// 12 on, in steps of 6, as it finds them: from stateAcc, each lead byte
// goes to the state that needs the rest of its sequence; from a state
// that needs k bytes, a byte in its range goes to the state that needs
// k-1 (any in 80..BF) or, for k == 1, to stateAcc. Every other
// transition goes to stateErr, the zero bits.
func buildDFA(first *[256]uint8) (t [256]uint64) {
	var needs []dfaNeed
	state := func(n dfaNeed) uint64 {
		for i, m := range needs {
			if m == n {
				return uint64(12 + 6*i)
			}
		}
		needs = append(needs, n)
		if 12+6*len(needs) > 64 {
			panic("valid: too many DFA states")
		}
		return uint64(12 + 6*(len(needs)-1))
	}
	for b := range t {
		switch size, lo, hi := lead(first, byte(b)); size {
		case 0:
			// stateErr
		case 1:
			t[b] |= stateAcc << stateAcc
		default:
			t[b] |= state(dfaNeed{size - 1, lo, hi}) << stateAcc
		}
	}
	for i := 0; i < len(needs); i++ { // needs grows on the way
		n, from := needs[i], uint64(12+6*i)
		next := uint64(stateAcc)
		if n.k > 1 {
			next = state(dfaNeed{n.k - 1, 0x80, 0xBF})
		}
		for b := int(n.lo); b <= int(n.hi); b++ {
			t[b] |= next << from
		}
	}
	return t
}

// portableShort is the shortest input that prefixPortable does not leave
// to prefixGeneric, which costs less on short input.
const portableShort = 32

// portableMin is how far prefixPortable runs the DFA in one stream before
// it splits the rest in two halves, and the shortest rest that it splits.
const portableMin = 256

// portableChunk is how much copyPrefixPortable validates before it copies,
// so that the copy reads the bytes from L1 rather than from memory again.
const portableChunk = 16 << 10

// prefixPortable returns prefixGeneric(p).
func prefixPortable(p []byte) int { return portable(p, plain) }

// prefixBMPPortable returns prefixBMPGeneric(p).
func prefixBMPPortable(p []byte) int { return portable(p, bmp) }

// portableTables returns the first-byte table and the DFA of variant v,
// plain or bmp.
func portableTables(v variant) (*[256]uint8, *[256]uint64) {
	if v == bmp {
		return &firstBMP, &dfaBMP
	}
	return &first, &dfa
}

// portable returns prefixGeneric(p) for v == plain and prefixBMPGeneric(p)
// for v == bmp.
func portable(p []byte, v variant) int {
	first, t := portableTables(v)
	if len(p) < portableShort {
		return prefixFirst(p, first)
	}
	i := asciiPrefix(p)
	if i == len(p) {
		return i
	}
	// The first sequence as prefixGeneric checks it: where errors are
	// dense, as in binary data, one is often right here.
	n := seqLen(p[i:], first)
	if n == 0 {
		return i
	}
	i += n
	// The next portableMin bytes in one stream: an error there costs
	// half what it would in two, which take the same number of bytes
	// each.
	i, s, ok := blocks(p[:min(len(p), i+portableMin)], i, stateAcc, t)
	if !ok {
		i = seqStart(p, i)
		return i + prefixFirst(p[i:], first)
	}
	if i == len(p) && s&63 == stateAcc {
		return i
	}
	i = seqStart(p, i)
	if len(p)-i < portableMin {
		return i + prefixOne(p[i:], v)
	}
	return i + prefixTwo(p[i:], v)
}

// seqLen returns the length of the sequence at the start of p, or 0 if it
// is ill-formed or unfinished, by the first-byte table first.
func seqLen(p []byte, first *[256]uint8) int {
	x := first[p[0]]
	size := int(x & 7)
	if x == xx || size > len(p) {
		return 0
	}
	if size == 1 {
		return 1
	}
	ar := acceptRanges[x>>4]
	if c := p[1]; c < ar.lo || ar.hi < c {
		return 0
	}
	if size > 2 && p[2]&0xC0 != 0x80 || size > 3 && p[3]&0xC0 != 0x80 {
		return 0
	}
	return size
}

// copyPrefixPortable is copyPrefixGeneric with prefixPortable, a chunk at a
// time: it validates portableChunk bytes, copies the prefix it accepts and
// goes on from there, until it stops short of a chunk's last 3 bytes.
func copyPrefixPortable(dst, src []byte) int {
	if len(dst) < len(src) {
		panic("valid: CopyPrefix: dst shorter than src")
	}
	return copyPortable(dst, src, plain)
}

// copyPrefixBMPPortable is copyPrefixPortable with prefixBMPPortable.
func copyPrefixBMPPortable(dst, src []byte) int {
	if len(dst) < len(src) {
		panic("valid: CopyPrefixBMP: dst shorter than src")
	}
	return copyPortable(dst, src, bmp)
}

// copyPortable is copyPrefixPortable for variant v, plain or bmp.
func copyPortable(dst, src []byte, v variant) int {
	i := 0
	for {
		end := min(len(src), i+portableChunk)
		n := portable(src[i:end], v)
		copy(dst[i:i+n], src[i:i+n])
		i += n
		// Within a chunk's last 3 bytes, the stop may be a sequence
		// that the chunk cut: the next chunk starts with it.
		if end == len(src) || i < end-3 {
			return i
		}
	}
}

// prefixBeforeEEPortable is prefixBeforeEEGeneric with prefixPortable. It
// validates only the bytes before the first EE: as EE is a lead byte, the
// prefix of those bytes is the answer.
func prefixBeforeEEPortable(p []byte) int {
	if i := bytes.IndexByte(p, ee); i >= 0 {
		p = p[:i]
	}
	return prefixPortable(p)
}

// copyPrefixBeforeEEPortable is copyPrefixPortable with the stop of
// prefixBeforeEEPortable.
func copyPrefixBeforeEEPortable(dst, src []byte) int {
	if len(dst) < len(src) {
		panic("valid: CopyPrefixBeforeEE: dst shorter than src")
	}
	if i := bytes.IndexByte(src, ee); i >= 0 {
		src = src[:i]
	}
	return copyPrefixPortable(dst, src)
}

const hiBits = 0x8080808080808080

// le reads words, with no call of its own on the way: a helper function
// would leave a no-op for its inlining mark in the loops.
var le = binary.LittleEndian

// asciiPrefix returns the number of ASCII bytes at the start of p.
func asciiPrefix(p []byte) int {
	if len(p) >= 8 {
		// Text that does not start with ASCII, and binary data, stop
		// in the first word.
		if w := le.Uint64(p) & hiBits; w != 0 {
			return bits.TrailingZeros64(w) >> 3
		}
	}
	// q advances while more than 128 bytes are left, not 128 or more,
	// so that it never points past the end of p (see utf8.Valid).
	q := p[:len(p):len(p)]
	for len(q) > 128 {
		if (le.Uint64(q)|le.Uint64(q[8:])|le.Uint64(q[16:])|le.Uint64(q[24:])|
			le.Uint64(q[32:])|le.Uint64(q[40:])|le.Uint64(q[48:])|le.Uint64(q[56:])|
			le.Uint64(q[64:])|le.Uint64(q[72:])|le.Uint64(q[80:])|le.Uint64(q[88:])|
			le.Uint64(q[96:])|le.Uint64(q[104:])|le.Uint64(q[112:])|le.Uint64(q[120:]))&hiBits != 0 {
			break
		}
		q = q[128:]
	}
	i := len(p) - len(q)
	for ; i <= len(p)-8; i += 8 {
		if w := le.Uint64(p[i:i+8]) & hiBits; w != 0 {
			return i + bits.TrailingZeros64(w)>>3
		}
	}
	for i < len(p) && p[i] < 0x80 {
		i++
	}
	return i
}

// prefixOne returns portable(p, v), with the DFA over all of p.
func prefixOne(p []byte, v variant) int {
	first, t := portableTables(v)
	i, s, ok := blocks(p, 0, stateAcc, t)
	if ok && tail(p[i:], s, t)&63 == stateAcc {
		return len(p)
	}
	j := seqStart(p, i)
	return j + prefixFirst(p[j:], first)
}

// prefixTwo returns portable(p, v), with the DFA over the two halves of p
// at once. They meet before a byte that is not a continuation byte, in
// valid input the start of a sequence, so that p is valid if and only if
// both halves are.
func prefixTwo(p []byte, v variant) int {
	mid := len(p) / 2
	for k := 0; k < 3 && p[mid]&0xC0 == 0x80; k++ {
		mid--
	}
	a, b := p[:mid:mid], p[mid:]
	// The loop steps each DFA over 64 bytes at a time, the two in turn,
	// and looks at the states only after them. A block that puts either
	// in stateErr ends the loop; neither state need be kept for that
	// case, as where the DFA is not in stateErr, the bytes before the
	// sequence under way are complete sequences, so that it is in
	// stateAcc at the start of that sequence.
	_, t := portableTables(v)
	ia, ib := 0, 0
	sa, sb := uint64(stateAcc), uint64(stateAcc)
	for ia <= len(a)-64 && ib <= len(b)-64 {
		qa, qb := a[ia:ia+64], b[ib:ib+64]
		sa = t[qa[0]] >> (sa & 63)
		sb = t[qb[0]] >> (sb & 63)
		sa = t[qa[1]] >> (sa & 63)
		sb = t[qb[1]] >> (sb & 63)
		sa = t[qa[2]] >> (sa & 63)
		sb = t[qb[2]] >> (sb & 63)
		sa = t[qa[3]] >> (sa & 63)
		sb = t[qb[3]] >> (sb & 63)
		sa = t[qa[4]] >> (sa & 63)
		sb = t[qb[4]] >> (sb & 63)
		sa = t[qa[5]] >> (sa & 63)
		sb = t[qb[5]] >> (sb & 63)
		sa = t[qa[6]] >> (sa & 63)
		sb = t[qb[6]] >> (sb & 63)
		sa = t[qa[7]] >> (sa & 63)
		sb = t[qb[7]] >> (sb & 63)
		sa = t[qa[8]] >> (sa & 63)
		sb = t[qb[8]] >> (sb & 63)
		sa = t[qa[9]] >> (sa & 63)
		sb = t[qb[9]] >> (sb & 63)
		sa = t[qa[10]] >> (sa & 63)
		sb = t[qb[10]] >> (sb & 63)
		sa = t[qa[11]] >> (sa & 63)
		sb = t[qb[11]] >> (sb & 63)
		sa = t[qa[12]] >> (sa & 63)
		sb = t[qb[12]] >> (sb & 63)
		sa = t[qa[13]] >> (sa & 63)
		sb = t[qb[13]] >> (sb & 63)
		sa = t[qa[14]] >> (sa & 63)
		sb = t[qb[14]] >> (sb & 63)
		sa = t[qa[15]] >> (sa & 63)
		sb = t[qb[15]] >> (sb & 63)
		sa = t[qa[16]] >> (sa & 63)
		sb = t[qb[16]] >> (sb & 63)
		sa = t[qa[17]] >> (sa & 63)
		sb = t[qb[17]] >> (sb & 63)
		sa = t[qa[18]] >> (sa & 63)
		sb = t[qb[18]] >> (sb & 63)
		sa = t[qa[19]] >> (sa & 63)
		sb = t[qb[19]] >> (sb & 63)
		sa = t[qa[20]] >> (sa & 63)
		sb = t[qb[20]] >> (sb & 63)
		sa = t[qa[21]] >> (sa & 63)
		sb = t[qb[21]] >> (sb & 63)
		sa = t[qa[22]] >> (sa & 63)
		sb = t[qb[22]] >> (sb & 63)
		sa = t[qa[23]] >> (sa & 63)
		sb = t[qb[23]] >> (sb & 63)
		sa = t[qa[24]] >> (sa & 63)
		sb = t[qb[24]] >> (sb & 63)
		sa = t[qa[25]] >> (sa & 63)
		sb = t[qb[25]] >> (sb & 63)
		sa = t[qa[26]] >> (sa & 63)
		sb = t[qb[26]] >> (sb & 63)
		sa = t[qa[27]] >> (sa & 63)
		sb = t[qb[27]] >> (sb & 63)
		sa = t[qa[28]] >> (sa & 63)
		sb = t[qb[28]] >> (sb & 63)
		sa = t[qa[29]] >> (sa & 63)
		sb = t[qb[29]] >> (sb & 63)
		sa = t[qa[30]] >> (sa & 63)
		sb = t[qb[30]] >> (sb & 63)
		sa = t[qa[31]] >> (sa & 63)
		sb = t[qb[31]] >> (sb & 63)
		sa = t[qa[32]] >> (sa & 63)
		sb = t[qb[32]] >> (sb & 63)
		sa = t[qa[33]] >> (sa & 63)
		sb = t[qb[33]] >> (sb & 63)
		sa = t[qa[34]] >> (sa & 63)
		sb = t[qb[34]] >> (sb & 63)
		sa = t[qa[35]] >> (sa & 63)
		sb = t[qb[35]] >> (sb & 63)
		sa = t[qa[36]] >> (sa & 63)
		sb = t[qb[36]] >> (sb & 63)
		sa = t[qa[37]] >> (sa & 63)
		sb = t[qb[37]] >> (sb & 63)
		sa = t[qa[38]] >> (sa & 63)
		sb = t[qb[38]] >> (sb & 63)
		sa = t[qa[39]] >> (sa & 63)
		sb = t[qb[39]] >> (sb & 63)
		sa = t[qa[40]] >> (sa & 63)
		sb = t[qb[40]] >> (sb & 63)
		sa = t[qa[41]] >> (sa & 63)
		sb = t[qb[41]] >> (sb & 63)
		sa = t[qa[42]] >> (sa & 63)
		sb = t[qb[42]] >> (sb & 63)
		sa = t[qa[43]] >> (sa & 63)
		sb = t[qb[43]] >> (sb & 63)
		sa = t[qa[44]] >> (sa & 63)
		sb = t[qb[44]] >> (sb & 63)
		sa = t[qa[45]] >> (sa & 63)
		sb = t[qb[45]] >> (sb & 63)
		sa = t[qa[46]] >> (sa & 63)
		sb = t[qb[46]] >> (sb & 63)
		sa = t[qa[47]] >> (sa & 63)
		sb = t[qb[47]] >> (sb & 63)
		sa = t[qa[48]] >> (sa & 63)
		sb = t[qb[48]] >> (sb & 63)
		sa = t[qa[49]] >> (sa & 63)
		sb = t[qb[49]] >> (sb & 63)
		sa = t[qa[50]] >> (sa & 63)
		sb = t[qb[50]] >> (sb & 63)
		sa = t[qa[51]] >> (sa & 63)
		sb = t[qb[51]] >> (sb & 63)
		sa = t[qa[52]] >> (sa & 63)
		sb = t[qb[52]] >> (sb & 63)
		sa = t[qa[53]] >> (sa & 63)
		sb = t[qb[53]] >> (sb & 63)
		sa = t[qa[54]] >> (sa & 63)
		sb = t[qb[54]] >> (sb & 63)
		sa = t[qa[55]] >> (sa & 63)
		sb = t[qb[55]] >> (sb & 63)
		sa = t[qa[56]] >> (sa & 63)
		sb = t[qb[56]] >> (sb & 63)
		sa = t[qa[57]] >> (sa & 63)
		sb = t[qb[57]] >> (sb & 63)
		sa = t[qa[58]] >> (sa & 63)
		sb = t[qb[58]] >> (sb & 63)
		sa = t[qa[59]] >> (sa & 63)
		sb = t[qb[59]] >> (sb & 63)
		sa = t[qa[60]] >> (sa & 63)
		sb = t[qb[60]] >> (sb & 63)
		sa = t[qa[61]] >> (sa & 63)
		sb = t[qb[61]] >> (sb & 63)
		sa = t[qa[62]] >> (sa & 63)
		sb = t[qb[62]] >> (sb & 63)
		sa = t[qa[63]] >> (sa & 63)
		sb = t[qb[63]] >> (sb & 63)
		if sa&63 == stateErr || sb&63 == stateErr {
			break
		}
		ia, ib = ia+64, ib+64
		// A state of stateAcc with no bits above it comes only after
		// an ASCII byte, the row of which holds no other state: where
		// one ends a block, ASCII may well follow, 16 bytes at a time.
		if sa == stateAcc {
			for ia <= len(a)-16 && (le.Uint64(a[ia:ia+8])|le.Uint64(a[ia+8:ia+16]))&hiBits == 0 {
				ia += 16
			}
		}
		if sb == stateAcc {
			for ib <= len(b)-16 && (le.Uint64(b[ib:ib+8])|le.Uint64(b[ib+8:ib+16]))&hiBits == 0 {
				ib += 16
			}
		}
	}
	// Each half on its own from the start of the sequence under way
	// where the loop left it: the rest of the longer one, or each from
	// its block with an error.
	first, t := portableTables(v)
	ia, sa, ok := blocks(a, seqStart(a, ia), stateAcc, t)
	if !ok || tail(a[ia:], sa, t)&63 != stateAcc {
		ia = seqStart(a, ia)
		return ia + prefixFirst(p[ia:], first)
	}
	ib, sb, ok = blocks(b, seqStart(b, ib), stateAcc, t)
	if ok && tail(b[ib:], sb, t)&63 == stateAcc {
		return len(p)
	}
	ib = mid + seqStart(b, ib)
	return ib + prefixFirst(p[ib:], first)
}

// blocks runs the DFA t from state s over p[i:], 16 bytes at a time, and
// returns the offset and state where it stopped: with ok before the last
// 15 bytes or fewer, or with !ok before a block of 16 that puts it in
// stateErr. s is never stateErr.
func blocks(p []byte, i int, s uint64, t *[256]uint64) (_ int, _ uint64, ok bool) {
	for ; i <= len(p)-16; i += 16 {
		q := p[i : i+16]
		if s&63 == stateAcc && (le.Uint64(q)|le.Uint64(q[8:]))&hiBits == 0 {
			continue
		}
		u := s
		u = t[q[0]] >> (u & 63)
		u = t[q[1]] >> (u & 63)
		u = t[q[2]] >> (u & 63)
		u = t[q[3]] >> (u & 63)
		u = t[q[4]] >> (u & 63)
		u = t[q[5]] >> (u & 63)
		u = t[q[6]] >> (u & 63)
		u = t[q[7]] >> (u & 63)
		u = t[q[8]] >> (u & 63)
		u = t[q[9]] >> (u & 63)
		u = t[q[10]] >> (u & 63)
		u = t[q[11]] >> (u & 63)
		u = t[q[12]] >> (u & 63)
		u = t[q[13]] >> (u & 63)
		u = t[q[14]] >> (u & 63)
		u = t[q[15]] >> (u & 63)
		if u&63 == stateErr {
			return i, s, false
		}
		s = u
	}
	return i, s, true
}

// tail returns the state the DFA t reaches from state s over p.
func tail(p []byte, s uint64, t *[256]uint64) uint64 {
	for _, c := range p {
		s = t[c] >> (s & 63)
	}
	return s
}
