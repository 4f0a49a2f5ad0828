// What repairAVX512 (repair_amd64.s) and repairAVX2 (repair_avx2_amd64.s)
// share: the fields of state and Table and the constants of the package
// come from go_asm.h (state_p, Table_n, const_batch); the frame holds the
// blockClass of const_batch blocks and then the words const_frameEscAny,
// const_frameCleanEnd and const_frameDirtyStep (repair_amd64.go), read by
// the block loop (repair_loop_amd64.h).

// REPAIR_ENTER starts a kernel: R15 = n, R13 = tab, R14 = st, and
// const_frameEscAny clear; it returns at once (to none) unless 0 < n <=
// const_batch.
#define REPAIR_ENTER \
	MOVQ  n+48(FP), R15      \
	TESTQ R15, R15           \
	JZ    none               \
	CMPQ  R15, $const_batch \
	JA    none               \
	MOVQ  st+64(FP), R14     \
	MOVQ  tab+56(FP), R13    \
	MOVQ  $0, const_frameEscAny(SP)

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
