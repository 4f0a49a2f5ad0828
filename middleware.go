package utf8stream

// middlewareOptions holds the options that only Middleware uses.
type middlewareOptions struct{}
