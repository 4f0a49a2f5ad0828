// Package valid finds the longest valid prefix of UTF-8 input: the bytes
// before the first ill-formed or unfinished sequence. It holds the
// first-byte table, the Go reference (valid_generic.go), the portable
// implementation in Go (valid_portable.go), and the kernels of each
// architecture with their dispatch (valid_amd64.go, valid_arm64.go);
// valid_other.go serves the rest, with the portable implementation. The
// amd64 kernels, valid_amd64.s, are written by the avo program in
// _asm/valid, whose package doc describes them: edit that program, not the
// file.
//
// Prefix and CopyPrefix do the whole job. The rest lets a hot caller call a
// kernel from its own frame: QuickPrefix and QuickCopy find the answer in
// the first 8 bytes where binary data gives it away, KernelPrefix,
// KernelCopy and their variants call the kernel where there is one, and
// Finish, CopyFinish and their variants finish in Go where a kernel
// stopped short. All of these are small enough to be inlined.
//
// The BeforeEE variants also stop at each EE byte, the lead byte of
// U+E000..U+EFFF, where OPTU8's escape range lies. The BMP variants also
// stop at each byte F0..FF: the valid prefix they find holds only
// characters of the Basic Multilingual Plane, up to U+FFFF.
//
// The kernels' lookup tables and constants come from internal/tablegen,
// which go generate runs to write tables_amd64.h and tables_arm64.h; go
// generate then runs _asm/valid to write valid_amd64.s.
//
// What a change touches: a new stop variant is its tables in
// internal/tablegen, a row of variants in _asm/valid, two entries in
// valid_arm64.s, the declarations of its entries in valid_amd64.go and
// valid_arm64.go (and their stubs in valid_other.go), and its fronts in
// fronts.go. A new amd64 instruction set is a body in _asm/valid, its
// branch in vec there and its row of impls. A new architecture is a
// valid_ARCH.go with the entries that fronts.go lists, its kernels, and
// its build tag taken off valid_other.go.
package valid

//go:generate go run ../tablegen/gen.go
//go:generate go -C ../../_asm run ./valid -out ../internal/valid/valid_amd64.s

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/utf8stream/utf8stream/internal/registry"
)

// The values of first that are not lead bytes of multi-byte sequences. The
// low 3 bits of every value are the length of the sequence the byte starts.
const (
	as = 0xF1 // ASCII: a sequence of one byte
	xx = 0xF0 // never the first byte of a sequence: 80..C1, F5..FF
)

// firstBMP is first with the lead bytes of 4-byte sequences, F0..F4, as
// bytes that start no sequence: the first-byte table of the BMP variants.
var firstBMP = func() [256]uint8 {
	t := first
	for c := 0xF0; c <= 0xF4; c++ {
		t[c] = xx
	}
	return t
}()

// acceptRange is the range the second byte of a sequence must fall in.
type acceptRange struct{ lo, hi uint8 }

// acceptRanges is indexed by the high 4 bits of a value of first (Table 3-7
// of the Unicode Standard). Entries 5 to 15 are empty: as and xx index 15,
// and the 16 entries spare Lead a bounds check.
var acceptRanges = [16]acceptRange{
	0: {0x80, 0xBF},
	1: {0xA0, 0xBF}, // E0: no overlong 3-byte forms
	2: {0x80, 0x9F}, // ED: no surrogates
	3: {0x90, 0xBF}, // F0: no overlong 4-byte forms
	4: {0x80, 0x8F}, // F4: nothing above U+10FFFF
}

// first is the first-byte table, in the manner of unicode/utf8: for a lead
// byte, the low 3 bits hold the sequence length and the high 4 bits index
// acceptRanges.
var first = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c < 0x80:
			t[c] = as
		case c < 0xC2 || c > 0xF4:
			t[c] = xx
		case c < 0xE0:
			t[c] = 0x02
		case c == 0xE0:
			t[c] = 0x13
		case c == 0xED:
			t[c] = 0x23
		case c < 0xF0:
			t[c] = 0x03
		case c == 0xF0:
			t[c] = 0x34
		case c == 0xF4:
			t[c] = 0x44
		default:
			t[c] = 0x04
		}
	}
	return t
}()

// Lead describes b as the first byte of a sequence: size is the length of
// the sequence it starts, 1 for ASCII and 0 for a byte that starts none
// (80..C1, F5..FF), and where size is 2 or more, lo..hi is the range the
// second byte must fall in; every later byte must be in 80..BF.
func Lead(b byte) (size int, lo, hi byte) {
	x := first[b]
	ar := acceptRanges[x>>4]
	return int(x & 7), ar.lo, ar.hi
}

// Short is the length below which the fronts check input in Go: a call
// into a kernel costs more than the loop on fewer bytes.
const Short = 12

// variant says where a function stops in valid input: plain ones only at
// its end, beforeEE ones also at each EE, bmp ones also at each byte
// F0..FF.
type variant uint8

