package utf8stream

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/utf8stream/utf8stream/internal/textgen"
	"golang.org/x/text/transform"
)

// refClassify is blockClass for the 64 bytes at src[:64], worked out one
// position at a time with scan, which reads the definition of Table 3-7.
func refClassify(src []byte) blockClass {
	var c blockClass
	for q := range 64 {
		n, st := scan(src[q : q+4])
		if st == short {
			panic("scan: 4 bytes always decide")
		}
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
		if st == complete {
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
	for _, name := range implNames() {
		t.Run("impl="+name, func(t *testing.T) {
			defer setImpl(name)()
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

// denseInputs are inputs where ill-formed bytes come at every density, long
// enough for denseFast and its kernel to take whole blocks.
func denseInputs() [][]byte {
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

// TestDenseImpls checks Transform, Reader and Writer against the oracle on
// denseInputs under every policy, each option of the fuzz target alone and all
// together, and
// every implementation, so that denseFast's Go loop and its kernel are both
// covered, and checks that they agree on the Stats.
func TestDenseImpls(t *testing.T) {
	ins := denseInputs()
	for _, name := range implNames() {
		t.Run("impl="+name, func(t *testing.T) {
			defer setImpl(name)()
			for _, o := range []uint8{0, 1, 2, 4, 8, 16, 31} {
				opts, ro := fuzzOptions(o)
				for _, p := range allPolicies {
					for _, in := range ins {
						want, errOff, _ := refTransform(p, in, ro)
						tr := NewTransformer(p, opts...)
						got, _, err := transform.Bytes(tr, in)
						if (err != nil) != (errOff >= 0) || !bytes.Equal(got, want) {
							t.Fatalf("%v opts %#x: Transform(%q) = %q, %v; want %q", p, o, in, got, err, want)
						}
						if p == Reject {
							continue
						}
						var buf bytes.Buffer
						wr := NewWriter(&buf, p, opts...)
						wr.Write(in[:len(in)/3])
						wr.Write(in[len(in)/3:])
						if err := wr.Close(); err != nil || !bytes.Equal(buf.Bytes(), want) {
							t.Fatalf("%v opts %#x: Writer(%q) = %q, %v; want %q", p, o, in, buf.Bytes(), err, want)
						}
						rgot, err := io.ReadAll(NewReader(bytes.NewReader(in), p, opts...))
						if err != nil || !bytes.Equal(rgot, want) {
							t.Fatalf("%v opts %#x: Reader(%q) = %q, %v; want %q", p, o, in, rgot, err, want)
						}
						// Reads of 300 bytes: dst has room for a
						// few blocks at a time.
						rgot, err = readSmall(NewReader(bytes.NewReader(in), p, opts...), 300)
						if err != io.EOF || !bytes.Equal(rgot, want) {
							t.Fatalf("%v opts %#x: Reader(%q), reads of 300 = %q, %v; want %q", p, o, in, rgot, err, want)
						}
						if tr.Stats() != wr.Stats() {
							t.Fatalf("%v opts %#x: Stats: Transformer %+v, Writer %+v", p, o, tr.Stats(), wr.Stats())
						}
					}
				}
			}
		})
	}
}

// TestRepairEscapes checks OPTU8 on dense input that holds the valid
// sequences it escapes (EE BE xx, EE BF xx), and others like them that it
// copies or that are ill-formed, at every offset of the first few blocks.
// Under OPTU8 alone repairAVX512 writes the escapes itself (tab.esc); with
// NoNUL it leaves them to denseFast's Go loop. The output must match the
// oracle's, and the Stats, Escaped among them, those of every other
// implementation.
func TestRepairEscapes(t *testing.T) {
	seqs := []string{"\uEF80", "\uEFBF", "\uEFC0", "\uEFFF", "\uEF7F",
		"\xEE\xBE", "\xEE\xBF\x41", "\xEE\xBE\xBE\xBE"}
	rng := rand.New(rand.NewPCG(7, 8))
	var escaped int64
	for _, o := range []uint8{0, 1} {
		opts, ro := fuzzOptions(o)
		if tab := denseTableFor(&NewTransformer(OPTU8, opts...).c); tab.esc != (o == 0) {
			t.Fatalf("opts %#x: tab.esc = %v", o, tab.esc)
		}
		for _, base := range []string{"invalid1pct", "random"} {
			for at := range 300 {
				in := textgen.Make(base, 1000)
				copy(in[at:], seqs[at%len(seqs)])
				for range 3 {
					copy(in[rng.IntN(len(in)-4):], seqs[rng.IntN(len(seqs))])
				}
				want, _, _ := refTransform(OPTU8, in, ro)
				var first Stats
				for i, name := range implNames() {
					restore := setImpl(name)
					tr := NewTransformer(OPTU8, opts...)
					got, _, err := transform.Bytes(tr, in)
					restore()
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("opts %#x impl=%s: Transform(%q) = %q, %v; want %q", o, name, in, got, err, want)
					}
					if i == 0 {
						first = tr.Stats()
						escaped += first.Escaped
					} else if tr.Stats() != first {
						t.Fatalf("opts %#x: %q: Stats: impl=%s %+v, impl=%s %+v", o, in, name, tr.Stats(), implNames()[0], first)
					}
				}
			}
		}
	}
	if escaped == 0 {
		t.Error("no input held an escape")
	}
}

// TestRepairPairs checks the block loop on every lead byte followed by
// every continuation byte, with two continuation bytes after them, among
// random bytes at the start, the middle and the end of a block, against
// the oracle, under Replace and OPTU8: OPTU8's classification tells EE BE
// and EE BF, which it escapes, from every other pair by a bit of the lead
// byte's table and one of the second byte's, which random input alone
// seldom reaches.
func TestRepairPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	base := make([]byte, 300)
	for i := range base {
		base[i] = byte(rng.Uint32())
	}
	for _, p := range []Policy{Replace, OPTU8} {
		for _, name := range implNames() {
			restore := setImpl(name)
			for lead := 0xC0; lead <= 0xFF; lead++ {
				for second := 0x80; second <= 0xBF; second++ {
					in := bytes.Clone(base)
					for _, at := range []int{64, 64 + 30, 128 - 2} {
						copy(in[at:], []byte{byte(lead), byte(second), 0x80, 0xBF})
					}
					want, _, _ := refTransform(p, in, refOpts{})
					got, _, err := transform.Bytes(NewTransformer(p), in)
					if err != nil || !bytes.Equal(got, want) {
						restore()
						t.Fatalf("%v impl=%s, % x: got %q, %v; want %q", p, name, in[64:68], got, err, want)
					}
				}
			}
			restore()
		}
	}
}

// TestHeldDisjoint checks what the repair kernel's sums rest on: the
// bytes that units starting 1, 2 and 3 bytes before hold, and those that
// the block before's units hold (blockClass.held), have no byte in common,
// on denseInputs, random bytes and runs of lead and continuation bytes.
func TestHeldDisjoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	ins := denseInputs()
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

// TestRepairLayout checks the offsets that dense_amd64.s defines for the
// fields of repairState and denseTable (its ST_ and TAB_ constants)
// against the Go types.
func TestRepairLayout(t *testing.T) {
	var st repairState
	var tab denseTable
	want := map[string]uintptr{
		"ST_HELD":      unsafe.Offsetof(st.held),
		"ST_HELDVALID": unsafe.Offsetof(st.heldValid),
		"ST_P":         unsafe.Offsetof(st.p),
		"ST_J":         unsafe.Offsetof(st.j),
		"ST_JMAX":      unsafe.Offsetof(st.jmax),
		"ST_SUBPARTS":  unsafe.Offsetof(st.subparts),
		"ST_NBYTES":    unsafe.Offsetof(st.nbytes),
		"ST_FIRST":     unsafe.Offsetof(st.first),
		"ST_CLEAN":     unsafe.Offsetof(st.clean),
		"ST_CLEANMAX":  unsafe.Offsetof(st.cleanMax),
		"ST_ESCAPED":   unsafe.Offsetof(st.escaped),
		"ST_TAIL":      unsafe.Offsetof(st.tail),
		"TAB_N":        unsafe.Offsetof(tab.n),
		"TAB_VOUT":     unsafe.Offsetof(tab.vout),
		"TAB_VLEN":     unsafe.Offsetof(tab.vlen),
		"TAB_VEC":      unsafe.Offsetof(tab.vec),
		"TAB_ESC":      unsafe.Offsetof(tab.esc),
	}
	src, err := os.ReadFile("dense_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, m := range regexp.MustCompile(`(?m)^#define ((?:ST|TAB)_\w+) (\d+)$`).FindAllSubmatch(src, -1) {
		name := string(m[1])
		off, _ := strconv.Atoi(string(m[2]))
		w, ok := want[name]
		if !ok {
			t.Errorf("dense_amd64.s defines %s, which this test does not know", name)
			continue
		}
		seen++
		if uintptr(off) != w {
			t.Errorf("dense_amd64.s: %s = %d; the Go type has it at %d", name, off, w)
		}
	}
	if seen != len(want) {
		t.Errorf("dense_amd64.s defines %d of the %d offsets", seen, len(want))
	}
	// repairAVX512 takes at most REPAIR_BATCH blocks, and its frame holds
	// their blockClass and then the words ESC_ANY, CLEAN_END and
	// DIRTY_STEP: a smaller batch there would send the blocks past it to
	// the Go loop, a larger one would write past the frame.
	batch := regexp.MustCompile(`(?m)^#define REPAIR_BATCH (\d+)$`).FindSubmatch(src)
	frame := regexp.MustCompile(`(?m)^TEXT ·repairAVX512\(SB\), \$(\d+)-`).FindSubmatch(src)
	if batch == nil || frame == nil {
		t.Fatal("dense_amd64.s: REPAIR_BATCH or repairAVX512's frame not found")
	}
	if n, _ := strconv.Atoi(string(batch[1])); n != repairBatch {
		t.Errorf("dense_amd64.s: REPAIR_BATCH = %d; repairBatch = %d", n, repairBatch)
	}
	classes := repairBatch * unsafe.Sizeof(blockClass{})
	words := []string{"ESC_ANY", "CLEAN_END", "DIRTY_STEP"}
	for i, w := range words {
		m := regexp.MustCompile(`(?m)^#define ` + w + ` (\d+)$`).FindSubmatch(src)
		if m == nil {
			t.Errorf("dense_amd64.s: %s not found", w)
		} else if n, _ := strconv.Atoi(string(m[1])); uintptr(n) != classes+8*uintptr(i) {
			t.Errorf("dense_amd64.s: %s = %d; after %d blockClass it is at %d", w, n, repairBatch, classes+8*uintptr(i))
		}
	}
	if n, _ := strconv.Atoi(string(frame[1])); uintptr(n) != classes+8*uintptr(len(words)) {
		t.Errorf("dense_amd64.s: repairAVX512's frame is %d bytes; %d blockClass and %d words take %d", n, repairBatch, len(words), classes+8*uintptr(len(words)))
	}
}

// TestRepairBlocksBounds checks that repairBlocks refuses the src and dst
// that its kernel would read or write past, and takes those just long
// enough.
func TestRepairBlocksBounds(t *testing.T) {
	if !haveRepair() {
		t.Skip("no repair kernel")
	}
	tab := denseTableFor(&NewTransformer(Replace).c)
	room := tab.repairRoom()
	const n = 3
	srcLen := 64*(n-1) + 128
	panics := func(srcLen, dstLen int) (p bool) {
		defer func() { p = recover() != nil }()
		src := bytes.Repeat([]byte{0xFF}, srcLen)
		dst := make([]byte, dstLen)
		st := repairState{first: -1, cleanMax: cleanBlocks, jmax: len(dst) - room}
		repairBlocks(dst, src, n, tab, &st)
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
	st := repairState{first: -1, cleanMax: cleanBlocks, jmax: 4096 - room + 1}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("jmax %d with %d bytes of dst: no panic", st.jmax, 4096)
			}
		}()
		repairBlocks(make([]byte, 4096), make([]byte, srcLen), n, tab, &st)
	}()
}

// TestRepairClean checks where repairBlocks stops for st.cleanMax, and the
// st.clean it leaves, against a count of the blocks without an ill-formed
// byte, found one unit at a time with scan, for every cleanMax and st.clean
// at the start it may take.
func TestRepairClean(t *testing.T) {
	if !haveRepair() {
		t.Skip("no repair kernel")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for _, p := range []Policy{Replace, OPTU8} {
		tab := denseTableFor(&NewTransformer(p).c)
		for range 50 {
			const n = repairBatch
			src := textgen.Make("latin1", 64*(n-1)+128)
			for range rng.IntN(12) {
				src[rng.IntN(64*n)] = []byte{0x80, 0xC3, 0xE2, 0xEE, 0xF0, 0xFF}[rng.IntN(6)]
			}
			// dirty[i]: block i holds a byte of an ill-formed subpart.
			var dirty [n]bool
			for q := 0; q < 64*n; {
				k, st := scan(src[q : q+4])
				if st != complete || p == OPTU8 && k == 3 && src[q] == 0xEE && src[q+1] >= 0xBE {
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
					st := repairState{first: -1, clean: clean0, cleanMax: cleanMax, jmax: len(dst) - tab.repairRoom()}
					repairBlocks(dst, src, n, tab, &st)
					if st.p != wantP || st.clean != clean {
						t.Fatalf("%v, cleanMax %d, clean %d at the start, dirty %v: stopped at %d with clean %d; want %d and %d",
							p, cleanMax, clean0, dirty, st.p, st.clean, wantP, clean)
					}
				}
			}
		}
	}
}

// TestRepairRoom checks that repairBlocks writes nothing past st.jmax plus
// repairRoom(), under every table it serves, in its scalar loop and in its
// vector path, on blocks whose every byte is ill-formed and has the
// longest output: the copy of the last valid run then starts furthest on.
func TestRepairRoom(t *testing.T) {
	if !haveRepair() {
		t.Skip("no repair kernel")
	}
	const n = 4 // blocks
	rng := rand.New(rand.NewPCG(9, 10))
	for _, p := range allPolicies {
		for _, o := range []uint8{0, 16} {
			opts, _ := fuzzOptions(o)
			tab := denseTableFor(&NewTransformer(p, opts...).c)
			if tab == nil {
				continue
			}
			scalar := *tab
			scalar.vec = 0
			for _, tb := range []*denseTable{tab, &scalar} {
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
						st := repairState{first: -1, cleanMax: n + 1, jmax: room - tb.repairRoom()}
						repairBlocks(dst, src, n, tb, &st)
						if st.p != 64*n {
							t.Fatalf("%v opts %#x vec %d, %s: took %d bytes; want %d", p, o, tb.vec, base, st.p, 64*n)
						}
						for i, c := range dst[room:] {
							if c != canary {
								t.Fatalf("%v opts %#x vec %d, %s: wrote dst[%d], %d bytes past the room", p, o, tb.vec, base, room+i, i+1)
							}
						}
					}
				}
			}
		}
	}
}

// TestRepairTail checks the kernel on a tail of one block, n bytes of
// input that it pads with zeros, with dst only tailRoom(n) long: it reads
// none of the bytes after the n, writes nothing past the room, and its
// output, less the zeros', is the oracle's. It then
// checks Transform on tails of up to denseTailMax bytes after a valid
// byte, into a dst that holds the worst case and 64 bytes more, as
// BenchmarkTransform gives it (too little for repairRoom, enough for
// tailRoom), against the oracle, and its Stats against the generic
// implementation's.
func TestRepairTail(t *testing.T) {
	if !haveRepair() {
		t.Skip("no repair kernel")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, p := range allPolicies {
		tab := denseTableFor(&NewTransformer(p).c)
		if tab == nil || tab.maxOut > 3 {
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
				want, _, _ := refTransform(p, src, refOpts{})
				room := tab.tailRoom(n)
				for _, canary := range []byte{0x5A, 0xA5} {
					// After src, up to 64 bytes that would change
					// the output if the kernel took them as input.
					in := onePage(3 * 64)
					copy(in, bytes.Repeat([]byte{0xE2, 0x82, canary}, 64))
					copy(in, src)
					dst := bytes.Repeat([]byte{canary}, room+64)
					st := repairState{first: -1, cleanMax: cleanBlocks}
					repairTail(dst[:room], in[:n], tab, &st)
					nd, ns := unpad(st.j, st.p, n)
					if ns != n || !bytes.Equal(dst[:nd], want) {
						t.Fatalf("%v, %s, n %d: repairTail wrote %q for %d bytes; want %q", p, base, n, dst[:nd], ns, want)
					}
					for i, c := range dst[room:] {
						if c != canary {
							t.Fatalf("%v, %s, n %d: wrote dst[%d], %d bytes past the room", p, base, n, room+i, i+1)
						}
					}
				}
			}
		}
	}
	for _, p := range allPolicies[1:] {
		for n := 1; n <= denseTailMax; n++ {
			src := make([]byte, n+1)
			src[0] = 'a'
			for i := 1; i < len(src); i++ {
				src[i] = byte(rng.IntN(256))
			}
			if rng.IntN(2) == 0 {
				copy(src[1+rng.IntN(n):], "\uEF80")
			}
			want, _, _ := refTransform(p, src, refOpts{})
			tr := NewTransformer(p)
			dst := make([]byte, 3*len(src)+64)
			nd, ns, err := tr.Transform(dst, src, true)
			if err != nil || ns != len(src) || !bytes.Equal(dst[:nd], want) {
				t.Fatalf("%v: Transform(%q) = %q, %d, %v; want %q", p, src, dst[:nd], ns, err, want)
			}
			ref := NewTransformer(p)
			restore := setImpl("generic")
			_, _, err = transform.Bytes(ref, src)
			restore()
			if err != nil || tr.Stats() != ref.Stats() {
				t.Fatalf("%v: Transform(%q): Stats %+v; the generic implementation's %+v", p, src, tr.Stats(), ref.Stats())
			}
		}
	}
}

// onePage returns n <= 4096 bytes on one page, as repairTail asks of
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

// TestDenseHint checks when a Transformer takes errors to be dense: after a
// short valid run that an ill-formed unit ends, and not after valid text
// passed in short pieces, whole or cut inside a sequence, or under OPTU8
// with the EE sequences that it copies, which would send a stream of such
// pieces to the block loop. The hint changes only the speed, so only this
// test sees it.
func TestDenseHint(t *testing.T) {
	// With U+E000 for each space: EE 80 80, which OPTU8 copies.
	text := bytes.ReplaceAll(textgen.Make("korean", 4096), []byte(" "), []byte("\uE000"))
	dst := make([]byte, 3*len(text))
	for _, p := range []Policy{Reject, Replace, OPTU8} {
		for _, piece := range []int{1, 7, 64, 100} {
			for _, api := range []string{"Span", "Transform"} {
				tr := NewTransformer(p)
				feed := func(b []byte, atEOF bool) (int, error) {
					if api == "Span" {
						return tr.Span(b, atEOF)
					}
					_, n, err := tr.Transform(dst, b, atEOF)
					return n, err
				}
				for off, size := 0, piece; off < len(text); {
					end := min(off+size, len(text))
					n, err := feed(text[off:end], end == len(text))
					if err != nil && err != transform.ErrShortSrc {
						t.Fatalf("%v %s, pieces of %d: %v", p, api, piece, err)
					}
					if tr.dense {
						t.Fatalf("%v %s, pieces of %d: dense after valid text up to offset %d", p, api, piece, off+n)
					}
					if n == 0 {
						// An unfinished sequence: take it with the next piece.
						if size > piece {
							t.Fatalf("%v %s: no progress at offset %d", p, api, off)
						}
						size = piece + utf8.UTFMax
						continue
					}
					off, size = off+n, piece
				}
			}
		}
		// A short run that an ill-formed unit ends sets the hint, and a long
		// one clears it.
		tr := NewTransformer(p)
		short := append([]byte("ab\xffcdefgh"), text[:enterDense]...)
		if n, _ := tr.Span(short, true); n != 2 || !tr.dense {
			t.Errorf("%v: Span(%q...) = %d, dense %v; want 2, true", p, short[:4], n, tr.dense)
		}
		if n, _ := tr.Span(short[3:], true); n != len(short)-3 || tr.dense {
			t.Errorf("%v: Span of %d valid bytes = %d, dense %v; want all, false", p, len(short)-3, n, tr.dense)
		}
	}
}

// TestRepairVector checks repairAVX512's vector path, which writes a block
// with many ill-formed bytes in one pass, against its loop over each
// ill-formed byte: the same table with vec cleared. The blocks hold from 0
// to 64 ill-formed bytes, on both sides of VEC_MIN, under every table that
// the path serves.
func TestRepairVector(t *testing.T) {
	if !haveRepair() || !repairVec {
		t.Skip("no vector path")
	}
	const n = 8 // blocks
	rng := rand.New(rand.NewPCG(5, 6))
	run := func(tab *denseTable, src []byte) ([]byte, repairState) {
		dst := make([]byte, 64*n*tab.maxOut+tab.repairRoom())
		st := repairState{first: -1, cleanMax: n + 1, jmax: len(dst) - tab.repairRoom()}
		repairBlocks(dst, src, n, tab, &st)
		return dst[:st.j], st
	}
	modes := map[uint8]bool{}
	for _, p := range allPolicies {
		for _, o := range []uint8{0, 16} { // and a replacement of 1 byte
			opts, _ := fuzzOptions(o)
			tab := denseTableFor(&NewTransformer(p, opts...).c)
			if tab == nil || tab.vec == 0 {
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
						t.Fatalf("%v opts %#x: %q:\nvector %q %+v\nscalar %q %+v", p, o, src, got, gst, want, wst)
					}
				}
			}
		}
	}
	if !modes[1] || !modes[2] {
		t.Errorf("the vector path serves modes %v; want 1 (per subpart) and 2 (per byte)", modes)
	}
}
