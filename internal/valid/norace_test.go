//go:build !race

package valid

// raceEnabled is set under the race detector (race_test.go).
const raceEnabled = false