const (
	plain variant = iota
	beforeEE
	bmp
)

// ee is where the BeforeEE variants stop even in valid input: EE leads the
// sequences of OPTU8's escape range (U+EF80 to U+EFFF), which OPTU8 must
// escape, and of the rest of U+E000 to U+EFFF, which it copies.
const ee = 0xEE

// cutEE returns n, or the offset of the first EE in p[:n] if there is one.
func cutEE(p []byte, n int) int {
	if i := bytes.IndexByte(p[:n], ee); i >= 0 {
		return i
	}
	return n
}

// QuickPrefix returns Prefix(p) and true where a byte among the first 8 of
// p starts no sequence and comes after only ASCII, and false otherwise or
// where p is shorter than 8 bytes. It costs no call: a kernel's call costs
// more than its work where binary data stops it within a few bytes. Only
// ASCII comes before such an n, so it is PrefixBeforeEE(p) and PrefixBMP(p)
// too.
func QuickPrefix(p []byte) (n int, ok bool) {
	if len(p) < 8 {
		return 0, false
	}
	if w := binary.LittleEndian.Uint64(p) & 0x8080808080808080; w != 0 {
		if i := bits.TrailingZeros64(w) >> 3; first[p[i]] == xx {
			return i, true
		}
	}
	return 0, false
}

// ShortASCII reports whether p, of 8 to 16 bytes, is all ASCII, from two
// words that overlap where p is shorter than 16: on such input it answers
// in a nanosecond where a kernel's call costs several.
func ShortASCII(p []byte) bool {
	return (binary.LittleEndian.Uint64(p)|binary.LittleEndian.Uint64(p[len(p)-8:]))&0x8080808080808080 == 0
}

// QuickCopy is QuickPrefix for CopyPrefix and its variants: where it
// finds the answer, it copies the bytes before it too, as the first 8
// bytes of src. len(dst) must be at least len(src).
func QuickCopy(dst, src []byte) (n int, ok bool) {
	n, ok = QuickPrefix(src)
	if ok {
		binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
	}
	return n, ok
}

// Finish returns Prefix(p) where KernelPrefix returned n < len(p) for p.
func Finish(p []byte, n int) int { return finish(p, n, plain) }

// FinishBMP returns PrefixBMP(p) where KernelPrefixBMP returned n < len(p)
// for p.
func FinishBMP(p []byte, n int) int { return finish(p, n, bmp) }

// CopyFinish returns CopyPrefix(dst, src) where KernelCopy returned n <
// len(src) for src, having copied src[:n] to dst.
func CopyFinish(dst, src []byte, n int) int { return copyFinish(dst, src, n, plain) }

// CopyFinishBeforeEE returns CopyPrefixBeforeEE(dst, src) where
// KernelCopyBeforeEE returned n < len(src) for src, having copied src[:n]
// to dst.
func CopyFinishBeforeEE(dst, src []byte, n int) int { return copyFinish(dst, src, n, beforeEE) }

// CopyFinishBMP returns CopyPrefixBMP(dst, src) where KernelCopyBMP
// returned n < len(src) for src, having copied src[:n] to dst.
func CopyFinishBMP(dst, src []byte, n int) int { return copyFinish(dst, src, n, bmp) }

// finish finishes in Go after a kernel of variant v returned n < len(p):
// it backs up to the start of the sequence that holds p[n-1], at most 3
// continuation bytes, and validates from there, which stops at the error
// within a block or so.
//
// The kernels of the other variants flag the byte after each byte where
// they stop (EE, or F0..FF), and nothing before it, so that p[:n-1] holds
// no such byte. After a bmp kernel the scan in Go stops at such a byte as
// at an error, within the few bytes from the start of the sequence. After
// a beforeEE kernel, where p[n-1] is EE, p[:n-1] is the answer; where p[n]
// is EE the answer is at most n; elsewhere it is cut at an EE in the few
// bytes from n on.
func finish(p []byte, n int, v variant) int {
	i := seqStart(p, n)
	switch v {
	case plain:
		// The few ASCII bytes before the sequence at fault a byte at
		// a time: prefixGeneric's word would cost more than it saves,
		// as each load on the way waits for the one before.
		for i < len(p) && p[i] < 0x80 {
			i++
		}
		if i == len(p) || first[p[i]] == xx {
			return i // a byte that starts no sequence, as in random bytes
		}
		return i + prefixGeneric(p[i:])
	case bmp:
		return i + prefixBMPGeneric(p[i:])
	}
	if n > 0 && p[n-1] == ee {
		return n - 1
	}
	lim := len(p) // the scan in Go need not go past an EE at n
	if p[n] == ee {
		lim = n
	}
	m := i + prefixGeneric(p[i:lim])
	if m > n {
		m = n + cutEE(p[n:], m-n)
	}
	return m
}

