package utf16

import "encoding/binary"

// widenGeneric is Widen in Go: the reference. With ascii set it takes
// ASCII blocks only, as the AVX2 kernel does.
func widenGeneric(dst, src []byte, ascii bool) (nd, ns int) {
	for ns+WidenBlock+2 <= len(src) && nd+Room <= len(dst) {
		blk := src[ns : ns+WidenBlock]
		limit := byte(0xF0)
		if ascii {
			limit = 0x80
		}
		for _, c := range blk {
			if c >= limit {
				return nd, ns
			}
		}
		if src[ns+WidenBlock]&0xC0 == 0x80 {
			// The block ends before the character the byte after it
			// continues.
			n := len(blk) - 1
			for blk[n]&0xC0 == 0x80 {
				n--
			}
			blk = blk[:n]
		}
		for i := 0; i < len(blk); {
			c := blk[i]
			u, n := uint16(c), 1
			switch {
			case c >= 0xE0:
				u, n = uint16(c&0x0F)<<12|uint16(blk[i+1]&0x3F)<<6|uint16(blk[i+2]&0x3F), 3
			case c >= 0xC0:
				u, n = uint16(c&0x1F)<<6|uint16(blk[i+1]&0x3F), 2
			}
			binary.LittleEndian.PutUint16(dst[nd:], u)
			nd += 2
			i += n
		}
		ns += len(blk)
	}
	return nd, ns
}

// narrowGeneric is Narrow in Go: the reference. With ascii set it takes
// blocks of units below U+0080 only, as the AVX2 kernel does.
func narrowGeneric(dst, src []byte, stopLo, stopN uint32, ascii bool) (nd, ns int) {
	for ns+NarrowBlock <= len(src) && nd+Room <= len(dst) {
		blk := src[ns : ns+NarrowBlock]
		for i := 0; i < len(blk); i += 2 {
			u := uint32(binary.LittleEndian.Uint16(blk[i:]))
			if u-0xD800 < 0x800 || u-stopLo < stopN || ascii && u >= 0x80 {
				return nd, ns
			}
		}
		for i := 0; i < len(blk); i += 2 {
			u := binary.LittleEndian.Uint16(blk[i:])
			switch {
			case u < 0x80:
				dst[nd] = byte(u)
				nd++
			case u < 0x800:
				dst[nd] = 0xC0 | byte(u>>6)
				dst[nd+1] = 0x80 | byte(u)&0x3F
				nd += 2
			default:
				dst[nd] = 0xE0 | byte(u>>12)
				dst[nd+1] = 0x80 | byte(u>>6)&0x3F
				dst[nd+2] = 0x80 | byte(u)&0x3F
				nd += 3
			}
		}
		ns += NarrowBlock
	}
	return nd, ns
}
