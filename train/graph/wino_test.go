package graph

import (
	"math"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
)

// A train step of networks whose 3×3 layers run by Winograd (Slime's
// shipped shape, 64 filters: forward, input and filter gradients; Bovine
// Borders' and Rising Tide's, 16 filters: forward and input gradient, Rising
// Tide's 24-channel input layer too) gives the direct products' loss,
// outputs and gradients within float rounding (1e-5 of each tensor's
// largest element, at least 0.01), and its logits and values match the
// plain-Go forward pass (neural.Forward, Winograd too) within 1e-5.
func TestWinogradStep(t *testing.T) {
	for _, tc := range []struct {
		game    string
		filters int
		coords  bool
	}{{"slime", 64, false}, {"bovine-borders", 16, true}, {"rising-tide", 16, false}} {
		t.Run(tc.game, func(t *testing.T) { winogradStep(t, tc.game, tc.filters, tc.coords) })
	}
}

// winogradStep is TestWinogradStep for one game's shape.
func winogradStep(t *testing.T, game string, filters int, coords bool) {
	defer func() { winoOn = true }()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	arch, err := neural.NewArch(game, g.Encoder(g.Default()).Space(), filters, 3, 16)
	if err != nil {
		t.Fatal(err)
	}
	arch.Coords = coords
	net, err := neural.NewInit(arch, rules.NewRNG(5))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range net.Values { // biases too, and heads of some size
		for i := range v {
			if len(v) <= 64 {
				v[i] = float32(i%7-3) * 0.05
			}
		}
	}
	const batch = 7
	run := func(on bool) (grads, outs [][]float32) {
		winoOn = on
		gr, err := newGraph(net, batch)
		if err != nil {
			t.Fatal(err)
		}
		FillRandom(gr, rules.NewRNG(9))
		if err := gr.Coefficients(1, 0.5, 0.01, 0); err != nil {
			t.Fatal(err)
		}
		st, err := NewStep(gr, net, 1)
		if err != nil {
			t.Fatal(err)
		}
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
		for _, n := range [][]float32{gr.Read(gr.Loss), gr.Read(gr.Logits), gr.Read(gr.Value)} {
			outs = append(outs, append([]float32(nil), n...))
		}
		if on {
			w := neural.NewWorkspace(arch, batch)
			copy(w.Input, gr.X.Data().([]float32))
			net.Forward(w, batch, nil, 0)
			worst := 0.0
			for i, l := range outs[1] {
				worst = max(worst, math.Abs(float64(l-w.Logits[i])))
			}
			for i, v := range outs[2] {
				worst = max(worst, math.Abs(float64(v-w.Value[i])))
			}
			if worst > 1e-5 {
				t.Errorf("max |graph − plain Go| = %g, want ≤ 1e-5", worst)
			}
		}
		return grads, outs
	}
	g0, o0 := run(false)
	g1, o1 := run(true)
	near := func(what string, i int, a, b []float32) {
		t.Helper()
		scale := 0.01
		for _, v := range a {
			scale = max(scale, math.Abs(float64(v)))
		}
		for j := range a {
			if d := math.Abs(float64(a[j] - b[j])); d > 1e-5*scale {
				t.Fatalf("%s %d [%d]: %v direct, %v Winograd (scale %g)", what, i, j, a[j], b[j], scale)
			}
		}
	}
	for i := range g0 {
		near("gradient", i, g0[i], g1[i])
	}
	for i := range o0 {
		near("output", i, o0[i], o1[i])
	}
}
