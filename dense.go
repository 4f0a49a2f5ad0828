package utf8stream

import (
	"encoding/binary"
	"sync"
)

// A denseTable lets denseFast handle a byte that is a unit by itself (ASCII,
// or ill-formed on its own) without a branch: the output, up to 8 bytes,
// is stored whole and the length says how much of it counts.
type denseTable struct {
	out  [256]uint64 // little-endian output of the byte as a unit by itself
	info [256]uint8  // dLen bits, and the flags below
	// perByte is set when the policy writes an output for each byte of
	// an ill-formed subpart (the escapes, Windows1252, Drop) rather than
	// one for the subpart (Replace).
	perByte bool
}

const (
	dLen  = 0x0F // the output length
	dBad  = 0x10 // ill-formed on its own: a subpart of one byte
	dLead = 0x20 // starts a multi-byte sequence: decode it
	dStop = 0x40 // an option must see it: leave it to the general path
)

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
	t := &denseTable{perByte: c.policy != Replace}
	var buf [16]byte
	for b := range 256 {
		var n int
		var flags uint8
		switch x := first[b]; {
		case x == as:
			buf[0], n = byte(b), 1
		default:
			n, _ = c.emit(buf[:], []byte{byte(b)}, kInvalid)
			if x == xx {
				flags = dBad
			} else {
				flags = dLead
			}
		}
		switch {
		case b == 0 && c.o.noNUL,
			b == 0xC0 && c.o.mutf8,
			b == 0xED && c.o.cesu8,
			b == 0xEE && c.policy == OPTU8:
			flags = dStop
		}
		t.out[b] = binary.LittleEndian.Uint64(buf[:8])
		t.info[b] = uint8(n) | flags
	}
	return t
}

// denseFast is the loop for stretches where ill-formed units come thick,
// as in random bytes, where the kernel's start-up costs more than the few
// valid bytes it finds. A byte that is a unit by itself (ASCII, or
// ill-formed alone) takes one table step without a branch on the data; a
// lead byte is decoded, and an ill-formed subpart gets the policy's output.
//
// It returns, having consumed only whole units, when a valid run reaches
// denseWindow bytes (the kernel is faster from there: dense is cleared), and
// at anything it leaves to the general path: a byte an option must see, a
// sequence that src may cut short, a full dst. pos is src's position in the
// chunk. If marks is not nil, each ill-formed unit's output is recorded
// there (for the Writer), up to maxMarks: a mark is written for every
// single-byte step and kept only when the byte was ill-formed, so that
// keeping them costs no branch either. With an OnInvalid function, lone
// ill-formed bytes take the subpart path, which calls it.
func (t *Transformer) denseFast(dst, src []byte, pos int, marks *[]mark) (nDst, nSrc int) {
	tab := t.c.tab
	cb := t.c.o.onInvalid != nil
	table := uint8(dLead | dStop) // the bytes the table step does not take
	if cb {
		table |= dBad
	}
	i, j, run := 0, 0, 0
	var subparts, nbytes int64
	firstOff := t.stats.First
	var ms []mark
	k, maxK := 0, len(src) // marks kept; no limit without marks
	if marks != nil {
		ms = (*marks)[:cap(*marks)]
		if len(ms) < maxMarks+1 {
			ms = make([]mark, maxMarks+1)
			copy(ms, *marks)
		}
		k, maxK = len(*marks), maxMarks
	}
	for i < len(src) && len(dst)-j >= 16 && k < maxK {
		b := src[i]
		info := tab.info[b]
		if info&table == 0 {
			// ASCII or a lone ill-formed byte: store, count, move on.
			binary.LittleEndian.PutUint64(dst[j:], tab.out[b])
			n := int(info & dLen)
			bad := int64(info>>4) & 1
			if ms != nil {
				ms[k] = mark{out: j, nout: n, nin: 1}
				k += int(bad)
			}
			j += n
			subparts += bad
			nbytes += bad
			if firstOff < 0 && bad != 0 {
				firstOff = t.off + int64(pos+i)
			}
			run = (run + 1) & (int(bad) - 1)
			i++
			if run >= denseWindow {
				t.dense = false
				break
			}
			continue
		}
		if info&dStop != 0 {
			break
		}
		// A lead byte: decode the sequence it starts. (Or, with a
		// callback, a lone ill-formed byte.)
		n := 1
		if x := first[b]; x != xx {
			size := int(x & 7)
			if i+size > len(src) {
				break // unfinished or not: the general path knows atEOF
			}
			n = matched(src[i:], x)
			if n == size {
				copy(dst[j:j+4], src[i:i+size])
				j += size
				i += size
				if run += size; run >= denseWindow {
					t.dense = false
					break
				}
				continue
			}
		}
		// src[i:i+n] is a maximal ill-formed subpart.
		if cb {
			t.record(t.off+int64(pos+i), src[i:i+n])
		} else {
			if firstOff < 0 {
				firstOff = t.off + int64(pos+i)
			}
			subparts++
			nbytes += int64(n)
		}
		start := j
		if tab.perByte {
			for q := range n {
				c := src[i+q]
				binary.LittleEndian.PutUint64(dst[j:], tab.out[c])
				j += int(tab.info[c] & dLen)
			}
		} else {
			binary.LittleEndian.PutUint64(dst[j:], tab.out[b])
			j += int(info & dLen)
		}
		i += n
		run = 0
		if ms != nil {
			ms[k] = mark{out: start, nout: j - start, nin: n}
			k++
		}
	}
	if marks != nil {
		*marks = ms[:k]
	}
	if subparts > 0 {
		t.stats.First = firstOff
		t.stats.Subparts += subparts
		t.stats.Bytes += nbytes
	}
	return j, i
}
