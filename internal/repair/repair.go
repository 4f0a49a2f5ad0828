// Package repair writes a policy's output for UTF-8 input where ill-formed
// bytes are frequent, from one every hundred bytes or so to random bytes,
// where a round trip through a validation kernel and a unit at a time for
// each would cost more. It classifies 64 bytes at a time, needs no branch
// on the data to find the ill-formed bytes among them, copies the valid
// runs between them a word at a time and writes each ill-formed byte's
// output from a Table that the caller builds from its policy.
//
// Blocks and Tail do the job: a Go loop (repair.go, with the Go reference
// of the classification in classify_generic.go), and on amd64 an AVX-512
// or an AVX2 kernel that takes batches of blocks (repair_amd64.go;
// repair_amd64.s, which the generator in _asm/repair writes with avo and
// whose package doc describes the kernels and their shared block loop); on
// arm64 a NEON classification kernel under the Go loop (repair_arm64.go,
// classify_arm64.s); repair_other.go serves the rest, and
// repair_nokernel.go stands in for the kernel off amd64.
//
// The loop rests on a property of maximal subparts: every byte that is not
// a continuation byte starts a unit, and a continuation byte belongs to
// the unit of the lead byte before it if that lead's match reaches it, and
// is a subpart of its own otherwise. So no step waits on a decision about
// where the previous unit ended, only on a count of the bytes it still
// holds.
//
// The kernels' lookup tables and constants come from internal/tablegen,
// which go generate runs to write tables_amd64.h, tables_avx2_amd64.h and
// tables_arm64.h; go generate then runs _asm/repair to write
// repair_amd64.s, which includes the first two.
package repair

//go:generate go run ../tablegen/gen.go
//go:generate go -C ../../_asm run ./repair -out ../internal/repair/repair_amd64.s

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"

	"github.com/utf8stream/utf8stream/internal/registry"
	"github.com/utf8stream/utf8stream/internal/valid"
)

// The kinds of byte, by which the Table gives each byte's output.
const (
	cValid = 0 // a byte of a well-formed sequence: copied
	cStart = 1 // the first byte of an ill-formed subpart
	cRest  = 2 // a later byte of an ill-formed subpart
)

// A Spec describes what a policy writes for ill-formed bytes, for
// NewTable.
type Spec struct {
	// Out writes to dst, which has room for 16 bytes, the output of the
	// ill-formed byte b, and returns its length; where that is longer
	// than MaxOut, it need not write it, and NewTable refuses the Spec.
	// NewTable calls it for every byte while it builds the table, and not
	// after.
	Out func(dst []byte, b byte) int
	// PerByte is set when every byte of an ill-formed subpart gets its
	// Out (the escapes, Windows1252, Drop); otherwise the first byte of
	// each subpart does and the rest write nothing (Replace).
	PerByte bool
	// Stops are the bytes that Blocks and Tail stop before and leave to
	// the caller (NUL under NoNUL, for one). ED stops only where it
	// starts a surrogate (ED A0..BF), which CESU8 and WTF8 must see; F0
	// stands for every well-formed 4-byte sequence (BMPOnly under a
	// policy whose table cannot write one output for 4 bytes).
	Stops []byte
	// Four is set when a well-formed 4-byte sequence is an ill-formed
	// unit of 4 bytes (BMPOnly): its first byte gets the output of the
	// first byte of a subpart, the rest that of later bytes.
	Four bool
	// Escaped is set when the policy escapes some well-formed sequences
	// EE b1 b2 (OPTU8), and reports whether it escapes the one with b1
	// and b2: Blocks and Tail stop before each of them too. Where Stops
	// is empty, the kernel writes their escapes itself, as the Out of
	// each of their 3 bytes: Escaped must then report exactly the
	// sequences EE BE xx and EE BF xx, and PerByte be set.
	Escaped func(b1, b2 byte) bool
}

