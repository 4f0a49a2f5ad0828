package valid

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/utf8stream/utf8stream/internal/textgen"
)

// decodePrefix is a second oracle for prefixGeneric, built on
// unicode/utf8: the longest prefix that DecodeRune reads without error.
func decodePrefix(p []byte) int {
	i := 0
	for i < len(p) {
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	return i
}

// checkValidPrefix checks every supported implementation against the
// generic one on p, through Prefix (with its shortcut for short
// inputs), prefixSlow (the kernel whatever the length) and the fronts
// that a caller inlines (frontsPrefix), and through every CopyPrefix
// function (see forEachCopy).
func checkValidPrefix(t testing.TB, p []byte) {
	t.Helper()
	want := prefixGeneric(p)
	if d := decodePrefix(p); want != d {
		t.Fatalf("prefixGeneric(%q) = %d; want %d (utf8.DecodeRune)", p, want, d)
	}
	if v := utf8.Valid(p); v != (want == len(p)) {
		t.Fatalf("prefixGeneric(%q) = %d of %d, but utf8.Valid = %v", p, want, len(p), v)
	}
	for _, name := range ImplNames() {
		restore := SetImpl(name)
		got, gotSlow, gotFronts := Prefix(p), prefixSlow(p), frontsPrefix(p)
		restore()
		if got != want {
			t.Fatalf("impl=%s: Prefix(%q) = %d; want %d", name, p, got, want)
		}
		if gotFronts != want {
			t.Fatalf("impl=%s: QuickPrefix, KernelPrefix and Finish on %q give %d; want %d", name, p, gotFronts, want)
		}
		if gotSlow != want {
			t.Fatalf("impl=%s: prefixSlow(%q) = %d; want %d", name, p, gotSlow, want)
		}
	}
	wantStop := beforeEEPrefix(p)
	if got := prefixBeforeEEGeneric(p); got != wantStop {
		t.Fatalf("prefixBeforeEEGeneric(%q) = %d; want %d", p, got, wantStop)
	}
	for _, name := range ImplNames() {
		restore := SetImpl(name)
		got, gotSlow := PrefixBeforeEE(p), prefixBeforeEESlow(p)
		restore()
		if got != wantStop || gotSlow != wantStop {
			t.Fatalf("impl=%s: PrefixBeforeEE(%q) = %d, prefixBeforeEESlow = %d; want %d", name, p, got, gotSlow, wantStop)
		}
	}
	wantBMP := bmpPrefix(p)
	if got := prefixBMPGeneric(p); got != wantBMP {
		t.Fatalf("prefixBMPGeneric(%q) = %d; want %d", p, got, wantBMP)
	}
	for _, name := range ImplNames() {
		restore := SetImpl(name)
		got, gotSlow, gotFronts := PrefixBMP(p), prefixBMPSlow(p), frontsPrefixBMP(p)
		restore()
		if got != wantBMP || gotSlow != wantBMP || gotFronts != wantBMP {
			t.Fatalf("impl=%s: PrefixBMP(%q) = %d, prefixBMPSlow = %d, fronts %d; want %d", name, p, got, gotSlow, gotFronts, wantBMP)
		}
	}
	for _, im := range impls {
		if im.Supported() && im.valid != nil {
			checkKernel(t, im.Name+" kernel", im.valid(p), p, want)
			checkKernel(t, im.Name+" BeforeEE kernel", im.validBeforeEE(p), p, wantStop)
			checkKernel(t, im.Name+" BMP kernel", im.validBMP(p), p, wantBMP)
		}
	}
	forEachCopy(p, want, func(impl, fn string, copyFn func(dst, src []byte) int, want int) {
		checkCopy(t, impl, fn, copyFn, p, want)
	})
	checkLines(t, p, want)
}

// checkLines checks PrefixLines and CopyPrefixLines under every
// implementation against Prefix's answer for p, want, and bytes.Count and
// bytes.LastIndexByte.
func checkLines(t testing.TB, p []byte, want int) {
	t.Helper()
	wantLines, wantLast := bytes.Count(p[:want], []byte{'\n'}), bytes.LastIndexByte(p[:want], '\n')
	if l, i := CountLines(p[:want]); l != wantLines || i != wantLast {
		t.Fatalf("CountLines(%q) = %d, %d; want %d, %d", p[:want], l, i, wantLines, wantLast)
	}
	dst := make([]byte, len(p)+1)
	for _, name := range ImplNames() {
		restore := SetImpl(name)
		// The fronts that the Transformer inlines, for p of any length.
		fn, flines, fend, flast := KernelPrefixLines(p)
		if fn < 0 {
			fn, flines, flast = PrefixLines(p)
		} else {
			checkKernelLines(t, name, p, fn, flines, fend, flast)
			fn, flines, flast = PrefixLinesFinish(p, fn, flines, fend, flast)
		}
		gn, glines, gend, glast := KernelCopyLines(dst, p)
		if gn >= 0 {
			checkKernelLines(t, name+" copying", p, gn, glines, gend, glast)
		}
		if gn < 0 {
			gn, glines, glast = CopyPrefixLines(dst[:len(p)], p)
		} else {
			gn, glines, glast = CopyLinesFinish(dst, p, gn, glines, gend, glast)
		}
		// From minKernel bytes on, PrefixLines and CopyPrefixLines are
		// the fronts above.
		short := len(p) < minKernel
		var n, lines, last, cn, clines, clast int
		if short {
			n, lines, last = PrefixLines(p)
			cn, clines, clast = CopyPrefixLines(dst[:len(p)], p)
		}
		restore()
		if fn != want || flines != wantLines || flast != wantLast || gn != want || glines != wantLines || glast != wantLast || !bytes.Equal(dst[:gn], p[:gn]) {
			t.Fatalf("impl=%s: the fronts of PrefixLines and CopyPrefixLines on %q give %d, %d, %d and %d, %d, %d; want %d, %d, %d", name, p, fn, flines, flast, gn, glines, glast, want, wantLines, wantLast)
		}
		if dst[len(p)] != 0 {
			t.Fatalf("impl=%s: CopyPrefixLines(%q) wrote past len(src)", name, p)
		}
		if short && (n != want || lines != wantLines || last != wantLast) {
			t.Fatalf("impl=%s: PrefixLines(%q) = %d, %d, %d; want %d, %d, %d", name, p, n, lines, last, want, wantLines, wantLast)
		}
		if short && (cn != want || clines != wantLines || clast != wantLast || !bytes.Equal(dst[:cn], p[:cn])) {
			t.Fatalf("impl=%s: CopyPrefixLines(%q) = %d, %d, %d, copied %q; want %d, %d, %d", name, p, cn, clines, clast, dst[:cn], want, wantLines, wantLast)
		}
	}
}

// checkKernelLines checks what a counting kernel returned for p against
// its contract: lines newlines in p[:end], with end at most len(p), and
// last -1 where there are none, the offset of the last of them, or ^start
// with a newline in p[start:end] and start never 0.
func checkKernelLines(t testing.TB, name string, p []byte, n, lines, end, last int) {
	t.Helper()
	if n > len(p) || end < 0 || end > len(p) {
		t.Fatalf("impl=%s: the counting kernel on %q gives n = %d and end = %d", name, p, n, end)
	}
	want := bytes.Count(p[:end], []byte{'\n'})
	var ok bool
	switch {
	case last == -1:
		ok = want == 0
	case last >= 0:
		ok = last < end && p[last] == '\n' && bytes.IndexByte(p[last+1:end], '\n') < 0
	default:
		start := ^last
		ok = start > 0 && start < end && bytes.IndexByte(p[start:end], '\n') >= 0
	}
	if lines != want || !ok {
		t.Fatalf("impl=%s: the counting kernel on %q gives %d newlines up to %d, the last at %d; there are %d", name, p, lines, end, last, want)
	}
}

// checkKernel checks what a kernel returned for p, n, against the answer
// of the dispatchers, want. n == len(p) means that all of p is valid.
// Otherwise n is the first byte flagged in an error, at most 3 bytes after
// the lead byte of the sequence at fault, which starts at want. (The finish
// in Go would repair an n before want, at the cost of validating the rest
// of p in Go.) Kernels may leave the last bytes of inputs shorter than 67
// bytes to Go, which are left out.
func checkKernel(t testing.TB, name string, n int, p []byte, want int) {
	t.Helper()
	switch {
	case n == len(p) && want != len(p):
		t.Fatalf("%s(%q) = len(p), but the answer is %d", name, p, want)
	case n < len(p) && len(p) >= 67 && (n < want || n > want+3):
		t.Fatalf("%s(%q) = %d; want %d to %d", name, p, n, want, want+3)
	}
}

// beforeEEPrefix is the oracle of PrefixBeforeEE, built on unicode/utf8: the
// longest prefix that DecodeRune reads without error or a rune from U+E000
// to U+EFFF, whose encodings start with EE.
func beforeEEPrefix(p []byte) int {
	i := 0
	for i < len(p) {
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 || 0xE000 <= r && r <= 0xEFFF {
			break
		}
		i += size
	}
	return i
}

// bmpPrefix is the oracle of PrefixBMP, built on unicode/utf8: the longest
// prefix that DecodeRune reads without error or a rune above U+FFFF.
func bmpPrefix(p []byte) int {
	i := 0
	for i < len(p) {
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 || r > 0xFFFF {
			break
		}
		i += size
	}
	return i
}

// frontsPrefix runs the fronts as a hot caller that inlines them does:
// QuickPrefix, then KernelPrefix and Finish where it stopped short, and
// Prefix where there is no kernel to call.
func frontsPrefix(p []byte) int {
	if n, ok := QuickPrefix(p); ok {
		return n
	}
	n, ok := KernelPrefix(p)
	switch {
	case ok && n == len(p):
		return n
	case ok:
		return Finish(p, n)
	}
	return Prefix(p)
}

// frontsPrefixBMP is frontsPrefix for PrefixBMP.
func frontsPrefixBMP(p []byte) int {
	if n, ok := QuickPrefix(p); ok {
		return n
	}
	n, ok := KernelPrefixBMP(p)
	switch {
	case ok && n == len(p):
		return n
	case ok:
		return FinishBMP(p, n)
	}
	return PrefixBMP(p)
}

// frontsCopy is frontsPrefix for CopyPrefix.
func frontsCopy(dst, src []byte) int {
	if n, ok := QuickCopy(dst, src); ok {
		return n
	}
	n, ok := KernelCopy(dst, src)
	switch {
	case ok && n == len(src):
		return n
	case ok:
		return CopyFinish(dst, src, n)
	}
	return CopyPrefix(dst, src)
}

// frontsCopyBeforeEE is frontsPrefix for CopyPrefixBeforeEE.
func frontsCopyBeforeEE(dst, src []byte) int {
	if n, ok := QuickCopy(dst, src); ok {
		return n
	}
	n, ok := KernelCopyBeforeEE(dst, src)
	switch {
	case ok && n == len(src):
		return n
	case ok:
		return CopyFinishBeforeEE(dst, src, n)
	}
	return CopyPrefixBeforeEE(dst, src)
}

// frontsCopyBMP is frontsPrefix for CopyPrefixBMP.
func frontsCopyBMP(dst, src []byte) int {
	if n, ok := QuickCopy(dst, src); ok {
		return n
	}
	n, ok := KernelCopyBMP(dst, src)
	switch {
	case ok && n == len(src):
		return n
	case ok:
		return CopyFinishBMP(dst, src, n)
	}
	return CopyPrefixBMP(dst, src)
}

// forEachCopy calls check with each way to run CopyPrefix on src and
// the n it must return: copyPrefixGeneric, and for every supported
// implementation CopyPrefix and copyPrefixSlow, with that
// implementation set, and its copying kernel, which must return what the
// validating one does.
//
// It does the same for the BeforeEE variants, CopyPrefixBeforeEE and the
// rest, which must return beforeEEPrefix(src), and for the BMP variants,
// which must return bmpPrefix(src). The fronts that a caller inlines run
// as that caller runs them (frontsCopy).
func forEachCopy(src []byte, want int, check func(impl, fn string, copyFn func(dst, src []byte) int, want int)) {
	wantStop, wantBMP := beforeEEPrefix(src), bmpPrefix(src)
	check("generic", "copyPrefixGeneric", copyPrefixGeneric, want)
	check("generic", "copyPrefixBeforeEEGeneric", copyPrefixBeforeEEGeneric, wantStop)
	check("generic", "copyPrefixBMPGeneric", copyPrefixBMPGeneric, wantBMP)
	for _, im := range impls {
		if !im.Supported() {
			continue
		}
		func() {
			defer SetImpl(im.Name)()
			check(im.Name, "CopyPrefix", CopyPrefix, want)
			check(im.Name, "copyPrefixSlow", copyPrefixSlow, want)
			check(im.Name, "CopyPrefixBeforeEE", CopyPrefixBeforeEE, wantStop)
			check(im.Name, "copyPrefixBeforeEESlow", copyPrefixBeforeEESlow, wantStop)
			check(im.Name, "fronts of CopyPrefix", frontsCopy, want)
			check(im.Name, "fronts of CopyPrefixBeforeEE", frontsCopyBeforeEE, wantStop)
			check(im.Name, "CopyPrefixBMP", CopyPrefixBMP, wantBMP)
			check(im.Name, "copyPrefixBMPSlow", copyPrefixBMPSlow, wantBMP)
			check(im.Name, "fronts of CopyPrefixBMP", frontsCopyBMP, wantBMP)
			if im.valid != nil {
				check(im.Name, "copy kernel", im.copyValid, im.valid(src))
				check(im.Name, "copy BeforeEE kernel", im.copyValidBeforeEE, im.validBeforeEE(src))
				check(im.Name, "copy BMP kernel", im.copyValidBMP, im.validBMP(src))
			}
		}()
	}
}

// checkCopy checks that copyFn(dst, src) returns want and copies src[:want]
// to dst, with dst exactly len(src) long and longer. dst lies in a buffer
// filled with canary bytes, which must survive before dst and after
// dst[:len(src)].
func checkCopy(t testing.TB, impl, fn string, copyFn func(dst, src []byte) int, src []byte, want int) {
	t.Helper()
	const pad = 67 // odd, so that dst and src are not aligned alike
	buf := make([]byte, pad+len(src)+pad)
	checkCopyIn(t, impl, fn, copyFn, src, want, buf, pad, 0, 0xa5)
	checkCopyIn(t, impl, fn, copyFn, src, want, buf, pad, pad, 0x5a)
}

// checkCopyIn is checkCopy with dst at buf[at:], len(src)+extra bytes
// long, and the rest of buf filled with canary.
func checkCopyIn(t testing.TB, impl, fn string, copyFn func(dst, src []byte) int, src []byte, want int, buf []byte, at, extra int, canary byte) {
	t.Helper()
	for i := range buf {
		buf[i] = canary
	}
	dst := buf[at : at+len(src)+extra]
	mod := uintptr(unsafe.Pointer(&buf[at])) % 32
	got := copyFn(dst, src)
	if got != want {
		t.Fatalf("impl=%s: %s(dst[%d] at %d mod 32, %q) = %d; want %d", impl, fn, len(dst), mod, src, got, want)
	}
	if !bytes.Equal(dst[:got], src[:got]) {
		t.Fatalf("impl=%s: %s(dst[%d] at %d mod 32, %q) = %d, copied %q", impl, fn, len(dst), mod, src, got, dst[:got])
	}
	if i := slices.IndexFunc(buf[:at], func(b byte) bool { return b != canary }); i >= 0 {
		t.Fatalf("impl=%s: %s(dst[%d] at %d mod 32, %q) wrote %d bytes before dst", impl, fn, len(dst), mod, src, at-i)
	}
	if i := slices.IndexFunc(buf[at+len(src):], func(b byte) bool { return b != canary }); i >= 0 {
		t.Fatalf("impl=%s: %s(dst[%d] at %d mod 32, %q) wrote to dst[%d], past len(src)", impl, fn, len(dst), mod, src, len(src)+i)
	}
}

// TestCopyDstAlignments checks the copying functions on input long enough
// (1100 bytes) that the AVX2 copying kernel goes on from its first block
// at the offset where dst is 32-byte aligned, checking and storing part of
// that block again: at each of dst's 32 offsets from that alignment, on
// text that starts with ASCII and text that does not, valid and with an
// ill-formed byte or a truncated sequence at each of its first 80 bytes.
func TestCopyDstAlignments(t *testing.T) {
	var inputs [][]byte
	for _, name := range []string{"ascii", "latin1", "chinese", "emoji"} {
		text := textgen.Make(name, 1100)
		inputs = append(inputs, text)
		for i := range 80 {
			for _, bad := range []string{"\xff", "\xe4\xb8A"} {
				p := slices.Clone(text)
				copy(p[i:], bad)
				inputs = append(inputs, p)
			}
		}
	}
	buf := make([]byte, 1100+96)
	base := -int(uintptr(unsafe.Pointer(&buf[0]))) & 31
	for _, src := range inputs {
		for off := range 32 {
			forEachCopy(src, prefixGeneric(src), func(impl, fn string, copyFn func(dst, src []byte) int, want int) {
				checkCopyIn(t, impl, fn, copyFn, src, want, buf[:base+off+len(src)+32], base+off, 0, 0xa5)
			})
		}
	}
}

var validPrefixTests = []struct {
	desc string
	in   string
	want int
}{
	{"empty", "", 0},
	{"ascii", "hello, world", 12},
	{"nul", "\x00", 1},
	{"del", "\x7f", 1},
	{"2-byte min", "\xc2\x80", 2},
	{"2-byte max", "\xdf\xbf", 2},
	{"3-byte min", "\xe0\xa0\x80", 3},
	{"before surrogates", "\xed\x9f\xbf", 3},
	{"after surrogates", "\xee\x80\x80", 3},
	{"U+FFFD", "\xef\xbf\xbd", 3},
	{"noncharacter U+FFFF", "\xef\xbf\xbf", 3},
	{"noncharacter U+FDD0", "\xef\xb7\x90", 3},
	{"4-byte min", "\xf0\x90\x80\x80", 4},
	{"noncharacter U+10FFFF", "\xf4\x8f\xbf\xbf", 4},
	{"lone continuation", "a\x80", 1},
	{"continuation BF", "ab\xbf", 2},
	{"C0 overlong", "\xc0\x80", 0},
	{"C1 overlong", "\xc1\xbf", 0},
	{"E0 overlong", "\xe0\x80\x80", 0},
	{"E0 9F overlong", "\xe0\x9f\xbf", 0},
	{"surrogate D800", "\xed\xa0\x80", 0},
	{"surrogate DFFF", "\xed\xbf\xbf", 0},
	{"F0 overlong", "\xf0\x80\x80\x80", 0},
	{"F0 8F overlong", "\xf0\x8f\xbf\xbf", 0},
	{"above U+10FFFF", "\xf4\x90\x80\x80", 0},
	{"F5", "\xf5\x80\x80\x80", 0},
	{"F8", "\xf8\x88\x80\x80\x80", 0},
	{"FF", "x\xff", 1},
	{"FE", "\xfe", 0},
	{"2-byte cut by ASCII", "\xc2A", 0},
	{"3-byte cut by ASCII", "\xe1\x80A", 0},
	{"4-byte cut by ASCII", "\xf1\x80\x80A", 0},
	{"lead after lead", "\xc2\xc2\x80", 0},
	{"too many continuations", "\xc2\x80\x80", 2},
	{"5 continuations", "\xf1\x80\x80\x80\x80", 4},
	{"truncated 2-byte", "ab\xc2", 2},
	{"truncated 3-byte", "ab\xe1\x80", 2},
	{"truncated 4-byte", "ab\xf1\x80\x80", 2},
	{"mixed", "a\u00e9\u4e2d\U0001F600z", 11},
}

func TestValidPrefixTable(t *testing.T) {
	for _, tc := range validPrefixTests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := prefixGeneric([]byte(tc.in)); got != tc.want {
				t.Fatalf("prefixGeneric(%q) = %d; want %d", tc.in, got, tc.want)
			}
			checkValidPrefix(t, []byte(tc.in))
			// The same in a long input, so that the kernels see it.
			long := strings.Repeat("\u00e9", 40) + tc.in + strings.Repeat("x", 70)
			checkValidPrefix(t, []byte(long))
		})
	}
}

