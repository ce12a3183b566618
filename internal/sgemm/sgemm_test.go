package sgemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// naive is the reference product in float64.
func naive(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) []float32 {
	out := append([]float32(nil), c...)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			s := 0.0
			for p := 0; p < k; p++ {
				var av, bv float32
				if transA {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if transB {
					bv = b[j*ldb+p]
				} else {
					bv = b[p*ldb+j]
				}
				s += float64(av) * float64(bv)
			}
			out[i*ldc+j] = float32(s + float64(beta)*float64(c[i*ldc+j]))
		}
	}
	return out
}

func randSlice(rng *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.NormFloat64())
	}
	return s
}

// gemmCase is one product: sizes chosen to hit partial tiles on both edges,
// several depth blocks and the split over workers.
type gemmCase struct {
	m, n, k        int
	transA, transB bool
	beta           float32
}

var cases = []gemmCase{
	{1, 1, 1, false, false, 0},
	{5, 7, 3, false, false, 0},
	{6, 16, 9, false, false, 1},
	{7, 17, 300, true, false, 0.5},
	{13, 33, 257, false, true, 0},
	{64, 16, 144, false, false, 0},      // a conv layer's chunk, 8×8 board, 16 filters
	{400, 16, 297, false, true, 0},      // rectangle's first layer (33 channels), one image
	{144, 16, 800, true, false, 1},      // a filter gradient, depth over three blocks
	{325, 2, 16, false, true, 0},        // a 1×1 conv to 2 channels
	{64, 32, 648, false, false, 0},      // the global dense layer
	{97, 45, 61, true, true, -2},        // every transposition, odd everything
	{1031, 24, 147, false, false, 0.25}, // big enough to split over workers
}

func TestGemmMatchesReference(t *testing.T) {
	defer use(kernels[len(kernels)-1])
	for _, kern := range kernels {
		for _, tc := range cases {
			for _, workers := range []int{1, 2, 3} {
				t.Run(fmt.Sprintf("%s/%dx%dx%d/tA%v-tB%v/w%d", kern.name, tc.m, tc.n, tc.k, tc.transA, tc.transB, workers), func(t *testing.T) {
					use(kern)
					rng := rand.New(rand.NewPCG(uint64(tc.m), uint64(tc.n*1000+tc.k)))
					lda, ldb, ldc := tc.k+3, tc.n+1, tc.n+5
					if tc.transA {
						lda = tc.m + 2
					}
					if tc.transB {
						ldb = tc.k + 4
					}
					ra, rb := tc.m, tc.k
					if tc.transA {
						ra = tc.k
					}
					if tc.transB {
						rb = tc.n
					}
					a, b, c := randSlice(rng, ra*lda), randSlice(rng, rb*ldb), randSlice(rng, tc.m*ldc)
					want := naive(tc.transA, tc.transB, tc.m, tc.n, tc.k, a, lda, b, ldb, tc.beta, c, ldc)
					GemmWorkers(workers, tc.transA, tc.transB, tc.m, tc.n, tc.k, a, lda, b, ldb, tc.beta, c, ldc)
					for i := 0; i < tc.m; i++ {
						for j := 0; j < ldc; j++ {
							got, w := c[i*ldc+j], want[i*ldc+j]
							if j >= tc.n {
								if got != w {
									t.Fatalf("C[%d][%d] past column n changed: %v, was %v", i, j, got, w)
								}
								continue
							}
							tol := 1e-4 * math.Sqrt(float64(tc.k)) * (1 + math.Abs(float64(w)))
							if math.Abs(float64(got-w)) > tol {
								t.Fatalf("C[%d][%d] = %v, want %v", i, j, got, w)
							}
						}
					}
				})
			}
		}
	}
}

