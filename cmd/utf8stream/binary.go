package main

import (
	"bytes"
	"fmt"
)

// binaryHead is how many leading bytes of an input binaryKind looks at, as
// grep does.
const binaryHead = 8 << 10

// signatures are the magic numbers of common binary formats that need not
// hold a NUL byte near their start.
var signatures = []struct {
	magic string
	kind  string
}{
	{"\x89PNG\r\n\x1a\n", "PNG"},
	{"\xff\xd8\xff", "JPEG"},
	{"GIF87a", "GIF"},
	{"GIF89a", "GIF"},
	{"%PDF-", "PDF"},
	{"\x7fELF", "ELF"},
	{"\xfe\xed\xfa\xce", "Mach-O"},
	{"\xfe\xed\xfa\xcf", "Mach-O"},
	{"\xce\xfa\xed\xfe", "Mach-O"},
	{"\xcf\xfa\xed\xfe", "Mach-O"},
	{"\xca\xfe\xba\xbe", "Mach-O or Java class"},
	{"\x1f\x8b", "gzip"},
	{"BZh", "bzip2"}, // with "1AY&SY" after the block size, below
	{"\xfd7zXZ\x00", "xz"},
	{"\x28\xb5\x2f\xfd", "zstd"},
	{"PK\x03\x04", "zip"},
	{"PK\x05\x06", "zip"},
	{"PK\x07\x08", "zip"},
	{"7z\xbc\xaf\x27\x1c", "7z"},
}

// binaryKind returns why an input whose first bytes are head looks binary,
// or "" when it looks like text: a NUL byte in its first binaryHead bytes,
// or one of the signatures at its start.
func binaryKind(head []byte) string {
	head = head[:min(len(head), binaryHead)]
	for _, s := range signatures {
		if !bytes.HasPrefix(head, []byte(s.magic)) {
			continue
		}
		if s.kind == "bzip2" && !(len(head) >= 10 && '1' <= head[3] && head[3] <= '9' && string(head[4:10]) == "1AY&SY") {
			continue
		}
		return s.kind + " signature"
	}
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return fmt.Sprintf("NUL byte at offset %d", i)
	}
	return ""
}