// badSeqs are ill-formed sequences of every kind the tables flag, and
// goodSeqs well-formed ones at the edges of the ranges.
var (
	badSeqs = []string{
		"\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf",
		"\xed\xa0\x80", "\xed\xbf\xbf", "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf",
		"\xf4\x90\x80\x80", "\xf4\xbf\xbf\xbf", "\xf5\x80\x80\x80", "\xf7\xbf\xbf\xbf",
		"\xf8\x88\x80\x80", "\xfc\x84\x80\x80", "\xfe", "\xff", "\xc2A", "\xe1\x80A",
		"\xe1A", "\xf1\x80\x80A", "\xf1\x80A", "\xf1A", "\xc2\xc2", "\xe1\xe1\x80\x80",
		"\xc2\x80\x80", "\xe1\x80\x80\x80", "\xf1\x80\x80\x80\x80", "\xe1\x80\xc2",
		"\xf1\x80\x80\xf1", "\xeeA", "\xee\xbfA",
	}
	goodSeqs = []string{
		"\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xe0\xbf\xbf", "\xe1\x80\x80",
		"\xed\x9f\xbf", "\xee\x80\x80", "\xee\xbe\x80", "\xee\xbf\xbf",
		"\xef\xbf\xbf", "\xef\xbf\xbd",
		"\xf0\x90\x80\x80", "\xf0\xbf\xbf\xbf", "\xf1\x80\x80\x80", "\xf4\x8f\xbf\xbf",
	}
)

