//go:build gc && !purego

#include "textflag.h"

// func swapNEON(dst, src []byte) int
TEXT ·swapNEON(SB), NOSPLIT, $0-56
	MOVD dst_base+0(FP), R0
	MOVD src_base+24(FP), R1
	MOVD src_len+32(FP), R2
	AND  $~31, R2, R3
	MOVD $0, R4

loop:
	CMP    R3, R4
	BGE    done
	VLD1.P 32(R1), [V0.B16, V1.B16]
	VREV16 V0.B16, V0.B16
	VREV16 V1.B16, V1.B16
	VST1.P [V0.B16, V1.B16], 32(R0)
	ADD    $32, R4
	B      loop

done:
	MOVD R4, ret+48(FP)
	RET
