package train

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// patches gathers each cell's 3×3 neighbourhood (zeros off the board) in
// (dy, dx, channel) order from either layout. (The convolution built on it
// is checked against plain-Go inference and finite differences in
// TestForwardMatchesGorgonia and TestGradientsMatchFiniteDifferences.)
func TestPatchesGather(t *testing.T) {
	const B, C, H, W = 2, 3, 4, 5
	rng := rules.NewRNG(7)
	x := make([]float32, B*C*H*W)
	for i := range x {
		x[i] = float32(rng.U(2001))/1000 - 1
	}
	for _, nchw := range []bool{false, true} {
		at := func(b, c, y, xx int) float32 { // input value, 0 off the board
			if y < 0 || y >= H || xx < 0 || xx >= W {
				return 0
			}
			if nchw {
				return x[((b*C+c)*H+y)*W+xx]
			}
			return x[((b*H+y)*W+xx)*C+c]
		}
		col := make([]float32, B*H*W*9*C)
		for i := range col {
			col[i] = 42 // every entry must be written
		}
		patches(col, x, make([]float32, H*W*C), B, C, H, W, nchw)
		for b := 0; b < B; b++ {
			for y := 0; y < H; y++ {
				for xx := 0; xx < W; xx++ {
					for k := 0; k < 9; k++ {
						for c := 0; c < C; c++ {
							got := col[((b*H+y)*W+xx)*9*C+k*C+c]
							if want := at(b, c, y+k/3-1, xx+k%3-1); got != want {
								t.Fatalf("nchw %v: patch of (%d,%d,%d) entry (%d,%d) = %v, want %v", nchw, b, y, xx, k, c, got, want)
							}
						}
					}
				}
			}
		}
	}
}
