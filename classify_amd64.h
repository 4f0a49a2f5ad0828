// The body of classifyAVX512, which dense_amd64.s includes there and in
// repairAVX512: it classifies the CX > 0 blocks at SI into the blockClass
// array at DI, advancing SI and DI and counting CX down to 0. It overwrites
// AX, Z0 to Z3, Z10 to Z15, K1 to K4 and K6. CLASSIFY_LOOP names its loop;
// CLASSIFY_LOAD puts the block in Z0 and the 64 bytes 1, 2 and 3 places on
// in Z1, Z2 and Z3; ESC_MARK and ESC_CLEAR are instructions that the
// includer may define, before each block is classified and before v is
// stored (K4).

	VMOVDQU64 leadC0<>(SB), Z10
	VMOVDQU64 cont1<>(SB), Z11
	VMOVDQU64 cont2<>(SB), Z12
	VMOVDQU64 cont3<>(SB), Z13
	VPXORQ    Z14, Z14, Z14
	BYTES(0x30, Z15)

CLASSIFY_LOOP:
	CLASSIFY_LOAD
	ESC_MARK

	// K6: the bytes that are not ASCII. Z0 = lead: what leadC0 says of
	// each byte (0 for 00..BF: Z14 is the table for 80..BF).
	VPMOVB2M   Z0, K6
	VPERMI2B.Z Z10, Z14, K6, Z0
	// Z1, Z2, Z3: what cont1, cont2 and cont3 say of the bytes 1, 2 and
	// 3 places on.
	VPSRLW $2, Z1, Z1
	VPERMB Z11, Z1, Z1
	VPSRLW $2, Z2, Z2
	VPERMB Z12, Z2, Z2
	VPSRLW $2, Z3, Z3
	VPERMB Z13, Z3, Z3

	// m2 (K1): a lead byte and a second byte in its range; m3 (K2): and
	// a third byte if it needs one; m4 (K3): and a fourth.
	VPTESTMB Z1, Z0, K1
	VPTESTMB Z2, Z0, K1, K2
	VPTESTMB Z3, Z0, K2, K3
	KMOVQ    K1, 0(DI)
	KMOVQ    K2, 8(DI)
	KMOVQ    K3, 16(DI)

	// v = ASCII, or a whole sequence of the length its lead byte says:
	// m2, and none of the bits for a third and a fourth byte (Z15) that
	// the lead asks and the bytes after it do not give.
	VPTERNLOGD $0xfe, Z3, Z2, Z1
	VPANDNQ    Z0, Z1, Z1
	VPTESTNMB  Z15, Z1, K1, K4
	KXNORQ     K4, K6, K4
	ESC_CLEAR
	KMOVQ    K4, 24(DI)

	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  CLASSIFY_LOOP