// A Table drives Blocks and Tail for one policy and set of options. The
// kernels of repair_amd64.s read its first fields at fixed offsets
// (TestRepairLayout).
type Table struct {
	// out and n give the output of byte b of kind k as out[k<<8|b], a
	// little-endian word stored whole, of which n[k<<8|b] bytes count.
	out [4 << 8]uint64 // the fourth kind is never used: it saves a bounds check
	n   [4 << 8]uint8
	// The same output for repairAVX512's per-byte path, which serves the
	// tables whose every output fits in 3 bytes: vout[k][b-0x80] is byte
	// k of the output of ill-formed byte b (only bytes 80..FF can be
	// ill-formed), and bit k of vlen[b-0x80] is set when it has more than
	// k bytes. vec is how the path takes them: 0 not at all, 1 for the
	// first byte of each subpart (Replace), 2 for every byte (perByte).
	vout [3][128]byte
	vlen [128]byte
	vec  uint8
	// esc is set where Spec.Escaped is and Stops is empty: the kernels
	// then write the escapes of valid EE BE xx and EE BF xx themselves, byte
	// by byte as the table writes ill-formed bytes, and need not stop there.
	esc bool
	// stops are Spec.Stops, and EE where Spec.Escaped is set.
	stops   []byte
	escaped func(b1, b2 byte) bool
	// perByte is Spec.PerByte.
	perByte bool
	// maxOut is the longest output of any one byte, at least 1.
	maxOut int
	// four is Spec.Four. The kernel, which cannot take such units, takes
	// no block that holds one.
	four bool
}

// ErrLongOutput is what NewTable returns for a Spec with an output longer
// than MaxOut bytes, which the block loop cannot write.
var ErrLongOutput = errors.New("repair: an output longer than 8 bytes")

