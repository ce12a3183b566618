package sgemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Winograd's convolution (WinoFilter, WinoInput, WinoProduct, WinoOutput)
// equals the direct sum over each cell's neighbourhood to float rounding,
// forward and for the input gradient's flipped, transposed filter, for
// groups of images, channel counts the assembly transforms take (multiples
// of 8) and counts they do not, and filter counts that fill panels and that
// do not; on a padded output it writes the inner cells alone.
func TestWinogradConv(t *testing.T) {
	for _, sh := range [][5]int{{64, 8, 8, 64, 3}, {16, 20, 20, 16, 1}, {5, 2, 4, 7, 2}, {24, 6, 2, 40, 5}} {
		for _, grad := range []bool{false, true} {
			winogradConv(t, sh[0], sh[1], sh[2], sh[3], sh[4], grad)
		}
	}
}

// winogradConv is TestWinogradConv on one shape: images of H×W cells, C
// channels to F filters (F to C for grad).
func winogradConv(t *testing.T, C, H, W, F, images int, grad bool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(C*H), uint64(W*F+images)))
	wt := randSlice(rng, F*C*9) // [F][C][3][3]
	cin, cout := C, F
	if grad {
		cin, cout = F, C
	}
	// tap(o, i, k) is the correlation's filter from input channel i to
	// output channel o at tap k = ky·3 + kx.
	tap := func(o, i, k int) float32 {
		if grad {
			return wt[(i*C+o)*9+8-k]
		}
		return wt[(o*C+i)*9+k]
	}
	up := make([]float32, WinoPackedLen(cin, cout))
	WinoFilter(up, wt, F, C, grad)
	rows := WinoRows(images, H, W)
	v := make([]float32, WinoLen(rows, cin))
	m := make([]float32, WinoLen(rows, cout))
	php, pw := PadCells(H, W), PadPitch(W)
	xs := make([][]float32, images)
	for i := range xs {
		xs[i] = randSlice(rng, H*W*cin)
		pad := make([]float32, php*cin)
		PadImage(pad, xs[i], cin, H, W, false)
		WinoInput(v, rows, i*WinoTiles(H, W), pad, cin, H, W)
	}
	WinoProduct(m, v, rows, cin, cout, up)
	for i, x := range xs {
		out := make([]float32, php*cout)
		for j := range out {
			out[j] = 42
		}
		WinoOutput(out, (pw+1)*cout, pw, m, rows, i*WinoTiles(H, W), cout, H, W)
		for q := 0; q < php; q++ {
			y, xx := q/pw-1, q%pw-1
			inner := y >= 0 && y < H && xx >= 0 && xx < W
			for o := 0; o < cout; o++ {
				got := out[q*cout+o]
				if !inner {
					if got != 42 {
						t.Fatalf("%d→%d %d×%d grad %v: padded cell %d written", cin, cout, H, W, grad, q)
					}
					continue
				}
				var want float64
				for k := 0; k < 9; k++ {
					yy, xk := y+k/3-1, xx+k%3-1
					if yy < 0 || yy >= H || xk < 0 || xk >= W {
						continue
					}
					for c := 0; c < cin; c++ {
						want += float64(x[(yy*W+xk)*cin+c]) * float64(tap(o, c, k))
					}
				}
				if d := float64(got) - want; d > 1e-4 || d < -1e-4 {
					t.Fatalf("%d→%d %d×%d grad %v: image %d cell (%d,%d) channel %d = %v, want %v", cin, cout, H, W, grad, i, y, xx, o, got, want)
				}
			}
		}
	}
}

// Winograd's filter gradient (WinoInput, WinoGradOutput, WinoGradProduct
// over groups of images, WinoGradFilter) equals the direct sum over cells
// of input times output gradient to float rounding.
func TestWinogradGradFilter(t *testing.T) {
	for _, sh := range [][5]int{{64, 8, 8, 64, 3}, {16, 20, 20, 16, 1}, {5, 2, 4, 7, 2}, {24, 6, 2, 40, 5}} {
		C, H, W, F, images := sh[0], sh[1], sh[2], sh[3], sh[4]
		rng := rand.New(rand.NewPCG(uint64(C), uint64(F)))
		xs, gs := randSlice(rng, images*H*W*C), randSlice(rng, images*H*W*F)
		du := make([]float32, winoE*C*F)
		tiles, php := WinoTiles(H, W), PadCells(H, W)
		pad := make([]float32, php*C)
		const group = 2
		for i0 := 0; i0 < images; i0 += group {
			n := min(group, images-i0)
			rows := WinoRows(n, H, W)
			v, dm := make([]float32, WinoLen(rows, C)), make([]float32, WinoLen(rows, F))
			for k := 0; k < n; k++ {
				img := i0 + k
				PadImage(pad, xs[img*H*W*C:(img+1)*H*W*C], C, H, W, false)
				WinoInput(v, rows, k*tiles, pad, C, H, W)
				WinoGradOutput(dm, rows, k*tiles, gs[img*H*W*F:(img+1)*H*W*F], F, H, W)
			}
			WinoGradProduct(du, v, dm, rows, n*tiles, C, F, i0 == 0)
		}
		dw := make([]float32, F*C*9)
		WinoGradFilter(dw, du, F, C)
		for f := 0; f < F; f++ {
			for c := 0; c < C; c++ {
				for k := 0; k < 9; k++ {
					var want float64
					for img := 0; img < images; img++ {
						for y := 0; y < H; y++ {
							for x := 0; x < W; x++ {
								yy, xx := y+k/3-1, x+k%3-1
								if yy < 0 || yy >= H || xx < 0 || xx >= W {
									continue
								}
								want += float64(xs[((img*H+yy)*W+xx)*C+c]) * float64(gs[((img*H+y)*W+x)*F+f])
							}
						}
					}
					if got := dw[(f*C+c)*9+k]; math.Abs(float64(got)-want) > 1e-3 {
						t.Fatalf("%d→%d %d×%d: dw[%d][%d][%d] = %v, want %v", C, F, H, W, f, c, k, got, want)
					}
				}
			}
		}
	}
}

