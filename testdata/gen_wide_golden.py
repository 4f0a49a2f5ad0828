#!/usr/bin/env python3
"""Writes wide.golden: CPython's answers for UTF16 and UTF32.

Run from the testdata directory with CPython 3.8 or later:

    python3 gen_wide_golden.py > wide.golden

Each line holds a kind, a form, an input and 14 answers, separated by
spaces:

    KIND FORM INPUT REJECT REPLACE SURROGATEESCAPE OPTU8 DROP WINDOWS1252 BACKSLASHREPLACE (each plain, then with WTF8)

KIND is "enc" (INPUT is UTF-8; the answers are in FORM: the encoder of
UTF16 or UTF32), "dec" (INPUT is in FORM; the answers are UTF-8: the
decoder) or "str" (INPUT is a []uint16 or a []rune, written in FORM, which
is utf-16-le or utf-32-le; the answers are UTF-8: AppendFromUTF16 and
AppendFromRunes). FORM is a CPython codec name.

Each column is written with the bytes 21..7E but % = and ! as they are and
every other byte as %XX in hex, "-" for no bytes, "=" for the same as the
column before. An answer that ends in an error is OUT!OFFSET!BYTES: the
output before the error, the error's offset (bytes of INPUT, units for
"str") and its bytes (for "str" the unit, high byte first).

Every answer is CPython's codecs with an error handler:

  enc  bytes.decode('utf-8', handler), then .encode(FORM, 'surrogatepass').
       reject is 'strict', replace 'replace', surrogateescape
       'surrogateescape', drop 'ignore', backslashreplace 'backslashreplace';
       windows1252 decodes each ill-formed subpart with 'cp1252' and
       'replace'; optu8 is surrogateescape with each U+DC80..U+DCFF moved to
       U+EF80..U+EFFF, and each U+EF80..U+EFFF of the input escaped byte by
       byte. With WTF8 a 3-byte surrogate is a code point ('surrogatepass')
       and a high surrogate right before a low one in the input is their
       character; ED A0..BF not followed by a continuation byte is one
       subpart, as the WTF-8 spec has it (CPython's UTF-8 decoder, which
       knows no surrogates, makes it two).
  dec  bytes.decode(FORM, handler).encode('utf-8'). reject, replace, drop
       and backslashreplace as above; windows1252 is 'replace'.
       surrogateescape is .decode(FORM, 'surrogatepass').encode('utf-8',
       'surrogateescape'), and optu8 the same with U+EF80..U+EFFF turned
       into bytes 80..FF in place of U+DC80..U+DCFF, both stopping at the
       first error of either step. With WTF8 the handlers try
       'surrogatepass' first, and for UTF-32 a high surrogate followed by a
       low one is their character.
  str  INPUT.decode(FORM, 'surrogatepass') is the str s; the answers are
       s.encode('utf-8', handler), where replace and windows1252 write
       U+FFFD (CPython's 'replace' writes '?').

The error of a high surrogate followed by a truncated unit at the end of
UTF-16 input covers both, as CPython's strict decoder reports it.
"""

import codecs
import random
import sys

assert sys.version_info >= (3, 8)

POLICIES = ["reject", "replace", "surrogateescape", "optu8", "drop", "windows1252", "backslashreplace"]
FORMS = ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]


class Stop(Exception):
    """An answer that ends in an error: out, then the error at off."""

    def __init__(self, out, off, bad):
        self.out, self.off, self.bad = out, off, bad


def width(form):
    return 2 if "16" in form else 4


def is_sur(c):
    return 0xD800 <= ord(c) <= 0xDFFF


def join_pairs(s):
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def cp1252(e):
    return e.object[e.start:e.end].decode("cp1252", "replace"), e.end


codecs.register_error("windows1252", cp1252)
codecs.register_error("fffd", lambda e: ("\ufffd".encode() * (e.end - e.start), e.end))


def chain(first, then):
    def h(e):
        try:
            return codecs.lookup_error(first)(e)
        except UnicodeError:
            return codecs.lookup_error(then)(e)

    return h


for p in ["strict", "replace", "ignore", "backslashreplace", "surrogateescape", "windows1252", "fffd"]:
    codecs.register_error("wtf8" + p, chain("surrogatepass", p))


def optu8_str(s):
    """surrogateescape's str with its escapes moved to U+EF80..U+EFFF and the
    input's own U+EF80..U+EFFF escaped byte by byte."""
    out = []
    for c in s:
        o = ord(c)
        if 0xDC80 <= o <= 0xDCFF:
            out.append(chr(0xEF00 + o - 0xDC00))
        elif 0xEF80 <= o <= 0xEFFF:
            out.extend(chr(0xEF00 + x) for x in c.encode("utf-8"))
        else:
            out.append(c)
    return "".join(out)


