package utf8stream

import (
	"golang.org/x/text/encoding"
)

// Encoding returns an [encoding.Encoding] for UTF-8 under policy p, so that
// code written against golang.org/x/text/encoding (Decoder.Reader,
// Decoder.Bytes, an htmlindex or charset lookup that can be given an
// Encoding) can use this package unchanged.
//
// Its decoder applies p with opts, as [NewTransformer] does. Its encoder
// goes the other way: for [SurrogateEscape] and [OPTU8] it is an
// [Unescaper], which restores the original bytes; for the other policies,
// which have nothing to restore, it applies p again, so that what it writes
// is the same as what the decoder writes.
func Encoding(p Policy, opts ...Option) encoding.Encoding {
	return enc{p, opts}
}

type enc struct {
	p    Policy
	opts []Option
}

func (e enc) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: NewTransformer(e.p, e.opts...)}
}

func (e enc) NewEncoder() *encoding.Encoder {
	if e.p == SurrogateEscape || e.p == OPTU8 {
		return &encoding.Encoder{Transformer: NewUnescaper(e.p, e.opts...)}
	}
	return &encoding.Encoder{Transformer: NewTransformer(e.p, e.opts...)}
}

func (e enc) String() string { return "UTF-8 (" + e.p.String() + ")" }