// copyFinish is finish for the copying kernels, which copied src[:n] to
// dst: it copies the rest of the answer too.
func copyFinish(dst, src []byte, n int, v variant) int {
	// The kernel copied src[:n], and i <= n. The answer m can be greater
	// than n where a kernel leaves the last bytes of a short input to Go,
	// so copy all of src[i:m]: a few bytes.
	i := seqStart(src, n)
	m := finish(src, n, v)
	copy(dst[i:m], src[i:m])
	return m
}

// seqStart returns where finish goes on in Go after a kernel returned n <
// len(p): the start of the sequence that holds p[n-1], found by backing up
// over at most 3 continuation bytes.
func seqStart(p []byte, n int) int {
	i := n
	for k := 0; k < 4 && i > 0; k++ {
		i--
		if p[i]&0xC0 != 0x80 {
			break
		}
	}
	return i
}

// implInfo is an implementation with its kernels. Each platform's file
// lists its implementations in impls, "generic" first, and keeps the index
// of the one in use in impl; the dispatchers switch on impl. valid,
// copyValid and their variants are the kernels (nil where there are none),
// there so that tests can run each one directly.
type implInfo struct {
	registry.Impl
	valid             func(p []byte) int
	copyValid         func(dst, src []byte) int
	validBeforeEE     func(p []byte) int
	copyValidBeforeEE func(dst, src []byte) int
	validBMP          func(p []byte) int
	copyValidBMP      func(dst, src []byte) int
}

// kernels is the package's entry in the registry of implementations.
var kernels = registry.Register("valid", &impl, func() []registry.Impl {
	r := make([]registry.Impl, len(impls))
	for i, im := range impls {
		r[i] = im.Impl
	}
	return r
}()...)

// ImplNames returns the names of the implementations that this machine
// supports, "generic" first and the one in use by default last. It is for
// tests and benchmarks, which loop over it.
func ImplNames() []string { return kernels.Names() }

// SetImpl makes every function of the package use the named implementation
// until restore is called. It panics if this machine does not support it.
// It is for tests and benchmarks, which must not run in parallel with each
// other while the implementation is switched.
func SetImpl(name string) (restore func()) { return kernels.Select(name) }

// IndexHigh returns the offset of the first byte F0..FF in p, or len(p) if
// there is none. Within valid UTF-8 those are the lead bytes F0..F4 of the
// characters above U+FFFF, which BMPOnly refuses.
func IndexHigh(p []byte) int {
	// 8 bytes at a time: a byte b with its top bit set is F0..FF when
	// (b&7F) + 10 reaches 80, which cannot carry into the next byte. A
	// block of ASCII, whose top bits are clear, needs no more; after the
	// first block that is not ASCII, the text is not likely to be, and
	// the test costs more than it saves.
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	high := func(x uint64) uint64 { return (x&^tops + 0x10*ones) & x }
	i := 0
	for ; i+64 <= len(p); i += 64 {
		q := (*[64]byte)(p[i:])
		w0, w1, w2, w3 := binary.LittleEndian.Uint64(q[0:]), binary.LittleEndian.Uint64(q[8:]), binary.LittleEndian.Uint64(q[16:]), binary.LittleEndian.Uint64(q[24:])
		w4, w5, w6, w7 := binary.LittleEndian.Uint64(q[32:]), binary.LittleEndian.Uint64(q[40:]), binary.LittleEndian.Uint64(q[48:]), binary.LittleEndian.Uint64(q[56:])
		if (w0|w1|w2|w3|w4|w5|w6|w7)&tops == 0 {
			continue
		}
		if (high(w0)|high(w1)|high(w2)|high(w3)|high(w4)|high(w5)|high(w6)|high(w7))&tops != 0 {
			return i + indexHighWords(p[i:i+64])
		}
		i += 64
		break
	}
	for ; i+64 <= len(p); i += 64 {
		q := (*[64]byte)(p[i:])
		a := high(binary.LittleEndian.Uint64(q[0:])) | high(binary.LittleEndian.Uint64(q[8:])) |
			high(binary.LittleEndian.Uint64(q[16:])) | high(binary.LittleEndian.Uint64(q[24:]))
		b := high(binary.LittleEndian.Uint64(q[32:])) | high(binary.LittleEndian.Uint64(q[40:])) |
			high(binary.LittleEndian.Uint64(q[48:])) | high(binary.LittleEndian.Uint64(q[56:]))
		if (a|b)&tops != 0 {
			break
		}
	}
	return i + indexHighWords(p[i:])
}

// indexHighWords is indexHigh a word at a time, for short p.
func indexHighWords(p []byte) int {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(p); i += 8 {
		x := binary.LittleEndian.Uint64(p[i:])
		if m := (x&^tops + 0x10*ones) & x & tops; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(p); i++ {
		if p[i] >= 0xF0 {
			return i
		}
	}
	return len(p)
}
