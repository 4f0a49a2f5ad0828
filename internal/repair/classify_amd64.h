// The body of classifyAVX512, which repair_amd64.s includes there and in
// repairAVX512: it classifies the CX > 0 blocks at SI into the blockClass
// array at DI, advancing SI and DI and counting CX down to 0. It overwrites
// AX, Z0 to Z3, Z10 to Z16, K1 to K4 and K6. CLASSIFY_LOOP names its loop;
// CLASSIFY_LOAD puts the block in Z0 and the 64 bytes 1, 2 and 3 places on
// in Z1, Z2 and Z3; CLASSIFY_C1 looks up the bytes 1 place on in Z1
// (CLASSIFY_C1_PLAIN or _ESC); ESC_GATHER is an instruction that the
// includer may define, after Z1 holds what the v test looks at.

	VMOVDQU64 leadC0<>(SB), Z10
	VMOVDQU64 cont1<>(SB), Z11
	VMOVDQU64 cont2<>(SB), Z12
	VMOVDQU64 cont3<>(SB), Z13
	VPXORQ    Z14, Z14, Z14
	BYTES(0x30, Z15)
	BYTES(0x70, Z16)

CLASSIFY_LOOP:
	CLASSIFY_LOAD

	// K6: the bytes that are not ASCII. Z0 = lead: what the lead table
	// says of each byte (0 for 00..BF: Z14 is the table for 80..BF).
	VPMOVB2M   Z0, K6
	VPERMI2B.Z Z10, Z14, K6, Z0
	// Z1, Z2, Z3: what the tables say of the bytes 1, 2 and 3 places on.
	CLASSIFY_C1
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
	// m2, and none of the bits for a third and a fourth byte that the
	// lead asks and the bytes after it do not give (bits 4 and 5 of
	// lead and not c1|c2|c3, flipped by Z15), nor, under OPTU8, bit 6
	// of lead and c1, which only EE followed by BE or BF has (Z16).
	VPTERNLOGD $0xfe, Z3, Z2, Z1
	VPTERNLOGD $0x48, Z15, Z0, Z1
	ESC_GATHER
	VPTESTNMB  Z16, Z1, K1, K4
	KXNORQ     K4, K6, K4
	KMOVQ      K4, 24(DI)

	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  CLASSIFY_LOOP
