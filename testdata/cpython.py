#!/usr/bin/env python3
"""Writes cpython.backslashreplace.golden: CPython's answers for the BackslashReplace policy.

Run from the testdata directory with CPython 3.8 or later:

    python3 cpython.py > cpython.backslashreplace.golden

Each line holds an input and what CPython makes of it, separated by spaces:

    INPUT PLAIN WTF8 BMPONLY WTF8+BMPONLY

each written with the bytes 21..7E but % and = as they are and every other
byte as %XX in hex, "-" for no bytes, and "=" for the same bytes as the
column before.

PLAIN is bytes.decode('utf-8', 'backslashreplace').encode('utf-8'). WTF8
decodes with a handler that tries 'surrogatepass' first (a surrogate encoded
as 3 bytes is a code point) and 'backslashreplace' otherwise, then joins each
high surrogate and the low one right after it, as a UTF-16 round trip with
'surrogatepass' does, and encodes with 'surrogatepass'. BMPONLY then writes
each character above U+FFFF as the backslash escapes of the bytes it came
from: 4, or the 6 of a surrogate pair under WTF8. The inputs are structured
(every byte, every lead byte with a spread of second bytes, the surrogates
and their pairs) and random (a fixed seed, from a pool of pieces that meet
at every boundary).
"""

import codecs
import random
import re
import sys

assert sys.version_info >= (3, 8)


def wtf8_handler(e):
    try:
        return codecs.lookup_error("surrogatepass")(e)
    except UnicodeDecodeError:
        return codecs.lookup_error("backslashreplace")(e)


codecs.register_error("wtf8backslash", wtf8_handler)

ASTRAL = re.compile("[\U00010000-\U0010FFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF]")


def escape(m):
    raw = m.group(0).encode("utf-8", "surrogatepass")
    return "".join("\\x%02x" % b for b in raw)


def pair(s):
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def answers(b):
    plain = b.decode("utf-8", "backslashreplace")
    wtf8 = b.decode("utf-8", "wtf8backslash")
    out = [
        plain,
        pair(wtf8),
        ASTRAL.sub(escape, plain),
        pair(ASTRAL.sub(escape, wtf8)),
    ]
    return [s.encode("utf-8", "surrogatepass") for s in out]


def surrogate(u):
    return bytes([0xE0 | u >> 12, 0x80 | (u >> 6) & 0x3F, 0x80 | u & 0x3F])


def structured():
    seconds = [0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0, 0xED, 0xF0]
    for b in range(256):
        yield bytes([b])
        yield b"a" + bytes([b]) + b"b"
    for lead in range(0xC0, 0x100):
        for c in seconds:
            yield bytes([lead, c])
            yield bytes([lead, c, 0x80])
            yield bytes([lead, c, 0x80, 0x80])
    for c in range(0x80, 0xC0):
        for d in (0x80, 0xBF, 0x41, 0xED):
            yield bytes([0xED, c, d])
    for hi in (0xD800, 0xD83D, 0xDB7F, 0xDB80, 0xDBFF):
        for lo in (0xDC00, 0xDC80, 0xDCFF, 0xDE00, 0xDFFF):
            h, l = surrogate(hi), surrogate(lo)
            yield h + l
            yield l + h
            yield h + h + l
            yield h + l + l
            yield h + b"x" + l
            yield h + b"\xff" + l
            yield h + l[:2]
            yield h[:2] + l
            yield h + l[:1] + b"z"
    for r in (0x10000, 0x1F600, 0x10FFFF, 0xFFFF, 0xFFFD, 0xD7FF, 0xE000):
        s = chr(r).encode("utf-8")
        yield s
        yield s[:-1]
        yield b"x" + s + b"\xc3"


def pieces():
    p = [b"a", b" ", b"\\", b"\\x41", b"\x00", b"\x7f"]
    p += [chr(r).encode("utf-8") for r in (0xE9, 0x7FF, 0x800, 0xD55C, 0xD7FF, 0xE000, 0xFFFD, 0x10000, 0x1F600, 0x10FFFF)]
    p += [surrogate(u) for u in (0xD800, 0xD83D, 0xDBFF, 0xDC00, 0xDC80, 0xDE00, 0xDFFF)]
    p += [surrogate(0xD83D) + surrogate(0xDE00)]
    p += [bytes([b]) for b in (0x80, 0xBF, 0xC0, 0xC1, 0xC3, 0xE0, 0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF)]
    p += [b"\xed\xa0", b"\xed\xb0", b"\xed\x9f", b"\xe2\x82", b"\xf0\x9f", b"\xf0\x9f\x98", b"\xf4\x90\x80"]
    return p


def randomized(rng, n):
    p = pieces()
    for _ in range(n):
        k = rng.randrange(1, 9)
        yield b"".join(rng.choice(p) for _ in range(k))
    for _ in range(n // 4):
        yield bytes(rng.randrange(256) for _ in range(rng.randrange(1, 24)))


def quote(b):
    if not b:
        return "-"
    return "".join(chr(c) if 0x21 <= c <= 0x7E and c not in b"%=" else "%%%02X" % c for c in b)


def main():
    rng = random.Random(25)
    seen = set()
    for b in list(structured()) + list(randomized(rng, 1000)):
        if b in seen:
            continue
        seen.add(b)
        cols = [b] + answers(b)
        print(" ".join("=" if i > 1 and x == cols[i - 1] else quote(x) for i, x in enumerate(cols)))


main()