// fillers are texts that an error is placed in: ASCII and text of 2-,
// 3- and 4-byte sequences.
var fillers = []string{
	strings.Repeat("abcdefg ", 40),
	strings.Repeat("\u0436\u00e9", 80),
	strings.Repeat("\u4e2d\u6587", 60),
	strings.Repeat("\U0001F600", 80),
	strings.Repeat("a\u00e9\u4e2d\U0001F600", 40),
}

// cutAt returns s cut to at most n bytes, at the start of a sequence.
func cutAt(s string, n int) string {
	n = min(n, len(s))
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func TestValidPrefixBlockEdges(t *testing.T) {
	seqs := append(append([]string{}, badSeqs...), goodSeqs...)
	for fi, filler := range fillers {
		// The ASCII tail is long enough for the kernels' ASCII loops.
		tails := []string{"", "x", cutAt(filler, 70), cutAt(filler, 140), cutAt(fillers[0], 300)}
		if testing.Short() {
			tails = []string{"x", cutAt(fillers[0], 300)}
		}
		for _, seq := range seqs {
			for off := 0; off <= 135; off++ {
				if testing.Short() && off%16 >= 4 && off%16 < 13 {
					// Only the offsets around each 16-byte edge.
					continue
				}
				if testing.Short() && raceEnabled && off%16 != 0 && off%16 != 15 {
					continue // a sample: see raceEnabled
				}
				head := cutAt(filler, off)
				for _, tail := range tails {
					p := []byte(head + seq + tail)
					checkValidPrefix(t, p)
				}
			}
		}
		t.Logf("filler %d done", fi)
	}
}

func TestValidPrefixTruncated(t *testing.T) {
	step := 1
	if testing.Short() && raceEnabled {
		step = 3 // a sample: see raceEnabled
	}
	for _, filler := range fillers {
		for _, seq := range goodSeqs {
			for k := 1; k < len(seq); k++ {
				for n := 0; n <= 200; n += step {
					checkValidPrefix(t, []byte(cutAt(filler, n)+seq[:k]))
				}
			}
		}
	}
}

func TestValidPrefixTextgen(t *testing.T) {
	for _, name := range textgen.Names {
		for _, size := range []int{1, 15, 16, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257, 4096, 100000} {
			p := textgen.Make(name, size)
			checkValidPrefix(t, p)
			// After every ill-formed subpart a caller starts again: do so.
			restarts := 5000
			if testing.Short() {
				restarts = 500
				if raceEnabled {
					restarts = 100 // a sample: see raceEnabled
				}
			}
			for i := 0; i < len(p) && i < restarts; {
				n := prefixGeneric(p[i:])
				checkValidPrefix(t, p[i:])
				i += n + 1
			}
		}
	}
}

func TestValidPrefixRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// Bytes that matter to the tables: ASCII, each nibble of the lead
	// bytes, continuation bytes at the edges of the accept ranges.
	interesting := []byte{0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf,
		0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef,
		0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf7, 0xf8, 0xff}
	texts := make([][]byte, 0, len(textgen.Names))
	for _, name := range textgen.Valid {
		texts = append(texts, textgen.Make(name, 1000))
	}
	count := 20000
	if testing.Short() && raceEnabled {
		count = 5000 // a sample: see raceEnabled
	}
	for i := range count {
		n := rng.IntN(300)
		var p []byte
		switch i % 4 {
		case 0: // random bytes
			p = make([]byte, n)
			for j := range p {
				p[j] = byte(rng.Uint32())
			}
		case 1: // interesting bytes
			p = make([]byte, n)
			for j := range p {
				p[j] = interesting[rng.IntN(len(interesting))]
			}
		default: // valid text with a few changes
			src := texts[rng.IntN(len(texts))]
			start := rng.IntN(len(src) - n)
			p = bytes.Clone(src[start : start+n])
			for range rng.IntN(3) {
				if n > 0 {
					p[rng.IntN(n)] = interesting[rng.IntN(len(interesting))]
				}
			}
		}
		checkValidPrefix(t, p)
	}
}

