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
//
// The values are comparable, so they can be map keys: two made with the
// same policy and no options are equal, and each one made with options is
// distinct. Encoding panics if p is not one of the policies.
func Encoding(p Policy, opts ...Option) encoding.Encoding {
	p.check()
	e := enc{p: p}
	if len(opts) > 0 {
		o := append([]Option(nil), opts...)
		e.opts = &o
	}
	return e
}

type enc struct {
	p    Policy
	opts *[]Option // nil without options
}

func (e enc) options() []Option {
	if e.opts == nil {
		return nil
	}
	return *e.opts
}

func (e enc) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: NewTransformer(e.p, e.options()...)}
}

func (e enc) NewEncoder() *encoding.Encoder {
	if e.p == SurrogateEscape || e.p == OPTU8 {
		return &encoding.Encoder{Transformer: NewUnescaper(e.p, e.options()...)}
	}
	return &encoding.Encoder{Transformer: NewTransformer(e.p, e.options()...)}
}

func (e enc) String() string { return "UTF-8 (" + e.p.String() + ")" }
