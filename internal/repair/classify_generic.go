package repair

import "encoding/binary"

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
// to src[64*i+67], 8 bytes at a time with classify. It is the reference
// that classifyAVX512 is tested against, and the Go loop's classification
// where there is no kernel.
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
