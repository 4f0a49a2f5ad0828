package utf8http

import (
	"bytes"
	"compress/zlib"
	"testing"

	"github.com/utf8stream/utf8stream/internal/textgen"
)

func TestAcceptEncoding(t *testing.T) {
	tests := []struct {
		desc      string
		header    []string
		decodable string // "" if unchanged
		gzip      bool
	}{
		{"missing", nil, "", false},
		{"gzip", []string{"gzip"}, "", true},
		{"browser", []string{"gzip, deflate, br, zstd"}, "gzip, deflate", true},
		{"weights", []string{"br;q=1.0, gzip;q=0.8, *;q=0.1"}, "gzip;q=0.8", true},
		{"gzip refused", []string{"gzip;q=0, deflate"}, "", false},
		{"gzip refused with spaces", []string{"gzip ; q = 0.000"}, "", false},
		{"gzip low weight", []string{"gzip;q=0.001"}, "", true},
		{"x-gzip", []string{"X-GZIP"}, "", true},
		{"star", []string{"*"}, "identity", true},
		{"star refused", []string{"*;q=0"}, "identity", false},
		{"star but gzip refused", []string{"*, gzip;q=0"}, "gzip;q=0", false},
		{"br only", []string{"br"}, "identity", false},
		{"identity", []string{"identity"}, "", false},
		{"several fields", []string{"br", "gzip"}, "gzip", true},
		{"empty", []string{""}, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			v, changed := decodableCodings(tc.header)
			if changed != (tc.decodable != "") || v != tc.decodable {
				t.Errorf("decodableCodings(%q) = %q, %v; want %q", tc.header, v, changed, tc.decodable)
			}
			if got := acceptsGzip(tc.header); got != tc.gzip {
				t.Errorf("acceptsGzip(%q) = %v; want %v", tc.header, got, tc.gzip)
			}
		})
	}
}

func TestIsZlibHeader(t *testing.T) {
	text := textgen.Make("latin1", 1000)
	for level := zlib.HuffmanOnly; level <= zlib.BestCompression; level++ {
		var buf bytes.Buffer
		zw, _ := zlib.NewWriterLevel(&buf, level)
		zw.Write(text)
		zw.Close()
		if b := buf.Bytes(); !isZlibHeader(b[0], b[1]) {
			t.Errorf("level %d: zlib header %x not recognized", level, b[:2])
		}
		if b := rawDeflate(t, text); isZlibHeader(b[0], b[1]) {
			t.Errorf("raw deflate %x taken for zlib", b[:2])
		}
	}
	if isZlibHeader('{', '"') || isZlibHeader('x', 'x') {
		t.Error("text taken for zlib")
	}
}
