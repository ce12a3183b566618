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

// func kern12x32(k int, a *float32, rs, ks int, b *float32, bs int, c *float32, ldc int)
//
// kern12x16 for two panels of B at once (the second bs floats after the
// first), 32 columns of C: 24 ZMM accumulators, each broadcast A value
// feeding two FMAs, so a tile loads half as many A values per FMA. Every
// element of C gets the same chain of FMAs as from kern12x16. AVX-512F.
TEXT ·kern12x32(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ rs+16(FP), R9
	SHLQ $2, R9
	MOVQ ks+24(FP), R11
	SHLQ $2, R11
	MOVQ b+32(FP), DI
	MOVQ bs+40(FP), R14
	SHLQ $2, R14
	MOVQ c+48(FP), DX
	MOVQ ldc+56(FP), R8
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
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23

	TESTQ CX, CX
	JE    store32

loop32:
	VMOVUPS (DI), Z24
	VMOVUPS (DI)(R14*1), Z25
	VBROADCASTSS (SI), Z26
	VFMADD231PS  Z24, Z26, Z0
	VFMADD231PS  Z25, Z26, Z12
	VBROADCASTSS (SI)(R9*1), Z27
	VFMADD231PS  Z24, Z27, Z1
	VFMADD231PS  Z25, Z27, Z13
	VBROADCASTSS (SI)(R9*2), Z26
	VFMADD231PS  Z24, Z26, Z2
	VFMADD231PS  Z25, Z26, Z14
	VBROADCASTSS (R10), Z27
	VFMADD231PS  Z24, Z27, Z3
	VFMADD231PS  Z25, Z27, Z15
	VBROADCASTSS (R10)(R9*1), Z26
	VFMADD231PS  Z24, Z26, Z4
	VFMADD231PS  Z25, Z26, Z16
	VBROADCASTSS (R10)(R9*2), Z27
	VFMADD231PS  Z24, Z27, Z5
	VFMADD231PS  Z25, Z27, Z17
	VBROADCASTSS (R12), Z26
	VFMADD231PS  Z24, Z26, Z6
	VFMADD231PS  Z25, Z26, Z18
	VBROADCASTSS (R12)(R9*1), Z27
	VFMADD231PS  Z24, Z27, Z7
	VFMADD231PS  Z25, Z27, Z19
	VBROADCASTSS (R12)(R9*2), Z26
	VFMADD231PS  Z24, Z26, Z8
	VFMADD231PS  Z25, Z26, Z20
	VBROADCASTSS (R13), Z27
	VFMADD231PS  Z24, Z27, Z9
	VFMADD231PS  Z25, Z27, Z21
	VBROADCASTSS (R13)(R9*1), Z26
	VFMADD231PS  Z24, Z26, Z10
	VFMADD231PS  Z25, Z26, Z22
	VBROADCASTSS (R13)(R9*2), Z27
	VFMADD231PS  Z24, Z27, Z11
	VFMADD231PS  Z25, Z27, Z23
	ADDQ R11, SI
	ADDQ R11, R10
	ADDQ R11, R12
	ADDQ R11, R13
	ADDQ $64, DI
	DECQ CX
	JNE  loop32

store32:
	VADDPS  (DX), Z0, Z0
	VMOVUPS Z0, (DX)
	VADDPS  64(DX), Z12, Z12
	VMOVUPS Z12, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z1, Z1
	VMOVUPS Z1, (DX)
	VADDPS  64(DX), Z13, Z13
	VMOVUPS Z13, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z2, Z2
	VMOVUPS Z2, (DX)
	VADDPS  64(DX), Z14, Z14
	VMOVUPS Z14, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z3, Z3
	VMOVUPS Z3, (DX)
	VADDPS  64(DX), Z15, Z15
	VMOVUPS Z15, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z4, Z4
	VMOVUPS Z4, (DX)
	VADDPS  64(DX), Z16, Z16
	VMOVUPS Z16, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z5, Z5
	VMOVUPS Z5, (DX)
	VADDPS  64(DX), Z17, Z17
	VMOVUPS Z17, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z6, Z6
	VMOVUPS Z6, (DX)
	VADDPS  64(DX), Z18, Z18
	VMOVUPS Z18, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z7, Z7
	VMOVUPS Z7, (DX)
	VADDPS  64(DX), Z19, Z19
	VMOVUPS Z19, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z8, Z8
	VMOVUPS Z8, (DX)
	VADDPS  64(DX), Z20, Z20
	VMOVUPS Z20, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z9, Z9
	VMOVUPS Z9, (DX)
	VADDPS  64(DX), Z21, Z21
	VMOVUPS Z21, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z10, Z10
	VMOVUPS Z10, (DX)
	VADDPS  64(DX), Z22, Z22
	VMOVUPS Z22, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z11, Z11
	VMOVUPS Z11, (DX)
	VADDPS  64(DX), Z23, Z23
	VMOVUPS Z23, 64(DX)
	VZEROUPPER
	RET

// func kern6x32(k int, a *float32, rs, ks int, b *float32, bs int, c *float32, ldc int)
//
// kern12x32 for six rows (the last rows of a segmented product): 12 ZMM
// accumulators, the same chain of FMAs per element. AVX-512F.
TEXT ·kern6x32(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ rs+16(FP), R9
	SHLQ $2, R9
	MOVQ ks+24(FP), R11
	SHLQ $2, R11
	MOVQ b+32(FP), DI
	MOVQ bs+40(FP), R14
	SHLQ $2, R14
	MOVQ c+48(FP), DX
	MOVQ ldc+56(FP), R8
	SHLQ $2, R8
	LEAQ (SI)(R9*2), R10
	ADDQ R9, R10
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
	JE    store6x32

loop6x32:
	VMOVUPS (DI), Z24
	VMOVUPS (DI)(R14*1), Z25
	VBROADCASTSS (SI), Z26
	VFMADD231PS  Z24, Z26, Z0
	VFMADD231PS  Z25, Z26, Z6
	VBROADCASTSS (SI)(R9*1), Z27
	VFMADD231PS  Z24, Z27, Z1
	VFMADD231PS  Z25, Z27, Z7
	VBROADCASTSS (SI)(R9*2), Z26
	VFMADD231PS  Z24, Z26, Z2
	VFMADD231PS  Z25, Z26, Z8
	VBROADCASTSS (R10), Z27
	VFMADD231PS  Z24, Z27, Z3
	VFMADD231PS  Z25, Z27, Z9
	VBROADCASTSS (R10)(R9*1), Z26
	VFMADD231PS  Z24, Z26, Z4
	VFMADD231PS  Z25, Z26, Z10
	VBROADCASTSS (R10)(R9*2), Z27
	VFMADD231PS  Z24, Z27, Z5
	VFMADD231PS  Z25, Z27, Z11
	ADDQ R11, SI
	ADDQ R11, R10
	ADDQ $64, DI
	DECQ CX
	JNE  loop6x32

store6x32:
	VADDPS  (DX), Z0, Z0
	VMOVUPS Z0, (DX)
	VADDPS  64(DX), Z6, Z6
	VMOVUPS Z6, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z1, Z1
	VMOVUPS Z1, (DX)
	VADDPS  64(DX), Z7, Z7
	VMOVUPS Z7, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z2, Z2
	VMOVUPS Z2, (DX)
	VADDPS  64(DX), Z8, Z8
	VMOVUPS Z8, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z3, Z3
	VMOVUPS Z3, (DX)
	VADDPS  64(DX), Z9, Z9
	VMOVUPS Z9, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z4, Z4
	VMOVUPS Z4, (DX)
	VADDPS  64(DX), Z10, Z10
	VMOVUPS Z10, 64(DX)
	ADDQ    R8, DX
	VADDPS  (DX), Z5, Z5
	VMOVUPS Z5, (DX)
	VADDPS  64(DX), Z11, Z11
	VMOVUPS Z11, 64(DX)
	VZEROUPPER
	RET

// func reluGrad8(dst, y, gr *float32, n int)
//
// dst[i] = g[i] where y[i] > 0 (ordered: NaN is not), else +0, for i < n,
// n a multiple of 8: VCMPPS (greater than, ordered, quiet) and VANDPS. AVX.
TEXT ·reluGrad8(SB), NOSPLIT, $0-32
	MOVQ   dst+0(FP), DI
	MOVQ   y+8(FP), SI
	MOVQ   gr+16(FP), DX
	MOVQ   n+24(FP), CX
	SHLQ   $2, CX
	XORQ   AX, AX
	VXORPS Y15, Y15, Y15
	TESTQ  CX, CX
	JE     doneRG

loopRG:
	VMOVUPS (SI)(AX*1), Y0
	VCMPPS  $0x1e, Y15, Y0, Y1
	VANDPS  (DX)(AX*1), Y1, Y1
	VMOVUPS Y1, (DI)(AX*1)
	ADDQ    $32, AX
	CMPQ    AX, CX
	JLT     loopRG

doneRG:
	VZEROUPPER
	RET

// func winoIn8(c int, d *float32, rs int, v *float32, es int)
//
// One tile's Winograd input transform (winograd.go's winoInGo, the same
// operations in the same order), eight channels at a time, c a multiple of
// 8: d's cell (y, x) at d[y·rs + x·c], V's element e at v[e·es]. AVX.
TEXT ·winoIn8(SB), NOSPLIT, $0-40
	MOVQ c+0(FP), CX
	MOVQ CX, R15
	SHLQ $2, R15             // a cell's bytes
	MOVQ d+8(FP), SI         // column 0
	LEAQ (SI)(R15*1), R8     // column 1
	LEAQ (SI)(R15*2), R9     // column 2
	LEAQ (R8)(R15*2), R10    // column 3
	MOVQ rs+16(FP), R11
	SHLQ $2, R11             // a row's bytes
	LEAQ (R11)(R11*2), R12   // three rows
	MOVQ v+24(FP), DI        // V's row 0 (elements 0..3)
	MOVQ es+32(FP), R13
	SHLQ $2, R13             // an element's bytes
	LEAQ (R13)(R13*2), R14   // three elements
	LEAQ (DI)(R13*4), AX     // row 1 (elements 4..7)
	LEAQ (AX)(R13*4), BX     // row 2
	LEAQ (BX)(R13*4), DX     // row 3
	SHRQ $3, CX
	JEQ  winoInDone

winoInLoop:
	// Row 0 of Bᵀ·d: d0 − d2, per column; then its row of V.
	VMOVUPS (SI), Y0
	VSUBPS  (SI)(R11*2), Y0, Y0
	VMOVUPS (R8), Y1
	VSUBPS  (R8)(R11*2), Y1, Y1
	VMOVUPS (R9), Y2
	VSUBPS  (R9)(R11*2), Y2, Y2
	VMOVUPS (R10), Y3
	VSUBPS  (R10)(R11*2), Y3, Y3
	VSUBPS  Y2, Y0, Y4
	VADDPS  Y2, Y1, Y5
	VSUBPS  Y1, Y2, Y6
	VSUBPS  Y3, Y1, Y7
	VMOVUPS Y4, (DI)
	VMOVUPS Y5, (DI)(R13*1)
	VMOVUPS Y6, (DI)(R13*2)
	VMOVUPS Y7, (DI)(R14*1)

	// Row 1: d1 + d2.
	VMOVUPS (SI)(R11*1), Y0
	VADDPS  (SI)(R11*2), Y0, Y0
	VMOVUPS (R8)(R11*1), Y1
	VADDPS  (R8)(R11*2), Y1, Y1
	VMOVUPS (R9)(R11*1), Y2
	VADDPS  (R9)(R11*2), Y2, Y2
	VMOVUPS (R10)(R11*1), Y3
	VADDPS  (R10)(R11*2), Y3, Y3
	VSUBPS  Y2, Y0, Y4
	VADDPS  Y2, Y1, Y5
	VSUBPS  Y1, Y2, Y6
	VSUBPS  Y3, Y1, Y7
	VMOVUPS Y4, (AX)
	VMOVUPS Y5, (AX)(R13*1)
	VMOVUPS Y6, (AX)(R13*2)
	VMOVUPS Y7, (AX)(R14*1)

	// Row 2: d2 − d1.
	VMOVUPS (SI)(R11*2), Y0
	VSUBPS  (SI)(R11*1), Y0, Y0
	VMOVUPS (R8)(R11*2), Y1
	VSUBPS  (R8)(R11*1), Y1, Y1
	VMOVUPS (R9)(R11*2), Y2
	VSUBPS  (R9)(R11*1), Y2, Y2
	VMOVUPS (R10)(R11*2), Y3
	VSUBPS  (R10)(R11*1), Y3, Y3
	VSUBPS  Y2, Y0, Y4
	VADDPS  Y2, Y1, Y5
	VSUBPS  Y1, Y2, Y6
	VSUBPS  Y3, Y1, Y7
	VMOVUPS Y4, (BX)
	VMOVUPS Y5, (BX)(R13*1)
	VMOVUPS Y6, (BX)(R13*2)
	VMOVUPS Y7, (BX)(R14*1)

	// Row 3: d1 − d3.
	VMOVUPS (SI)(R11*1), Y0
	VSUBPS  (SI)(R12*1), Y0, Y0
	VMOVUPS (R8)(R11*1), Y1
	VSUBPS  (R8)(R12*1), Y1, Y1
	VMOVUPS (R9)(R11*1), Y2
	VSUBPS  (R9)(R12*1), Y2, Y2
	VMOVUPS (R10)(R11*1), Y3
	VSUBPS  (R10)(R12*1), Y3, Y3
	VSUBPS  Y2, Y0, Y4
	VADDPS  Y2, Y1, Y5
	VSUBPS  Y1, Y2, Y6
	VSUBPS  Y3, Y1, Y7
	VMOVUPS Y4, (DX)
	VMOVUPS Y5, (DX)(R13*1)
	VMOVUPS Y6, (DX)(R13*2)
	VMOVUPS Y7, (DX)(R14*1)

	ADDQ $32, SI
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, DI
	ADDQ $32, AX
	ADDQ $32, BX
	ADDQ $32, DX
	DECQ CX
	JNE  winoInLoop

winoInDone:
	VZEROUPPER
	RET

// func winoOut8(n int, m *float32, es int, dst *float32, rs int)
//
// One tile's Winograd output transform (winograd.go's winoOutGo, the same
// operations in the same order), eight columns at a time, n a multiple of
// 8: M's element e at m[e·es], Y's cell (y, x) at dst[y·rs + x·n]. AVX.
TEXT ·winoOut8(SB), NOSPLIT, $0-40
	MOVQ n+0(FP), CX
	MOVQ CX, R15
	SHLQ $2, R15             // a cell's bytes
	MOVQ es+16(FP), R11
	SHLQ $2, R11             // an element's bytes
	LEAQ (R11)(R11*2), R12   // three elements
	MOVQ m+8(FP), SI         // M's row 0 (elements 0..3)
	LEAQ (SI)(R11*4), R8     // row 1
	LEAQ (R8)(R11*4), R9     // row 2
	LEAQ (R9)(R11*4), R10    // row 3
	MOVQ dst+24(FP), DI      // Y's row 0
	MOVQ rs+32(FP), DX
	SHLQ $2, DX
	ADDQ DI, DX              // Y's row 1
	SHRQ $3, CX
	JEQ  winoOutDone

winoOutLoop:
	// Aᵀ·M per column: z0 = m0 + m1 + m2 (Y0..Y3), z1 = m1 − m2 − m3 (Y4..Y7).
	VMOVUPS (SI), Y8
	VADDPS  (R8), Y8, Y8
	VADDPS  (R9), Y8, Y0
	VMOVUPS (R8), Y9
	VSUBPS  (R9), Y9, Y9
	VSUBPS  (R10), Y9, Y4
	VMOVUPS (SI)(R11*1), Y8
	VADDPS  (R8)(R11*1), Y8, Y8
	VADDPS  (R9)(R11*1), Y8, Y1
	VMOVUPS (R8)(R11*1), Y9
	VSUBPS  (R9)(R11*1), Y9, Y9
	VSUBPS  (R10)(R11*1), Y9, Y5
	VMOVUPS (SI)(R11*2), Y8
	VADDPS  (R8)(R11*2), Y8, Y8
	VADDPS  (R9)(R11*2), Y8, Y2
	VMOVUPS (R8)(R11*2), Y9
	VSUBPS  (R9)(R11*2), Y9, Y9
	VSUBPS  (R10)(R11*2), Y9, Y6
	VMOVUPS (SI)(R12*1), Y8
	VADDPS  (R8)(R12*1), Y8, Y8
	VADDPS  (R9)(R12*1), Y8, Y3
	VMOVUPS (R8)(R12*1), Y9
	VSUBPS  (R9)(R12*1), Y9, Y9
	VSUBPS  (R10)(R12*1), Y9, Y7

	// ·A per row: y0 = z0 + z1 + z2, y1 = z1 − z2 − z3.
	VADDPS  Y1, Y0, Y8
	VADDPS  Y2, Y8, Y8
	VMOVUPS Y8, (DI)
	VSUBPS  Y2, Y1, Y9
	VSUBPS  Y3, Y9, Y9
	VMOVUPS Y9, (DI)(R15*1)
	VADDPS  Y5, Y4, Y8
	VADDPS  Y6, Y8, Y8
	VMOVUPS Y8, (DX)
	VSUBPS  Y6, Y5, Y9
	VSUBPS  Y7, Y9, Y9
	VMOVUPS Y9, (DX)(R15*1)

	ADDQ $32, SI
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, DI
	ADDQ $32, DX
	DECQ CX
	JNE  winoOutLoop

winoOutDone:
	VZEROUPPER
	RET

// func winoGradOut8(n int, gr *float32, rs int, dm *float32, es int)
//
// One tile's transformed output gradient dM′ = A′·dY·A′ᵀ (winograd.go's
// winoGradOutGo, the same operations in the same order), eight columns at
// a time, n a multiple of 8: dY's cell (y, x) at g[y·rs + x·n], dM′'s
// element e at dm[e·es]. AVX.
TEXT ·winoGradOut8(SB), NOSPLIT, $0-40
	MOVQ n+0(FP), CX
	MOVQ CX, R15
	SHLQ $2, R15             // a cell's bytes
	MOVQ gr+8(FP), SI        // dY's row 0
	MOVQ rs+16(FP), R11
	SHLQ $2, R11
	LEAQ (SI)(R11*1), R8     // dY's row 1
	MOVQ dm+24(FP), DI       // dM′'s row 0 (elements 0..3)
	MOVQ es+32(FP), R13
	SHLQ $2, R13             // an element's bytes
	LEAQ (R13)(R13*2), R14   // three elements
	LEAQ (DI)(R13*4), AX     // row 1
	LEAQ (AX)(R13*4), BX     // row 2
	LEAQ (BX)(R13*4), DX     // row 3
	SHRQ $3, CX
	JEQ  winoGradOutDone

winoGradOutLoop:
	VMOVUPS (SI), Y0          // y00
	VMOVUPS (SI)(R15*1), Y1   // y01
	VMOVUPS (R8), Y2          // y10
	VMOVUPS (R8)(R15*1), Y3   // y11
	VADDPS  Y2, Y0, Y4        // y00 + y10
	VADDPS  Y3, Y1, Y5        // y01 + y11
	VSUBPS  Y2, Y0, Y6        // y00 − y10
	VSUBPS  Y3, Y1, Y7        // y01 − y11

	// Each row (z0, z1) of A′·dY: z0, z0 + z1, z0 − z1, z1.
	VADDPS  Y1, Y0, Y8
	VSUBPS  Y1, Y0, Y9
	VMOVUPS Y0, (DI)
	VMOVUPS Y8, (DI)(R13*1)
	VMOVUPS Y9, (DI)(R13*2)
	VMOVUPS Y1, (DI)(R14*1)
	VADDPS  Y5, Y4, Y8
	VSUBPS  Y5, Y4, Y9
	VMOVUPS Y4, (AX)
	VMOVUPS Y8, (AX)(R13*1)
	VMOVUPS Y9, (AX)(R13*2)
	VMOVUPS Y5, (AX)(R14*1)
	VADDPS  Y7, Y6, Y8
	VSUBPS  Y7, Y6, Y9
	VMOVUPS Y6, (BX)
	VMOVUPS Y8, (BX)(R13*1)
	VMOVUPS Y9, (BX)(R13*2)
	VMOVUPS Y7, (BX)(R14*1)
	VADDPS  Y3, Y2, Y8
	VSUBPS  Y3, Y2, Y9
	VMOVUPS Y2, (DX)
	VMOVUPS Y8, (DX)(R13*1)
	VMOVUPS Y9, (DX)(R13*2)
	VMOVUPS Y3, (DX)(R14*1)

	ADDQ $32, SI
	ADDQ $32, R8
	ADDQ $32, DI
	ADDQ $32, AX
	ADDQ $32, BX
	ADDQ $32, DX
	DECQ CX
	JNE  winoGradOutLoop

winoGradOutDone:
	VZEROUPPER
	RET
