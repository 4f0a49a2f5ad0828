package valid

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// lineGroup is the window in which LastNewline looks for a newline with
// bytes.IndexByte.
const lineGroup = 256

// PrefixLines returns Prefix(p), the number of newline (0A) bytes in
// p[:n], and the offset of the last of them, or -1 if there is none. Where
// a kernel runs, the count comes from the validation's own pass, for the
// Lines option of the root package.
func PrefixLines(p []byte) (n, lines, last int) {
	if len(p) >= minKernel {
		if k, c, end, group := vecValidLines(p); k >= 0 {
			return PrefixLinesFinish(p, k, c, end, group)
		}
	}
	n = Prefix(p)
	lines, last = CountLines(p[:n])
	return n, lines, last
}

// CopyPrefixLines is PrefixLines that also copies p[:n] to dst, as
// CopyPrefix does: len(dst) must be at least len(src), and dst and src must
// not overlap.
func CopyPrefixLines(dst, src []byte) (n, lines, last int) {
	if len(src) >= minKernel {
		if len(dst) < len(src) {
			panic("valid: CopyPrefixLines: dst shorter than src")
		}
		if k, c, end, group := vecCopyLines(dst[:len(src)], src); k >= 0 {
			return CopyLinesFinish(dst, src, k, c, end, group)
		}
	}
	n = CopyPrefix(dst, src)
	lines, last = CountLines(src[:n])
	return n, lines, last
}

// KernelPrefixLines is KernelCopyLines for PrefixLines; the caller
// finishes with PrefixLinesFinish.
func KernelPrefixLines(p []byte) (n, lines, end, last int) {
	return vecValidLines(p)
}

// PrefixLinesFinish returns PrefixLines(p) where KernelPrefixLines
// returned n >= 0, lines, end and last.
func PrefixLinesFinish(p []byte, n, lines, end, last int) (int, int, int) {
	if n == len(p) && end == n {
		return n, lines, lastIn(p, lines, last)
	}
	if n < len(p) {
		n = finish(p, n, plain)
	}
	return fixLines(p, n, lines, end, last)
}

// KernelCopyLines is KernelCopy for CopyPrefixLines, small enough to be
// inlined: the counting kernel's n, lines, end and last, with n < 0 where
// no kernel runs (then the caller calls CopyPrefixLines), for src of any
// length (below 32 bytes the kernel leaves all to Go). Where n ==
// len(src), end == n and last >= -1, n, lines and last are the answer;
// otherwise the caller finishes with CopyLinesFinish. The caller ensures
// len(dst) >= len(src), and the kernel writes within dst[:len(src)].
func KernelCopyLines(dst, src []byte) (n, lines, end, last int) {
	return vecCopyLines(dst, src)
}

// CopyLinesFinish returns CopyPrefixLines(dst, src) where KernelCopyLines
// returned n >= 0, lines, end and last.
func CopyLinesFinish(dst, src []byte, n, lines, end, last int) (int, int, int) {
	if n == len(src) && end == n {
		return n, lines, lastIn(src, lines, last)
	}
	if n < len(src) {
		n = copyFinish(dst, src, n, plain)
	}
	return fixLines(src, n, lines, end, last)
}

// fixLines turns what a counting kernel returned for p into PrefixLines's
// answer, given n, the prefix after the kernel's was finished in Go: the
// kernel counted c newlines in p[:end], the last of them, if any, at group
// where group >= 0 and otherwise the last from ^group on. n and end lie a
// block or so apart.
func fixLines(p []byte, n, c, end, group int) (_, lines, last int) {
	if n > end {
		if k := bytes.Count(p[end:n], newline); k > 0 {
			return n, c + k, end + lastWords(p[end:n])
		}
	} else if n < end {
		// Never where the kernel stops at an error: the bytes from n
		// to end belong to one sequence. Kept for the rule.
		c -= bytes.Count(p[n:end], newline)
	}
	if c == 0 {
		return n, 0, -1
	}
	if group >= 0 && group < n {
		return n, c, group
	} else if group >= 0 {
		return n, c, LastNewline(p[:n]) // never, as above
	}
	start := ^group
	if i := LastNewline(p[start:n]); i >= 0 {
		return n, c, start + i
	}
	return n, c, LastNewline(p[:start]) // never, as above
}

// lastIn returns the offset of the last newline of p, where a counting
// kernel counted c of them in all of p and returned group for the last.
func lastIn(p []byte, c, group int) int {
	if c == 0 || group >= 0 {
		return group
	}
	start := ^group
	return start + LastNewline(p[start:])
}

var newline = []byte{'\n'}

// CountLines returns the number of newline bytes in p and the offset of the
// last one, or -1: two passes over p, where PrefixLines's kernels make one.
func CountLines(p []byte) (lines, last int) {
	if lines = bytes.Count(p, newline); lines == 0 {
		return 0, -1
	}
	return lines, LastNewline(p)
}

// LastNewline returns bytes.LastIndexByte(p, '\n'), at a cost that the
// input cannot make more than one pass of bytes.IndexByte over p: it looks
// for a newline in windows of lineGroup bytes from the end, and within the
// window that has one, a word at a time.
func LastNewline(p []byte) int {
	for end := len(p); end > 0; end -= lineGroup {
		w := p[max(0, end-lineGroup):end]
		if bytes.IndexByte(w, '\n') >= 0 {
			return end - len(w) + lastWords(w)
		}
	}
	return -1
}

// lastWords returns bytes.LastIndexByte(p, '\n') 8 bytes at a time from the
// end: within a window it costs a few words where the text has lines.
func lastWords(p []byte) int {
	const lows, tops, nls = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080, 0x0a0a0a0a0a0a0a0a
	i := len(p)
	for ; i >= 8; i -= 8 {
		x := binary.LittleEndian.Uint64(p[i-8:]) ^ nls
		// The top bit of each byte of z is set where x's byte is zero,
		// with no carry from one byte to the next.
		if z := ^((x&lows + lows) | x | lows); z != 0 {
			return i - 1 - bits.LeadingZeros64(z)/8
		}
	}
	for i--; i >= 0; i-- {
		if p[i] == '\n' {
			return i
		}
	}
	return -1
}
