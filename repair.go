package utf8stream

import (
	"sync"

	"github.com/utf8stream/utf8stream/internal/repair"
)

// The block repairer (internal/repair) takes the stretches where
// ill-formed units are frequent, from one every hundred bytes or so to
// random bytes, where a round trip through the validation kernel and the
// general path for each would cost more. This file builds its table for
// each policy and set of options from what emit writes; Transformer
// drives it (repairBlocks and repairTail).

// tableKey names a table built from the default replacement.
type tableKey struct {
	policy                                    Policy
	noNUL, cesu8, mutf8, optu8, wtf8, bmpOnly bool
}

var (
	tablesMu sync.Mutex
	tables   = map[tableKey]*repair.Table{}
)

// tableFor returns the block repairer's table for c, shared by every core
// with the same policy and options, or nil when the repairer cannot serve
// c: under Reject, which stops at the first error, and where an output is
// longer than the table takes (repair.MaxOut bytes, as a long
// replacement), whose units then go through the general path one at a
// time.
func tableFor(c *core) *repair.Table {
	if c.policy == Reject {
		return nil
	}
	if c.o.replacement != "\uFFFD" {
		return newTable(c) // not cached: a custom replacement can be anything
	}
	k := tableKey{c.policy, c.o.noNUL, c.o.cesu8, c.o.mutf8, c.policy == OPTU8, c.o.wtf8, c.o.bmpOnly}
	tablesMu.Lock()
	defer tablesMu.Unlock()
	if t := tables[k]; t != nil {
		return t
	}
	t := newTable(c)
	tables[k] = t
	return t
}

// newTable builds the table for c, or returns nil if the block repairer
// cannot take its outputs.
func newTable(c *core) *repair.Table {
	t, err := repair.NewTable(specFor(c))
	if err != nil {
		return nil
	}
	return t
}

// specFor returns the block repairer's Spec for c: what emit writes for
// each ill-formed byte, and the bytes where an option needs the general
// path.
func specFor(c *core) repair.Spec {
	// A core of its own, which emit and optu8Escaped need, so that the
	// shared table keeps no Transformer alive and the caller's can stay
	// on the stack.
	e := &core{o: c.o, policy: c.policy}
	s := repair.Spec{
		Out: func(dst []byte, b byte) int {
			// The whole output's length, even where dst cannot hold
			// it, so that NewTable refuses it.
			var out [2 * maxReplacement]byte
			n, _ := e.emit(out[:], []byte{b}, kInvalid)
			copy(dst, out[:n])
			return n
		},
		PerByte: c.policy != Replace,
	}
	if c.o.noNUL {
		s.Stops = append(s.Stops, 0x00)
	}
	if c.o.mutf8 {
		s.Stops = append(s.Stops, 0xC0)
	}
	if c.o.cesu8 || c.o.wtf8 {
		s.Stops = append(s.Stops, 0xED)
	}
	if c.o.bmpOnly && c.policy == Windows1252 {
		// One U+FFFD for the 4 bytes, where the table decodes each.
		s.Stops = append(s.Stops, 0xF0)
	}
	s.Four = c.o.bmpOnly && c.policy != Windows1252
	if c.policy == OPTU8 {
		s.Escaped = e.optu8Escaped
	}
	return s
}

// unitsEnd returns the length of the prefix of p whose units more input
// cannot change: up to the last of p's last 3 bytes that is not a
// continuation byte, where a sequence may start that the next input
// finishes; or all of p if they are all continuation bytes, as each then
// belongs to a unit that starts in the 4 bytes before and ends by len(p),
// or is a unit of its own. p must start at the start of a unit. (The
// special units of CESU-8, MUTF-8 and OPTU8 start at bytes where the
// block repairer stops and leaves them to the general path.)
func unitsEnd(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-3; i-- {
		if p[i]&0xC0 != 0x80 {
			return i
		}
	}
	return len(p)
}
