package repair

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/utf8stream/utf8stream/internal/textgen"
)

// refClassify is blockClass for the 64 bytes at src[:64], worked out one
// position at a time with refUnit, which reads the definitions.
func refClassify(src []byte) blockClass {
	var c blockClass
	for q := range 64 {
		n, valid := refUnit(src[q : q+4])
		bit := uint64(1) << q
		if n >= 2 {
			c.m2 |= bit
		}
		if n >= 3 {
			c.m3 |= bit
		}
		if n >= 4 {
			c.m4 |= bit
		}
		if valid {
			c.v |= bit
		}
	}
	return c
}

// TestClassifyBlocks checks every implementation of classifyBlocks against
// refClassify, on random bytes, on text with errors, and on bytes drawn from
// the ones where Table 3-7 draws its lines.
func TestClassifyBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	edges := []byte{0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
		0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF}
	var inputs [][]byte
	for i := range 200 {
		b := make([]byte, 64*(1+i%9)+3+i%5)
		switch i % 3 {
		case 0:
			for k := range b {
				b[k] = byte(rng.Uint32())
			}
		case 1:
			for k := range b {
				b[k] = edges[rng.IntN(len(edges))]
			}
		default:
			copy(b, textgen.Make([]string{"russian", "chinese", "emoji", "latin1"}[i%4], len(b)))
			for range 1 + i%7 {
				b[rng.IntN(len(b))] = edges[rng.IntN(len(edges))]
			}
		}
		inputs = append(inputs, b)
	}
	for _, name := range ImplNames() {
		t.Run("impl="+name, func(t *testing.T) {
			defer SetImpl(name)()
			for _, b := range inputs {
				// Every offset into the input, so that loads fall
				// everywhere in a cache line.
				for off := 0; off < 8 && off+64+3 <= len(b); off++ {
					src := b[off:]
					out := make([]blockClass, (len(src)-3)/64)
					classifyBlocks(src, out)
					for i, got := range out {
						if want := refClassify(src[64*i:]); got != want {
							t.Fatalf("block %d of % x:\ngot  %+v\nwant %+v", i, src[64*i:64*i+67], got, want)
						}
					}
				}
			}
		})
	}
}

// repairInputs are inputs where ill-formed bytes come at every density, long
// enough for Blocks and its kernel to take whole blocks. (The root
// package's tests have the same.)
func repairInputs() [][]byte {
	rng := rand.New(rand.NewPCG(3, 4))
	bad := []byte{0x80, 0xBF, 0xC0, 0xC3, 0xE0, 0xE2, 0xED, 0xEE, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x00}
	var ins [][]byte
	for _, size := range []int{20, 70, 137, 1000, 5000} {
		for _, per := range []int{1, 5, 30, 100} { // ill-formed bytes per 100
			for _, base := range []string{"latin1", "emoji", "random"} {
				b := textgen.Make(base, size)
				for i := range b {
					if rng.IntN(100) < per {
						b[i] = bad[rng.IntN(len(bad))]
					}
				}
				// Sequences that OPTU8 (and NoNUL) escape, and ones
				// next to them that it copies.
				for _, esc := range []string{"\uEF80", "\uEFFF", "\uEF00", "\uEE80", "\uEDFF"} {
					if i := rng.IntN(size); i+3 <= size && rng.IntN(100) < 5*per {
						copy(b[i:], esc)
					}
				}
				ins = append(ins, b)
			}
		}
	}
	return ins
}

// TestHeldDisjoint checks what the repair kernel's sums rest on: the
// bytes that units starting 1, 2 and 3 bytes before hold, and those that
// the block before's units hold (blockClass.held), have no byte in common,
// on repairInputs, random bytes and runs of lead and continuation bytes.
func TestHeldDisjoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	ins := repairInputs()
	for range 200 {
		b := make([]byte, 64*8)
		for i := range b {
			b[i] = []byte{0x80, 0xBF, 0xC2, 0xE0, 0xED, 0xEE, 0xF0, 0xF4, 0xA0, 0x90}[rng.IntN(10)]
		}
		ins = append(ins, b)
	}
	for _, in := range ins {
		n := len(in) / 64
		if n == 0 {
			continue
		}
		cls := make([]blockClass, n)
		classifyGeneric(append(in[:n*64:n*64], 0, 0, 0), cls)
		var held, heldValid uint64
		for i, c := range cls {
			o1, o2, o3 := c.m2<<1, c.m3<<2, c.m4<<3
			if o1&o2|o1&o3|o2&o3|(o1|o2|o3)&held != 0 {
				t.Fatalf("block %d of %q: held bytes overlap: %#x %#x %#x, held %#x", i, in[64*i:64*i+64], o1, o2, o3, held)
			}
			if heldValid&^held != 0 {
				t.Fatalf("block %d of %q: heldValid %#x not within held %#x", i, in[64*i:64*i+64], heldValid, held)
			}
			held, heldValid = c.held()
		}
	}
}