// TestCopyValidPrefixShortDst checks that every CopyPrefix function but
// the kernels and their fronts, which leave the check to their callers,
// panics before it writes when len(dst) < len(src), even if cap(dst) is
// large enough.
func TestCopyValidPrefixShortDst(t *testing.T) {
	for _, size := range []int{10, 100} {
		src := textgen.Make("russian", size)
		forEachCopy(src, prefixGeneric(src), func(impl, fn string, copyFn func(dst, src []byte) int, _ int) {
			if strings.HasSuffix(fn, "kernel") || strings.HasPrefix(fn, "fronts") {
				return
			}
			dst := make([]byte, size-1, size+10)
			defer func() {
				if recover() == nil {
					t.Errorf("impl=%s: %s(dst[%d], src[%d]) did not panic", impl, fn, len(dst), size)
				}
				if slices.ContainsFunc(dst[:cap(dst)], func(b byte) bool { return b != 0 }) {
					t.Errorf("impl=%s: %s(dst[%d], src[%d]) wrote to dst before it panicked", impl, fn, len(dst), size)
				}
			}()
			copyFn(dst, src)
		})
	}
}

// TestValidPrefixDispatch flips the dispatcher between implementations.
func TestValidPrefixDispatch(t *testing.T) {
	names := ImplNames()
	if names[0] != "generic" {
		t.Fatalf("ImplNames() = %q; want generic first", names)
	}
	// By default Prefix uses the last, fastest, supported one.
	if got, want := impls[impl].Name, names[len(names)-1]; got != want {
		t.Errorf("default implementation = %s; want %s", got, want)
	}
	p := []byte(strings.Repeat("\u4e2d", 100) + "\xed\xa0\x80" + strings.Repeat("a", 100))
	for _, name := range names {
		before := impl
		restore := SetImpl(name)
		if got := impls[impl].Name; got != name {
			t.Errorf("after SetImpl(%q) the implementation is %s", name, got)
		}
		if got := Prefix(p); got != 300 {
			t.Errorf("impl=%s: Prefix = %d; want 300", name, got)
		}
		restore()
		if impl != before {
			t.Errorf("restore after SetImpl(%q) left %s; want %s", name, impls[impl].Name, impls[before].Name)
		}
	}
	for _, bad := range []string{"nonesuch", ""} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("SetImpl(%q) did not panic", bad)
				}
			}()
			SetImpl(bad)
		}()
	}
	for _, im := range impls {
		if !im.Supported() {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("SetImpl(%q) on a machine without it did not panic", im.Name)
					}
				}()
				SetImpl(im.Name)
			}()
		}
	}
}

