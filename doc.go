// Package utf8stream validates and repairs UTF-8 in streams, correct to the
// byte, whatever the chunking, at close to the speed of a copy.
//
// Validity is that of RFC 3629 and Table 3-7 of the Unicode Standard: no
// overlong forms (C0, C1, E0 80..9F, F0 80..8F), no surrogates (ED A0..BF),
// nothing above U+10FFFF (F4 90..BF, F5..FF), no 5- or 6-byte forms.
// Noncharacters such as U+FFFE and U+FDD0, and U+FFFD itself, are valid.
//
// # Policies
//
// A [Policy] says what happens to ill-formed input. A maximal subpart is the
// longest start of a well-formed sequence before the byte that breaks it
// (Unicode chapter 3, "U+FFFD Substitution of Maximal Subparts"); a lone
// bad byte is a subpart of its own.
//
//   - [Reject] stops with an *[Error] at the first ill-formed subpart, after
//     delivering every valid byte before it.
//   - [Replace] writes one U+FFFD (EF BF BD) per maximal subpart, as Python,
//     WHATWG TextDecoder, ICU, Rust and x/text's unicode.UTF8 decoder do
//     (utf8.DecodeRune, bytes.ToValidUTF8 and runes.ReplaceIllFormed count
//     differently). [Replacement] sets another string.
//   - [SurrogateEscape] writes each ill-formed byte b as U+DC00+b (ED B2 80..
//     ED B3 BF), as Python's surrogateescape (PEP 383) does. It loses nothing,
//     but its output is NOT valid UTF-8: JSON encoders, protobuf, PostgreSQL
//     and this package's own [Reject] refuse it. Use it between programs that
//     restore it, such as a Python process or an [Unescaper].
//   - [OPTU8] writes each ill-formed byte b as U+EF00+b (EE BE 80..EE BF BF),
//     a private-use character, as MirBSD's OPTU-8 does. Its output IS valid
//     UTF-8, so it can go into JSON, protobuf and databases, and it loses
//     nothing: a valid U+EF80..U+EFFF already in the input is escaped byte by
//     byte too, so an [Unescaper] restores every input exactly.
//   - [Drop] removes ill-formed subparts, as Python's "ignore" and iconv -c do.
//   - [Windows1252] decodes each ill-formed byte as Windows-1252, the usual
//     source of stray bytes in CSV and log files, and writes U+FFFD for the
//     five bytes it leaves undefined.
//   - [BackslashReplace] writes each ill-formed byte as \x and two lowercase
//     hex digits, as Python's backslashreplace does: the output is ASCII
//     where the input was bad, readable in a terminal and easy to grep, but
//     an input that held \xNN itself looks the same, so it cannot be undone.
//     It is for plain-text logs, not JSON, where \x is no escape and the
//     line stops parsing: use Replace there, or SurrogateEscape or OPTU8 to
//     lose nothing.
//
// Pick Replace when the text is for people, BackslashReplace for plain-text
// logs, OPTU8 when a valid UTF-8 store must keep the original bytes,
// SurrogateEscape to talk to Python, and Reject when bad input must not
// pass: with [NoNUL], Reject lets through only what PostgreSQL accepts as
// text.
//
// # Which type to use
//
// [Reader] and [Writer] wrap an [io.Reader] or [io.Writer]: a file, a
// socket, an HTTP body. [Transformer] is a [transform.SpanningTransformer]
// for [transform.Chain], [transform.String] and the other x/text machinery.
// [Unescaper] reverses SurrogateEscape and OPTU8. [UTF16] and [UTF32]
// convert to UTF-16 and UTF-32 and back, and [AppendUTF16],
// [AppendFromUTF16], [AppendRunes] and [AppendFromRunes] do so on slices:
// under SurrogateEscape and OPTU8 any byte string survives the trip.
// Package
// [github.com/utf8stream/utf8stream/utf8http] guards the bodies of a
// [net/http] server with them. All of them make the same decisions,
// which live in one place: a sequence split across reads or writes gives
// the same output as the whole, and error offsets count bytes from the
// start of the stream.
//
// # Options
//
// Options are off by default:
//
//   - [StripBOM] removes a byte order mark at offset 0 (kept by default).
//   - [DetectBOM] reads UTF-16 after its byte order mark and removes a
//     UTF-8 one, as WHATWG's decode does (off by default).
//   - [NoNUL] treats 00 as ill-formed (valid by default).
//   - [CESU8] converts CESU-8 surrogate pairs, and [ModifiedUTF8] converts
//     C0 80, to standard UTF-8 (both ill-formed by default).
//   - [WTF8] reads WTF-8: lone surrogates pass and pairs are converted
//     (ill-formed by default).
//   - [BMPOnly] treats characters above U+FFFF as ill-formed, as MySQL's
//     utf8mb3 does (valid by default).
//   - [Replacement] sets what Replace writes (U+FFFD by default).
//   - [OnInvalid] calls a function for each ill-formed subpart (none by default).
//   - [BufferSize] sizes internal buffers (4096 bytes by default).
//
// Stats methods count what was repaired, so that a caller can tell
// "the input held U+FFFD" from "we replaced something" without scanning.
//
// # Errors
//
// Under Reject, reading or writing stops with an *[Error] that holds the
// stream offset and a copy of the ill-formed bytes; errors.Is(err,
// [ErrInvalid]) tests for it and errors.As gets the details. Errors are
// sticky, and data always comes before them: a Read that meets an ill-formed
// subpart first returns the valid bytes before it with a nil error.
//
// # Performance
//
// What a caller can rely on:
//
//   - Valid input is checked in place: [Reader] validates in the caller's
//     buffer (and [Reader.WriteTo], which [io.Copy] uses, in the source's own
//     chunks), [Writer] hands the caller's slice to the underlying writer,
//     and [Transformer] validates and copies each valid run in one pass.
//   - Steady-state Read, Write, Transform and Span allocate nothing, nor do
//     [Valid], [ValidString], [String] of input it leaves unchanged, and
//     [Append] into a slice with room.
//   - Cost grows linearly with the input whatever its content: where
//     ill-formed bytes are frequent, up to input with no valid byte at all,
//     a block loop takes 64 bytes at a time without a branch on the data.
//
// Which code runs: on amd64, validation uses AVX-512 (with VBMI, as on Intel
// Ice Lake and later and AMD Zen 4 and later) or AVX2, and the block loop an
// AVX-512 or an AVX2 kernel; on arm64, NEON kernels, and a NEON
// classification under the block loop; everywhere else, and with the build
// tag purego, portable Go. GODEBUG=cpu.avx512f=off and
// GODEBUG=cpu.avx2=off,cpu.avx512f=off select the AVX2 and the portable
// paths at run time, for comparison.
package utf8stream