// forKernels runs f as a subtest under each implementation that has a
// kernel on this machine, and skips t where none has.
func forKernels(t *testing.T, f func(t *testing.T)) {
	ran := false
	for _, name := range ImplNames() {
		restore := SetImpl(name)
		if haveKernel() {
			ran = true
			t.Run("impl="+name, f)
		}
		restore()
	}
	if !ran {
		t.Skip("no kernel")
	}
}

// TestRepairBlocksBounds checks that kernelBlocks refuses the src and dst
// that its kernel would read or write past, and takes those just long
// enough.
func TestRepairBlocksBounds(t *testing.T) {
	forKernels(t, func(t *testing.T) {
		tab := mustTable(specNamed("replace").Spec)
		room := tab.repairRoom()
		const n = 3
		srcLen := 64*(n-1) + 128
		panics := func(srcLen, dstLen int) (p bool) {
			defer func() { p = recover() != nil }()
			src := bytes.Repeat([]byte{0xFF}, srcLen)
			dst := make([]byte, dstLen)
			st := state{first: -1, cleanMax: cleanBlocks, jmax: len(dst) - room}
			kernelBlocks(dst, src, n, tab, &st)
			return false
		}
		for _, tc := range []struct {
			src, dst int
			want     bool
		}{
			{srcLen, 4096, false},
			{srcLen - 1, 4096, true},
		} {
			if got := panics(tc.src, tc.dst); got != tc.want {
				t.Errorf("src %d bytes, dst %d: panic = %v; want %v", tc.src, tc.dst, got, tc.want)
			}
		}
		st := state{first: -1, cleanMax: cleanBlocks, jmax: 4096 - room + 1}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("jmax %d with %d bytes of dst: no panic", st.jmax, 4096)
				}
			}()
			kernelBlocks(make([]byte, 4096), make([]byte, srcLen), n, tab, &st)
		}()
	})
}

// TestRepairClean checks where kernelBlocks stops for st.cleanMax, and the
// st.clean it leaves, against a count of the blocks without an ill-formed
// byte, found one unit at a time with refUnit, for every cleanMax and
// st.clean at the start it may take.
func TestRepairClean(t *testing.T) {
	forKernels(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(13, 14))
		for _, s := range testSpecs {
			tab := mustTable(s.Spec)
			if len(s.Stops) > 0 || tab.maxOut > 3 {
				continue // the kernel takes no such table
			}
			for range 50 {
				const n = batch
				src := textgen.Make("latin1", 64*(n-1)+128)
				for range rng.IntN(12) {
					src[rng.IntN(64*n)] = []byte{0x80, 0xC3, 0xE2, 0xEE, 0xF0, 0xFF}[rng.IntN(6)]
				}
				// dirty[i]: block i holds a byte of an ill-formed subpart.
				var dirty [n]bool
				for q := 0; q < 64*n; {
					k, valid := refUnit(src[q : q+4])
					if !valid || s.Escaped != nil && k == 3 && src[q] == 0xEE && s.Escaped(src[q+1], src[q+2]) {
						for i := q; i < q+k && i < 64*n; i++ {
							dirty[i/64] = true
						}
					}
					q += k
				}
				dst := make([]byte, 3*len(src)+tab.repairRoom())
				for cleanMax := 1; cleanMax <= 9; cleanMax++ {
					for clean0 := range cleanMax {
						wantP, clean := 64*n, clean0
						for i := range n {
							clean++
							if dirty[i] {
								clean = 0
							}
							if clean >= cleanMax {
								wantP = 64 * (i + 1)
								break
							}
						}
						st := state{first: -1, clean: clean0, cleanMax: cleanMax, jmax: len(dst) - tab.repairRoom()}
						kernelBlocks(dst, src, n, tab, &st)
						if st.p != wantP || st.clean != clean {
							t.Fatalf("%s, cleanMax %d, clean %d at the start, dirty %v: stopped at %d with clean %d; want %d and %d",
								s.name, cleanMax, clean0, dirty, st.p, st.clean, wantP, clean)
						}
					}
				}
			}
		}
	})
}

