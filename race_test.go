//go:build race

package utf8stream

// raceEnabled is set under the race detector, which slows the
// single-goroutine loops of the longest differential tests tenfold
// without checking anything in them: under -short they take a smaller
// sample there, and their full sample in the runs without it.
const raceEnabled = true
