//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// exitSignals are the signals that catchSignals catches.
var exitSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// dieOf ends the program by the signal sig, so that the shell knows it was
// interrupted: a shell running a script stops the script after a command
// killed by SIGINT, and goes on after one that merely exited.
func dieOf(sig os.Signal) {
	s := sig.(syscall.Signal)
	signal.Reset(s)
	syscall.Kill(os.Getpid(), s)
	time.Sleep(time.Second)
	os.Exit(128 + int(s))
}
