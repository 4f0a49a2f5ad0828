// TABLE defines name as 64 bytes of read-only data: the 16 bytes of the
// words lo and hi, repeated four times. valid_amd64.s includes it.
#define TABLE(name, lo, hi) \
	DATA name+0x00(SB)/8, lo \
	DATA name+0x08(SB)/8, hi \
	DATA name+0x10(SB)/8, lo \
	DATA name+0x18(SB)/8, hi \
	DATA name+0x20(SB)/8, lo \
	DATA name+0x28(SB)/8, hi \
	DATA name+0x30(SB)/8, lo \
	DATA name+0x38(SB)/8, hi \
	GLOBL name(SB), RODATA|NOPTR, $64