// TestRepairRoom checks that kernelBlocks writes nothing past st.jmax plus
// repairRoom(), under every table it serves, in its scalar loop and in its
// per-byte path, on blocks whose every byte is ill-formed and has the
// longest output: the copy of the last valid run then starts furthest on.
func TestRepairRoom(t *testing.T) {
	forKernels(t, func(t *testing.T) {
		const n = 4 // blocks
		rng := rand.New(rand.NewPCG(9, 10))
		for _, s := range testSpecs {
			tab := mustTable(s.Spec)
			scalar := *tab
			scalar.vec = 0
			for _, tb := range []*Table{tab, &scalar} {
				for _, base := range []string{"bad", "random", "latin1"} {
					src := make([]byte, 64*(n-1)+128)
					if base == "bad" {
						// Lone continuation bytes: each is a
						// subpart, of the longest output.
						for i := range src {
							src[i] = byte(0x80 + rng.IntN(64))
						}
					} else {
						src = textgen.Make(base, len(src))
					}
					room := 64*tb.maxOut*(n-1) + tb.repairRoom()
					for _, canary := range []byte{0x5A, 0xA5} {
						dst := bytes.Repeat([]byte{canary}, room+64)
						st := state{first: -1, cleanMax: n + 1, jmax: room - tb.repairRoom()}
						kernelBlocks(dst, src, n, tb, &st)
						if st.p != 64*n {
							t.Fatalf("%s vec %d, %s: took %d bytes; want %d", s.name, tb.vec, base, st.p, 64*n)
						}
						for i, c := range dst[room:] {
							if c != canary {
								t.Fatalf("%s vec %d, %s: wrote dst[%d], %d bytes past the room", s.name, tb.vec, base, room+i, i+1)
							}
						}
					}
				}
			}
		}
	})
}

// TestRepairTail checks the kernel on a tail of one block, n bytes of
// input that it pads with zeros, with dst only tailRoom(n) long: it reads
// none of the bytes after the n, writes nothing past the room, and its
// output, less the zeros', is the oracle's. (The root package's
// TestRepairTail checks Transform on such tails.)
func TestRepairTail(t *testing.T) {
	forKernels(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(11, 12))
		for _, s := range testSpecs {
			tab := mustTable(s.Spec)
			if len(s.Stops) > 0 || tab.maxOut > 3 {
				continue
			}
			for n := 1; n <= 64; n++ {
				// Each sequence cut short by the end of the tail, after
				// continuation bytes at its start, which a look past the
				// end that wrapped around would take to finish it.
				cuts := []string{"\U0001F600"[:3], "\U0001F600"[:2], "\U0001F600"[:1], "\u4e2d"[:2], "\u4e2d"[:1], "\u00e9"[:1]}
				for _, base := range []string{"bad", "escapes", "random", "latin1", "cut0", "cut1", "cut2", "cut3", "cut4", "cut5"} {
					src := make([]byte, n)
					switch base {
					case "cut0", "cut1", "cut2", "cut3", "cut4", "cut5":
						copy(src, textgen.Make("latin1", n))
						for i := 0; i < 3 && i < n; i++ {
							src[i] = byte(0x80 + rng.IntN(64))
						}
						cut := cuts[base[3]-'0']
						copy(src[max(0, n-len(cut)):], cut)
					case "bad", "escapes":
						for i := range src {
							src[i] = byte(0x80 + rng.IntN(64))
						}
						if base == "escapes" {
							// What OPTU8 escapes: each byte of the
							// sequence to 3 bytes.
							for i := 0; i+3 <= n; i += 3 + rng.IntN(3) {
								copy(src[i:], "\uEF80\uEFBF"[3*rng.IntN(2):])
							}
						}
					default:
						copy(src, textgen.Make(base, n+int(rng.IntN(64))))
					}
					want, _ := refRepair(s.Spec, src)
					room := tab.tailRoom(n)
					for _, canary := range []byte{0x5A, 0xA5} {
						// After src, up to 64 bytes that would change
						// the output if the kernel took them as input.
						in := onePage(3 * 64)
						copy(in, bytes.Repeat([]byte{0xE2, 0x82, canary}, 64))
						copy(in, src)
						dst := bytes.Repeat([]byte{canary}, room+64)
						st := state{first: -1, cleanMax: cleanBlocks}
						kernelTail(dst[:room], in[:n], tab, &st)
						nd, ns := unpad(st.j, st.p, n)
						if ns != n || !bytes.Equal(dst[:nd], want) {
							t.Fatalf("%s, %s, n %d: kernelTail wrote %q for %d bytes; want %q", s.name, base, n, dst[:nd], ns, want)
						}
						for i, c := range dst[room:] {
							if c != canary {
								t.Fatalf("%s, %s, n %d: wrote dst[%d], %d bytes past the room", s.name, base, n, room+i, i+1)
							}
						}
					}
				}
			}
		}
	})
}