// The same product on 1 and 2 workers, and through the assembly and the Go
// micro-kernel, gives the same bits (tiles and depth blocks do not depend
// on the split).
func TestGemmDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	m, n, k := 1031, 40, 600
	a, b := randSlice(rng, m*k), randSlice(rng, k*n)
	c1, c2 := make([]float32, m*n), make([]float32, m*n)
	GemmWorkers(1, false, false, m, n, k, a, k, b, n, 0, c1, n)
	GemmWorkers(2, false, false, m, n, k, a, k, b, n, 0, c2, n)
	for i := range c1 {
		if c1[i] != c2[i] {
			t.Fatalf("element %d: 1 worker %v, 2 workers %v", i, c1[i], c2[i])
		}
	}
}

func TestGemmAllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	m, n, k := 1031, 40, 600
	a, b, c := randSlice(rng, m*k), randSlice(rng, k*n), make([]float32, m*n)
	for _, w := range []int{1, 2} {
		GemmWorkers(w, false, false, m, n, k, a, k, b, n, 0, c, n)
		if got := testing.AllocsPerRun(20, func() { GemmWorkers(w, false, false, m, n, k, a, k, b, n, 0, c, n) }); got != 0 {
			t.Errorf("%d workers: %v allocations per product, want 0", w, got)
		}
	}
}