// TestKernelFronts checks that the fronts a hot caller inlines reach the
// kernel of every implementation that has one, with that kernel's answer,
// and leave the others to Prefix and its kin.
func TestKernelFronts(t *testing.T) {
	// The kernels may stop at different places in valid input: the AVX-512
	// kernel stops at 64 in 65 bytes, where the AVX2 kernel goes on to the
	// end (TestVecDispatch).
	for _, s := range []string{
		strings.Repeat("\u4e2d", 70) + "\xed\xa0\x80" + strings.Repeat("a", 100),
		strings.Repeat("a", 65),
	} {
		src := []byte(s)
		dst := make([]byte, len(src))
		for _, name := range ImplNames() {
			im := impls[slices.IndexFunc(impls, func(im implInfo) bool { return im.Name == name })]
			restore := SetImpl(name)
			check := func(front string, n int, ok bool, kernel func() int) {
				t.Helper()
				switch {
				case ok != (im.valid != nil):
					t.Errorf("impl=%s: %s returned ok=%v; the implementation has a kernel: %v", name, front, ok, im.valid != nil)
				case ok && n != kernel():
					t.Errorf("impl=%s: %s(%q) = %d; the kernel returns %d", name, front, src, n, kernel())
				}
			}
			n, ok := KernelPrefix(src)
			check("KernelPrefix", n, ok, func() int { return im.valid(src) })
			n, ok = KernelPrefixBMP(src)
			check("KernelPrefixBMP", n, ok, func() int { return im.validBMP(src) })
			n, ok = KernelCopy(dst, src)
			check("KernelCopy", n, ok, func() int { return im.copyValid(dst, src) })
			n, ok = KernelCopyBeforeEE(dst, src)
			check("KernelCopyBeforeEE", n, ok, func() int { return im.copyValidBeforeEE(dst, src) })
			n, ok = KernelCopyBMP(dst, src)
			check("KernelCopyBMP", n, ok, func() int { return im.copyValidBMP(dst, src) })
			// Below 32 bytes KernelPrefix runs a short kernel where
			// there is one; Finish makes its answer Prefix's.
			for k := range 32 {
				if n, ok := KernelPrefix(src[:k]); ok {
					if n < k {
						n = Finish(src[:k], n)
					}
					if want := prefixGeneric(src[:k]); n != want {
						t.Errorf("impl=%s: KernelPrefix(%q) then Finish = %d; want %d", name, src[:k], n, want)
					}
				}
			}
			restore()
		}
	}
}