// onePage returns n <= 4096 bytes on one page, as kernelTail asks of
// its input.
func onePage(n int) []byte {
	const page = 4096
	if n < 1 || n > page {
		panic("onePage: n must be 1 to 4096")
	}
	b := make([]byte, n+page)
	i := 0
	if off := int(uintptr(unsafe.Pointer(&b[0])) % page); off+n > page {
		i = page - off // the start of the next page
	}
	return b[i : i+n]
}

// TestRepairPerByte checks repairAVX512's per-byte path, which writes a block
// with many ill-formed bytes in one pass, against its loop over each
// ill-formed byte: the same table with vec cleared. The blocks hold from 0
// to 64 ill-formed bytes, on both sides of VEC_MIN, under every table that
// the path serves.
func TestRepairPerByte(t *testing.T) {
	if !slices.Contains(ImplNames(), "avx512") || !perBytePath {
		t.Skip("no per-byte path")
	}
	defer SetImpl("avx512")()
	const n = 8 // blocks
	rng := rand.New(rand.NewPCG(5, 6))
	run := func(tab *Table, src []byte) ([]byte, state) {
		dst := make([]byte, 64*n*tab.maxOut+tab.repairRoom())
		st := state{first: -1, cleanMax: n + 1, jmax: len(dst) - tab.repairRoom()}
		kernelBlocks(dst, src, n, tab, &st)
		return dst[:st.j], st
	}
	modes := map[uint8]bool{}
	for _, s := range testSpecs {
		tab := mustTable(s.Spec)
		if tab.vec == 0 {
			continue
		}
		modes[tab.vec] = true
		scalar := *tab
		scalar.vec = 0
		for _, base := range []string{"latin1", "emoji", "random"} {
			for range 50 {
				src := textgen.Make(base, 64*(n-1)+128)
				for b := range n {
					for range rng.IntN(65) {
						src[64*b+rng.IntN(64)] = byte(0x80 + rng.IntN(128))
					}
				}
				got, gst := run(tab, src)
				want, wst := run(&scalar, src)
				if !bytes.Equal(got, want) || gst != wst {
					t.Fatalf("%s: %q:\nvector %q %+v\nscalar %q %+v", s.name, src, got, gst, want, wst)
				}
			}
		}
	}
	if !modes[1] || !modes[2] {
		t.Errorf("the per-byte path serves modes %v; want 1 (per subpart) and 2 (per byte)", modes)
	}
}

// drive runs Blocks over all of in as a caller does: at each unit that
// Blocks leaves to it, including a byte the table stops at, it writes that
// unit as refRepair does, and it gives the last TailMax bytes or fewer to
// Tail. dst has room for the worst case and BlockRoom more. With record,
// it gathers the subparts that Blocks and Tail report.
func drive(s testSpec, tab *Table, in []byte, record bool) (out []byte, c Counts) {
	c.First = -1
	add := func(at int, cc Counts) {
		if c.First < 0 && cc.First >= 0 {
			c.First = at + cc.First
		}
		c.Subparts += cc.Subparts
		c.Bytes += cc.Bytes
		c.Escaped += cc.Escaped
	}
	var rec func(off, n int)
	for i := 0; i < len(in); {
		if record {
			rec = func(off, n int) {
				if k, valid := refUnit(in[i+off:]); valid || k != n {
					panic("record: not an ill-formed subpart")
				}
				add(i, Counts{Subparts: 1, Bytes: n, First: off})
			}
		}
		dst := make([]byte, 3*len(in[i:])+tab.BlockRoom())
		var nd, ns int
		var cc Counts
		if len(in)-i <= TailMax {
			nd, ns = tab.Tail(dst, in[i:], rec, &cc)
		} else {
			nd, ns = tab.Blocks(dst, in[i:], rec, &cc)
		}
		if record && (cc.Subparts != 0 || cc.First != -1) {
			panic("Counts with a record function")
		}
		out = append(out, dst[:nd]...)
		add(i, cc)
		i += ns
		if i == len(in) {
			break
		}
		n, _ := refUnit(in[i:])
		o, cc := refRepair(s.Spec, in[i:i+n])
		out = append(out, o...)
		add(i, cc)
		i += n
	}
	return out, c
}

