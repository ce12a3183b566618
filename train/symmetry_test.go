package train

import (
	"slices"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// MeasureSymmetry on Nuggets (eight symmetries): a network whose weights are
// all zero plays the uniform policy in every frame (distance 0); a random
// network is not equivariant (a positive distance in some frame); every
// other frame is listed once; the same seed gives the same figures; and a
// game without symmetries gives none.
func TestMeasureSymmetry(t *testing.T) {
	g, err := rules.Lookup("nuggets")
	if err != nil {
		t.Fatal(err)
	}
	cfg := g.Default()
	arch, err := neural.NewArch(g.Name, g.Encoder(cfg).Space(), 4, 1, 8)
	if err != nil {
		t.Fatal(err)
	}
	arch.Coords = true
	random, err := neural.NewInit(arch, rules.NewRNG(3))
	if err != nil {
		t.Fatal(err)
	}
	zero := random.Clone()
	for _, v := range zero.Values {
		clear(v)
	}
	fz, err := MeasureSymmetry(zero, cfg, 40, 1)
	if err != nil {
		t.Fatal(err)
	}
	var frames []rules.D4
	for _, f := range fz {
		frames = append(frames, f.Frame)
		if f.TV > 1e-9 || f.Greedy < 0 || f.Greedy > 1 {
			t.Errorf("zero network, frame %d: %+v, want distance 0", f.Frame, f)
		}
	}
	if !slices.Equal(frames, []rules.D4{1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("frames %v, want the seven besides the identity", frames)
	}
	fr, err := MeasureSymmetry(random, cfg, 40, 1)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for _, f := range fr {
		worst = max(worst, f.TV)
		if f.TV < 0 || f.TV > 1 || f.Greedy < 0 || f.Greedy > 1 {
			t.Errorf("frame %d: %+v out of range", f.Frame, f)
		}
	}
	if worst < 1e-3 {
		t.Errorf("a random network with coordinate planes measured equivariant: %+v", fr)
	}
	again, _ := MeasureSymmetry(random, cfg, 40, 1)
	if !slices.Equal(fr, again) {
		t.Errorf("same seed, other figures: %+v, %+v", fr, again)
	}
	fsq, err := rules.Lookup("four-square")
	if err != nil {
		t.Fatal(err)
	}
	net, _, err := neural.Load(rulestest.Policy(t, "four-square"))
	if err != nil {
		t.Fatal(err)
	}
	fs, err := MeasureSymmetry(net, fsq.Default(), 10, 1)
	if err != nil || len(fs) != 0 {
		t.Errorf("a game without symmetries: %+v, %v", fs, err)
	}
}
