package main

import (
	"os"
	"os/signal"
)

// catchSignals makes the signals that end a run from outside (Ctrl-C,
// kill, a closed terminal) remove the temporary files of -o and -w first,
// so that every file is either untouched or wholly converted. The run then
// ends as the signal would have ended it, and the shell sees 128 plus the
// signal's number: 130, 143 or 129. A signal that was ignored when the
// command started, as nohup ignores SIGHUP, stays ignored.
func catchSignals() {
	c := make(chan os.Signal, 1)
	for _, sig := range exitSignals {
		if !signal.Ignored(sig) {
			signal.Notify(c, sig)
		}
	}
	go func() {
		sig := <-c
		removeTemps()
		dieOf(sig)
	}()
}
