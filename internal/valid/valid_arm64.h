// The body of the NEON kernels, which valid_arm64.s includes in checkNEON,
// copyNEON, countNEON and copyCountNEON: R0 and R1 hold the input and its
// length, and R10 the lead table. In the copying kernels R8 holds dst and
// R14 dst-src; STORE(a, b, c, d) and STORE1(a) store four registers or one
// at R8 and advance it, DSTBACK takes R8 back 128 bytes and DSTSYNC sets
// it to R0's place in dst; in the others they do nothing. It leaves the
// result in R11.
//
// The counting kernels count the newlines of the blocks they load, and
// take back the count of those they do not accept, so that at the end R0
// is where the blocks counted end (see valid_arm64.s). Their hooks are
// COUNTINIT and COUNTLIM, which set them up; COUNT1, COUNT4 and COUNT8,
// which count the block in V0, V0..V3 or V0..V7; UNCOUNT1, UNCOUNT4 (which
// also set R0 to R4, the block's start), UNCOUNTPAIR and UNCOUNTRUN, which
// take counts back; and OVERLAP, for the last 16 bytes where they overlap
// what was counted. The loops end at LOOPEND and go on to LOOPEXIT and
// RUNEXIT there, so that a counting kernel can add up its counts before
// they overflow. The flags of the second block of a pair go to ERR2
// (register number ERR2N) through ERRT, and LASTASCII uses ASCIIV
// (number ASCIIN), so that a counting kernel can keep its constants in
// the registers that the others use there. In the other kernels the hooks
// are empty, the loops end at R13 and go on to single and setup, and ERR2,
// ERRT and ASCIIV are V21, V22 and V22.
//
// R2 and R3 hold the start and the end of p; R0 the block to load, and
// R5, R6 and R7 the places 1, 2 and 3 bytes before it; R12, R13 and R15
// the starts of the last whole block, of the last run of two blocks and
// of the last 16 bytes. Input that starts with ASCII goes without the
// set-up of the tables until its first block that is not ASCII.

	MOVD R0, R2
	ADD  R0, R1, R3
	MOVD $0, R11
	COUNTINIT
	CMP  $16, R1
	BLT  done
	SUB  $64, R3, R12
	SUB  $128, R3, R13
	SUB  $16, R3, R15
	COUNTLIM
	CMP  $64, R1
	BLT  first16

	// The first block has nothing before it: shift zeros in.
	VLD1.P 64(R0), [V0.B16, V1.B16, V2.B16, V3.B16]
	STORE(V0, V1, V2, V3)
	COUNT4
	VORR   V0.B16, V1.B16, V16.B16
	VORR   V2.B16, V3.B16, V17.B16
	VORR   V16.B16, V17.B16, V16.B16
	UMAXV(16, 16)
	VMOV   V16.B[0], R4
	TBZ    $7, R4, asciiRun
	LASTASCII
	SETUP
	FIRST
	SUB    $1, R0, R5
	SUB    $2, R0, R6
	SUB    $3, R0, R7
	JMP    check

sync:
	SUB $1, R0, R5
	SUB $2, R0, R6
	SUB $3, R0, R7
	DSTSYNC

loop:
	// Two blocks at a time: one test for errors, and one for ASCII
	// at the end of the second.
	CMP LOOPEND, R0
	BHI LOOPEXIT
	LOAD
	COUNT4
	CHECK
	OR4(V20, ERR2)
	LOAD
	COUNT4
	LASTASCII
	CHECK
	OR4(ERR2, ERRT)
	VORR V20.B16, ERR2.B16, ERR2.B16
	ANY(ERR2N, ERR2, ERR2N)
	CBNZ R4, found2
	TBNZ $7, R9, loop
	JMP  asciiRun

found2:
	// One of the two blocks before R0 shows an error: V20 flags those of
	// the first, V16..V19 those of the second.
	ANY(20, V20, 20)
	CBZ  R4, found
	UNCOUNTPAIR
	SUB  $128, R0
	DSTBACK
	SUB  $1, R0, R5
	SUB  $2, R0, R6
	SUB  $3, R0, R7

single:
	// One block; the first of the two above again where it shows an
	// error.
	CMP R12, R0
	BHI tail
	LOAD
	COUNT4
	LASTASCII

check:
	CHECK
	OR4(V20, ERR2)
	ANY(20, V20, 20)
	CBNZ R4, found

	// A block that ends in 16 bytes of ASCII ends no sequence short:
	// look for a run of ASCII blocks after it.
	TBNZ $7, R9, loop