// The assembly transforms give the Go forms' bits.
func TestWinogradTransformsSameBits(t *testing.T) {
	if winoInAsm == nil || winoOutAsm == nil {
		t.Skip("no assembly transforms on this CPU")
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for _, c := range []int{8, 16, 64} {
		rs, es := 5*c+3, 7*c+1
		d := randSlice(rng, 4*rs)
		v1, v2 := make([]float32, 16*es), make([]float32, 16*es)
		winoInGo(c, d, rs, v1, es)
		winoInAsm(c, d, rs, v2, es)
		m := randSlice(rng, 16*es)
		y1, y2 := make([]float32, 2*rs), make([]float32, 2*rs)
		winoOutGo(c, m, es, y1, rs)
		winoOutAsm(c, m, es, y2, rs)
		g1, g2 := make([]float32, 16*es), make([]float32, 16*es)
		winoGradOutGo(c, m, rs, g1, es)
		winoGradOutAsm(c, m, rs, g2, es)
		for i := range g1 {
			if g1[i] != g2[i] {
				t.Fatalf("c %d: output gradient transform [%d] asm %v, go %v", c, i, g2[i], g1[i])
			}
		}
		for i := range v1 {
			if v1[i] != v2[i] {
				t.Fatalf("c %d: input transform [%d] asm %v, go %v", c, i, v2[i], v1[i])
			}
		}
		for i := range y1 {
			if y1[i] != y2[i] {
				t.Fatalf("c %d: output transform [%d] asm %v, go %v", c, i, y2[i], y1[i])
			}
		}
	}
}

// BenchmarkConv3: a 3×3 convolution of a group of images, direct
// (GemmSegs on each padded image) and by Winograd (with the transforms,
// not the filter's), in useful GFLOP/s (2·9·C·F per cell).
func BenchmarkConv3(b *testing.B) {
	for _, sh := range [][5]int{{64, 8, 8, 64, 6}, {16, 20, 20, 16, 3}, {32, 8, 8, 32, 6}, {20, 20, 20, 16, 3}} {
		C, H, W, F, images := sh[0], sh[1], sh[2], sh[3], sh[4]
		rng := rand.New(rand.NewPCG(1, 2))
		php := PadCells(H, W)
		pads := make([]float32, images*php*C)
		for i := 0; i < images; i++ {
			PadImage(pads[i*php*C:], randSlice(rng, H*W*C), C, H, W, false)
		}
		wt := randSlice(rng, F*C*9)
		flops := float64(2*9*C*F*H*W*images) / 1e9
		b.Run(fmt.Sprintf("%dx%dx%dx%d/direct", C, H, W, F), func(b *testing.B) {
			bp := make([]float32, PackedLen(9*C, F))
			PackConv3(bp, wt, F, C)
			span := Conv3Span(H, W)
			out := make([]float32, span*F)
			segs := Conv3Segs(C, W)
			for it := 0; it < b.N; it++ {
				for i := 0; i < images; i++ {
					clear(out)
					GemmSegs(span, F, pads[i*php*C:(i+1)*php*C], C, segs[:], bp, out, F)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds(), "GFLOP/s")
		})
		b.Run(fmt.Sprintf("%dx%dx%dx%d/winograd", C, H, W, F), func(b *testing.B) {
			up := make([]float32, WinoPackedLen(C, F))
			WinoFilter(up, wt, F, C, false)
			rows := WinoRows(images, H, W)
			v, m := make([]float32, WinoLen(rows, C)), make([]float32, WinoLen(rows, F))
			out := make([]float32, php*F)
			for it := 0; it < b.N; it++ {
				for i := 0; i < images; i++ {
					WinoInput(v, rows, i*WinoTiles(H, W), pads[i*php*C:(i+1)*php*C], C, H, W)
				}
				WinoProduct(m, v, rows, C, F, up)
				for i := 0; i < images; i++ {
					WinoOutput(out, (W+2)*F, W+1, m, rows, i*WinoTiles(H, W), F, H, W)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds(), "GFLOP/s")
		})
	}
}
