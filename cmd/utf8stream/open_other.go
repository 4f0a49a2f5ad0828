//go:build !unix

package main

import "os"

// openRead opens the file name for reading.
func openRead(name string) (*os.File, error) { return os.Open(name) }