// TestValidPrefixGODEBUG runs this test binary again with GODEBUG turning
// off CPU features, and checks which implementation it picks.
func TestValidPrefixGODEBUG(t *testing.T) {
	if os.Getenv("VALID_PRINT_IMPL") != "" {
		fmt.Printf("impl=%s names=%s\n", impls[impl].Name, strings.Join(ImplNames(), ","))
		return
	}
	if testing.Short() {
		t.Skip("runs the test binary again")
	}
	if runtime.GOARCH != "amd64" {
		t.Skip("the GODEBUG switches of the kernels are amd64's")
	}
	run := func(godebug string) (impl string, names []string) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run=^TestValidPrefixGODEBUG$", "-test.count=1")
		env := []string{"VALID_PRINT_IMPL=1"}
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "GODEBUG=") {
				env = append(env, kv)
			}
		}
		cmd.Env = append(env, "GODEBUG="+godebug)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("GODEBUG=%s: %v\n%s", godebug, err, out)
		}
		var list string
		if _, err := fmt.Sscanf(string(out), "impl=%s names=%s", &impl, &list); err != nil {
			t.Fatalf("GODEBUG=%s: output %q: %v", godebug, out, err)
		}
		return impl, strings.Split(list, ",")
	}
	// Without GODEBUG, the fastest implementation the CPU has.
	best, names := run("")
	if best != names[len(names)-1] {
		t.Errorf("GODEBUG unset: impl=%s; want %s", best, names[len(names)-1])
	}
	if runtime.GOARCH != "amd64" {
		return // GODEBUG turns off no kernel elsewhere: arm64 always has NEON
	}
	wantNoAVX512 := "portable"
	if slices.Contains(names, "avx2") {
		wantNoAVX512 = "avx2"
	}
	for _, tc := range []struct{ godebug, want string }{
		{"cpu.avx512f=off", wantNoAVX512},
		{"cpu.avx2=off", "portable"},
	} {
		if got, _ := run(tc.godebug); got != tc.want {
			t.Errorf("GODEBUG=%s: impl=%s; want %s", tc.godebug, got, tc.want)
		}
	}
}

