package train

import (
	"math"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// The graph's gradients equal finite differences of its loss, for the
// behaviour-cloning, value and PPO terms (this catches a wrong backward
// pass in any op the network uses).
func TestGradientsMatchFiniteDifferences(t *testing.T) {
	for _, tc := range []struct {
		name           string
		pg, v, ent, bc float32
	}{
		{"bc", 0, 0, 0, 1},
		{"value", 0, 1, 0, 0},
		{"ppo", 1, 0.5, 0.1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net := testNet(t, "slime", nil)
			const batch = 3
			gr, err := newGraph(net, batch)
			if err != nil {
				t.Fatal(err)
			}
			rng := rules.NewRNG(4)
			x := gr.x.Data().([]float32)
			for i := range x {
				x[i] = float32(rng.U(2))
			}
			a := net.Arch
			mb, oh := gr.maskBias.Data().([]float32), gr.onehot.Data().([]float32)
			for j := 0; j < batch; j++ {
				for k := 0; k < a.Actions; k++ {
					mb[j*a.Actions+k] = maskedLogit
					if k%7 == j {
						mb[j*a.Actions+k] = 0
					}
				}
				oh[j*a.Actions+7+j] = 1
			}
			old, adv, ret, lo, hi := gr.oldLogp.Data().([]float32), gr.adv.Data().([]float32), gr.ret.Data().([]float32), gr.lo.Data().([]float32), gr.hi.Data().([]float32)
			for j := 0; j < batch; j++ {
				old[j], adv[j], ret[j], lo[j], hi[j] = -5.3, float32(j)-1, 0.5, 0.8, 1.2
			}
			gr.coefficients(tc.pg, tc.v, tc.ent, tc.bc)
			loss := func() float64 {
				if err := gr.run(); err != nil {
					t.Fatal(err)
				}
				return float64(gr.read(gr.loss)[0])
			}
			loss()
			grads, _ := gr.grads()
			first := append([]float32(nil), grads[0]...)
			loss()
			grads, _ = gr.grads()
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
			checked := 0
			for i, p := range net.Values {
				for _, j := range []int{0, len(p) / 2, len(p) - 1} {
					const h = 1e-3
					orig := p[j]
					p[j] = orig + h
					up := loss()
					p[j] = orig - h
					down := loss()
					p[j] = orig
					num := (up - down) / (2 * h)
					an := float64(analytic[i][j])
					if math.Abs(num-an) > 2e-3+0.05*math.Abs(num) {
						t.Errorf("%s[%d]: analytic %.5f, numeric %.5f", net.Params[i].Name, j, an, num)
					}
					checked++
				}
			}
			t.Logf("%d partial derivatives checked", checked)
		})
	}
}
