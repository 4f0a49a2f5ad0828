package utf8stream

import (
	"bytes"
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
	// The same output for repairAVX512's vector path, which serves the
	// tables whose every output fits in 3 bytes: vout[k][b-0x80] is byte
	// k of the output of ill-formed byte b (only bytes 80..FF can be
	// ill-formed), and bit k of vlen[b-0x80] is set when it has more than
	// k bytes. vec is how the path takes them: 0 not at all, 1 for the
	// first byte of each subpart (Replace), 2 for every byte (perByte).
	vout [3][128]byte
	vlen [128]byte
	vec  uint8
	// esc is set under OPTU8 with no other byte to stop at: repairAVX512
	// then writes the escapes of valid EE BE xx and EE BF xx itself, byte
	// by byte as the table writes ill-formed bytes, and need not stop there.
	esc bool
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
	if repairVec && t.maxOut <= 3 {
		t.vec = 1
		if t.perByte {
			t.vec = 2
		}
		for i := range 128 {
			x, n := t.out[cStart<<8|0x80+i], int(t.n[cStart<<8|0x80+i])
			for k := range n {
				t.vout[k][i] = byte(x >> (8 * k))
				t.vlen[i] |= 1 << k
			}
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
		t.esc = len(t.stops) == 1
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

// A blockClass describes the units that would start at each of 64 bytes,
// one bit per byte: where a unit of at least 2, 3 and 4 bytes starts
// (whether the unit is a well-formed sequence or an ill-formed subpart), and
// where a well-formed sequence starts.
type blockClass struct {
	m2, m3, m4, v uint64
}

// held returns the bytes of the next block that the units starting in
// this one hold (bits 0 to 2), and those of them whose unit is
// well-formed. A held byte is a continuation byte and a unit starts at a
// lead byte, so no byte is held by two units.
func (c blockClass) held() (held, heldValid uint64) {
	return c.m2>>63 | c.m3>>62 | c.m4>>61, (c.m2&c.v)>>63 | (c.m3&c.v)>>62 | (c.m4&c.v)>>61
}

// classifyGeneric fills out[i] for the 64 bytes at src[64*i:], reading up
// to src[64*i+67], 8 bytes at a time with classify.
func classifyGeneric(src []byte, out []blockClass) {
	// gather moves the top bit of each byte of a predicate to one bit.
	gather := func(h uint64) uint64 { return (h >> 7) * 0x0102040810204080 >> 56 }
	for i := range out {
		var c blockClass
		for w := 0; w < 64; w += 8 {
			p := src[64*i+w:]
			m2, m3, m4, v := classify(binary.LittleEndian.Uint64(p),
				binary.LittleEndian.Uint64(p[1:]),
				binary.LittleEndian.Uint64(p[2:]),
				binary.LittleEndian.Uint64(p[3:]))
			c.m2 |= gather(m2) << w
			c.m3 |= gather(m3) << w
			c.m4 |= gather(m4) << w
			c.v |= gather(v) << w
		}
		out[i] = c
	}
}

// denseFast is the loop for stretches where ill-formed units are frequent,
// from one every hundred bytes or so (where a round trip through the kernel
// and the general path for each would cost more) to random bytes. It
// classifies 64 bytes at a time (classifyBlocks) and needs no branch on the
// data to find the ill-formed bytes among them: every byte that is not a
// continuation byte starts a unit, and a continuation byte belongs to the
// unit that starts up to 3 bytes before it, if that unit reaches it, or is a
// subpart of its own. It then copies the valid runs between the ill-formed
// bytes a word at a time and writes each ill-formed byte's output from a
// table.
//
// It returns, having consumed only whole units, after cleanBlocks blocks
// without an ill-formed byte (the kernel is faster from there: dense is
// cleared), and at anything it leaves to the general path: a byte an
// option must see, the last bytes of src (a sequence there may be
// unfinished) or a full dst. pos is src's position in the chunk. With an
// OnInvalid function, each subpart is recorded as it is found.
func (t *Transformer) denseFast(dst, src []byte, pos int) (nDst, nSrc int) {
	return t.denseBlocks(dst, src, len(src), pos)
}

// denseTail is denseFast for the end of the input, shorter than denseFast
// takes: src, at most denseTailMax bytes, is copied into a buffer padded
// with zeros, which no sequence can take as continuation bytes, so that
// every unit ends within src. Since a sequence cut short by the end of src
// is then ill-formed, src must end at the end of the stream or where no
// unit goes on (unitsEnd). The zeros up to the next whole block are taken
// as input too, so that the repair kernel can take every block: each is a
// unit whose output is itself, and they are cut from the end again.
func (t *Transformer) denseTail(dst, src []byte, pos int) (nDst, nSrc int) {
	if len(src) == 0 || len(src)*t.c.tab.maxOut > len(dst) {
		return 0, 0
	}
	// Go zeroes the buffers, which costs as much as the rest of the work
	// on a short tail: the common one, a block long, goes to the kernel
	// with no buffer where it can, and gets small ones otherwise.
	if len(src) <= 64 {
		tab := t.c.tab
		if t.repairs() && (len(tab.stops) == 0 || tab.esc) && t.takesTail(dst, src) {
			return t.denseTailBlock(dst, src, pos)
		}
		var in [64 + 72]byte
		return t.denseTailIn(dst, in[:], src, pos)
	}
	var in [(denseTailMax+63)&^63 + 72]byte
	return t.denseTailIn(dst, in[:], src, pos)
}

// denseTailIn is denseTail with in, zeros with room for src rounded up to
// a whole block and 72 bytes more, as its padded buffer.
func (t *Transformer) denseTailIn(dst, in, src []byte, pos int) (nDst, nSrc int) {
	const blk = 64
	tab := t.c.tab
	n := copy(in, src)
	end := (n + blk - 1) &^ (blk - 1)
	in = in[:end+72]
	// repairAVX512 takes every block where it runs with no callback and
	// no byte an option must see, and then needs room only for what it
	// writes (repair); denseBlocks' Go loop asks for more.
	direct := len(dst) >= end*tab.maxOut+tab.blockRoom()
	kernel := t.repairs() && (tab.esc || t.stopAt(in, 0, end) == end)
	switch {
	case kernel && end == blk && t.takesTail(dst, in[:n]):
		// One block, which the kernel takes with none of the set-up
		// of denseBlocks, and whose room it can be told more closely.
		return t.denseTailBlock(dst, in[:n], pos)
	case direct || kernel && len(dst) >= (end-blk)*tab.maxOut+tab.repairRoom():
		// dst has the room that whole blocks ask.
		nd, ns := t.denseBlocks(dst, in, end, pos)
		return unpad(nd, ns, n)
	case kernel && end == blk:
		// Otherwise the output goes through a buffer that has the
		// room: repairRoom() at maxOut 3 past the output of all
		// blocks but the last.
		var out [blk * 4]byte
		return t.denseTailVia(out[:], dst, in, end, n, pos)
	case kernel:
		var out [(denseTailMax+blk-1)&^(blk-1)*3 + blk]byte
		return t.denseTailVia(out[:], dst, in, end, n, pos)
	}
	var out [4 * (67*8 + 16)]byte
	return t.denseTailVia(out[:], dst, in, end, n, pos)
}

// repairs reports whether the repair kernel can take t's blocks in
// denseTail, up to a byte an option must see: there is a kernel, no
// callback, and no output longer than 3 bytes.
func (t *Transformer) repairs() bool {
	return haveRepair() && t.c.tab.maxOut <= 3 && t.c.o.onInvalid == nil
}

// takesTail reports whether denseTailBlock can take src, at most a block:
// dst has the room for its output, and src is tailReadable.
func (t *Transformer) takesTail(dst, src []byte) bool {
	return len(dst) >= t.c.tab.tailRoom(len(src)) && tailReadable(src)
}

// denseTailVia is denseTail through the buffer out: denseBlocks on in, of
// which n bytes are input and the rest padding to end, then the output to
// dst.
func (t *Transformer) denseTailVia(out, dst, in []byte, end, n, pos int) (nDst, nSrc int) {
	nd, ns := t.denseBlocks(out, in, end, pos)
	nd, ns = unpad(nd, ns, n)
	return copy(dst, out[:nd]), ns
}

// denseTailBlock is denseTail for src of at most one block, which the
// repair kernel takes straight to dst, as on a block of src and zeros,
// with none of the set-up of denseBlocks (which costs as much as the
// kernel does on one block) and no copy: dst needs only
// tab.tailRoom(len(src)) bytes, and src must be tailReadable.
func (t *Transformer) denseTailBlock(dst, src []byte, pos int) (nDst, nSrc int) {
	st := repairState{first: -1, cleanMax: cleanBlocks}
	repairTail(dst, src, t.c.tab, &st)
	t.stats.Escaped += int64(st.escaped)
	t.count(pos, st.subparts, st.nbytes, st.first)
	return unpad(st.j, st.p, len(src))
}

// unpad returns how much of its n bytes of input denseTail consumed, and
// their output, from what denseBlocks did with them and the padding after
// them: the padding's zeros come last in the output, one byte each.
func unpad(nd, ns, n int) (nDst, nSrc int) {
	if ns > n {
		return nd - (ns - n), n
	}
	return nd, ns
}

// unitsEnd returns the length of the prefix of p whose units more input
// cannot change: up to the last of p's last 3 bytes that is not a
// continuation byte, where a sequence may start that the next input
// finishes; or all of p if they are all continuation bytes, as each then
// belongs to a unit that starts in the 4 bytes before and ends by len(p),
// or is a unit of its own. p must start at the start of a unit. (The
// special units of CESU-8, MUTF-8 and OPTU8 start at bytes where the
// block loop stops and leaves them to the general path.)
func unitsEnd(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-3; i-- {
		if p[i]&0xC0 != 0x80 {
			return i
		}
	}
	return len(p)
}

// denseTailMax is the longest input denseTail takes, and denseTailMin the
// shortest that its callers give it: at most 3 units, a byte or more
// each, cost less a unit at a time than one call of the kernel.
const denseTailMax, denseTailMin = 136, 4

// denseBlocks is denseFast on src[:end]. end is len(src), or for
// denseTail a multiple of 64 followed by 72 zeros that only pad the
// look-ahead: there the loop takes whole blocks up to end (p stays a
// multiple of 64), and every unit ends by end.
func (t *Transformer) denseBlocks(dst, src []byte, end, pos int) (nDst, nSrc int) {
	tab := t.c.tab
	cb := t.c.o.onInvalid != nil
	// A block at p is classified from src[p:p+67], and its valid runs are
	// copied in words, which read up to src[p+71]. It is taken whole only
	// if dst has room for it and for the end of its last unit, written
	// the same way.
	const blk, blockIn = 64, 64 + 8
	if len(src) < blockIn {
		return 0, 0
	}
	lim := len(src) - blockIn
	room := tab.blockRoom()
	// The kernel takes the blocks it can, with the Go loop around it to
	// finish the stretch.
	fast := haveRepair() && !cb
	var (
		cls              [8]blockClass
		st               repairState
		ci, nc           int
		p, j, clean      int
		held, heldValid  uint64 // what the block before's units hold of this one
		subparts, nbytes int
		firstAt          = -1
	)
	for p < end {
		if ci == nc {
			if fast {
				// Field by field: a composite literal is built in a
				// temporary and copied in 16-byte words, whose loads
				// wait on the 8-byte stores before them.
				st.held, st.heldValid = held, heldValid
				st.p, st.j, st.clean = p, j, clean
				st.subparts, st.nbytes, st.first, st.escaped = 0, 0, -1, 0
				fast = t.repair(dst, src, &st)
				p, j, clean = st.p, st.j, st.clean
				held, heldValid = st.held, st.heldValid
				subparts += st.subparts
				nbytes += st.nbytes
				t.stats.Escaped += int64(st.escaped)
				if firstAt < 0 {
					firstAt = st.first
				}
				if fast {
					continue
				}
			}
			if p+blk > lim && held == 0 {
				// The loop would take of this block only the end of a
				// unit that the block before started: there is none.
				break
			}
			nc, ci = min(len(cls), (lim-p)/blk+1), 0
			classifyBlocks(src[p:], cls[:nc])
		}
		c := cls[ci]
		ci++
		// Bytes that a unit starting 1, 2 or 3 bytes before holds, and
		// those whose unit is well-formed.
		own := c.m2<<1 | c.m3<<2 | c.m4<<3 | held
		ownValid := (c.m2&c.v)<<1 | (c.m3&c.v)<<2 | (c.m4&c.v)<<3 | heldValid
		start := ^(own | c.v)
		rest := own &^ ownValid

		// Take the whole block, or, to stop, only the bytes that finish
		// the last unit (the leading held bytes), or those before a
		// byte an option must see.
		cnt, done := blk, false
		if p+blk > lim || len(dst)-j < room || clean >= cleanBlocks {
			cnt, done = bits.TrailingZeros64(^own), true
		}
		if len(tab.stops) > 0 {
			if i := t.stopAt(src, p, p+cnt); i < p+cnt {
				cnt, done = i-p, true
			}
		}
		keep := ^uint64(0)
		if cnt < 64 {
			keep = 1<<cnt - 1
		}
		start &= keep
		bad := (start | rest) & keep
		if bad == 0 {
			if cnt == blk {
				copy(dst[j:j+blk], src[p:p+blk])
			} else if cnt > 0 {
				copyWords(dst[j:], src[p:p+cnt])
			}
			j += cnt
			clean++
		} else {
			clean = 0
			if firstAt < 0 && start != 0 {
				firstAt = p + bits.TrailingZeros64(start)
			}
			subparts += bits.OnesCount64(start)
			nbytes += bits.OnesCount64(bad)
			if !cb && bits.OnesCount64(bad) > denseBytes {
				// Many ill-formed bytes: one table step for each byte
				// costs less than one for each ill-formed byte and a
				// copy between.
				j = tab.putBlock(dst, j, src[p:p+cnt], start, rest)
				p += cnt
				if done {
					break
				}
				held, heldValid = c.held()
				continue
			}
			q0 := 0
			for b := bad; b != 0; b &= b - 1 {
				q := bits.TrailingZeros64(b)
				j += copyWords(dst[j:], src[p+q0:p+q])
				st := int(start >> q & 1)
				x := (2-st)<<8 | int(src[p+q]) // cStart or cRest
				binary.LittleEndian.PutUint64(dst[j:], tab.out[x])
				n := int(tab.n[x])
				if st != 0 && cb {
					m := 1 + int(c.m2>>q&1+c.m3>>q&1+c.m4>>q&1)
					t.record(t.off+int64(pos+p+q), src[p+q:p+q+m])
				}
				j += n
				q0 = q + 1
			}
			j += copyWords(dst[j:], src[p+q0:p+cnt])
		}
		p += cnt
		if done {
			break
		}
		held, heldValid = c.held()
	}
	if clean >= cleanBlocks {
		t.dense = false
	}
	if !cb {
		t.count(pos, subparts, nbytes, firstAt)
	}
	return j, p
}

// count adds to the Stats what the block loop or the repair kernel found
// without recording each subpart: subparts of nbytes bytes in all, the
// first at first in the chunk from pos on.
func (t *Transformer) count(pos, subparts, nbytes, first int) {
	if subparts == 0 {
		return
	}
	if t.stats.First < 0 {
		t.stats.First = t.off + int64(pos+first)
	}
	t.stats.Subparts += int64(subparts)
	t.stats.Bytes += int64(nbytes)
}

// blockRoom is the room in dst that denseFast needs to take a whole block:
// twice the most that one block and the end of its last unit can write,
// or than putBlock's buffer holds.
func (tab *denseTable) blockRoom() int {
	return 2 * max((64+3)*tab.maxOut+16, 512+8)
}

// repairRoom is the room in dst that repairBlocks needs from st.jmax on:
// a block's output, and the 64 bytes that the copy of its last valid run
// may store past it. (An ill-formed byte's 8-byte word, stored at most
// maxOut bytes before the end of the output, reaches less far.)
func (tab *denseTable) repairRoom() int { return 64*tab.maxOut + 64 }

// tailRoom is the room in dst that repairTail needs for a block of n bytes
// of input and 64-n zeros: the output of the n bytes, one byte for each
// zero, and the 64 bytes that a store of the kernel may reach past the
// output of the block (see repairRoom).
func (tab *denseTable) tailRoom(n int) int { return n*tab.maxOut + (64 - n) + 64 }

// copyWords copies src to dst 8 bytes at a time and returns len(src). It
// may read up to 7 bytes past the end of src and write as far past its
// length in dst; the caller makes sure that they lie in the slices'
// capacity and in dst's room.
func copyWords(dst, src []byte) int {
	n := len(src)
	src = src[:cap(src)]
	binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
	for i := 8; i < n; i += 8 {
		binary.LittleEndian.PutUint64(dst[i:], binary.LittleEndian.Uint64(src[i:]))
	}
	return n
}

// denseBytes is how many ill-formed bytes a block must hold for putBlock
// to write it.
const denseBytes = 12

// putBlock writes the output of the bytes of src (at most 64), whose
// subparts start at the bits of start and go on at those of rest, to
// dst[j:] and returns the new j. It is kept out of denseFast, which has too
// many values live for this loop to stay in registers there.
//
//go:noinline
func (tab *denseTable) putBlock(dst []byte, j int, src []byte, start, rest uint64) int {
	// Within the block the output offset o stays below 64*8, so o&511 is
	// o and the compiler can see that every store fits in d.
	d := (*[512 + 8]byte)(dst[j:])
	o := 0
	for _, b := range src {
		i := int(start&1|rest&1<<1)<<8 | int(b)
		binary.LittleEndian.PutUint64(d[o&511:], tab.out[i])
		o += int(tab.n[i])
		start >>= 1
		rest >>= 1
	}
	return j + o
}

// enterDense is the valid run, between two ill-formed units, below which
// the next stretch goes to denseFast; cleanBlocks is how many blocks in a
// row without an ill-formed byte send it back to the validation kernel.
// (Measured on 1% ill-formed text and on random bytes: BenchmarkTransform.)
const enterDense, cleanBlocks = 128, 8

// repairState is what repairBlocks keeps between blocks, and what denseFast
// and it hand each other.
type repairState struct {
	held, heldValid         uint64 // what the block before's units hold of the next (blockClass.held)
	p, j, jmax              int    // the positions in src and dst, and the last j a block may start at
	subparts, nbytes, first int    // the counts for Stats; first is -1 for none
	clean, cleanMax         int    // blocks in a row without an ill-formed byte, and how many stop
	// escaped counts the sequences escaped under tab.esc. The kernel
	// leaves their EE out of subparts and first, and counts their 3
	// bytes in nbytes where they lie but takes 3 off at the EE; so nbytes
	// may be negative after one call, when the bytes after an EE lie in
	// a block that the next call, or denseFast's Go loop, takes.
	escaped int
	// tail is 0, or for repairTail the n <= 64 bytes of input in src,
	// which the kernel pads with zeros to a block itself.
	tail int
}

// repairBatch is how many blocks repair takes at most in one call: more
// than the Go loop classifies at a time (len(cls) in denseBlocks), which
// may stop after any block, to spread the cost of the kernels' calls.
const repairBatch = 32

// repair runs repairBlocks on the next blocks from st.p on that it can
// take, up to repairBatch, and advances st. It reports whether it took all
// it was given, so that denseFast should call it again; false means that
// denseFast goes on in Go.
func (t *Transformer) repair(dst, src []byte, st *repairState) bool {
	const blk = 64
	tab := t.c.tab
	// A block at p is read up to src[p+128] (a valid run is copied 64
	// bytes at a time), and denseFast goes on from p+64 <= len(src)-72.
	n := 0
	if rem := len(src) - (2*blk + 8) - st.p; rem >= 0 {
		n = min(repairBatch, rem/blk+1)
	}
	if n > 0 && len(tab.stops) > 0 && !tab.esc {
		// Only the blocks before a byte an option must see: the Go
		// loop stops there.
		n = (t.stopAt(src, st.p, st.p+n*blk) - st.p) / blk
	}
	st.jmax = len(dst) - tab.repairRoom()
	st.cleanMax = cleanBlocks
	if n == 0 || st.j > st.jmax || st.clean >= cleanBlocks {
		return false
	}
	p0 := st.p
	repairBlocks(dst, src, n, tab, st)
	return st.p == p0+n*blk && st.clean < cleanBlocks
}

// stopAt returns the position of the first unit in src[lo:hi] that an
// option must see, or hi if there is none. Under OPTU8 that is only an EE
// that starts a well-formed sequence in the escape range: any other EE is
// copied, or is ill-formed, as the tables say. src must hold 2 bytes past
// hi.
func (t *Transformer) stopAt(src []byte, lo, hi int) int {
	for _, s := range t.c.tab.stops {
		for i := lo; i < hi; i++ {
			k := bytes.IndexByte(src[i:hi], s)
			if k < 0 {
				break
			}
			i += k
			if s != 0xEE || t.c.policy != OPTU8 ||
				src[i+2]&0xC0 == 0x80 && src[i+1] <= 0xBF && t.c.optu8Escaped(src[i+1], src[i+2]) {
				hi = i
				break
			}
		}
	}
	return hi
}
