package graph

import (
	"math"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/agents/neural/neuraltest"
	"github.com/gridgym/gridgym/env"
	_ "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
)

// testNet is neuraltest.SmallNet: a small network of game with every
// parameter (biases included) drawn at random.
func testNet(t testing.TB, game string, params map[string]string, coords bool) *neural.Net {
	t.Helper()
	return neuraltest.SmallNet(t, game, params, coords)
}

// gameShapes is every game's network shape for the tests that run on each
// (testNet's arguments): Rectangle on a small board with several robots.
var gameShapes = []struct {
	game   string
	params map[string]string
	coords bool
}{
	{"slime", nil, false},
	{"rising-tide", nil, false},
	{"bovine-borders", nil, true},
	{"nuggets", nil, true},
	{"rectangle", map[string]string{"n": "8", "robots": "3"}, true},
}

// The plain-Go forward pass (neural.Forward, used for acting, evaluation and
// the exported Go bot) equals the gorgonia graph's on random inputs and real
// observations: max abs difference ≤ 1e-5 (issue 6).
func TestForwardMatchesGorgonia(t *testing.T) {
	for _, tc := range gameShapes {
		t.Run(tc.game, func(t *testing.T) {
			net := testNet(t, tc.game, tc.params, tc.coords)
			a := net.Arch
			const batch = 5
			gr, err := newGraph(net, batch)
			if err != nil {
				t.Fatal(err)
			}
			rng := rules.NewRNG(9)
			x := gr.X.Data().([]float32)
			for i := range x {
				x[i] = float32(rng.U(3))
			}
			// Unit planes mark one cell each, as in every game that has them
			// (sums over a plane of random values would reach magnitudes
			// where float32 rounding alone exceeds 1e-5).
			if a.Units > 0 {
				hw := a.Cells()
				for i := 0; i < batch; i++ {
					for h := 0; h < a.Heads; h++ {
						p := x[(i*a.Cin()+a.Units+h)*hw : (i*a.Cin()+a.Units+h+1)*hw]
						clear(p)
						p[rng.U(hw)] = 1
					}
				}
			}
			// Two rows from a real game's observations too.
			g, _ := rules.Lookup(tc.game)
			cfg, _ := g.Configure(tc.params)
			v, err := env.New(env.Config{Game: cfg, N: 1, Seed: 4})
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			v.Reset(4)
			sp := v.Space
			for s := 0; s < 2; s++ {
				neural.FillInput(a, x[s*a.InputSize():], v.Obs[s*sp.ObsSize():], v.Scalars[s*sp.Scalars:])
			}
			if err := gr.Coefficients(1, 0.5, 0.01, 0); err != nil {
				t.Fatal(err)
			}
			if err := gr.Run(); err != nil {
				t.Fatal(err)
			}
			w := neural.NewWorkspace(a, batch)
			copy(w.Input, x)
			net.Forward(w, batch, nil, 0)
			worst := 0.0
			for i, l := range gr.Read(gr.Logits) {
				worst = max(worst, math.Abs(float64(l-w.Logits[i])))
			}
			for i, val := range gr.Read(gr.Value) {
				worst = max(worst, math.Abs(float64(val-w.Value[i])))
			}
			if len(gr.Read(gr.Logits)) != batch*a.Logits() {
				t.Fatalf("graph has %d logits, want %d", len(gr.Read(gr.Logits)), batch*a.Logits())
			}
			if worst > 1e-5 {
				t.Fatalf("max |gorgonia − plain Go| = %g, want ≤ 1e-5", worst)
			}
			t.Logf("max abs difference %.2g over %d logits", worst, batch*a.Logits())
		})
	}
}
