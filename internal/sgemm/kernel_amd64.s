//go:build !purego

#include "textflag.h"

// func kern6x16(k int, a *float32, rs, ks int, b, c *float32, ldc int)
//
// c[i·ldc + j] += Σ_p a[i·rs + p·ks] · b[p·16 + j] for i < 6, j < 16
// (rs, ks and ldc in floats). Twelve YMM accumulators, two B vectors and one
// broadcast register: one 6×16 tile per call, AVX2 + FMA.
TEXT ·kern6x16(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ rs+16(FP), R9
	SHLQ $2, R9
	MOVQ ks+24(FP), R11
	SHLQ $2, R11
	MOVQ b+32(FP), DI
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R8
	SHLQ $2, R8
	LEAQ (SI)(R9*2), R10
	ADDQ R9, R10

	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

	TESTQ CX, CX
	JE    store

loop:
	VMOVUPS      (DI), Y12
	VMOVUPS      32(DI), Y13
	VBROADCASTSS (SI), Y14
	VFMADD231PS  Y12, Y14, Y0
	VFMADD231PS  Y13, Y14, Y1
	VBROADCASTSS (SI)(R9*1), Y15
	VFMADD231PS  Y12, Y15, Y2
	VFMADD231PS  Y13, Y15, Y3
	VBROADCASTSS (SI)(R9*2), Y14
	VFMADD231PS  Y12, Y14, Y4
	VFMADD231PS  Y13, Y14, Y5
	VBROADCASTSS (R10), Y15
	VFMADD231PS  Y12, Y15, Y6
	VFMADD231PS  Y13, Y15, Y7
	VBROADCASTSS (R10)(R9*1), Y14
	VFMADD231PS  Y12, Y14, Y8
	VFMADD231PS  Y13, Y14, Y9
	VBROADCASTSS (R10)(R9*2), Y15
	VFMADD231PS  Y12, Y15, Y10
	VFMADD231PS  Y13, Y15, Y11
	ADDQ         R11, SI
	ADDQ         R11, R10
	ADDQ         $64, DI
	DECQ         CX
	JNE          loop

store:
	VADDPS  (DX), Y0, Y0
	VMOVUPS Y0, (DX)
	VADDPS  32(DX), Y1, Y1
	VMOVUPS Y1, 32(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Y2, Y2
	VMOVUPS Y2, (DX)
	VADDPS  32(DX), Y3, Y3
	VMOVUPS Y3, 32(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Y4, Y4
	VMOVUPS Y4, (DX)
	VADDPS  32(DX), Y5, Y5
	VMOVUPS Y5, 32(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Y6, Y6
	VMOVUPS Y6, (DX)
	VADDPS  32(DX), Y7, Y7
	VMOVUPS Y7, 32(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Y8, Y8
	VMOVUPS Y8, (DX)
	VADDPS  32(DX), Y9, Y9
	VMOVUPS Y9, 32(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Y10, Y10
	VMOVUPS Y10, (DX)
	VADDPS  32(DX), Y11, Y11
	VMOVUPS Y11, 32(DX)
	VZEROUPPER
	RET

// func kern12x16(k int, a *float32, rs, ks int, b, c *float32, ldc int)
//
// As kern6x16 for twelve rows: twelve ZMM accumulators of sixteen floats,
// the A values broadcast from memory inside the FMAs. AVX-512F.
TEXT ·kern12x16(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ rs+16(FP), R9
	SHLQ $2, R9
	MOVQ ks+24(FP), R11
	SHLQ $2, R11
	MOVQ b+32(FP), DI
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R8
	SHLQ $2, R8
	LEAQ (SI)(R9*2), R10
	ADDQ R9, R10
	LEAQ (R10)(R9*2), R12
	ADDQ R9, R12
	LEAQ (R12)(R9*2), R13
	ADDQ R9, R13

	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11

	TESTQ CX, CX
	JE    store12

loop12:
	VMOVUPS (DI), Z12
	VFMADD231PS.BCST (SI), Z12, Z0
	VFMADD231PS.BCST (SI)(R9*1), Z12, Z1
	VFMADD231PS.BCST (SI)(R9*2), Z12, Z2
	VFMADD231PS.BCST (R10), Z12, Z3
	VFMADD231PS.BCST (R10)(R9*1), Z12, Z4
	VFMADD231PS.BCST (R10)(R9*2), Z12, Z5
	VFMADD231PS.BCST (R12), Z12, Z6
	VFMADD231PS.BCST (R12)(R9*1), Z12, Z7
	VFMADD231PS.BCST (R12)(R9*2), Z12, Z8
	VFMADD231PS.BCST (R13), Z12, Z9
	VFMADD231PS.BCST (R13)(R9*1), Z12, Z10
	VFMADD231PS.BCST (R13)(R9*2), Z12, Z11
	ADDQ R11, SI
	ADDQ R11, R10
	ADDQ R11, R12
	ADDQ R11, R13
	ADDQ $64, DI
	DECQ CX
	JNE  loop12

store12:
	VADDPS  (DX), Z0, Z0
	VMOVUPS Z0, (DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z1, Z1
	VMOVUPS Z1, (DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z2, Z2
	VMOVUPS Z2, (DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z3, Z3
	VMOVUPS Z3, (DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z4, Z4
	VMOVUPS Z4, (DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z5, Z5
	VMOVUPS Z5, (DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z6, Z6
	VMOVUPS Z6, (DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z7, Z7
	VMOVUPS Z7, (DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z8, Z8
	VMOVUPS Z8, (DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z9, Z9
	VMOVUPS Z9, (DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z10, Z10
	VMOVUPS Z10, (DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z11, Z11
	VMOVUPS Z11, (DX)
	VZEROUPPER
	RET

// func biasReLU16(c *float32, rows, f int, bias *float32)
//
// c[r·f + j] = max(c[r·f + j] + bias[j], 0) for r < rows, j < f, f a
// multiple of 16: VMAXPS keeps the sum where it is > 0, else +0 (−0 and
// NaN give +0). AVX-512F.
TEXT ·biasReLU16(SB), NOSPLIT, $0-32
	MOVQ   c+0(FP), DI
	MOVQ   rows+8(FP), CX
	MOVQ   f+16(FP), DX
	SHLQ   $2, DX
	MOVQ   bias+24(FP), SI
	VPXORD Z31, Z31, Z31
	TESTQ  CX, CX
	JE     done16

row16:
	XORQ AX, AX

col16:
	VMOVUPS (DI)(AX*1), Z0
	VADDPS  (SI)(AX*1), Z0, Z0
	VMAXPS  Z31, Z0, Z0
	VMOVUPS Z0, (DI)(AX*1)
	ADDQ    $64, AX
	CMPQ    AX, DX
	JLT     col16
	ADDQ    DX, DI
	DECQ    CX
	JNE     row16

done16:
	VZEROUPPER
	RET

// func biasReLU8(c *float32, rows, f int, bias *float32)
//
// biasReLU16 for f a multiple of 8 with AVX2.
TEXT ·biasReLU8(SB), NOSPLIT, $0-32
	MOVQ   c+0(FP), DI
	MOVQ   rows+8(FP), CX
	MOVQ   f+16(FP), DX
	SHLQ   $2, DX
	MOVQ   bias+24(FP), SI
	VXORPS Y15, Y15, Y15
	TESTQ  CX, CX
	JE     done8

row8:
	XORQ AX, AX

col8:
	VMOVUPS (DI)(AX*1), Y0
	VADDPS  (SI)(AX*1), Y0, Y0
	VMAXPS  Y15, Y0, Y0
	VMOVUPS Y0, (DI)(AX*1)
	ADDQ    $32, AX
	CMPQ    AX, DX
	JLT     col8
	ADDQ    DX, DI
	DECQ    CX
	JNE     row8

done8:
	VZEROUPPER
	RET
