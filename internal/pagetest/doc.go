// Package pagetest gives tests memory that faults just outside it, so that
// a test can show that a kernel reads and writes nothing past its slices.
// It is for tests only, and on Linux only.
package pagetest
