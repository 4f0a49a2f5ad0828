package repair

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The bits of classifyAVX512's tables in repair_amd64.s, where each is
// described.
const (
	second8 = 0x01
	second9 = 0x02
	secondA = 0x04
	secondB = 0x08
	third   = 0x10
	fourth  = 0x20
	escape  = 0x40
)

// asmTables returns the read-only data of repair_amd64.s, built from what
// each entry means: the lookup tables of the classification from the
// encodings of every scalar value (utf8.EncodeRune) and the bits above,
// and the indexes and masks of the vector path from the layout they make.
func asmTables() map[string][]byte {
	t := map[string][]byte{}
	table := func(name string, n int) []byte {
		t[name] = make([]byte, n)
		return t[name]
	}
	// What each lead byte asks of the bytes after it.
	leadC0 := table("leadC0", 64)
	var buf [utf8.UTFMax]byte
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		n := utf8.EncodeRune(buf[:], r)
		if buf[0] < 0xC0 {
			panic("a lead byte below C0")
		}
		e := &leadC0[buf[0]-0xC0]
		*e |= second8 << (buf[1]>>4 - 8)
		if n >= 3 {
			*e |= third
		}
		if n == 4 {
			*e |= fourth
		}
		if buf[0] == 0xEE {
			*e |= escape
		}
	}
	// What each byte gives, by b>>2 and, for cont1Esc, by b>>1 from 80 on.
	cont1, cont2, cont3 := table("cont1", 64), table("cont2", 64), table("cont3", 64)
	cont1Esc := table("cont1Esc", 64)
	for b := range 256 {
		if b < 0x80 || b > 0xBF {
			continue // not a continuation byte
		}
		cont1[b>>2] = second8 << (b>>4 - 8)
		cont2[b>>2] = third
		cont3[b>>2] = fourth
		cont1Esc[(b-0x80)>>1] |= second8 << (b>>4 - 8)
		if b >= 0xBE {
			cont1Esc[(b-0x80)>>1] |= escape
		}
	}
	// The vector path interleaves 3 streams of 64 bytes into 192:
	// output byte k is byte k/3 of stream k%3.
	for part := range 3 {
		idx := table(fmt.Sprintf("ilvIdx%d", part), 64)
		for j := range idx {
			k := 64*part + j
			idx[j] = byte(k / 3)
			if k%3 == 1 {
				idx[j] |= 0x40 // VPERMI2B's second table
			}
		}
	}
	for s := range 3 {
		// ilvS: the bytes of the first 64 that stream S takes.
		var m uint64
		for j := range 64 {
			if j%3 == s {
				m |= 1 << j
			}
		}
		binary.LittleEndian.PutUint64(table(fmt.Sprintf("ilv%d", s), 8), m)
	}
	shiftIdx := table("shiftIdx", 72)
	for i := range shiftIdx {
		shiftIdx[i] = byte(i + 1)
	}
	for name, b := range map[string]byte{"bit1": 1, "bit2": 2, "bit4": 4, "escBit": escape} {
		x := table(name, 64)
		for i := range x {
			x[i] = b
		}
	}
	return t
}

