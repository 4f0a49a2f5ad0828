package utf8stream

import (
	"encoding/binary"
	"math/bits"
	"sync"
)

// The dense loop classifies every byte, in order, as one of three kinds and
// writes the output its table gives for the byte and the kind. It rests on
// a property of maximal subparts: every byte that is not a continuation
// byte starts a unit, and a continuation byte belongs to the unit of the
// lead byte before it if that lead's match reaches it, and is a subpart of
// its own otherwise. So no step waits on a decision about where the
// previous unit ended, only on a count of the bytes it still holds.
const (
	cValid = 0 // a byte of a well-formed sequence: copied
	cStart = 1 // the first byte of an ill-formed subpart
	cRest  = 2 // a later byte of an ill-formed subpart
)

// A denseTable drives denseFast for one policy and set of options.
type denseTable struct {
	// out and n give the output of byte b of kind k as out[k<<8|b], a
	// little-endian word stored whole, of which n[k<<8|b] bytes count.
	out [4 << 8]uint64 // the fourth kind is never used: it saves a bounds check
	n   [4 << 8]uint8
	// stops are the bytes an option must see (NUL under NoNUL, for
	// one): denseFast leaves them to the general path.
	stops []byte
	// perByte is set when the policy writes an output for each byte of
	// an ill-formed subpart (the escapes, Windows1252, Drop) rather than
	// one for the subpart (Replace).
	perByte bool
	// maxOut is the longest output of any one byte, at least 1.
	maxOut int
}

// tableKey names a table built from the default replacement.
type tableKey struct {
	policy                     Policy
	noNUL, cesu8, mutf8, optu8 bool
}

var (
	tablesMu sync.Mutex
	tables   = map[tableKey]*denseTable{}
)

// denseTableFor returns the table for c, shared by every core with the same
// policy and options, or nil when denseFast cannot serve c: under Reject,
// which stops at the first error, and with a replacement longer than 8
// bytes, whose units then go through the general path one at a time.
func denseTableFor(c *core) *denseTable {
	if c.policy == Reject || len(c.o.replacement) > 8 {
		return nil
	}
	if c.o.replacement != "\uFFFD" {
		return buildTable(c) // not cached: a custom replacement can be anything
	}
	k := tableKey{c.policy, c.o.noNUL, c.o.cesu8, c.o.mutf8, c.policy == OPTU8}
	tablesMu.Lock()
	defer tablesMu.Unlock()
	if t := tables[k]; t != nil {
		return t
	}
	t := buildTable(c)
	tables[k] = t
	return t
}

func buildTable(c *core) *denseTable {
	t := &denseTable{perByte: c.policy != Replace, maxOut: 1}
	var buf [16]byte
	for b := range 256 {
		t.out[cValid<<8|b] = uint64(b)
		t.n[cValid<<8|b] = 1
		for _, k := range []int{cStart, cRest} {
			var n int
			if k == cStart || t.perByte {
				n, _ = c.emit(buf[:], []byte{byte(b)}, kInvalid)
			}
			t.out[k<<8|b] = binary.LittleEndian.Uint64(buf[:8])
			t.n[k<<8|b] = uint8(n)
			t.maxOut = max(t.maxOut, n)
		}
	}
	if c.o.noNUL {
		t.stops = append(t.stops, 0x00)
	}
	if c.o.mutf8 {
		t.stops = append(t.stops, 0xC0)
	}
	if c.o.cesu8 {
		t.stops = append(t.stops, 0xED)
	}
	if c.policy == OPTU8 {
		t.stops = append(t.stops, 0xEE)
	}
	return t
}

// Byte-parallel arithmetic on 8 bytes held in a uint64, least significant
// byte first: a predicate holds for a byte when the byte's top bit is set
// in the result, the others being clear. For x with its top bit set and c
// in 81..FF, (x&7F) + (100-c) reaches 80 exactly when x >= c, and cannot
// carry into the next byte.
const (
	lsb  = 0x0101010101010101
	msb  = 0x8080808080808080
	low7 = 0x7F7F7F7F7F7F7F7F
)

// classify looks at the units that would start at each of 8 bytes: x holds
// them, and x1, x2 and x3 the 8 bytes 1, 2 and 3 places on. It returns the
// bytes where a unit of at least 2, 3 and 4 bytes starts (whether the
// unit is a well-formed sequence or an ill-formed subpart), and the bytes
// that start a well-formed sequence.
func classify(x, x1, x2, x3 uint64) (m2, m3, m4, v uint64) {
	xl, xh := x&low7, x&msb
	gC2 := (xl + 0x3E*lsb) & xh
	gE0 := (xl + 0x20*lsb) & xh
	gF0 := (xl + 0x10*lsb) & xh
	gF5 := (xl + 0x0B*lsb) & xh
	isE0 := gE0 &^ ((xl + 0x1F*lsb) & xh)
	isED := ((xl + 0x13*lsb) & xh) &^ ((xl + 0x12*lsb) & xh)
	isF0 := gF0 &^ ((xl + 0x0F*lsb) & xh)
	isF4 := ((xl + 0x0C*lsb) & xh) &^ gF5
	// The second byte: a continuation byte, in the narrower range that
	// E0, ED, F0 and F4 allow (Table 3-7).
	l1 := x1 & low7
	gA0, g90 := l1+0x60*lsb, l1+0x70*lsb
	ok1 := x1 & msb &^ (l1 + 0x40*lsb) &^ (isE0&^gA0 | isED&gA0 | isF0&^g90 | isF4&g90)
	cont2 := x2 & msb &^ (x2&low7 + 0x40*lsb)
	cont3 := x3 & msb &^ (x3&low7 + 0x40*lsb)
	m2 = gC2 &^ gF5 & ok1
	m3 = gE0 &^ gF5 & ok1 & cont2
	m4 = gF0 &^ gF5 & ok1 & cont2 & cont3
	v = msb&^xh | gC2&^gE0&ok1 | gE0&^gF0&m3 | m4
	return m2, m3, m4, v
}

