//go:build gc && !purego

package repair

import (
	"slices"
	"testing"
	"unsafe"

	"github.com/utf8stream/utf8stream/internal/asmcheck"
)

// TestRepairLayout checks the frames of the repair kernels against what
// they hold: the blockClass of batch blocks, then three words, ending at
// frameSize. The offsets of state's and Table's fields come from go_asm.h.
func TestRepairLayout(t *testing.T) {
	if want := batch*int(unsafe.Sizeof(blockClass{})) + 3*8; frameSize != want {
		t.Errorf("frameSize = %d; %d blockClass and 3 words take %d", frameSize, batch, want)
	}
	funcs, err := asmcheck.ParseDir(".", "*_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"·repairAVX512", "·repairAVX2"} {
		i := slices.IndexFunc(funcs, func(f asmcheck.Func) bool { return f.Name == name })
		if i < 0 {
			t.Errorf("%s not found", name)
		} else if funcs[i].Frame != frameSize {
			t.Errorf("%s: %s's frame is %d bytes; frameSize is %d", funcs[i].File, name, funcs[i].Frame, frameSize)
		}
	}
}
