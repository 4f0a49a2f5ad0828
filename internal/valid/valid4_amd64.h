// The body of the AVX-512 kernels, which valid_amd64.s includes in
// checkAVX512 and copyAVX512: SI and DX hold the input and its length, R12
// the address of the variant's prevLow table; STORE4(reg, off) stores reg
// at DI+AX+off in the copying kernel, and STOREMASK4 the first block of an
// input shorter than 64 bytes with the mask K2 it was loaded with (never
// past the end of dst); in the other both do nothing. ASCII4 loads (and
// stores) the four blocks at AX and ORs them into Z0. It leaves the result
// in AX. Input that starts with ASCII goes without the set-up of the
// constants until its first block that is not ASCII. The counting kernels
// define INIT4, ACC4, ACC4PAIR, RUN4, ACC4RUN, FLUSH4 and LAST4, and
// RUNEXIT4 and FIRSTEXIT4 as the labels runExit512 and firstExit512 (see
// countAVX512); in the others they are empty, loop512 and firstEnd512.

	XORL  AX, AX
	INIT4
	TESTQ DX, DX
	JZ    done512
	LEAQ  -256(DX), R8 // start of the last run of four blocks; may be negative
	MOVL  $64, R9      // size of the block being checked

	CMPQ      DX, $64
	JB        setup512
	VMOVDQU64 (SI), Z0
	STORE4(Z0, 0)
	VPMOVB2M  Z0, K1
	KORTESTQ  K1, K1
	JNZ       setup512
	ACC4(Z0, 64(AX))

	// The first block is ASCII. So are the runs of four blocks after it
	// that this loop takes, as in asciiRun512 but before the set-up of
	// the constants, which only a block that is not ASCII needs.
	MOVL $64, AX
	RUN4

firstRun512:
	CMPQ     AX, R8
	JGT      FIRSTEXIT4
	ASCII4
	VPMOVB2M Z0, K1
	KORTESTQ K1, K1
	JNZ      FIRSTEXIT4
	ACC4RUN
	ADDQ     $256, AX
	JMP      firstRun512

firstEnd512:
	CMPQ AX, DX
	JAE  done512 // all ASCII
	SETUP4
	JMP  loop512

setup512:
	SETUP4
	MOVQ DX, CX
	CMPQ DX, $64
	JB   tail512
	JMP  first512

loop512:
	MOVQ      DX, CX
	SUBQ      AX, CX
	CMPQ      CX, $128
	JB        single512

	// Two blocks at a time.
	VMOVDQU64 (SI)(AX*1), Z0
	STORE4(Z0, 0)
	VMOVDQU64 64(SI)(AX*1), Z7
	STORE4(Z7, 64)
	VPORQ     Z0, Z7, Z8
	VPMOVB2M  Z8, K1
	KORTESTQ  K1, K1
	JZ        ascii512
	PREV4
	VMOVDQU64 63(SI)(AX*1), Z9
	VMOVDQU64 62(SI)(AX*1), Z10
	VMOVDQU64 61(SI)(AX*1), Z11
	CHECK4(Z0, Z1, Z2, Z3, Z4, Z5, Z6, K1)
	CHECK4(Z7, Z9, Z10, Z11, Z12, Z13, Z14, K2)
	KORTESTQ  K1, K2
	JNZ       found2
	ACC4PAIR
	ADDQ      $128, AX
	JMP       loop512

found2:
	KORTESTQ K1, K1
	JNZ      found512
	ACC4(Z0, 64(AX))
	ADDQ     $64, AX
	KMOVQ    K2, K1
	JMP      found512

single512:
	CMPQ      CX, $64
	JB        tail512
	VMOVDQU64 (SI)(AX*1), Z0
	STORE4(Z0, 0)
	VPMOVB2M  Z0, K1
	KORTESTQ  K1, K1
	JZ        ascii512
	PREV4

check512:
	CHECK4(Z0, Z1, Z2, Z3, Z4, Z5, Z6, K1)
	KORTESTQ K1, K1
	JNZ      found512
	ACC4(Z0, (AX)(R9*1))
	ADDQ     R9, AX
	CMPQ     AX, DX
	JAE      end512 // the block was the last, as often in short input
	JMP      loop512

ascii512:
	// The block at AX is ASCII, and well-formed unless the block before
	// it (AX >= 64) ended inside a sequence.
	UNFINISHED4(-64(SI)(AX*1))
	JNZ done512
	ACC4(Z0, 64(AX))
	ADDQ $64, AX
	RUN4

asciiRun512:
	CMPQ       AX, R8
	JGT        RUNEXIT4
	ASCII4 // Z0 = the OR of the four blocks at AX
	VPMOVB2M   Z0, K1
	KORTESTQ   K1, K1
	JNZ        RUNEXIT4
	ACC4RUN
	ADDQ       $256, AX
	JMP        asciiRun512

tail512:
	// CX = len-AX < 64 bytes are left.
	TESTQ CX, CX
	JZ    end512
	MOVQ  CX, R9

masked512:
	// Check the R9 bytes at AX. A masked load whose masked-off bytes lie
	// across a page boundary can cost hundreds of cycles, so only inputs
	// shorter than 64 bytes load past the end of p, and none before it.
	MOVQ  $-1, CX
	BZHIQ R9, CX, R11
	KMOVQ R11, K2
	TESTQ AX, AX
	JNZ   last512

	// The first block: shift in zeros for the bytes before p. Bytes
	// past the end of p are zeros too, so that an unfinished sequence
	// at the end shows as an error.
	VMOVDQU8.Z (SI), K2, Z0
	STOREMASK4

first512:
	// Z0 holds the first block, which is not ASCII.
	FIRST4
	JMP check512

last512:
	// Fewer than 64 bytes are left after AX >= 64. Check the last 64
	// bytes of p again, overlapping what was checked, when at least 3
	// bytes lie before them (the first flag cannot come before AX), and
	// otherwise leave the 1 or 2 bytes left to the caller.
	LEAQ      -64(DX), R11
	CMPQ      R11, $3
	JB        done512
	LAST4
	MOVQ      R11, AX
	MOVL      $64, R9
	VMOVDQU64 (SI)(AX*1), Z0
	STORE4(Z0, 0)
	PREV4
	JMP       check512

end512:
	// As in the AVX2 body. Input shorter than 64 bytes was checked as
	// one block padded with zeros, which flag an unfinished sequence as
	// an error.
	MOVQ DX, AX
	CMPQ DX, $64
	JB   done512
	UNFINISHED4(-64(SI)(DX*1))
	JZ   done512
	DECQ AX
	JMP  done512

found512:
	// K1 flags the errors of the block at AX. A flag in the padding of
	// the last block means that p ends inside a sequence.
	KMOVQ  K1, CX
	TZCNTQ CX, CX
	ADDQ   CX, AX
	CMPQ   AX, DX
	JB     done512
	LEAQ   -1(DX), AX

done512:
	VZEROUPPER

// Undefine the parameters, so that the next kernel that includes this body
// defines its own.
#undef STORE4
#undef STOREMASK4
#undef ASCII4
#undef INIT4
#undef ACC4
#undef ACC4PAIR
#undef ACC4RUN
#undef LAST4
#undef RUN4
#undef FLUSH4
#undef RUNEXIT4
#undef FIRSTEXIT4
