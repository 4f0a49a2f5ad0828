//go:build !unix

package main

import "os"

// exitSignals are the signals that catchSignals catches.
var exitSignals = []os.Signal{os.Interrupt}

// dieOf ends the program with the status of an interrupted command.
func dieOf(os.Signal) { os.Exit(130) }
