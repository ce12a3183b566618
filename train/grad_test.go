package train

import (
	"math"
	"runtime"
	"testing"

	G "gorgonia.org/gorgonia"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train/graph"
)

// The graph's gradients equal finite differences of its loss, for the
// behaviour-cloning, value, PPO and KL-to-clone terms (this catches a wrong backward
// pass in any op the network uses).
func TestGradientsMatchFiniteDifferences(t *testing.T) {
	for _, tc := range []struct {
		name           string
		pg, v, ent, bc float32
		game           string
		params         map[string]string
		kl             float32 // the KL penalty towards soft targets (newGraphKL)
	}{
		{"kl", 0, 0, 0, 0, "slime", nil, 1},
		{"ppo+kl", 1, 0.5, 0.1, 0, "rectangle", map[string]string{"n": "8", "robots": "2"}, 0.7},
		{"bc", 0, 0, 0, 1, "slime", nil, 0},
		{"value", 0, 1, 0, 0, "slime", nil, 0},
		{"ppo", 1, 0.5, 0.1, 0, "slime", nil, 0},
		// Several heads, unit features (BatchedMatMul) and coordinate channels.
		{"rectangle-bc", 0, 0, 0, 1, "rectangle", map[string]string{"n": "8", "robots": "2"}, 0},
		{"rectangle-ppo", 1, 0.5, 0.1, 0, "rectangle", map[string]string{"n": "8", "robots": "2"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net := testNet(t, tc.game, tc.params, tc.game != "slime")
			const batch = 3
			gr, err := newGraphKL(net, batch, tc.kl != 0)
			if err != nil {
				t.Fatal(err)
			}
			rng := rules.NewRNG(4)
			if tc.kl != 0 {
				// Soft targets over each row's legal actions (k ≡ row mod 7).
				a := net.Arch
				q := gr.Target.Data().([]float32)
				for j := 0; j < batch*a.Heads; j++ {
					legal := 0
					for k := j % 7; k < a.Actions; k += 7 {
						legal++
					}
					for k := j % 7; k < a.Actions; k += 7 {
						q[j*a.Actions+k] = 1 / float32(legal)
					}
				}
				if err := G.Let(gr.CKL, tc.kl); err != nil {
					t.Fatal(err)
				}
			}
			x := gr.X.Data().([]float32)
			for i := range x {
				x[i] = float32(rng.U(2))
			}
			a := net.Arch
			mb, oh := gr.MaskBias.Data().([]float32), gr.Onehot.Data().([]float32)
			for j := 0; j < batch*a.Heads; j++ {
				for k := 0; k < a.Actions; k++ {
					mb[j*a.Actions+k] = graph.MaskedLogit
					if k%7 == j%7 {
						mb[j*a.Actions+k] = 0
					}
				}
				oh[j*a.Actions+7+j%7] = 1
			}
			old, adv, ret, lo, hi := gr.OldLogp.Data().([]float32), gr.Adv.Data().([]float32), gr.Ret.Data().([]float32), gr.Lo.Data().([]float32), gr.Hi.Data().([]float32)
			for j := 0; j < batch; j++ {
				old[j], adv[j], ret[j], lo[j], hi[j] = -5.3, float32(j)-1, 0.5, 0.8, 1.2
			}
			gr.Coefficients(tc.pg, tc.v, tc.ent, tc.bc)
			loss := func() float64 {
				if err := gr.Run(); err != nil {
					t.Fatal(err)
				}
				return float64(gr.Read(gr.Loss)[0])
			}
			loss()
			grads, _ := gr.Grads()
			first := append([]float32(nil), grads[0]...)
			loss()
			grads, _ = gr.Grads()
			for j := range first {
				// A second run on the same input gives the same gradient, not
				// the sum of both (gorgonia adds into gradients).
				if grads[0][j] != first[j] {
					t.Fatalf("%s gradient changed between two identical runs: %v, then %v", net.Params[0].Name, first[j], grads[0][j])
				}
			}
			analytic := make([][]float32, len(grads))
			for i, g := range grads {
				analytic[i] = append([]float32(nil), g...)
			}
			// Central differences at two step sizes: where they disagree, a
			// ReLU or a clip changes branch inside the step (a kink, where
			// no finite difference is the derivative) and the entry is
			// skipped; most entries must be checked.
			checked, kinks := 0, 0
			numeric := func(p []float32, j int, h float32) float64 {
				orig := p[j]
				p[j] = orig + h
				up := loss()
				p[j] = orig - h
				down := loss()
				p[j] = orig
				return (up - down) / (2 * float64(h))
			}
			for i, p := range net.Values {
				for _, j := range []int{0, len(p) / 2, len(p) - 1} {
					num, half := numeric(p, j, 1e-3), numeric(p, j, 5e-4)
					if math.Abs(num-half) > 1e-3+0.02*math.Abs(num) {
						kinks++
						continue
					}
					an := float64(analytic[i][j])
					if math.Abs(num-an) > 2e-3+0.05*math.Abs(num) {
						t.Errorf("%s[%d]: analytic %.5f, numeric %.5f", net.Params[i].Name, j, an, num)
					}
					checked++
				}
			}
			if kinks*5 > checked+kinks {
				t.Errorf("%d of %d entries sit on kinks; too few checked", kinks, checked+kinks)
			}
			t.Logf("%d partial derivatives checked, %d skipped on kinks", checked, kinks)
		})
	}
}

// One train step's loss and gradients are the same on one core and on two
// (the convolutions split their chunks into slots fixed by the CPU count,
// not by GOMAXPROCS), for every game's shape.
func TestGradientsSameOnEveryCoreCount(t *testing.T) {
	for _, tc := range gameShapes {
		t.Run(tc.game, func(t *testing.T) {
			net := testNet(t, tc.game, tc.params, tc.coords)
			step := func(procs int) ([]float32, [][]float32) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				gr, err := newGraph(net, 17)
				if err != nil {
					t.Fatal(err)
				}
				graph.FillRandom(gr, rules.NewRNG(5))
				gr.Coefficients(1, 0.5, 0.01, 0.3)
				if err := gr.Run(); err != nil {
					t.Fatal(err)
				}
				grads, err := gr.Grads()
				if err != nil {
					t.Fatal(err)
				}
				var out [][]float32
				for _, g := range grads {
					out = append(out, append([]float32(nil), g...))
				}
				return append([]float32(nil), gr.Read(gr.Loss)...), out
			}
			l1, g1 := step(1)
			l2, g2 := step(2)
			if math.Abs(float64(l1[0]-l2[0])) > 1e-5 {
				t.Fatalf("loss %v on one core, %v on two", l1[0], l2[0])
			}
			for i := range g1 {
				for j := range g1[i] {
					if d := math.Abs(float64(g1[i][j] - g2[i][j])); d > 1e-5 {
						t.Fatalf("%s[%d]: %v on one core, %v on two", net.Params[i].Name, j, g1[i][j], g2[i][j])
					}
				}
			}
		})
	}
}