// TestBlocks checks Blocks and Tail, as drive runs them, against refRepair
// under every table and implementation, with and without a record
// function: the output, the counts, and where the first subpart is.
func TestBlocks(t *testing.T) {
	ins := repairInputs()
	rng := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{1, 5, 63, 64, 65, 100, 135, 136, 137, 200} {
		b := textgen.Make("random", n)
		b[rng.IntN(n)] = 0 // a stop under NoNUL
		ins = append(ins, b)
	}
	for _, name := range ImplNames() {
		t.Run("impl="+name, func(t *testing.T) {
			defer SetImpl(name)()
			for _, s := range testSpecs {
				tab := mustTable(s.Spec)
				for _, in := range ins {
					want, wc := refRepair(s.Spec, in)
					for _, record := range []bool{false, true} {
						got, gc := drive(s, tab, in, record)
						if record {
							gc.Escaped, wc.Escaped = 0, 0 // only the kernel escapes, with no record
						}
						if !bytes.Equal(got, want) || gc != wc {
							t.Fatalf("%s, record %v: %q:\ngot  %q %+v\nwant %q %+v", s.name, record, in, got, gc, want, wc)
						}
					}
				}
			}
		})
	}
}

// TestRepairEscapeTable checks where the kernel writes the escapes of
// well-formed sequences itself (esc): under a table with Escaped and no
// stops, as for OPTU8, and not with a stop, as for OPTU8 with NoNUL.
func TestRepairEscapeTable(t *testing.T) {
	for _, tc := range []struct {
		spec string
		esc  bool
	}{
		{"optu8", true},
		{"optu8+nonul", false},
		{"replace", false},
		{"surrogateescape", false},
	} {
		if got := mustTable(specNamed(tc.spec).Spec).esc; got != tc.esc {
			t.Errorf("%s: esc = %v; want %v", tc.spec, got, tc.esc)
		}
	}
}

// BenchmarkRepairBlocks measures each repair kernel alone: one call
// on a batch of blocks, with no Go loop around it and no early stop, on
// valid text (every block clean), 1% ill-formed text (about half the blocks
// clean) and random bytes (none), so that a change to the kernel can be
// measured per block.
func BenchmarkRepairBlocks(b *testing.B) {
	const n = batch
	for _, impl := range ImplNames() {
		restore := SetImpl(impl)
		if haveKernel() {
			for _, name := range []string{"latin1", "invalid1pct", "random"} {
				src := textgen.Make(name, 64*(n-1)+128)
				for _, p := range []string{"replace", "optu8"} {
					tab := mustTable(specNamed(p).Spec)
					dst := make([]byte, 64*n*tab.maxOut+tab.repairRoom())
					b.Run("input="+name+"/policy="+p+"/impl="+impl, func(b *testing.B) {
						b.SetBytes(64 * n)
						b.ReportAllocs()
						for b.Loop() {
							st := state{first: -1, cleanMax: n + 1, jmax: len(dst) - tab.repairRoom()}
							kernelBlocks(dst, src, n, tab, &st)
						}
					})
				}
			}
		}
		restore()
	}
}

// TestRepairGODEBUG runs this test binary again with GODEBUG turning off
// CPU features, and checks which implementation it picks: the AVX-512
// kernel goes with internal/valid's AVX-512 kernel, the AVX2 kernel with
// its AVX2 kernel.
func TestRepairGODEBUG(t *testing.T) {
	if os.Getenv("REPAIR_PRINT_IMPL") != "" {
		names := ImplNames()
		fmt.Printf("impl=%s best=%s\n", impls[impl].Name, names[len(names)-1])
		return
	}
	if testing.Short() {
		t.Skip("runs the test binary again")
	}
	if runtime.GOARCH != "amd64" {
		t.Skip("the GODEBUG switches of the kernels are amd64's")
	}
	for _, tc := range []struct{ godebug, want string }{
		{"", "best"},                // the fastest that the CPU has
		{"cpu.avx512f=off", "best"}, // avx2 where the CPU has it, and not avx512
		{"cpu.avx2=off", "generic"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRepairGODEBUG$", "-test.count=1")
		env := []string{"REPAIR_PRINT_IMPL=1", "GODEBUG=" + tc.godebug}
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "GODEBUG=") {
				env = append(env, kv)
			}
		}
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("GODEBUG=%s: %v\n%s", tc.godebug, err, out)
		}
		var got, best string
		if _, err := fmt.Sscanf(string(out), "impl=%s best=%s", &got, &best); err != nil {
			t.Fatalf("GODEBUG=%s: output %q: %v", tc.godebug, out, err)
		}
		if tc.want == "best" {
			tc.want = best
		}
		if got != tc.want || tc.godebug == "cpu.avx512f=off" && got == "avx512" {
			t.Errorf("GODEBUG=%s: impl=%s; want %s", tc.godebug, got, tc.want)
		}
	}
}

