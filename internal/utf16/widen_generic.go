package utf16

import "encoding/binary"

// widenGeneric is Widen in Go: the reference.
func widenGeneric(dst, src []byte) (nd, ns int) {
	pos := 0     // the next block
	pending := 0 // 2 when the last character written has 4 bytes and starts in its block's last byte
	lastNd := 0  // nd before that character
	lastStart := 0
	for pos+WidenBlock+2 <= len(src) && nd-pending+Room <= len(dst) {
		blk := src[pos : pos+WidenBlock]
		pending = 0
		// Each character that starts in the block, with the bytes after
		// the block that it needs.
		for i := range blk {
			c := blk[i]
			if c&0xC0 == 0x80 {
				continue
			}
			p := src[pos+i:]
			lastNd, lastStart = nd, pos+i
			switch {
			case c >= 0xF0:
				cp := uint32(c&0x07)<<18 | uint32(p[1]&0x3F)<<12 | uint32(p[2]&0x3F)<<6 | uint32(p[3]&0x3F) - 0x10000
				binary.LittleEndian.PutUint16(dst[nd:], uint16(0xD800+cp>>10))
				if nd+4 <= len(dst) {
					// (Else the next block, which would write it, does
					// not fit, and the character is left out below.)
					binary.LittleEndian.PutUint16(dst[nd+2:], uint16(0xDC00+cp&0x3FF))
				}
				nd += 4
				ns = pos + i + 4
				if i == len(blk)-1 {
					pending = 2
				}
			case c >= 0xE0:
				binary.LittleEndian.PutUint16(dst[nd:], uint16(c&0x0F)<<12|uint16(p[1]&0x3F)<<6|uint16(p[2]&0x3F))
				nd += 2
				ns = pos + i + 3
			case c >= 0xC0:
				binary.LittleEndian.PutUint16(dst[nd:], uint16(c&0x1F)<<6|uint16(p[1]&0x3F))
				nd += 2
				ns = pos + i + 2
			default:
				binary.LittleEndian.PutUint16(dst[nd:], uint16(c))
				nd += 2
				ns = pos + i + 1
			}
		}
		pos += WidenBlock
	}
	if pending > 0 {
		// The next block would have written its low surrogate: the run
		// ends before it.
		return lastNd, lastStart
	}
	return nd, ns
}

// narrowGeneric is Narrow in Go: the reference.
func narrowGeneric(dst, src []byte, stopLo, stopN uint32) (nd, ns int) {
	pos := 0
	carry := 0 // 2 when the last block ended with a high surrogate, whose low one starts the next
	for pos+NarrowBlock+2 <= len(src) && nd+Room <= len(dst) {
		unit := func(i int) uint32 { return uint32(binary.LittleEndian.Uint16(src[pos+i:])) }
		for i := 0; i < NarrowBlock; i += 2 {
			u := unit(i)
			switch {
			case u-stopLo < stopN:
				return nd, pos + carry
			case u-0xD800 < 0x400:
				if unit(i+2)-0xDC00 >= 0x400 {
					return nd, pos + carry
				}
				i += 2
			case u-0xDC00 < 0x400 && !(i == 0 && carry > 0):
				return nd, pos + carry
			}
		}
		i := carry
		carry = 0
		for ; i < NarrowBlock; i += 2 {
			u := unit(i)
			switch {
			case u < 0x80:
				dst[nd] = byte(u)
				nd++
			case u < 0x800:
				dst[nd] = 0xC0 | byte(u>>6)
				dst[nd+1] = 0x80 | byte(u)&0x3F
				nd += 2
			case u-0xD800 < 0x400:
				c := 0x10000 + (u-0xD800)<<10 + unit(i+2) - 0xDC00
				dst[nd] = 0xF0 | byte(c>>18)
				dst[nd+1] = 0x80 | byte(c>>12)&0x3F
				dst[nd+2] = 0x80 | byte(c>>6)&0x3F
				dst[nd+3] = 0x80 | byte(c)&0x3F
				nd += 4
				if i == NarrowBlock-2 {
					carry = 2
				}
				i += 2
			default:
				dst[nd] = 0xE0 | byte(u>>12)
				dst[nd+1] = 0x80 | byte(u>>6)&0x3F
				dst[nd+2] = 0x80 | byte(u)&0x3F
				nd += 3
			}
		}
		pos += NarrowBlock
	}
	return nd, pos + carry
}