# --- enc: UTF-8 in ---------------------------------------------------------


def utf8_tokens(b):
    """Splits b, as WTF-8, into ("text", str), ("sur", surrogate) and
    ("bad", bytes) with their offsets, from CPython's strict decoder."""
    toks, i = [], 0
    while i < len(b):
        try:
            toks.append(("text", b[i:].decode("utf-8"), i))
            break
        except UnicodeDecodeError as e:
            s, end = i + e.start, i + e.end
            if s > i:
                toks.append(("text", b[i:s].decode("utf-8"), i))
            try:
                c = b[s:s + 3].decode("utf-8", "surrogatepass")
            except UnicodeDecodeError:
                c = ""
            if len(c) == 1 and is_sur(c):
                toks.append(("sur", c, s))
                i = s + 3
                continue
            if b[s] == 0xED and s + 1 < len(b) and 0xA0 <= b[s + 1] <= 0xBF:
                end = s + 2
            toks.append(("bad", b[s:end], s))
            i = end
    return toks


def enc_str(b, policy, wtf8):
    """What the Transformer writes for b, as a str of code points."""
    if not wtf8:
        if policy == "reject":
            try:
                return b.decode("utf-8")
            except UnicodeDecodeError as e:
                raise Stop(b[:e.start].decode("utf-8"), e.start, b[e.start:e.end])
        if policy == "optu8":
            return optu8_str(b.decode("utf-8", "surrogateescape"))
        handler = {"drop": "ignore"}.get(policy, policy)
        return b.decode("utf-8", handler)
    out = []
    prev_sur = False
    for kind, v, off in utf8_tokens(b):
        if kind == "sur":
            if prev_sur and 0xDC00 <= ord(v) <= 0xDFFF and 0xD800 <= ord(out[-1]) <= 0xDBFF:
                out[-1] = join_pairs(out[-1] + v)
                prev_sur = False
                continue
            out.append(v)
            prev_sur = True
            continue
        prev_sur = False
        if kind == "text":
            out.append(optu8_str(v) if policy == "optu8" else v)
            continue
        if policy == "reject":
            raise Stop("".join(out), off, v)
        out.append({
            "replace": lambda: "\ufffd",
            "surrogateescape": lambda: "".join(chr(0xDC00 + x) for x in v),
            "optu8": lambda: "".join(chr(0xEF00 + x) for x in v),
            "drop": lambda: "",
            "windows1252": lambda: v.decode("cp1252", "replace"),
            "backslashreplace": lambda: "".join("\\x%02x" % x for x in v),
        }[policy]())
    return "".join(out)


def enc_answer(b, form, policy, wtf8):
    try:
        return enc_str(b, policy, wtf8).encode(form, "surrogatepass"), None
    except Stop as e:
        return e.out.encode(form, "surrogatepass"), (e.off, e.bad)


# --- dec: UTF-16 or UTF-32 in ----------------------------------------------


def unit_error(b, form, off):
    """The bytes of the ill-formed unit at off, as the decoders report it."""
    w = width(form)
    n = w
    if w == 2 and len(b) - off == 3:
        u = int.from_bytes(b[off:off + 2], "little" if form.endswith("le") else "big")
        if 0xD800 <= u <= 0xDBFF:
            n = 3
    return b[off:off + n]


def restore(s, policy, wtf8):
    """Encodes s to UTF-8 restoring the escapes of policy; raises at the first
    code point it cannot write, with its index in s."""
    out = bytearray()
    for i, c in enumerate(s):
        o = ord(c)
        if policy == "surrogateescape" and 0xDC80 <= o <= 0xDCFF:
            out.append(o - 0xDC00)
        elif policy == "optu8" and 0xEF80 <= o <= 0xEFFF:
            out.append(o - 0xEF00)
        elif is_sur(c) and not wtf8:
            raise Stop(bytes(out), i, None)
        else:
            out += c.encode("utf-8", "surrogatepass")
    return bytes(out)


