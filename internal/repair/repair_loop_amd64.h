// The block loop of repairAVX512 and repairAVX2, which repair_amd64.s and
// repair_avx2_amd64.s include after their classification (and
// repair_amd64.h at the top): from classifiedSI on, it repairs the R15
// blocks classified into the frame from st.p on, with R13 = tab, R14 = st
// and SI the input that st.p counts in, and returns. A block with a few
// ill-formed bytes is written as copies of the valid runs between them and
// a table word for each; the includer defines what differs between the
// kernels:
//
//	REPAIR_SETUP  runs once before the first block
//	COPY64(r)     copies the 64 bytes at (SI)(r*1) to (DI)(BX*1)
//	ESC_STARTS    sets AX to a mask of the block's bytes at (SI)(DX*1)
//	              that holds every EE followed by BE or BF and no byte
//	              but EE: of those, the loop keeps the ones that start an
//	              ill-formed subpart of 3 bytes (m3), which under tab.esc
//	              only the escapes are
//	PERBYTE_TEST    jumps to the includer's path for a block with many
//	              ill-formed bytes (bad in R10, start in R9), which ends
//	              with JMP next, or falls through to the scalar path

classifiedSI:
	MOVQ dst_base+0(FP), DI
	LEAQ (SP), R12
	MOVQ state_p(R14), DX
	MOVQ state_j(R14), BX

	// const_frameCleanEnd = p + 64*(cleanMax-clean), const_frameDirtyStep = 64*(cleanMax+1).
	MOVQ state_cleanMax(R14), AX
	LEAQ 1(AX), CX
	SHLQ $6, CX
	MOVQ CX, const_frameDirtyStep(SP)
	SUBQ state_clean(R14), AX
	SHLQ $6, AX
	ADDQ DX, AX
	MOVQ AX, const_frameCleanEnd(SP)

	REPAIR_SETUP

block:
	CMPQ BX, state_jmax(R14)
	JGT  out

	// ownValid (CX): the bytes that a well-formed unit (its start in v,
	// R11) that starts 1, 2 or 3 bytes before holds; and what those
	// units hold of the next block.
	MOVQ 24(R12), R11
	MOVQ 0(R12), R8
	ANDQ R11, R8
	MOVQ 8(R12), R9
	ANDQ R11, R9
	MOVQ 16(R12), R10
	ANDQ R11, R10
	HOLDS(R8, R9, R10, CX, state_heldValid)
	MOVQ R8, state_heldValid(R14)

	// bad (R10) = not (v or ownValid): every byte of an ill-formed
	// subpart (v and ownValid have no byte in common).
	ORQ  R11, CX
	NOTQ CX
	MOVQ CX, R10
	TESTQ CX, CX
	JNZ   errors

	// No ill-formed byte: copy the block. The lead byte of a unit that
	// is not well-formed is bad (no unit holds a lead byte), so every
	// unit that starts here is well-formed, and what they hold of the
	// next block is what the well-formed ones hold.
	MOVQ R8, state_held(R14)
	COPY64(DX)
	ADDQ $64, BX
	ADDQ $64, DX
	ADDQ $32, R12
	CMPQ DX, const_frameCleanEnd(SP)
	JGE  out
	DECQ R15
	JNZ  block
	JMP  out

errors:
	MOVQ const_frameDirtyStep(SP), AX
	ADDQ DX, AX
	MOVQ AX, const_frameCleanEnd(SP)
	// own (CX): the bytes that any unit that starts 1, 2 or 3 bytes
	// before holds; and what this block's units hold of the next.
	MOVQ 0(R12), R8
	MOVQ 8(R12), R9
	MOVQ 16(R12), AX
	HOLDS(R8, R9, AX, CX, state_held)
	MOVQ R8, state_held(R14)
	// start (R9) = not (own or v): a byte that no unit holds and that
	// starts no well-formed sequence.
	MOVQ R11, R9
	ORQ  CX, R9
	NOTQ R9

	// CX: the starts of ill-formed subparts, R9 without the escapes,
	// which start at an EE followed by BE..FF and 2 continuation bytes
	// (m3). Their 3 bytes are counted in nbytes where they lie, and
	// taken out here.
	MOVQ    R9, CX
	CMPQ    const_frameEscAny(SP), $0
	JEQ     starts
	ESC_STARTS
	ANDQ    8(R12), AX
	ANDQ    R9, AX
	ANDNQ   R9, AX, CX
	POPCNTQ AX, AX
	ADDQ    AX, state_escaped(R14)
	LEAQ    (AX)(AX*2), AX
	SUBQ    AX, state_nbytes(R14)

starts:
	POPCNTQ CX, AX
	ADDQ    AX, state_subparts(R14)
	POPCNTQ R10, AX
	ADDQ    AX, state_nbytes(R14)
	CMPQ    state_first(R14), $0
	JGE     counted
	TESTQ   CX, CX
	JZ      counted
	TZCNTQ  CX, AX
	ADDQ    DX, AX
	MOVQ    AX, state_first(R14)

counted:
	PERBYTE_TEST

scalar:
	XORL R11, R11 // q0: the start of the valid run before the next bad byte

bad:
	TZCNTQ R10, CX // q
	// Copy the valid run src[p+q0:p+q] a whole block at a time; dst
	// has room, and what lies past the run is overwritten.
	LEAQ (DX)(R11*1), AX
	COPY64(AX)
	ADDQ CX, BX
	SUBQ R11, BX
	// The output of the ill-formed byte b = src[p+q], of kind cStart
	// (1) or cRest (2): tab.out[kind<<8|b], of which tab.n[...] count.
	LEAQ    (DX)(CX*1), AX
	MOVBQZX (SI)(AX*1), AX
	MOVL    $2, R8
	BTQ     CX, R9
	SBBL    $0, R8
	SHLL    $8, R8
	ORL     AX, R8
	MOVQ    (R13)(R8*8), AX
	MOVQ    AX, (DI)(BX*1)
	MOVBQZX Table_n(R13)(R8*1), AX
	ADDQ    AX, BX
	LEAQ    1(CX), R11
	BLSRQ   R10, R10
	JNZ     bad

	// The valid run after the last bad byte, to the end of the block.
	LEAQ (DX)(R11*1), AX
	COPY64(AX)
	ADDQ $64, BX
	SUBQ R11, BX

next:
	ADDQ $64, DX
	ADDQ $32, R12
	DECQ R15
	JNZ  block

out:
	MOVQ DX, state_p(R14)
	MOVQ BX, state_j(R14)
	// st.clean = cleanMax + (p-const_frameCleanEnd)/64.
	SUBQ const_frameCleanEnd(SP), DX
	SARQ $6, DX
	ADDQ state_cleanMax(R14), DX
	MOVQ DX, state_clean(R14)
	VZEROUPPER

none:
	RET