func BenchmarkGemm(b *testing.B) {
	defer use(kernels[len(kernels)-1])
	for _, s := range []struct{ m, n, k int }{{3200, 16, 144}, {3200, 16, 297}, {144, 16, 3200}} {
		for _, kern := range kernels {
			for _, w := range []int{1, 2} {
				b.Run(fmt.Sprintf("%dx%dx%d/%s/w%d", s.m, s.n, s.k, strings.ReplaceAll(kern.name, " ", "-"), w), func(b *testing.B) {
					use(kern)
					rng := rand.New(rand.NewPCG(1, 1))
					x, y, z := randSlice(rng, s.m*s.k), randSlice(rng, s.k*s.n), make([]float32, s.m*s.n)
					for i := 0; i < b.N; i++ {
						GemmWorkers(w, false, false, s.m, s.n, s.k, x, s.k, y, s.n, 0, z, s.n)
					}
					b.ReportMetric(float64(2*s.m*s.n*s.k*b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				})
			}
		}
	}
}

// splitProbe records, for each part of a Split, whether Serial held and the
// order in which a Parallel inside the part ran its sub-parts.
type splitProbe struct {
	serial [3]bool
	order  [3][]int
}

type subParts struct{ order *[]int }

func (s subParts) RunPart(i, n int) { *s.order = append(*s.order, i) }

func (p *splitProbe) RunPart(i, n int) {
	p.serial[i] = Serial()
	Parallel(4, subParts{&p.order[i]})
}

// Inside a Split every part sees Serial, and a Parallel in a part runs its
// sub-parts on the caller, in order (no second level of goroutines); after
// it, Serial is off again.
func TestSplitKeepsInnerWorkSerial(t *testing.T) {
	var p splitProbe
	Split(3, &p)
	for i := range p.serial {
		if !p.serial[i] {
			t.Errorf("part %d: Serial false inside a Split", i)
		}
		if fmt.Sprint(p.order[i]) != "[0 1 2 3]" {
			t.Errorf("part %d: inner Parallel ran parts %v, want [0 1 2 3] on the caller", i, p.order[i])
		}
	}
	if Serial() {
		t.Error("Serial still on after the Split returned")
	}
}

// The assembly micro-kernels give the same bits on every case (partial tiles
// on both edges, every transposition, several depth blocks, 1 and 2
// workers): every element of C is the same chain of fused multiply-adds
// whatever the tile's height, so start-up may choose the faster kernel
// without changing any result.
func TestKernelsSameBits(t *testing.T) {
	defer use(kernels[len(kernels)-1])
	var asm []kernel
	for _, k := range kernels {
		if !strings.HasPrefix(k.name, "go ") {
			asm = append(asm, k)
		}
	}
	if len(asm) < 2 {
		t.Skipf("this CPU runs %d assembly kernel(s); nothing to compare", len(asm))
	}
	for _, tc := range cases {
		for _, workers := range []int{1, 2} {
			var ref []float32
			for _, kern := range asm {
				use(kern)
				rng := rand.New(rand.NewPCG(uint64(tc.m), uint64(tc.n*1000+tc.k)))
				lda, ldb, ra, rb := tc.k, tc.n, tc.m, tc.k
				if tc.transA {
					lda, ra = tc.m, tc.k
				}
				if tc.transB {
					ldb, rb = tc.k, tc.n
				}
				a, b, c := randSlice(rng, ra*lda), randSlice(rng, rb*ldb), randSlice(rng, tc.m*tc.n)
				GemmWorkers(workers, tc.transA, tc.transB, tc.m, tc.n, tc.k, a, lda, b, ldb, tc.beta, c, tc.n)
				if ref == nil {
					ref = c
					continue
				}
				for i := range c {
					if math.Float32bits(c[i]) != math.Float32bits(ref[i]) {
						t.Fatalf("%dx%dx%d w%d: C[%d] = %v with %s, %v with %s", tc.m, tc.n, tc.k, workers, i, c[i], kern.name, ref[i], asm[0].name)
					}
				}
			}
		}
	}
}

// GemmSegs matches the reference product of the concatenated segments on
// odd sizes (partial tiles, narrow panels, a segment longer than a depth
// block, overlapping segments as a convolution's are), gives the same bits
// on every assembly kernel and allocates nothing.
func TestGemmSegs(t *testing.T) {
	defer use(kernels[len(kernels)-1])
	for _, tc := range []struct {
		m, n, rs int
		segs     []Seg
	}{
		{37, 16, 16, []Seg{{0, 48}, {22 * 16, 48}, {44 * 16, 48}}},  // a 3×3 conv, 16 channels, padded width 22
		{100, 32, 32, []Seg{{0, 96}, {10 * 32, 96}, {20 * 32, 96}}}, // 32 channels, padded width 10
		{13, 5, 33, []Seg{{0, 99}, {7, 300}}},                       // a narrow panel; a segment over kc
		{12, 40, 3, []Seg{{1, 2}}},
		{18, 48, 16, []Seg{{0, 48}, {20 * 16, 48}}}, // six last rows: in place on a six-row kernel where there is one
		{5, 16, 7, []Seg{{3, 4}, {0, 7}}},
	} {
		k, maxA := 0, 0
		for _, s := range tc.segs {
			k += s.Len
			maxA = max(maxA, (tc.m-1)*tc.rs+s.Off+s.Len)
		}
		rng := rand.New(rand.NewPCG(uint64(tc.m), uint64(k)))
		a, b := randSlice(rng, maxA), randSlice(rng, k*tc.n)
		// The reference: A gathered into an m×k matrix.
		full := make([]float32, tc.m*k)
		for i := 0; i < tc.m; i++ {
			p := 0
			for _, s := range tc.segs {
				copy(full[i*k+p:i*k+p+s.Len], a[i*tc.rs+s.Off:])
				p += s.Len
			}
		}
		c0 := randSlice(rng, tc.m*tc.n)
		want := naive(false, false, tc.m, tc.n, k, full, k, b, tc.n, 1, append([]float32(nil), c0...), tc.n)
		bp := make([]float32, PackedLen(k, tc.n))
		PackB(bp, b, tc.n, k, tc.n)
		var ref []float32
		for _, kern := range kernels {
			use(kern)
			c := append([]float32(nil), c0...)
			GemmSegs(tc.m, tc.n, a, tc.rs, tc.segs, bp, c, tc.n)
			for i := range c {
				if tol := 1e-4 * math.Sqrt(float64(k)) * (1 + math.Abs(float64(want[i]))); math.Abs(float64(c[i]-want[i])) > tol {
					t.Fatalf("%s %d×%d: C[%d] = %v, want %v", kern.name, tc.m, tc.n, i, c[i], want[i])
				}
			}
			if strings.HasPrefix(kern.name, "go ") {
				continue
			}
			if ref == nil {
				ref = append([]float32(nil), c...)
			} else {
				for i := range c {
					if math.Float32bits(c[i]) != math.Float32bits(ref[i]) {
						t.Fatalf("%d×%d: C[%d] = %v with %s, %v with the first assembly kernel", tc.m, tc.n, i, c[i], kern.name, ref[i])
					}
				}
			}
			if got := testing.AllocsPerRun(10, func() { GemmSegs(tc.m, tc.n, a, tc.rs, tc.segs, bp, c, tc.n) }); got != 0 {
				t.Errorf("%s: %v allocations per product, want 0", kern.name, got)
			}
		}
	}
}

// BiasReLU gives max(v+b, 0) with +0 for −0 and NaN, the same bits on the
// assembly loops and the Go loop, on row lengths the assembly takes (8, 16,
// 32) and those it leaves to Go (3, 5, 24 on AVX-512).
func TestBiasReLU(t *testing.T) {
	saved := biasReLUAsm
	defer func() { biasReLUAsm = saved }()
	rng := rand.New(rand.NewPCG(5, 5))
	special := []float32{0, float32(math.Copysign(0, -1)), 1e-45, -1e-45, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), -float32(math.NaN()), 3, -3}
	for _, f := range []int{3, 5, 8, 16, 24, 32} {
		for _, asm := range []bool{true, false} {
			biasReLUAsm = saved
			if !asm {
				biasReLUAsm = nil
			}
			rows := 7
			c := make([]float32, rows*f)
			bias := make([]float32, f)
			for i := range c {
				c[i] = float32(rng.NormFloat64())
				if rng.IntN(4) == 0 {
					c[i] = special[rng.IntN(len(special))]
				}
			}
			for j := range bias {
				bias[j] = float32(rng.NormFloat64())
				if rng.IntN(4) == 0 {
					bias[j] = 0
				}
			}
			want := make([]float32, len(c))
			for i, v := range c {
				x := v + bias[i%f]
				if !(x > 0) {
					x = 0
				}
				want[i] = x
			}
			BiasReLU(c, bias)
			for i := range c {
				if math.Float32bits(c[i]) != math.Float32bits(want[i]) {
					t.Fatalf("f %d asm %v: element %d = %v (%08x), want %v", f, asm, i, c[i], math.Float32bits(c[i]), want[i])
				}
			}
		}
	}
}

// ReLUGrad passes g where y > 0 and +0 elsewhere (−0, NaNs, negatives), the
// same bits on the assembly loop and the Go loop, on lengths with and
// without a tail past a multiple of 8.
func TestReLUGrad(t *testing.T) {
	saved := reluGradAsm
	defer func() { reluGradAsm = saved }()
	rng := rand.New(rand.NewPCG(6, 6))
	special := []float32{0, float32(math.Copysign(0, -1)), 1e-45, -1e-45, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), -float32(math.NaN()), 2, -2}
	for _, n := range []int{1, 7, 8, 29, 64} {
		for _, asm := range []bool{true, false} {
			reluGradAsm = saved
			if !asm {
				reluGradAsm = nil
			}
			y, g := make([]float32, n), make([]float32, n)
			for i := range y {
				y[i], g[i] = special[rng.IntN(len(special))], float32(rng.NormFloat64())
				if rng.IntN(3) == 0 {
					g[i] = special[rng.IntN(len(special))]
				}
			}
			dst := make([]float32, n)
			ReLUGrad(dst, y, g)
			for i := range dst {
				want := float32(0)
				if y[i] > 0 {
					want = g[i]
				}
				if math.Float32bits(dst[i]) != math.Float32bits(want) {
					t.Fatalf("n %d asm %v: element %d (y %v, g %v) = %v, want %v", n, asm, i, y[i], g[i], dst[i], want)
				}
			}
		}
	}
}
