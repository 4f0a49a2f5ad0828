//go:build !race

package utf8stream

// raceEnabled is set under the race detector (race_test.go).
const raceEnabled = false