func FuzzValidPrefix(f *testing.F) {
	for _, tc := range validPrefixTests {
		f.Add([]byte(tc.in))
		f.Add([]byte(strings.Repeat("\u00e9", 20) + tc.in + strings.Repeat("x", 40)))
	}
	for _, seq := range badSeqs {
		f.Add([]byte(cutAt(fillers[4], 61) + seq + cutAt(fillers[2], 70)))
	}
	for _, name := range textgen.Names {
		f.Add(textgen.Make(name, 200))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		checkValidPrefix(t, p)
		// Also as a caller calls it after an ill-formed subpart.
		if n := prefixGeneric(p); n < len(p) {
			checkValidPrefix(t, p[n+1:])
		}
	})
}

func BenchmarkValidPrefix(b *testing.B) {
	for _, name := range textgen.Names {
		for _, size := range []int{64, 4096, 1 << 20} {
			data := textgen.Make(name, size)
			for _, im := range ImplNames() {
				b.Run(fmt.Sprintf("input=%s/size=%d/impl=%s", name, size, im), func(b *testing.B) {
					defer SetImpl(im)()
					b.SetBytes(int64(size))
					b.ReportAllocs()
					for b.Loop() {
						// Go on after each ill-formed subpart, as a caller does.
						for i := 0; i < len(data); i++ {
							i += Prefix(data[i:])
						}
					}
				})
			}
			b.Run(fmt.Sprintf("input=%s/size=%d/impl=utf8.Valid", name, size), func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					utf8.Valid(data)
				}
			})
		}
	}
}

