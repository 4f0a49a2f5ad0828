// The body of the AVX2 kernels, which valid_amd64.s includes in checkAVX2
// and copyAVX2: SI and DX hold the input and its length, R12 the address
// of the variant's prevLow table, STORE2(reg, off) stores reg at DI+AX+off
// in the copying kernel and does nothing in the other, and ASCII2 loads
// (and stores) the four blocks at AX and ORs them into Y0. It leaves the
// result in AX, and overwrites BX, CX, R8, R9 and Y0 to Y15. The counting
// kernels define INIT2, ACC2, ACC2PAIR, RUN2, ACC2RUN, FLUSH2 and TAIL2,
// and RUNEXIT2 as the label runExit (see countAVX2); in the others they
// are empty, and RUNEXIT2 is runTail.

	XORL AX, AX
	INIT2
	CMPQ DX, $32
	JB   done
	LEAQ -32(DX), BX  // start of the last whole block
	LEAQ -64(DX), R9  // start of the last whole pair of blocks; may be negative
	LEAQ -128(DX), R8 // start of the last run of four blocks; may be negative

	SETUP2

	// The first block has nothing before it: shift zeros in.
	VMOVDQU    (SI), Y0
	STORE2(Y0, 0)
	VPMOVMSKB  Y0, CX
	TESTL      CX, CX
	JZ         asciiFirst
	FIRST2
	JMP        check

loop:
	// Two blocks at a time, with one test of each kind for the pair:
	// the first block in Y0, the second in Y9.
	CMPQ      AX, R9
	JGT       single
	VMOVDQU   (SI)(AX*1), Y0
	VMOVDQU   32(SI)(AX*1), Y9
	STORE2(Y0, 0)
	STORE2(Y9, 32)
	VPOR      Y0, Y9, Y4
	VPMOVMSKB Y4, CX
	TESTL     CX, CX
	JZ        asciiPair
	PREV2
	CHECK2
	VMOVDQU   31(SI)(AX*1), Y1
	VMOVDQU   30(SI)(AX*1), Y2
	VMOVDQU   29(SI)(AX*1), Y3
	CHECK2R(Y9, Y1, Y2, Y3, Y5, Y6, Y0)
	VPOR      Y4, Y5, Y6
	VPTEST    Y6, Y6
	JNZ       foundPair
	ACC2PAIR
	ADDQ      $64, AX
	JMP       loop

foundPair:
	// Y4 and Y5 flag the errors of the blocks at AX and AX+32.
	VPTEST  Y4, Y4
	JNZ     found
	ACC2((SI)(AX*1), 32(AX)) // the second CHECK2R overwrote Y0
	ADDQ    $32, AX
	VMOVDQU Y5, Y4
	JMP     found

asciiPair:
	// Two ASCII blocks are well-formed unless the block before them
	// ended inside a sequence.
	UNFINISHED2(-32(SI)(AX*1))
	JNZ done
	ACC2PAIR
	ADDQ   $64, AX
	JMP    runEntry

single:
	CMPQ      AX, BX
	JA        tail
	VMOVDQU   (SI)(AX*1), Y0
	STORE2(Y0, 0)
	VPMOVMSKB Y0, CX
	TESTL     CX, CX
	JZ        ascii
	PREV2

check:
	CHECK2
	VPTEST   Y4, Y4
	JNZ      found
	ACC2(Y0, 32(AX))
	ADDQ     $32, AX
	JMP      loop

ascii:
	// An ASCII block is well-formed unless the block before it ended
	// inside a sequence.
	UNFINISHED2(-32(SI)(AX*1))
	JNZ done

asciiFirst:
	ACC2(Y0, 32(AX))
	ADDQ   $32, AX

runEntry:
	RUN2

asciiRun:
	// Skip ASCII four blocks at a time.
	CMPQ      AX, R8
	JGT       RUNEXIT2
	ASCII2 // Y0 = the OR of the four blocks at AX
	VPMOVMSKB Y0, CX
	TESTL     CX, CX
	JNZ       RUNEXIT2
	ACC2RUN
	ADDQ      $128, AX
	JMP       asciiRun

runTail:
	// Where RUNEXIT2 is runTail (the bodies without a count, which would
	// count the overlap twice): a run of ASCII that ends with fewer than
	// 128 bytes left ends p with a test of its last 128 bytes, which
	// overlap it, rather than a block or a pair at a time.
	CMPQ   AX, R8
	JLE    loop
	TESTQ  R8, R8
	JL     loop
	MOVQ   AX, CX
	MOVQ   R8, AX
	ASCII2
	VPTEST high<>(SB), Y0
	JNZ    runTailBack
	MOVQ   DX, AX
	JMP    done

runTailBack:
	MOVQ CX, AX
	JMP  loop

tail:
	// AX > len-32. Check the last 32 bytes again, overlapping what was
	// checked, when at least 3 bytes lie before them.
	CMPQ    AX, DX
	JEQ     end
	CMPQ    BX, $3
	JB      done
	MOVQ    BX, AX
	VMOVDQU (SI)(AX*1), Y0
	STORE2(Y0, 0)
	PREV2
	CHECK2
	VPTEST   Y4, Y4
	JNZ      found
	TAIL2

end:
	// All of p holds no error; it is well-formed unless it ends inside a
	// sequence. If it does, report one byte less: the caller backs up.
	MOVQ DX, AX
	UNFINISHED2(-32(SI)(DX*1))
	JZ   done
	DECQ   AX
	JMP    done

found:
	// Y4 flags the errors of the block at AX: return the offset of the
	// first. Positions before it were checked already, or are in an
	// earlier block.
	FOUND2

done:
	VZEROUPPER

// Undefine the parameters, so that the next kernel that includes this body
// defines its own.
#undef STORE2
#undef ASCII2
#undef INIT2
#undef ACC2
#undef ACC2PAIR
#undef ACC2RUN
#undef TAIL2
#undef RUN2
#undef FLUSH2
#undef RUNEXIT2