// FuzzClassifyBlocks checks every implementation of classifyBlocks against
// refClassify on the blocks of the input, at each of the first 8 offsets
// into it.
func FuzzClassifyBlocks(f *testing.F) {
	for _, in := range repairInputs()[:24] {
		f.Add(in)
	}
	f.Add(bytes.Repeat([]byte("\xed\xa0\x80\xf0\x90\x80\xe2\x82\xc0\xaf\xf4\x90"), 12))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, name := range ImplNames() {
			restore := SetImpl(name)
			for off := 0; off < 8 && off+64+3 <= len(in); off++ {
				src := in[off:]
				out := make([]blockClass, (len(src)-3)/64)
				classifyBlocks(src, out)
				for i, got := range out {
					if want := refClassify(src[64*i:]); got != want {
						restore()
						t.Fatalf("impl=%s: block %d of % x:\ngot  %+v\nwant %+v", name, i, src[64*i:64*i+67], got, want)
					}
				}
			}
			restore()
		}
	})
}

// FuzzBlocks checks Blocks and Tail, as drive runs them, against refRepair
// under every table and implementation, as TestBlocks does.
func FuzzBlocks(f *testing.F) {
	for _, in := range repairInputs()[:24] {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, name := range ImplNames() {
			restore := SetImpl(name)
			for _, s := range testSpecs {
				want, wc := refRepair(s.Spec, in)
				for _, record := range []bool{false, true} {
					got, gc := drive(s, mustTable(s.Spec), in, record)
					if record {
						gc.Escaped, wc.Escaped = 0, 0
					}
					if !bytes.Equal(got, want) || gc != wc {
						restore()
						t.Fatalf("impl=%s, %s, record %v: %q:\ngot  %q %+v\nwant %q %+v", name, s.name, record, in, got, gc, want, wc)
					}
				}
			}
			restore()
		}
	})
}

// TestKernels fails where the CPU advertises an instruction set whose
// kernels cannot run here, rather than letting the tests that loop over
// ImplNames skip them without a word, and logs which kernels run.
func TestKernels(t *testing.T) {
	summary, err := kernels.Check()
	if err != nil {
		t.Fatal(err)
	}
	t.Log(summary)
}

// TestNewTableLongOutput checks that NewTable refuses an output longer
// than MaxOut bytes, and takes one of MaxOut bytes, whose Room and
// BlockRoom stay within MaxRoom, as they do for every test Spec.
func TestNewTableLongOutput(t *testing.T) {
	for n := MaxOut - 1; n <= MaxOut+2; n++ {
		out := func(dst []byte, b byte) int { return copy(dst, "0123456789abcdef"[:n]) }
		for _, perByte := range []bool{false, true} {
			tab, err := NewTable(Spec{Out: out, PerByte: perByte})
			if n > MaxOut {
				if err != ErrLongOutput || tab != nil {
					t.Errorf("NewTable(%d-byte output) = %v, %v; want nil, ErrLongOutput", n, tab, err)
				}
				continue
			}
			if err != nil || tab.maxOut != n {
				t.Fatalf("NewTable(%d-byte output) = %v; want a table with maxOut %d", n, err, n)
			}
		}
	}
	specs := append([]testSpec{{"8 bytes", Spec{Out: func(dst []byte, b byte) int { return copy(dst, "01234567") }}}}, testSpecs...)
	for _, s := range specs {
		tab := mustTable(s.Spec)
		if tab.BlockRoom() > MaxRoom || tab.Room(TailMax) > MaxRoom {
			t.Errorf("%s: BlockRoom %d, Room(TailMax) %d; MaxRoom is %d", s.name, tab.BlockRoom(), tab.Room(TailMax), MaxRoom)
		}
	}
}