def dec_answer(b, form, policy, wtf8):
    w = width(form)
    if policy in ("surrogateescape", "optu8"):
        err = None
        try:
            s = b.decode(form, "surrogatepass")
        except UnicodeDecodeError as e:
            s = b[:e.start].decode(form, "surrogatepass")
            err = e.start
        if wtf8 and w == 4:
            s = join_pairs(s)
        check = policy == "surrogateescape" and not wtf8
        if check:
            # CPython's own surrogateescape, which restore must agree with.
            # (With WTF8 CPython's handlers take runs of surrogates as one,
            # so restore goes a code point at a time on its own.)
            try:
                se = s.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError as e:
                se = None
        try:
            out = restore(s, policy, wtf8)
            if check:
                assert se == out, (b, se, out)
        except Stop as e:
            if check:
                assert se is None
            off = len(s[:e.off].encode(form, "surrogatepass"))
            return e.out, (off, unit_error(b, form, off))
        if err is not None:
            return out, (err, unit_error(b, form, err))
        return out, None
    if policy == "reject":
        handler = "wtf8strict" if wtf8 else "strict"
        try:
            s = b.decode(form, handler)
        except UnicodeDecodeError as e:
            s = b[:e.start].decode(form, handler)
            if wtf8 and w == 4:
                s = join_pairs(s)
            return s.encode("utf-8", "surrogatepass"), (e.start, b[e.start:e.end])
    else:
        handler = {"drop": "ignore", "windows1252": "replace"}.get(policy, policy)
        s = b.decode(form, "wtf8" + handler if wtf8 else handler)
    if wtf8 and w == 4:
        s = join_pairs(s)
    return s.encode("utf-8", "surrogatepass"), None


# --- str: a []uint16 or a []rune ------------------------------------------


def str_answer(b, form, policy, wtf8):
    s = b.decode(form, "surrogatepass")
    w = width(form)

    def unit_at(i):
        off = len(s[:i].encode(form, "surrogatepass")) // w
        return off, s[i].encode(form.replace("le", "be"), "surrogatepass")

    if wtf8 and w == 4:
        s = join_pairs(s)
    if policy in ("surrogateescape", "optu8"):
        try:
            return restore(s, policy, wtf8), None
        except Stop as e:
            return e.out, unit_at(e.off)
    if wtf8:
        return s.encode("utf-8", "surrogatepass"), None
    if policy == "reject":
        try:
            return s.encode("utf-8"), None
        except UnicodeEncodeError as e:
            return s[:e.start].encode("utf-8"), unit_at(e.start)
    handler = {"drop": "ignore", "replace": "fffd", "windows1252": "fffd"}.get(policy, policy)
    return s.encode("utf-8", handler), None


# --- inputs ------------------------------------------------------------------


def surrogate8(u):
    return bytes([0xE0 | u >> 12, 0x80 | (u >> 6) & 0x3F, 0x80 | u & 0x3F])


def utf8_inputs(rng):
    yield b""
    yield "caf\u00e9.txt".encode()
    yield b"caf\xe9.txt"
    for b in range(0x80, 0x100, 3):
        yield bytes([b])
    for lead in (0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xEF, 0xF0, 0xF4, 0xF5):
        for c in (0x41, 0x80, 0x9F, 0xA0, 0xBF):
            yield bytes([lead, c])
            yield bytes([lead, c, 0x80])
            yield bytes([lead, c, 0x80, 0x80])
    pieces = [b"a", b" ", b"\\", b"\x00", b"\x7f", b"\xef\xbb\xbf"]
    pieces += [chr(r).encode() for r in (0xE9, 0x7FF, 0x800, 0xD55C, 0xD7FF, 0xE000, 0xEF00, 0xEF7F, 0xEF80, 0xEFFF, 0xFEFF, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF)]
    pieces += [surrogate8(u) for u in (0xD800, 0xD83D, 0xDBFF, 0xDC00, 0xDC80, 0xDCFF, 0xDE00, 0xDFFF)]
    pieces += [bytes([b]) for b in (0x80, 0x81, 0x9D, 0xBF, 0xC0, 0xC3, 0xE0, 0xE2, 0xED, 0xEE, 0xF0, 0xF4, 0xF5, 0xFF)]
    pieces += [b"\xed\xa0", b"\xed\xb2", b"\xe2\x82", b"\xf0\x9f", b"\xf0\x9f\x98", b"\xee\xbe"]
    for _ in range(120):
        yield b"".join(rng.choice(pieces) for _ in range(rng.randrange(1, 7)))
    for _ in range(40):
        yield bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12)))
    # Long inputs, which reach the kernels' block loops: runs of text with
    # the pieces above between them.
    text = [chr(r).encode() for r in (0x61, 0x7A, 0x20, 0x0A, 0x416, 0x915, 0x4E2D, 0xAC00, 0x1F600, 0xE9)]
    for _ in range(4):
        out = []
        for _ in range(rng.randrange(3, 6)):
            out.append(b"".join(rng.choice(text) for _ in range(rng.randrange(20, 60))))
            out.append(b"".join(rng.choice(pieces) for _ in range(rng.randrange(1, 4))))
        yield b"".join(out)


