#include "textflag.h"

// func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func foldAsm(crc uint64, p []byte, k4, k1 *[2]uint64) (lo, hi uint64)
//
// A 16-byte block B (lo word first, as in memory) folded forward over d bytes is
// clmul(B.lo, k[0]) xor clmul(B.hi, k[1]): PCLMULQDQ $0x00 multiplies the low words of its operands,
// $0x11 the high words, so a constant register holds k[0] low and k[1] high. Four blocks fold over 64
// bytes at a time (X1-X4, four independent chains: one PCLMULQDQ's latency is several cycles, its
// throughput one a cycle), then into one (X1) over 16 bytes each, then the remaining 16-byte blocks.
TEXT ·foldAsm(SB), NOSPLIT, $0-64
	MOVQ crc+0(FP), X0 // zero-extended: XORed into the first 8 bytes only
	MOVQ p_base+8(FP), SI
	MOVQ p_len+16(FP), CX
	MOVQ k4+32(FP), AX
	MOVQ k1+40(FP), BX

	MOVOU (SI), X1
	MOVOU 16(SI), X2
	MOVOU 32(SI), X3
	MOVOU 48(SI), X4
	PXOR  X0, X1
	ADDQ  $64, SI
	SUBQ  $64, CX
	CMPQ  CX, $64
	JB    remain64

	MOVOU (AX), X0

	PCALIGN $16
loop64:
	MOVOA X1, X5
	MOVOA X2, X6
	MOVOA X3, X7
	MOVOA X4, X8

	PCLMULQDQ $0x00, X0, X1
	PCLMULQDQ $0x00, X0, X2
	PCLMULQDQ $0x00, X0, X3
	PCLMULQDQ $0x00, X0, X4

	MOVOU (SI), X11 // the next 64 bytes, loaded while the multiplies run
	MOVOU 16(SI), X12
	MOVOU 32(SI), X13
	MOVOU 48(SI), X14

	PCLMULQDQ $0x11, X0, X5
	PCLMULQDQ $0x11, X0, X6
	PCLMULQDQ $0x11, X0, X7
	PCLMULQDQ $0x11, X0, X8

	PXOR X5, X1
	PXOR X6, X2
	PXOR X7, X3
	PXOR X8, X4

	PXOR X11, X1
	PXOR X12, X2
	PXOR X13, X3
	PXOR X14, X4

	ADDQ $64, SI
	SUBQ $64, CX
	CMPQ CX, $64
	JAE  loop64

remain64:
	// Four into one: X1 folded over 16 bytes onto X2, that onto X3, that onto X4.
	MOVOU (BX), X0

	MOVOA     X1, X5
	PCLMULQDQ $0x00, X0, X1
	PCLMULQDQ $0x11, X0, X5
	PXOR      X5, X1
	PXOR      X2, X1

	MOVOA     X1, X5
	PCLMULQDQ $0x00, X0, X1
	PCLMULQDQ $0x11, X0, X5
	PXOR      X5, X1
	PXOR      X3, X1

	MOVOA     X1, X5
	PCLMULQDQ $0x00, X0, X1
	PCLMULQDQ $0x11, X0, X5
	PXOR      X5, X1
	PXOR      X4, X1

	CMPQ CX, $16
	JB   done

remain16:
	MOVOU     (SI), X10
	MOVOA     X1, X5
	PCLMULQDQ $0x00, X0, X1
	PCLMULQDQ $0x11, X0, X5
	PXOR      X5, X1
	PXOR      X10, X1
	ADDQ      $16, SI
	SUBQ      $16, CX
	CMPQ      CX, $16
	JAE       remain16

done:
	MOVQ   X1, lo+48(FP)
	PSRLDQ $8, X1
	MOVQ   X1, hi+56(FP)
	RET
