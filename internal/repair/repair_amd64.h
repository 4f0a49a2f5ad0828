// The layout that repairAVX512 (repair_amd64.s) and repairAVX2
// (repair_avx2_amd64.s) share with the Go code and with each other: the
// fields of state and Table, and the frame that the block loop
// (repair_loop_amd64.h) reads. TestRepairLayout checks the offsets.

// The fields of state, in bytes.
#define ST_HELD 0
#define ST_HELDVALID 8
#define ST_P 16
#define ST_J 24
#define ST_JMAX 32
#define ST_SUBPARTS 40
#define ST_NBYTES 48
#define ST_FIRST 56
#define ST_CLEAN 64
#define ST_CLEANMAX 72
#define ST_ESCAPED 80
#define ST_TAIL 88

// The fields of Table: out [1024]uint64, then n [1024]uint8, then
// the vector path's vout [3][128]byte, vlen [128]byte and vec uint8, and
// esc bool.
#define TAB_N 8192
#define TAB_VOUT 9216
#define TAB_VLEN 9600
#define TAB_VEC 9728
#define TAB_ESC 9729

// REPAIR_BATCH is the most blocks a kernel takes: its frame holds their
// blockClass, 32 bytes each, and then the words below.
#define REPAIR_BATCH 32

// The frame's words after the blockClass of REPAIR_BATCH blocks.
// ESC_ANY: under tab.esc, whether any of them has an EE followed by BE or
// BF. CLEAN_END: the position p at which the blocks since the last with
// an ill-formed byte reach st.cleanMax; the block loop compares p with it
// and finds st.clean from it on the way out, rather than count in
// st.clean, whose load would wait for the store of the block before.
// DIRTY_STEP: 64*(st.cleanMax+1), which a block with an ill-formed byte
// sets CLEAN_END to past its start.
#define ESC_ANY 1024
#define CLEAN_END 1032
#define DIRTY_STEP 1040

// REPAIR_ENTER starts a kernel: R15 = n, R13 = tab, R14 = st, and
// ESC_ANY clear; it returns at once (to none) unless 0 < n <=
// REPAIR_BATCH.
#define REPAIR_ENTER \
	MOVQ  n+48(FP), R15      \
	TESTQ R15, R15           \
	JZ    none               \
	CMPQ  R15, $REPAIR_BATCH \
	JA    none               \
	MOVQ  st+64(FP), R14     \
	MOVQ  tab+56(FP), R13    \
	MOVQ  $0, ESC_ANY(SP)

// HOLDS sets sum to a<<1 | b<<2 | c<<3 | st's word at prev, where a, b and
// c are m2, m3 and m4 of a block (or of its well-formed units) and prev
// what the block before's units hold of this one: the bytes that a unit
// starting 1, 2 or 3 bytes before holds. It sets a to what the units hold
// of the next block, a>>63 | b>>62 | c>>61, and overwrites b and c. No
// byte is held by two units (blockClass.held): the shifted words have no
// bit in common, their sum is their union, and LEAQ adds two.
#define HOLDS(a, b, c, sum, prev) \
	LEAQ (b)(c*2), sum   \
	LEAQ (a)(sum*2), sum \
	SHLQ $1, sum         \
	ADDQ prev(R14), sum  \
	SHRQ $63, a          \
	SHRQ $62, b          \
	SHRQ $61, c          \
	ORQ  b, a            \
	ORQ  c, a
