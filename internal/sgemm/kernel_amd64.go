//go:build !purego

package sgemm

import "golang.org/x/sys/cpu"

// kern6x16 is the AVX2/FMA micro-kernel (kernel_amd64.s): c[i·ldc+j] +=
// Σ_p a[i·rs+p·ks]·b[p·16+j] for i < 6, j < 16, reading k steps. The
// caller guarantees that every address it touches is in bounds.
//
//go:noescape
func kern6x16(k int, a *float32, rs, ks int, b, c *float32, ldc int)

func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		tile = func(k int, a []float32, rs, ks int, b, c []float32, ldc int) {
			kern6x16(k, &a[0], rs, ks, &b[0], &c[0], ldc)
		}
		kernelName = "avx2-fma 6x16"
	}
}
