package utf8stream

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/transform"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// TestGolden transforms each testdata/NAME.input under every policy and
// compares with NAME.<policy>.golden. The goldens are checked against the
// oracle too, so -update cannot freeze a wrong answer. Under Reject the
// golden holds the output before the error, then a line with the error.
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/*.input")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no testdata/*.input: %v", err)
	}
	for _, path := range inputs {
		in, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range allPolicies {
			name := strings.TrimSuffix(path, ".input") + "." + p.String() + ".golden"
			got, _, err := transform.Bytes(NewTransformer(p), in)
			if err != nil {
				got = append(got, "\n--- "+err.Error()+"\n"...)
			}
			want, errOff, _ := refTransform(p, in, refOpts{})
			if !bytes.HasPrefix(got, want) || (errOff >= 0) != (err != nil) {
				t.Fatalf("%s: output disagrees with the oracle", name)
			}
			if *update {
				if err := os.WriteFile(name, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			golden, err := os.ReadFile(name)
			if err != nil {
				t.Fatalf("%v (run go test -run Golden -update)", err)
			}
			if !bytes.Equal(got, golden) {
				t.Errorf("%s: output differs from the golden file (run go test -run Golden -update to accept)", name)
			}
		}
	}
}
