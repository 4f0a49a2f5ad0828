//go:build race

package utf8stream

// raceEnabled is set under the race detector, which slows the
// single-goroutine loops of the longest differential tests tenfold
// without checking anything in them (see sampled).
const raceEnabled = true