// denseFast is the loop for stretches where ill-formed units come thick,
// as in random bytes, where the kernel's start-up costs more than the few
// valid bytes it finds. It works 8 bytes at a time without a branch on the
// data: classify finds the units that would start at each byte, and since
// every byte that is not a continuation byte starts a unit, and a
// continuation byte belongs to a unit that starts up to 3 bytes before it
// or starts one of its own, the kind of each byte follows from the units
// of the bytes before it. Each byte's output is then stored whole from a
// table.
//
// It returns, having consumed only whole units, when a valid run reaches
// denseWindow bytes (the kernel is faster from there: dense is cleared),
// and at anything it leaves to the general path: a byte an option must
// see, the last bytes of src (a sequence there may be unfinished), a full
// dst. pos is src's position in the chunk. If marks is not nil, each
// ill-formed subpart's output is recorded there (for the Writer), up to
// maxMarks. With an
// OnInvalid function, each subpart is recorded as it is found.
func (t *Transformer) denseFast(dst, src []byte, pos int, marks *[]mark) (nDst, nSrc int) {
	tab := t.c.tab
	cb := t.c.o.onInvalid != nil
	// A block at p reads src[p:p+11]. A block is taken whole only if the
	// next one, which finishes the block's last unit, can be read too,
	// and if dst has room for both.
	const blockIn = 8 + 3
	if len(src) < blockIn {
		return 0, 0
	}
	lim := len(src) - blockIn
	need := blockOut + 8*tab.maxOut
	var ms []mark
	maxK := len(src) + blockIn // marks kept: no limit without marks
	k := 0
	if marks != nil {
		ms = (*marks)[:cap(*marks)]
		if len(ms) < maxMarks+1 {
			ms = make([]mark, maxMarks+1)
			copy(ms, *marks)
		}
		k, maxK = len(*marks), maxMarks
	}
	var (
		p, j, run        int
		c2, c3, c4, cv   uint64 // classify's results for the block before
		subparts, nbytes int
		firstAt          = -1
	)
	for {
		x := binary.LittleEndian.Uint64(src[p:])
		m2, m3, m4, v := classify(x,
			binary.LittleEndian.Uint64(src[p+1:]),
			binary.LittleEndian.Uint64(src[p+2:]),
			binary.LittleEndian.Uint64(src[p+3:]))
		// Bytes that a unit starting 1, 2 or 3 bytes before holds.
		o1, o2, o3 := m2<<8|c2>>56, m3<<16|c3>>48, m4<<24|c4>>40
		own := o1 | o2 | o3
		ownValid := o1&(v<<8|cv>>56) | o2&(v<<16|cv>>48) | o3&(v<<24|cv>>40)
		start := msb &^ (own | v)
		rest := own &^ ownValid
		kinds := start>>7 | rest>>6 // cValid, cStart or cRest in each byte

		// Take the whole block, or, to stop, only the bytes that finish
		// the last unit (the leading held bytes), or those before a
		// byte an option must see.
		cnt, done := 8, false
		if p+8 > lim || len(dst)-j < need || k+blockIn > maxK || run >= denseWindow {
			cnt, done = bits.TrailingZeros64(^own&msb)>>3, true
		} else if len(tab.stops) > 0 {
			if s := stopBytes(x, tab.stops); s != 0 {
				cnt, done = bits.TrailingZeros64(s)>>3, true
			}
		}
		keep := ^uint64(0) >> (64 - 8*cnt)
		start &= keep
		if start != 0 {
			if firstAt < 0 {
				firstAt = p + bits.TrailingZeros64(start)>>3
			}
			if cb {
				for s := start; s != 0; s &= s - 1 {
					q := bits.TrailingZeros64(s) >> 3
					n := 1 + int(m2>>(8*q+7)&1+m3>>(8*q+7)&1+m4>>(8*q+7)&1)
					t.record(t.off+int64(pos+p+q), src[p+q:p+q+n])
				}
			}
		}
		subparts += bits.OnesCount64(start)
		nbytes += bits.OnesCount64((start | rest) & keep)

		switch {
		case cnt == 0:
			// Nothing to finish.
		case kinds == 0 && cnt == 8:
			// All valid: a copy.
			binary.LittleEndian.PutUint64(dst[j:], x)
			j += 8
		case ms == nil:
			j = tab.put(dst, j, x, kinds, cnt)
		default:
			j, k = tab.putMarks(dst, j, x, kinds, cnt, ms, k, m2|m3>>1|m4>>2)
		}
		p += cnt
		if done {
			break
		}
		if kinds == 0 {
			run += 8
		} else {
			run = bits.LeadingZeros64(kinds) >> 3
		}
		c2, c3, c4, cv = m2, m3, m4, v
	}
	if marks != nil {
		*marks = ms[:k]
	}
	if run >= denseWindow {
		t.dense = false
	}
	if subparts > 0 && !cb {
		if t.stats.First < 0 {
			t.stats.First = t.off + int64(pos+firstAt)
		}
		t.stats.Subparts += int64(subparts)
		t.stats.Bytes += int64(nbytes)
	}
	return j, p
}

