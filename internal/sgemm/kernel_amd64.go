//go:build !purego

package sgemm

import "golang.org/x/sys/cpu"

// kern6x16 is the AVX2/FMA micro-kernel (kernel_amd64.s): c[i·ldc+j] +=
// Σ_p a[i·rs+p·ks]·b[p·16+j] for i < 6, j < 16, reading k steps. The
// caller guarantees that every address it touches is in bounds.
//
//go:noescape
func kern6x16(k int, a *float32, rs, ks int, b, c *float32, ldc int)

// kern12x16 is kern6x16 for twelve rows, AVX-512F (kernel_amd64.s).
//
//go:noescape
func kern12x16(k int, a *float32, rs, ks int, b, c *float32, ldc int)

// kern12x32 is kern12x16 for two panels of B at once, the second bs floats
// after the first (kernel_amd64.s).
//
//go:noescape
func kern12x32(k int, a *float32, rs, ks int, b *float32, bs int, c *float32, ldc int)

// kern6x32 is kern12x32 for six rows (kernel_amd64.s).
//
//go:noescape
func kern6x32(k int, a *float32, rs, ks int, b *float32, bs int, c *float32, ldc int)

// reluGrad8 is ReLUGrad's loop for a multiple of 8 elements (AVX,
// kernel_amd64.s).
//
//go:noescape
func reluGrad8(dst, y, gr *float32, n int)

// biasReLU16 and biasReLU8 are BiasReLU's loops for rows of a multiple of
// 16 floats (AVX-512F) and of 8 (AVX2) (kernel_amd64.s).
//
//go:noescape
func biasReLU16(c *float32, rows, f int, bias *float32)

//go:noescape
func biasReLU8(c *float32, rows, f int, bias *float32)

// winoIn8 and winoOut8 are one tile's Winograd transforms, winoInGo and
// winoOutGo, eight channels at a time (AVX, kernel_amd64.s). The callers
// (WinoInput, WinoOutput) check the bounds.
//
//go:noescape
func winoIn8(c int, d *float32, rs int, v *float32, es int)

//go:noescape
func winoOut8(n int, m *float32, es int, dst *float32, rs int)

// winoGradOut8 is winoGradOutGo eight columns at a time (AVX,
// kernel_amd64.s).
//
//go:noescape
func winoGradOut8(n int, gr *float32, rs int, dm *float32, es int)

func init() {
	if cpu.X86.HasAVX {
		reluGradAsm = func(dst, y, g []float32, n int) { reluGrad8(&dst[0], &y[0], &g[0], n) }
		winoInAsm = func(c int, d []float32, rs int, v []float32, es int) { winoIn8(c, &d[0], rs, &v[0], es) }
		winoOutAsm = func(n int, m []float32, es int, dst []float32, rs int) { winoOut8(n, &m[0], es, &dst[0], rs) }
		winoGradOutAsm = func(n int, g []float32, rs int, dm []float32, es int) { winoGradOut8(n, &g[0], rs, &dm[0], es) }
	}
	switch {
	case cpu.X86.HasAVX512F:
		biasReLUAsm = func(c, bias []float32, rows int) bool {
			if len(bias)%16 != 0 {
				return false
			}
			biasReLU16(&c[0], rows, len(bias), &bias[0])
			return true
		}
	case cpu.X86.HasAVX2:
		biasReLUAsm = func(c, bias []float32, rows int) bool {
			if len(bias)%8 != 0 {
				return false
			}
			biasReLU8(&c[0], rows, len(bias), &bias[0])
			return true
		}
	}

	// Both assembly kernels are tested wherever the CPU runs them and give
	// the same bits (TestKernelsSameBits), so the faster one on this CPU is
	// chosen by timing them (fastest). Which one wins depends on the CPU:
	// on a Xeon the AVX-512 12×16 tile ran a conv-shaped product
	// (3200×16×144) at 62 GFLOP/s against the AVX2 tile's 70, the
	// broadcasts of twelve rows costing what the wider FMAs gain with only
	// 16 columns; on an AMD EPYC with a full-width AVX-512 unit, 160
	// against 110 (BenchmarkGemm).
	var asm []kernel
	if cpu.X86.HasAVX512F {
		asm = append(asm, kernel{
			name: "avx512f 12x16",
			mr:   12,
			tile: func(k int, a []float32, rs, ks int, b, c []float32, ldc int) {
				kern12x16(k, &a[0], rs, ks, &b[0], &c[0], ldc)
			},
			tile2: func(k int, a []float32, rs, ks int, b []float32, bs int, c []float32, ldc int) {
				kern12x32(k, &a[0], rs, ks, &b[0], bs, &c[0], ldc)
			},
			tile62: func(k int, a []float32, rs, ks int, b []float32, bs int, c []float32, ldc int) {
				kern6x32(k, &a[0], rs, ks, &b[0], bs, &c[0], ldc)
			},
		})
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		asm = append(asm, kernel{
			name: "avx2-fma 6x16",
			mr:   6,
			tile: func(k int, a []float32, rs, ks int, b, c []float32, ldc int) {
				kern6x16(k, &a[0], rs, ks, &b[0], &c[0], ldc)
			},
		})
	}
	if len(asm) == 2 {
		asm[0].tile6 = asm[1].tile // the AVX-512 kernel's last rows on the AVX2 one
	}
	if len(asm) > 0 {
		best := fastest(asm)
		for _, k := range asm {
			if k.name != best.name {
				kernels = append(kernels, k)
			}
		}
		kernels = append(kernels, best)
	}
	use(kernels[len(kernels)-1])
}