// asmData returns the read-only data that file defines with DATA lines and
// with its TABLE macro (16 bytes repeated four times), by symbol.
func asmData(t *testing.T, file string) map[string][]byte {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data := map[string][]byte{}
	put := func(name string, off, size int, v uint64) {
		b := data[name]
		if len(b) < off+size {
			b = append(b, make([]byte, off+size-len(b))...)
		}
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], v)
		copy(b[off:off+size], w[:size])
		data[name] = b
	}
	parse := func(s string) uint64 {
		v, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return v
	}
	for _, m := range regexp.MustCompile(`(?m)^TABLE\((\w+)<>, \$(\w+), \$(\w+)\)$`).FindAllStringSubmatch(string(src), -1) {
		for k := range 4 {
			put(m[1], 16*k, 8, parse(m[2]))
			put(m[1], 16*k+8, 8, parse(m[3]))
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^DATA (\w+)<>\+(\w+)\(SB\)/(\d), \$(\w+)$`).FindAllStringSubmatch(string(src), -1) {
		put(m[1], int(parse(m[2])), int(parse(m[3])), parse(m[4]))
	}
	return data
}

// TestAsmTables checks every table of repair_amd64.s against asmTables,
// and that the file defines no other.
func TestAsmTables(t *testing.T) {
	got := asmData(t, "repair_amd64.s")
	want := asmTables()
	for name, w := range want {
		if b := got[name]; string(b) != string(w) {
			t.Errorf("repair_amd64.s: %s is\n% x\nwant\n% x\n%s", name, b, w, dataLines(name, w))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("repair_amd64.s defines %s, which asmTables does not describe", name)
		}
	}
}

// dataLines returns the DATA lines that define name as b.
func dataLines(name string, b []byte) string {
	var lines []string
	for off := 0; off < len(b); off += 8 {
		lines = append(lines, fmt.Sprintf("DATA %s<>+%d(SB)/8, $%#016x", name, off, binary.LittleEndian.Uint64(b[off:])))
	}
	return strings.Join(lines, "\n")
}

// avx2Consts returns the read-only data of repair_avx2_amd64.s: the
// classification's constants, each one byte in 32 lanes, from the
// encodings of the scalar values that bound its range, and those of the
// repair kernel's paths.
func avx2Consts() map[string][]byte {
	first := func(r rune) byte { var b [4]byte; utf8.EncodeRune(b[:], r); return b[0] }
	second := func(r rune) byte { var b [4]byte; utf8.EncodeRune(b[:], r); return b[1] }
	t := map[string][]byte{}
	for name, b := range map[string]byte{
		"bC1": first(0x80) - 1,     // below the first 2-byte lead
		"bDF": first(0x800) - 1,    // below the first 3-byte lead
		"bEF": first(0x10000) - 1,  // below the first 4-byte lead
		"bF4": first(utf8.MaxRune), // the last lead
		"bE0": first(0x800),        // second byte A0..BF
		"bED": first(0xD7FF),       // second byte 80..9F
		"bF0": first(0x10000),      // second byte 90..BF
		"bC0": 0x80 + 0x40,         // one past the continuation bytes
		"bA0": second(0xD7FF) + 1,  // one past ED's second bytes
		"b90": second(0x10000),     // one past F4's second bytes, where F0's start
		"bEE": first(0xEF80),       // the lead of what OPTU8 escapes
		"bBD": second(0xEF80) - 1,  // below their second bytes
		"two": cRest,
	} {
		t[name] = bytes.Repeat([]byte{b}, 32)
	}
	for i := range 64 {
		t["iota"] = append(t["iota"], byte(i))
	}
	// expandD8: mask byte i/8 of each 32-bit lane for byte i of 32, with
	// the middle 64-bit words swapped (VPERMQ $0xD8); bitsel: bit i%8.
	for i := range 32 {
		t["expandD8"] = append(t["expandD8"], []byte{0, 2, 1, 3}[i/8])
		t["bitsel"] = append(t["bitsel"], 1<<(i%8))
	}
	return t
}

// TestAsmConstsAVX2 checks every constant of repair_avx2_amd64.s against
// avx2Consts, and that the file defines no other.
func TestAsmConstsAVX2(t *testing.T) {
	got := asmData(t, "repair_avx2_amd64.s")
	want := avx2Consts()
	for name, w := range want {
		if b := got[name]; string(b) != string(w) {
			t.Errorf("repair_avx2_amd64.s: %s is\n% x\nwant\n% x\n%s", name, b, w, dataLines(name, w))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("repair_avx2_amd64.s defines %s, which avx2Consts does not describe", name)
		}
	}
}

// TestAsmTablesNEON checks the tables of classify_arm64.s: the lookup
// tables are classifyAVX512's (asmTables), and bitWeights gives byte i
// bit i%8.
func TestAsmTablesNEON(t *testing.T) {
	got := asmData(t, "classify_arm64.s")
	all := asmTables()
	want := map[string][]byte{"leadC0": all["leadC0"], "cont1": all["cont1"], "bitWeights": make([]byte, 16)}
	for i := range want["bitWeights"] {
		want["bitWeights"][i] = 1 << (i % 8)
	}
	for name, w := range want {
		if b := got[name]; string(b) != string(w) {
			t.Errorf("classify_arm64.s: %s is\n% x\nwant\n% x\n%s", name, b, w, dataLines(name, w))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("classify_arm64.s defines %s, which TestAsmTablesNEON does not describe", name)
		}
	}
}
