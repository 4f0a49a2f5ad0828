package utf8stream

import "os"

// sampled makes the longest differential tests take a sample under -short
// where their single-goroutine loops run many times slower without being
// any other code than in the native runs, which take them whole: under the
// race detector (raceEnabled), and where UTF8STREAM_TEST_SAMPLE is set, as
// CI does for its runs under qemu-user and Node.
var sampled = raceEnabled || os.Getenv("UTF8STREAM_TEST_SAMPLE") != ""