// NewTable returns the table for s, or ErrLongOutput when an output of s is
// longer than MaxOut bytes: the caller then takes such units another way.
func NewTable(s Spec) (*Table, error) {
	t := &Table{perByte: s.PerByte, maxOut: 1, four: s.Four}
	var buf [16]byte
	for b := range 256 {
		t.out[cValid<<8|b] = uint64(b)
		t.n[cValid<<8|b] = 1
		for _, k := range []int{cStart, cRest} {
			var n int
			if k == cStart || t.perByte {
				n = s.Out(buf[:], byte(b))
			}
			if n > MaxOut {
				return nil, ErrLongOutput
			}
			t.out[k<<8|b] = binary.LittleEndian.Uint64(buf[:8])
			t.n[k<<8|b] = uint8(n)
			t.maxOut = max(t.maxOut, n)
		}
	}
	if perBytePath && t.maxOut <= 3 {
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
	t.stops = append(t.stops, s.Stops...)
	if s.Escaped != nil {
		t.escaped = s.Escaped
		t.stops = append(t.stops, 0xEE)
		t.esc = len(s.Stops) == 0
	}
	return t, nil
}

// Room returns the most that n bytes of input can write: the room in dst
// that Tail needs for them.
func (tab *Table) Room(n int) int { return n * tab.maxOut }

// BlockRoom returns the room in dst that Blocks needs to take a whole
// block: twice the most that one block and the end of its last unit can
// write, or than putPerByte's buffer holds.
func (tab *Table) BlockRoom() int {
	return 2 * max((64+3)*tab.maxOut+16, 512+8)
}

// MaxOut is the longest output of one ill-formed byte that a Table takes.
const MaxOut = 8

// MaxRoom is the most room that BlockRoom and Room(TailMax) ask of any
// Table, whose outputs are at most MaxOut bytes.
const MaxRoom = 2 * ((64+3)*MaxOut + 16)

// repairRoom is the room in dst that kernelBlocks needs from st.jmax on:
// a block's output, and the 64 bytes that the copy of its last valid run
// may store past it. (An ill-formed byte's 8-byte word, stored at most
// maxOut bytes before the end of the output, reaches less far.)
func (tab *Table) repairRoom() int { return 64*tab.maxOut + 64 }

// tailRoom is the room in dst that kernelTail needs for a block of n bytes
// of input and 64-n zeros: the output of the n bytes, one byte for each
// zero, and the 64 bytes that a store of the kernel may reach past the
// output of the block (see repairRoom).
func (tab *Table) tailRoom(n int) int { return n*tab.maxOut + (64 - n) + 64 }

// Counts are what a call of Blocks or Tail found, for the caller's
// statistics.
type Counts struct {
	// Subparts and Bytes count the ill-formed subparts and their bytes,
	// and First is the offset in src of the first of them, or -1. They
	// are counted only where record is nil: with a record function, each
	// subpart goes to it instead.
	Subparts, Bytes, First int
	// Escaped counts the well-formed sequences that the kernel escaped
	// itself (see Spec.Escaped).
	Escaped int
	// Clean is set where Blocks stopped after cleanBlocks blocks in a row
	// without an ill-formed byte: the validation kernel is faster from
	// there.
	Clean bool
}

// set sets c's fields one at a time: a composite literal would be copied
// in 16-byte words, whose loads wait on the 8-byte stores before them.
func (c *Counts) set(subparts, bytes, first, escaped int, clean bool) {
	c.Subparts, c.Bytes, c.First, c.Escaped, c.Clean = subparts, bytes, first, escaped, clean
}

// Blocks writes to dst the output of src's units, from its start, and
// returns how much it wrote and consumed: only whole units, and only while
// ill-formed bytes stay frequent. It returns after cleanBlocks blocks
// without an ill-formed byte (c.Clean), and at anything it leaves to the
// caller: a byte the table stops at, the last bytes of src (a sequence
// there may be unfinished), or a dst without room for another block
// (BlockRoom). src must start at the start of a unit. With a record
// function, each ill-formed subpart, src[off:off+n], goes to record as it
// is found. Blocks sets *c to what it found.
func (tab *Table) Blocks(dst, src []byte, record func(off, n int), c *Counts) (nDst, nSrc int) {
	return blocks(dst, src, len(src), tab, record, c)
}

// BlockMin is the shortest src of which Blocks takes anything: a block and
// the 8 bytes after it, which its last unit may need. A caller with less
// can skip the call.
const BlockMin = 64 + 8

// TailMax is the longest input Tail takes, and TailMin the shortest that
// is worth it: at most 3 units, a byte or more each, cost less a unit at a
// time than one call of the kernel.
const TailMax, TailMin = 136, 4

// Tail is Blocks for the end of the input, shorter than Blocks takes: src,
// at most TailMax bytes, is copied into a buffer padded with zeros, which
// no sequence can take as continuation bytes, so that every unit ends
// within src. Since a sequence cut short by the end of src is then
// ill-formed, src must end at the end of the stream or where no unit goes
// on. The zeros up to the next whole block are taken as input too, so that
// the kernel can take every block: each is a unit whose output is itself,
// and they are cut from the end again. Tail consumes nothing where dst has
// less room than Room(len(src)). It sets *c to what it found.
func (tab *Table) Tail(dst, src []byte, record func(off, n int), c *Counts) (nDst, nSrc int) {
	if len(src) == 0 || len(src)*tab.maxOut > len(dst) {
		c.set(0, 0, -1, 0, false)
		return 0, 0
	}
	// Go zeroes the buffers, which costs as much as the rest of the work
	// on a short tail: the common one, a block long, goes to the kernel
	// with no buffer where it can, and gets small ones otherwise.
	if len(src) <= 64 {
		if kernelTakes(tab, record) && (len(tab.stops) == 0 || tab.esc) && takesTail(tab, dst, src) {
			return tailBlock(dst, src, tab, c)
		}
		var in [64 + 72]byte
		return tailIn(dst, in[:], src, tab, record, c)
	}
	var in [(TailMax+63)&^63 + 72]byte
	return tailIn(dst, in[:], src, tab, record, c)
}

// tailIn is Tail with in, zeros with room for src rounded up to a whole
// block and 72 bytes more, as its padded buffer.
func tailIn(dst, in, src []byte, tab *Table, record func(off, n int), c *Counts) (nDst, nSrc int) {
	const blk = 64
	n := copy(in, src)
	end := (n + blk - 1) &^ (blk - 1)
	in = in[:end+72]
	// The kernel takes every block where it runs with no callback and
	// no byte the table stops at, and then needs room only for what it
	// writes (repairRoom); the Go loop of blocks asks for more.
	direct := len(dst) >= end*tab.maxOut+tab.BlockRoom()
	kernel := kernelTakes(tab, record) && (tab.esc || tab.stopAt(in, 0, end) == end)
	switch {
	case kernel && end == blk && takesTail(tab, dst, in[:n]):
		// One block, which the kernel takes with none of the set-up
		// of blocks, and whose room it can be told more closely.
		return tailBlock(dst, in[:n], tab, c)
	case direct || kernel && len(dst) >= (end-blk)*tab.maxOut+tab.repairRoom():
		// dst has the room that whole blocks ask.
		nd, ns := blocks(dst, in, end, tab, record, c)
		return unpad(nd, ns, n)
	case kernel && end == blk:
		// Otherwise the output goes through a buffer that has the
		// room: repairRoom() at maxOut 3 past the output of all
		// blocks but the last.
		var out [blk * 4]byte
		return tailVia(out[:], dst, in, end, n, tab, record, c)
	case kernel:
		var out [(TailMax+blk-1)&^(blk-1)*3 + blk]byte
		return tailVia(out[:], dst, in, end, n, tab, record, c)
	}
	var out [4 * (67*8 + 16)]byte
	return tailVia(out[:], dst, in, end, n, tab, record, c)
}

// kernelTakes reports whether the kernel can take blocks of tab in Tail,
// up to a byte the table stops at: there is a kernel, no record function,
// and no output longer than 3 bytes.
func kernelTakes(tab *Table, record func(off, n int)) bool {
	return haveKernel() && tab.maxOut <= 3 && record == nil && !tab.four
}

// takesTail reports whether tailBlock can take src, at most a block: dst
// has the room for its output, and src is tailReadable.
func takesTail(tab *Table, dst, src []byte) bool {
	return len(dst) >= tab.tailRoom(len(src)) && tailReadable(src)
}

// tailVia is Tail through the buffer out: blocks on in, of which n bytes
// are input and the rest padding to end, then the output to dst.
func tailVia(out, dst, in []byte, end, n int, tab *Table, record func(off, n int), c *Counts) (nDst, nSrc int) {
	nd, ns := blocks(out, in, end, tab, record, c)
	nd, ns = unpad(nd, ns, n)
	return copy(dst, out[:nd]), ns
}

// tailBlock is Tail for src of at most one block, which the kernel takes
// straight to dst, as on a block of src and zeros, with none of the set-up
// of blocks (which costs as much as the kernel does on one block) and no
// copy: dst needs only tab.tailRoom(len(src)) bytes, and src must be
// tailReadable.
func tailBlock(dst, src []byte, tab *Table, c *Counts) (nDst, nSrc int) {
	st := state{first: -1, cleanMax: cleanBlocks}
	kernelTail(dst, src, tab, &st)
	c.set(st.subparts, st.nbytes, st.first, st.escaped, false)
	return unpad(st.j, st.p, len(src))
}

// unpad returns how much of its n bytes of input Tail consumed, and their
// output, from what blocks did with them and the padding after them: the
// padding's zeros come last in the output, one byte each.
func unpad(nd, ns, n int) (nDst, nSrc int) {
	if ns > n {
		return nd - (ns - n), n
	}
	return nd, ns
}

// blocks is Blocks on src[:end]. end is len(src), or for Tail a multiple
// of 64 followed by 72 zeros that only pad the look-ahead: there the loop
// takes whole blocks up to end (p stays a multiple of 64), and every unit
// ends by end.
func blocks(dst, src []byte, end int, tab *Table, record func(off, n int), counts *Counts) (nDst, nSrc int) {
	cb := record != nil
	// A block at p is classified from src[p:p+67], and its valid runs are
	// copied in words, which read up to src[p+71]. It is taken whole only
	// if dst has room for it and for the end of its last unit, written
	// the same way.
	const blk, blockIn = 64, BlockMin
	if len(src) < blockIn {
		counts.set(0, 0, -1, 0, false)
		return 0, 0
	}
	lim := len(src) - blockIn
	room := tab.BlockRoom()
	// The kernel takes the blocks it can, with the Go loop around it to
	// finish the stretch.
	fast := haveKernel() && !cb
	var (
		cls              [8]blockClass
		st               state
		ci, nc           int
		p, j, clean      int
		held, heldValid  uint64 // what the block before's units hold of this one
		subparts, nbytes int
		escaped          int
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
				fast = kernelBatch(dst, src, tab, &st)
				p, j, clean = st.p, st.j, st.clean
				held, heldValid = st.held, st.heldValid
				subparts += st.subparts
				nbytes += st.nbytes
				escaped += st.escaped
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
			if tab.four && haveKernel() && !cb && p+blk <= lim && fourAt(src, p, p+blk) < p+blk {
				// The kernel stopped at a 4-byte sequence, which it
				// cannot take: the Go loop takes its block, and the
				// kernel goes on after it.
				nc, fast = 1, true
			}
			classifyBlocks(src[p:], cls[:nc])
			if tab.four {
				for i := range cls[:nc] {
					cls[i].v &^= cls[i].m4
				}
			}
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
		// byte the table stops at.
		cnt, done := blk, false
		if p+blk > lim || len(dst)-j < room || clean >= cleanBlocks {
			cnt, done = bits.TrailingZeros64(^own), true
		}
		if len(tab.stops) > 0 {
			if i := tab.stopAt(src, p, p+cnt); i < p+cnt {
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
			if !cb && bits.OnesCount64(bad) > perByteMin {
				// Many ill-formed bytes: one table step for each byte
				// costs less than one for each ill-formed byte and a
				// copy between.
				j = tab.putPerByte(dst, j, src[p:p+cnt], start, rest)
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
					record(p+q, 1+int(c.m2>>q&1+c.m3>>q&1+c.m4>>q&1))
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
	if cb {
		subparts, nbytes, firstAt = 0, 0, -1
	}
	counts.set(subparts, nbytes, firstAt, escaped, clean >= cleanBlocks)
	return j, p
}

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

// perByteMin is how many ill-formed bytes a block must hold for putPerByte
// to write it.
const perByteMin = 12

// putPerByte writes the output of the bytes of src (at most 64), whose
// subparts start at the bits of start and go on at those of rest, to
// dst[j:] and returns the new j. It is kept out of blocks, which has too
// many values live for this loop to stay in registers there.
//
//go:noinline
func (tab *Table) putPerByte(dst []byte, j int, src []byte, start, rest uint64) int {
	// Within the block the output offset o stays below 64*8, so o&511 is
	// o and the compiler can see that every store fits in d. The kinds
	// of each half of the block are interleaved into one word, 2 bits a
	// byte, so that a byte's kind costs one shift and one mask, and the
	// loop takes 8 bytes a step.
	d := (*[512 + 8]byte)(dst[j:])
	out, n := &tab.out, &tab.n
	o := 0
	put := func(b byte, k uint64) {
		i := int(k&3)<<8 | int(b)
		binary.LittleEndian.PutUint64(d[o&511:], out[i])
		o += int(n[i])
	}
	kinds := [2]uint64{interleave(uint32(start), uint32(rest)), interleave(uint32(start>>32), uint32(rest>>32))}
	i := 0
	for ; i+8 <= len(src); i += 8 {
		q := (*[8]byte)(src[i:])
		k := kinds[i>>5&1] >> (i & 31 * 2)
		put(q[0], k)
		put(q[1], k>>2)
		put(q[2], k>>4)
		put(q[3], k>>6)
		put(q[4], k>>8)
		put(q[5], k>>10)
		put(q[6], k>>12)
		put(q[7], k>>14)
	}
	for ; i < len(src); i++ {
		put(src[i], kinds[i>>5&1]>>(i&31*2))
	}
	return j + o
}

// interleave returns the bits of a at the even places of a word and those
// of b at the odd ones: bits 2k and 2k+1 hold bit k of a and of b.
func interleave(a, b uint32) uint64 {
	return spread(a) | spread(b)<<1
}

// spread returns the bits of x at the even places of a word.
func spread(x uint32) uint64 {
	v := uint64(x)
	v = (v | v<<16) & 0x0000FFFF0000FFFF
	v = (v | v<<8) & 0x00FF00FF00FF00FF
	v = (v | v<<4) & 0x0F0F0F0F0F0F0F0F
	v = (v | v<<2) & 0x3333333333333333
	v = (v | v<<1) & 0x5555555555555555
	return v
}

// cleanBlocks is how many blocks in a row without an ill-formed byte send
// the caller back to the validation kernel. (Measured on 1% ill-formed
// text and on random bytes: the root's BenchmarkTransform.)
const cleanBlocks = 8

// state is what kernelBlocks keeps between blocks, and what blocks and it
// hand each other.
type state struct {
	held, heldValid         uint64 // what the block before's units hold of the next (blockClass.held)
	p, j, jmax              int    // the positions in src and dst, and the last j a block may start at
	subparts, nbytes, first int    // the counts; first is -1 for none
	clean, cleanMax         int    // blocks in a row without an ill-formed byte, and how many stop
	// escaped counts the sequences escaped under tab.esc. The kernel
	// leaves their EE out of subparts and first, and counts their 3
	// bytes in nbytes where they lie but takes 3 off at the EE; so nbytes
	// may be negative after one call, when the bytes after an EE lie in
	// a block that the next call, or the Go loop of blocks, takes.
	escaped int
	// tail is 0, or for kernelTail the n <= 64 bytes of input in src,
	// which the kernel pads with zeros to a block itself.
	tail int
}

// batch is how many blocks kernelBatch takes at most in one call: more
// than the Go loop classifies at a time (len(cls) in blocks), which may
// stop after any block, to spread the cost of the kernels' calls.
const batch = 32

// kernelBatch runs kernelBlocks on the next blocks from st.p on that it
// can take, up to batch, and advances st. It reports whether it took all
// it was given, so that blocks should call it again; false means that
// blocks goes on in Go.
func kernelBatch(dst, src []byte, tab *Table, st *state) bool {
	const blk = 64
	// A block at p is read up to src[p+128] (a valid run is copied 64
	// bytes at a time), and blocks goes on from p+64 <= len(src)-72.
	n := 0
	if rem := len(src) - (2*blk + 8) - st.p; rem >= 0 {
		n = min(batch, rem/blk+1)
	}
	if n > 0 && len(tab.stops) > 0 && !tab.esc {
		// Only the blocks before a byte the table stops at: the Go
		// loop stops there.
		n = (tab.stopAt(src, st.p, st.p+n*blk) - st.p) / blk
	}
	if n > 0 && tab.four {
		// Only the blocks before a 4-byte sequence: the Go loop takes
		// that one.
		n = (fourAt(src, st.p, st.p+n*blk) - st.p) / blk
	}
	st.jmax = len(dst) - tab.repairRoom()
	st.cleanMax = cleanBlocks
	if n == 0 || st.j > st.jmax || st.clean >= cleanBlocks {
		return false
	}
	p0 := st.p
	kernelBlocks(dst, src, n, tab, st)
	return st.p == p0+n*blk && st.clean < cleanBlocks
}

// stopAt returns the position of the first unit in src[lo:hi] that the
// table stops at, or hi if there is none. src must hold 3 bytes past hi.
func (tab *Table) stopAt(src []byte, lo, hi int) int {
	for _, s := range tab.stops {
		if s == 0xF0 {
			hi = fourAt(src, lo, hi)
			continue
		}
		for i := lo; i < hi; i++ {
			k := bytes.IndexByte(src[i:hi], s)
			if k < 0 {
				break
			}
			i += k
			if tab.stopsAt(src[i:]) {
				hi = i
				break
			}
		}
	}
	return hi
}

// stopsAt reports whether the table stops at the unit that starts p, at
// one of its stops other than F0. At EE that is only a well-formed
// sequence that the policy escapes (Spec.Escaped), and at ED only a
// surrogate (ED A0..BF): the table writes the other units right (copied,
// or ill-formed). p must hold 3 bytes.
func (tab *Table) stopsAt(p []byte) bool {
	switch p[0] {
	case 0xEE:
		return tab.escaped == nil || p[2]&0xC0 == 0x80 && p[1] <= 0xBF && tab.escaped(p[1], p[2])
	case 0xED:
		return 0xA0 <= p[1] && p[1] <= 0xBF
	}
	return true
}

// fourAt returns the position of the first well-formed 4-byte sequence in
// src[lo:hi], or hi if there is none. src must hold 3 bytes past hi.
func fourAt(src []byte, lo, hi int) int {
	for i := lo; i < hi; i++ {
		if i += valid.IndexHigh(src[i:hi]); i < hi && src[i] <= 0xF4 {
			_, l, h := valid.Lead(src[i])
			if l <= src[i+1] && src[i+1] <= h && src[i+2]&0xC0 == 0x80 && src[i+3]&0xC0 == 0x80 {
				return i
			}
		}
	}
	return hi
}

// kernels is the package's entry in the registry of implementations.
var kernels = registry.Register("repair", &impl, impls...)

// ImplNames returns the names of the implementations that this machine
// supports, "generic" first and the one in use by default last. It is for
// tests and benchmarks, which loop over it.
func ImplNames() []string { return kernels.Names() }

// SetImpl makes Blocks and Tail use the named implementation until
// restore is called. It panics if this machine does not support it. It is
// for tests and benchmarks, which must not run in parallel with each other
// while the implementation is switched.
func SetImpl(name string) (restore func()) { return kernels.Select(name) }
