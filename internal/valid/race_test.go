//go:build race

package valid

// raceEnabled is set under the race detector, which slows the
// single-goroutine loops of the longest tests tenfold without checking
// anything in them: they take a sample there under -short.
const raceEnabled = true