def unit_lists(rng):
    """Lists of code units (and a tail of bytes to add at the end)."""
    singles = [0x41, 0x00, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xEF00, 0xEF7F, 0xEF80, 0xEFFF, 0xFEFF, 0xFFFE, 0xFFFD, 0xFFFF,
               0xD800, 0xDBFF, 0xDC00, 0xDC7F, 0xDC80, 0xDCE9, 0xDCFF, 0xDD00, 0xDFFF]
    yield [], b""
    for u in singles:
        for tail in (b"", b"\x41"):
            yield [u], tail
            yield [0x61, u, 0x62], tail
    for hi in (0xD800, 0xD83D, 0xDBFF):
        for lo in (0xDC00, 0xDC80, 0xDE00, 0xDFFF):
            yield [hi, lo], b""
            yield [lo, hi], b""
            yield [hi, hi, lo], b""
            yield [hi, 0x41, lo], b""
            yield [hi], b"\x41"
    yield [0xFEFF, 0x61], b""
    yield [0xFFFE, 0x61], b""
    pool = singles + [0x20, 0x61, 0x430, 0x4E2D, 0xAC00, 0xD83D, 0xDE00]
    for _ in range(120):
        units = [rng.choice(pool) for _ in range(rng.randrange(1, 7))]
        tail = rng.choice([b"", b"", b"", b"\x00", b"\x41\x42", b"\x00\x00\x00"])
        yield units, tail
    # Long lists, which reach the kernels' block loops: runs of text and of
    # surrogate pairs with the units above between them.
    text = [0x61, 0x20, 0x0A, 0x416, 0x915, 0x4E2D, 0xAC00, 0xE9]
    for _ in range(4):
        units = []
        for _ in range(rng.randrange(3, 6)):
            units += [rng.choice(text) for _ in range(rng.randrange(20, 60))]
            units += [0xD83D, 0xDE00] * rng.randrange(0, 12)
            units += [rng.choice(pool) for _ in range(rng.randrange(1, 4))]
        yield units, rng.choice([b"", b"\x41\x42"])


def wide_inputs(form, rng):
    """Inputs in form: unit lists, written with and without their tails; for
    UTF-32 also values above U+10FFFF and code points above U+FFFF."""
    w = width(form)
    order = "little" if form.endswith("le") else "big"
    for units, tail in unit_lists(rng):
        if w == 2:
            b = b"".join(u.to_bytes(2, order) for u in units)
            yield b + tail[:1]
        else:
            b = b"".join(u.to_bytes(4, order) for u in units)
            yield b + tail
    if w == 4:
        for v in (0x10000, 0x1F600, 0x10FFFF, 0x110000, 0xFFFFFFFF, 0x7FFFFFFF):
            yield v.to_bytes(4, order)
            yield b"A\x00\x00\x00"[:: 1 if order == "little" else -1] + v.to_bytes(4, order)


def quote(b):
    if not b:
        return "-"
    return "".join(chr(c) if 0x21 <= c <= 0x7E and c not in b"%=!" else "%%%02X" % c for c in b)


def column(ans):
    out, err = ans
    if err is None:
        return quote(out)
    return "%s!%d!%s" % (quote(out), err[0], quote(err[1]))


def line(kind, form, b, answer):
    cols = []
    for p in POLICIES:
        for wtf8 in (False, True):
            cols.append(column(answer(b, form, p, wtf8)))
    out = [kind, form, quote(b)]
    for i, c in enumerate(cols):
        out.append("=" if i > 0 and c == cols[i - 1] else c)
    return " ".join(out)


def main():
    rng = random.Random(31)
    u8 = []
    seen = set()
    for b in utf8_inputs(rng):
        if b not in seen:
            seen.add(b)
            u8.append(b)
    for form in FORMS:
        for b in u8:
            print(line("enc", form, b, enc_answer))
    for form in FORMS:
        seen = set()
        for b in wide_inputs(form, random.Random(form)):
            if b in seen:
                continue
            seen.add(b)
            print(line("dec", form, b, dec_answer))
            if form.endswith("le") and len(b) % width(form) == 0:
                try:
                    b.decode(form, "surrogatepass")
                except UnicodeDecodeError:
                    continue
                print(line("str", form, b, str_answer))


main()
