package sgemm

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// BLAS is gonum's BLAS with its float32 matrix product replaced by Gemm,
// for libraries that take a whole BLAS implementation (gorgonia.Use): their
// float32 matrix products then run on this package's kernel and workers.
type BLAS struct{ gonum.Implementation }

// Sgemm implements blas.Float32Level3: C = alpha·op(A)·op(B) + beta·C,
// row-major. Products with alpha ≠ 1 go to gonum.
func (b BLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, bm []float32, ldb int, beta float32, c []float32, ldc int) {
	if alpha != 1 || (tA != blas.NoTrans && tA != blas.Trans) || (tB != blas.NoTrans && tB != blas.Trans) {
		b.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, bm, ldb, beta, c, ldc)
		return
	}
	Gemm(tA == blas.Trans, tB == blas.Trans, m, n, k, a, lda, bm, ldb, beta, c, ldc)
}