// stopBytes flags the bytes of x that are among stops. Only the lowest
// flag is exact: a borrow can flag a byte above a true one.
func stopBytes(x uint64, stops []byte) uint64 {
	var s uint64
	for _, c := range stops {
		z := x ^ uint64(c)*lsb
		s |= (z - lsb) &^ z & msb
	}
	return s
}

// put writes the output of the first cnt bytes of x, whose kinds are the
// bytes of kinds, to dst[j:] and returns the new j. dst[j:] must have room
// for blockOut bytes. It is kept out of denseFast, which has too many values
// live for this loop to stay in registers there.
//
//go:noinline
func (tab *denseTable) put(dst []byte, j int, x, kinds uint64, cnt int) int {
	// Within the block the output offset o stays below 8*8, so o&63 is o
	// and the compiler can see that every store fits in d.
	d := (*[blockOut]byte)(dst[j:])
	o := 0
	if cnt == 8 {
		// Unrolled: the offsets of all 8 stores are o&63 < 64.
		i0 := int(kinds&3)<<8 | int(x&0xFF)
		i1 := int(kinds>>8&3)<<8 | int(x>>8&0xFF)
		i2 := int(kinds>>16&3)<<8 | int(x>>16&0xFF)
		i3 := int(kinds>>24&3)<<8 | int(x>>24&0xFF)
		i4 := int(kinds>>32&3)<<8 | int(x>>32&0xFF)
		i5 := int(kinds>>40&3)<<8 | int(x>>40&0xFF)
		i6 := int(kinds>>48&3)<<8 | int(x>>48&0xFF)
		i7 := int(kinds>>56&3)<<8 | int(x>>56)
		binary.LittleEndian.PutUint64(d[0:], tab.out[i0])
		o += int(tab.n[i0])
		binary.LittleEndian.PutUint64(d[o&63:], tab.out[i1])
		o += int(tab.n[i1])
		binary.LittleEndian.PutUint64(d[o&63:], tab.out[i2])
		o += int(tab.n[i2])
		binary.LittleEndian.PutUint64(d[o&63:], tab.out[i3])
		o += int(tab.n[i3])
		binary.LittleEndian.PutUint64(d[o&63:], tab.out[i4])
		o += int(tab.n[i4])
		binary.LittleEndian.PutUint64(d[o&63:], tab.out[i5])
		o += int(tab.n[i5])
		binary.LittleEndian.PutUint64(d[o&63:], tab.out[i6])
		o += int(tab.n[i6])
		binary.LittleEndian.PutUint64(d[o&63:], tab.out[i7])
		o += int(tab.n[i7])
		return j + o
	}
	for range cnt {
		i := int(kinds&3)<<8 | int(x&0xFF)
		binary.LittleEndian.PutUint64(d[o&63:], tab.out[i])
		o += int(tab.n[i])
		x >>= 8
		kinds >>= 8
	}
	return j + o
}

// blockOut bounds the output of a block: 8 bytes of at most 8 bytes each,
// the last stored as a whole word.
const blockOut = 8*8 + 8

// putMarks is put for the Writer, which keeps a mark for each ill-formed
// subpart in ms[:k] and returns the new k too. The top 3 bits of each byte
// of m234 tell whether the unit that starts there holds at least 2, 3 and 4
// bytes.
func (tab *denseTable) putMarks(dst []byte, j int, x, kinds uint64, cnt int, ms []mark, k int, m234 uint64) (int, int) {
	perByte := 0
	if tab.perByte {
		perByte = 1
	}
	for range cnt {
		kd := int(kinds & 3)
		i := kd<<8 | int(x&0xFF)
		binary.LittleEndian.PutUint64(dst[j:], tab.out[i])
		n := int(tab.n[i])
		switch kd {
		case cStart:
			// Under Replace the mark covers the whole subpart; under a
			// per-byte policy, the first byte and then the rest as they
			// come.
			nin := 1
			if perByte == 0 {
				nin += bits.OnesCount8(uint8(m234>>5) & 7)
			}
			ms[k] = mark{out: j, nout: n, nin: nin}
			k++
		case cRest:
			ms[k-1].nout += n
			ms[k-1].nin += perByte
		}
		j += n
		x >>= 8
		kinds >>= 8
		m234 >>= 8
	}
	return j, k
}