asciiRun:
	// Skip ASCII two blocks at a time. The byte before R0 ends a
	// sequence, or is the last of a block checked already.
	CMP    LOOPEND, R0
	BHI    RUNEXIT
	VLD1.P 64(R0), [V0.B16, V1.B16, V2.B16, V3.B16]
	STORE(V0, V1, V2, V3)
	VLD1.P 64(R0), [V4.B16, V5.B16, V6.B16, V7.B16]
	STORE(V4, V5, V6, V7)
	VORR   V0.B16, V1.B16, V16.B16
	VORR   V2.B16, V3.B16, V17.B16
	VORR   V4.B16, V5.B16, V18.B16
	VORR   V6.B16, V7.B16, V19.B16
	VORR   V16.B16, V17.B16, V16.B16
	VORR   V18.B16, V19.B16, V18.B16
	VORR   V16.B16, V18.B16, V16.B16
	UMAXV(16, 16)
	VMOV   V16.B[0], R4
	COUNT8
	TBZ    $7, R4, asciiRun
	UNCOUNTRUN
	SUB    $128, R0
	DSTBACK

setup:
	// Check the blocks from R0 on.
	SETUP
	JMP sync

first16:
	// 16 to 63 bytes: the first 16 have nothing before them.
	SETUP
	VLD1.P 16(R0), [V0.B16]
	STORE1(V0)
	COUNT1
	FIRST1
	SUB    $1, R0, R5
	SUB    $2, R0, R6
	SUB    $3, R0, R7
	JMP    check16

sync16:
	SUB $1, R0, R5
	SUB $2, R0, R6
	SUB $3, R0, R7
	DSTSYNC

tail:
	// R0 > len-64: check the rest 16 bytes at a time.
	CMP    R15, R0
	BHI    tail16
	VLD1.P 16(R0), [V0.B16]
	STORE1(V0)
	COUNT1
	VLD1.P 16(R5), [V4.B16]
	VLD1.P 16(R6), [V8.B16]
	VLD1.P 16(R7), [V12.B16]

check16:
	CHECK1
	ANY(20, V20, 16)
	CBZ  R4, tail
	SUB  $16, R0, R4
	UNCOUNT1
	FIND(V16)

tail16:
	// R0 > len-16. Check the last 16 bytes again, overlapping what was
	// checked, when at least 3 bytes lie before them, and otherwise
	// leave the 1 or 2 bytes left to the caller.
	CMP  R3, R0
	BEQ  end
	SUB  R2, R15, R4
	CMP  $3, R4
	BLT  stop
	OVERLAP
	MOVD R15, R0
	JMP  sync16

stop:
	SUB R2, R0, R11
	JMP done

end:
	// All of p holds no error; it is well-formed unless it ends inside
	// a sequence. If it does, report one byte less: the caller backs up.
	MOVD  R1, R11
	MOVBU -1(R3), R4
	CMP   $0xC0, R4
	BHS   short
	MOVBU -2(R3), R4
	CMP   $0xE0, R4
	BHS   short
	MOVBU -3(R3), R4
	CMP   $0xF0, R4
	BLO   done

short:
	SUB $1, R11
	JMP done

found:
	// V16..V19 flag the errors of the block before R0: return the
	// offset of the first. Positions before it were checked already.
	SUB $64, R0, R4
	UNCOUNT4
	FIND(V16)
	FIND(V17)
	FIND(V18)
	FIND(V19)

lane:
	// R6 holds the 8 bytes at R4 that hold the first flag.
	RBIT R6, R6
	CLZ  R6, R6
	ADD  R6>>3, R4, R4
	SUB  R2, R4, R11

done:

// Undefine the parameters, so that the next kernel that includes this body
// defines its own.
#undef STORE
#undef STORE1
#undef DSTBACK
#undef DSTSYNC
#undef COUNTINIT
#undef COUNTLIM
#undef COUNT1
#undef COUNT4
#undef COUNT8
#undef UNCOUNT1
#undef UNCOUNT4
#undef UNCOUNTPAIR
#undef UNCOUNTRUN
#undef OVERLAP
#undef LOOPEND
#undef LOOPEXIT
#undef RUNEXIT
#undef ERR2
#undef ERR2N
#undef ERRT
#undef ASCIIV
#undef ASCIIN
