package train

import (
	"math"
	"testing"

	"gorgonia.org/tensor"

	"github.com/gridgym/gridgym/rules"
)

// patchOp gathers each cell's 3×3 neighbourhood (zeros off the board) in
// (dy, dx, channel) order from either layout, and patchGradOp is its
// adjoint: ⟨patch(x), y⟩ = ⟨x, patchGrad(y)⟩ for any x and y.
func TestPatchOpIsAGatherAndItsGradTheAdjoint(t *testing.T) {
	const B, C, H, W = 2, 3, 4, 5
	rng := rules.NewRNG(7)
	random := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.U(2001))/1000 - 1
		}
		return v
	}
	for _, nchw := range []bool{false, true} {
		op := patchOp{b: B, c: C, h: H, w: W, nchw: nchw}
		at := func(x []float32, b, c, y, xx int) float32 { // input value, 0 off the board
			if y < 0 || y >= H || xx < 0 || xx >= W {
				return 0
			}
			if nchw {
				return x[((b*C+c)*H+y)*W+xx]
			}
			return x[((b*H+y)*W+xx)*C+c]
		}
		x := random(B * C * H * W)
		in := tensor.New(tensor.WithShape(B*H*W, C), tensor.WithBacking(x))
		if nchw {
			in = tensor.New(tensor.WithShape(B, C, H, W), tensor.WithBacking(x))
		}
		out, err := op.Do(in)
		if err != nil {
			t.Fatal(err)
		}
		col := out.Data().([]float32)
		for b := 0; b < B; b++ {
			for y := 0; y < H; y++ {
				for xx := 0; xx < W; xx++ {
					for k := 0; k < 9; k++ {
						for c := 0; c < C; c++ {
							got := col[((b*H+y)*W+xx)*9*C+k*C+c]
							if want := at(x, b, c, y+k/3-1, xx+k%3-1); got != want {
								t.Fatalf("nchw %v: patch of (%d,%d,%d) entry (%d,%d) = %v, want %v", nchw, b, y, xx, k, c, got, want)
							}
						}
					}
				}
			}
		}
		yv := random(len(col))
		g, err := patchGradOp{op}.Do(tensor.New(tensor.WithShape(B*H*W, 9*C), tensor.WithBacking(yv)))
		if err != nil {
			t.Fatal(err)
		}
		var lhs, rhs float64
		for i := range col {
			lhs += float64(col[i]) * float64(yv[i])
		}
		for i, v := range g.Data().([]float32) {
			rhs += float64(x[i]) * float64(v)
		}
		if math.Abs(lhs-rhs) > 1e-4*(1+math.Abs(lhs)) {
			t.Errorf("nchw %v: ⟨patch(x), y⟩ = %v, ⟨x, patchGrad(y)⟩ = %v", nchw, lhs, rhs)
		}
	}
}