// BenchmarkCopyValidPrefix compares CopyPrefix (variant=fused) with
// Prefix then copy (variant=twopass) and Prefix alone
// (variant=validate), on valid text.
func BenchmarkCopyValidPrefix(b *testing.B) {
	variants := []struct {
		name string
		run  func(dst, src []byte) int
	}{
		{"fused", CopyPrefix},
		{"twopass", func(dst, src []byte) int {
			n := Prefix(src)
			copy(dst, src[:n])
			return n
		}},
		{"validate", func(_, src []byte) int { return Prefix(src) }},
	}
	for _, name := range []string{"ascii", "russian"} {
		for _, size := range []int{4096, 1 << 20} {
			src := textgen.Make(name, size)
			dst := make([]byte, size)
			for _, im := range ImplNames() {
				for _, v := range variants {
					b.Run(fmt.Sprintf("input=%s/size=%d/impl=%s/variant=%s", name, size, im, v.name), func(b *testing.B) {
						defer SetImpl(im)()
						b.SetBytes(int64(size))
						b.ReportAllocs()
						for b.Loop() {
							if v.run(dst, src) != size {
								b.Fatal("input is not valid")
							}
						}
					})
				}
			}
		}
	}
}

// TestLead checks the first-byte table against unicode/utf8: every
// scalar value is encoded, and the length of each encoding and the range
// of its second byte are gathered by lead byte.
func TestLead(t *testing.T) {
	type lead struct {
		size   int
		lo, hi byte
	}
	var want [256]lead
	for b := range 0x80 {
		want[b].size = 1
	}
	var buf [utf8.UTFMax]byte
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		n := utf8.EncodeRune(buf[:], r)
		w := &want[buf[0]]
		if w.size == 0 {
			*w = lead{n, buf[1], buf[1]}
		}
		w.lo, w.hi = min(w.lo, buf[1]), max(w.hi, buf[1])
	}
	for b := range 256 {
		size, lo, hi := Lead(byte(b))
		got := lead{size, lo, hi}
		if size < 2 {
			got.lo, got.hi = 0, 0 // the range is for lead bytes only
		}
		if w := want[b]; got != w {
			t.Errorf("Lead(%#02x) = %d, %#02x, %#02x; want %d, %#02x, %#02x", b, size, lo, hi, w.size, w.lo, w.hi)
		}
	}
}

// TestPrefixShort checks the loop for a few bytes against the reference on
// every input of one or two bytes and on every input of up to Short-1
// bytes made of a few kinds of sequence.
func TestPrefixShort(t *testing.T) {
	check := func(p []byte) {
		if got, want := prefixShort(p), prefixGeneric(p); got != want {
			t.Fatalf("prefixShort(%q) = %d; want %d", p, got, want)
		}
	}
	for a := range 256 {
		check([]byte{byte(a)})
		for b := range 256 {
			check([]byte{byte(a), byte(b)})
		}
	}
	pieces := []string{"a", "\u00e9", "\u4e2d", "\U0001F600", "\xed\xa0\x80", "\xe0\x80", "\xf4\x90\x80\x80", "\xc2", "\xe4\xb8", "\xf0\x9f\x98", "\xff", "\x80"}
	for _, a := range pieces {
		for _, b := range pieces {
			for _, c := range pieces {
				s := a + b + c
				for k := 0; k <= len(s) && k < Short; k++ {
					check([]byte(s[:k]))
					check([]byte(s[len(s)-k:]))
				}
			}
		}
	}
}

// TestKernels fails where the CPU advertises an instruction set whose
// kernels cannot run here, rather than letting the tests that loop over
// ImplNames skip them without a word, and logs which kernels run.
func TestKernels(t *testing.T) {
	summary, err := kernels.Check()
	if err != nil {
		t.Fatal(err)
	}
	t.Log(summary)
}
