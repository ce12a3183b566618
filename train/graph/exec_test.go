package graph

import (
	"fmt"
	"math"
	"testing"

	G "gorgonia.org/gorgonia"

	"github.com/gridgym/gridgym/rules"
)

// The executor (exec.go) computes exactly what gorgonia's tape machine
// computes on the same graph: every parameter's gradient and the loss and
// its terms the same bits, on every game's shape, with the KL penalty's
// term, every loss weight non-zero and a clip range that some ratios leave,
// so that every kernel of the executor (the loss's scalar arithmetic,
// Min/MaxBetween and their gradients, the slices and their gradients, the
// dense layers' products) runs (issue 21). The per-sample outputs are not
// compared: G.Read nodes added after G.Grad read what the tape's in-place
// ops leave in their registers (the value, overwritten by its gradient);
// TestForwardMatchesGorgonia checks the logits and the value.
func TestExecutorMatchesTapeMachine(t *testing.T) {
	for _, tc := range gameShapes {
		t.Run(tc.game, func(t *testing.T) {
			net := testNet(t, tc.game, tc.params, tc.coords)
			gr, err := newGraphKL(net, 13, true)
			if err != nil {
				t.Fatal(err)
			}
			rng := rules.NewRNG(11)
			FillRandom(gr, rng)
			target, mask := gr.Target.Float32s(), gr.MaskBias.Float32s()
			for j := range target {
				if mask[j] == 0 { // the clone's probabilities, on legal actions only
					target[j] = float32(rng.Float64()) / 10
				}
			}
			if err := gr.Coefficients(1, 0.5, 0.01, 0.3); err != nil {
				t.Fatal(err)
			}
			if err := G.Let(gr.CKL, float32(0.2)); err != nil {
				t.Fatal(err)
			}
			if err := gr.Run(); err != nil {
				t.Fatal(err)
			}
			// Old log-probabilities near the new ones: ratios inside and on
			// both sides of the clip range [0.8, 1.2].
			old, lo, hi := gr.OldLogp.Float32s(), gr.Lo.Float32s(), gr.Hi.Float32s()
			for j, l := range gr.Read(gr.LogpA) {
				old[j] = l + float32(rng.Float64()-0.5)*0.6
				lo[j], hi[j] = 0.8, 1.2
			}
			if err := gr.Run(); err != nil {
				t.Fatal(err)
			}
			grads := make([][]float32, len(gr.grad))
			for i, g := range gr.grad {
				grads[i] = append([]float32(nil), g...)
			}
			outs := make([][]float32, len(gr.outs))
			for i, n := range gr.outs {
				outs[i] = append([]float32(nil), gr.Read(n)...)
			}

			// The same graph on the tape machine.
			read := make([]G.Value, len(gr.outs))
			for i, n := range gr.outs {
				G.Read(n, &read[i])
			}
			vm := G.NewTapeMachine(gr.Expr, G.BindDualValues(gr.Params...))
			defer vm.Close()
			if err := vm.RunAll(); err != nil {
				t.Fatal(err)
			}
			same := func(what string, got, want []float32) {
				t.Helper()
				if len(got) != len(want) {
					t.Fatalf("%s: %d values from the executor, %d from the tape", what, len(got), len(want))
				}
				for j := range got {
					if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
						t.Fatalf("%s[%d]: executor %v, tape machine %v", what, j, got[j], want[j])
					}
				}
			}
			for i, p := range gr.Params {
				gv, err := p.Grad()
				if err != nil {
					t.Fatal(err)
				}
				same("gradient of "+p.Name(), grads[i], gv.Data().([]float32))
			}
			scalars := 0
			for i, n := range gr.outs {
				if v, ok := read[i].Data().(float32); ok {
					same(fmt.Sprintf("output %d (%v)", i, n.Name()), outs[i], []float32{v})
					scalars++
				}
			}
			if scalars != 6 { // loss, pg, v, entropy, bc, kl
				t.Fatalf("%d scalar outputs compared, want 6", scalars)
			}
		})
	}
}
