package graph

import (
	"math"
	"runtime"
	"testing"

	G "gorgonia.org/gorgonia"

	"github.com/gridgym/gridgym/rules"
)

// A train step split over 2 or 3 workers (shard.go) gives the whole
// minibatch's gradient, loss terms and per-sample outputs within 1e-5 of
// the unsplit step (relative to each tensor's largest element, at least
// 0.01), on every
// game's shape and an odd minibatch (17 rows: parts of 8+9 and 5+5+7, the
// remainder to the last), every loss term on; and the same bits when run
// again.
func TestStepSplitSameAsWhole(t *testing.T) {
	for _, tc := range gameShapes {
		t.Run(tc.game, func(t *testing.T) {
			net := testNet(t, tc.game, tc.params, tc.coords)
			const batch = 17
			gr, err := newGraphKL(net, batch, true)
			if err != nil {
				t.Fatal(err)
			}
			rng := rules.NewRNG(9)
			FillRandom(gr, rng)
			// Soft KL targets on each row's legal actions.
			q, mb := gr.Target.Data().([]float32), gr.MaskBias.Data().([]float32)
			for r := 0; r < batch*gr.Arch.Heads; r++ {
				sum := float32(0)
				row := q[r*gr.Arch.Actions : (r+1)*gr.Arch.Actions]
				for k := range row {
					row[k] = 0
					if mb[r*gr.Arch.Actions+k] == 0 {
						row[k] = float32(rng.Float64()) + 0.01
						sum += row[k]
					}
				}
				for k := range row {
					row[k] /= sum
				}
			}
			if err := gr.Coefficients(1, 0.5, 0.01, 0.3); err != nil {
				t.Fatal(err)
			}
			if err := G.Let(gr.CKL, float32(0.4)); err != nil {
				t.Fatal(err)
			}
			outs := []*G.Node{gr.Loss, gr.PGLoss, gr.VLoss, gr.Entropy, gr.BCLoss, gr.KLLoss, gr.LogpA, gr.Ratio, gr.Value, gr.Logits}
			// run returns copies of the step's gradients and outputs.
			run := func(st *Step) (grads, outputs [][]float32) {
				if err := st.Run(); err != nil {
					t.Fatal(err)
				}
				gs, err := st.Grads()
				if err != nil {
					t.Fatal(err)
				}
				for _, g := range gs {
					grads = append(grads, append([]float32(nil), g...))
				}
				for _, n := range outs {
					outputs = append(outputs, append([]float32(nil), st.Read(n)...))
				}
				return grads, outputs
			}
			whole, err := NewStep(gr, net, 1)
			if err != nil {
				t.Fatal(err)
			}
			g1, o1 := run(whole)
			for _, w := range []int{2, 3} {
				st, err := NewStep(gr, net, w)
				if err != nil {
					t.Fatal(err)
				}
				if len(st.parts) != w || st.parts[w-1].Batch != batch-(w-1)*(batch/w) {
					t.Fatalf("%d workers: %d parts, the last of %d rows", w, len(st.parts), st.parts[len(st.parts)-1].Batch)
				}
				gw, ow := run(st)
				close := func(what string, a, b []float32) {
					// At least 0.01: a gradient that is 0 up to rounding
					// (nuggets' policy bias: Σ over a row of π − onehot) is
					// only noise of its terms' size.
					scale := 0.01
					for _, x := range a {
						scale = max(scale, math.Abs(float64(x)))
					}
					for j := range a {
						if d := math.Abs(float64(a[j] - b[j])); d > 1e-5*scale {
							t.Fatalf("%d workers: %s[%d] = %v, unsplit %v (largest %v)", w, what, j, b[j], a[j], scale)
						}
					}
				}
				for i := range g1 {
					close("gradient of "+net.Params[i].Name, g1[i], gw[i])
				}
				for i, n := range outs {
					close(n.Name(), o1[i], ow[i])
				}
				g2, o2 := run(st)
				for i := range gw {
					for j := range gw[i] {
						if math.Float32bits(gw[i][j]) != math.Float32bits(g2[i][j]) {
							t.Fatalf("%d workers: gradient of %s[%d] %v, then %v on the same inputs", w, net.Params[i].Name, j, gw[i][j], g2[i][j])
						}
					}
				}
				for i := range ow {
					for j := range ow[i] {
						if math.Float32bits(ow[i][j]) != math.Float32bits(o2[i][j]) {
							t.Fatalf("%d workers: %s[%d] %v, then %v", w, outs[i].Name(), j, ow[i][j], o2[i][j])
						}
					}
				}
			}
		})
	}
}

// A split train step allocates, after its first run, under an eighth of what
// the first run did (TestTrainStepReusesItsTensors for the split step: the
// parts keep their tensors, the gradients' sum its buffers).
func TestStepSplitReusesItsTensors(t *testing.T) {
	net := testNet(t, "rising-tide", nil, false)
	gr, err := newGraph(net, 16)
	if err != nil {
		t.Fatal(err)
	}
	FillRandom(gr, rules.NewRNG(1))
	if err := gr.Coefficients(1, 0.5, 0.01, 0); err != nil {
		t.Fatal(err)
	}
	st, err := NewStep(gr, net, 2)
	if err != nil {
		t.Fatal(err)
	}
	allocated := func(runs int) float64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			if err := st.Run(); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Grads(); err != nil {
				t.Fatal(err)
			}
			st.Read(gr.Loss)
			st.Read(gr.LogpA)
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(runs)
	}
	first := allocated(1)
	steady := allocated(5)
	t.Logf("first run %.0f bytes, then %.0f bytes a run", first, steady)
	if steady > first/8 {
		t.Fatalf("a split run allocates %.0f bytes after a first run of %.0f: want under an eighth", steady, first)
	}
}
