package league

import (
	"math"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// PFSP's weightings are AlphaStar's, with the floor: hard favours the
// opponents the learner loses to, variance those at its level.
func TestPFSPWeights(t *testing.T) {
	for _, c := range []struct {
		f    string
		x, w float64
	}{
		{Hard, 0, 1.05}, {Hard, 0.5, 0.30}, {Hard, 1, 0.05},
		{Variance, 0.5, 0.30}, {Variance, 0, 0.05}, {Variance, 1, 0.05},
		{Uniform, 0.9, 1},
	} {
		w, err := Weight(c.f, c.x)
		if err != nil || math.Abs(w-c.w) > 1e-12 {
			t.Errorf("Weight(%s, %v) = %v, %v; want %v", c.f, c.x, w, err, c.w)
		}
	}
	if _, err := Weight("soft", 0.5); err == nil {
		t.Error("an unknown weighting was accepted")
	}
	p := Payoff{}
	p.Add("main", "a", 9, 10, 1) // beats a: 0.9
	p.Add("main", "b", 1, 10, 1) // loses to b: 0.1
	prob, err := p.Probabilities("main", []string{"a", "b", "c"}, Hard)
	if err != nil {
		t.Fatal(err)
	}
	// weights 0.01+0.05, 0.81+0.05, 0.25+0.05 (c never met: ½)
	want := []float64{0.06 / 1.22, 0.86 / 1.22, 0.30 / 1.22}
	for i := range want {
		if math.Abs(prob[i]-want[i]) > 1e-12 {
			t.Errorf("probabilities %v, want %v", prob, want)
			break
		}
	}
}

// Draw follows the probabilities (the counts of many draws are near them),
// returns the draws sorted, and is the same for the same seed.
func TestPFSPDraw(t *testing.T) {
	p := Payoff{}
	p.Add("main", "a", 9, 10, 1)
	p.Add("main", "b", 1, 10, 1)
	opp := []string{"a", "b", "c"}
	n := 20000
	d, err := p.Draw(rules.NewRNG(3), "main", opp, Hard, n)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for i, o := range d {
		count[o]++
		if i > 0 && d[i-1] > o {
			t.Fatal("draws not sorted")
		}
	}
	prob, _ := p.Probabilities("main", opp, Hard)
	for i, o := range opp {
		if got := float64(count[o]) / float64(n); math.Abs(got-prob[i]) > 0.015 {
			t.Errorf("%s drawn %.3f of the time, want %.3f", o, got, prob[i])
		}
	}
	again, _ := p.Draw(rules.NewRNG(3), "main", opp, Hard, n)
	for i := range d {
		if d[i] != again[i] {
			t.Fatal("the same seed drew differently")
		}
	}
	if _, err := p.Draw(rules.NewRNG(3), "main", nil, Hard, 1); err == nil {
		t.Error("a draw from an empty pool was accepted")
	}
}

// Add weighs the earlier record by the decay; Rate is ½ before any game;
// Forget drops a learner's row and the records against it.
func TestPayoffUpdates(t *testing.T) {
	p := Payoff{}
	if r := p.Rate("main", "x"); r != 0.5 {
		t.Errorf("rate before any game %v, want 0.5", r)
	}
	p.Add("main", "x", 4, 4, 0.5)   // 4/4
	p.Add("main", "x", 0, 4, 0.5)   // (2+0)/(2+4)
	p.Add("exp", "main", 3, 4, 0.5) // 3/4
	if r := p.Rate("main", "x"); math.Abs(r-2.0/6) > 1e-12 {
		t.Errorf("rate after decay %v, want 1/3", r)
	}
	if r := p["main"]["x"]; r.Games != 6 || r.Wins != 2 {
		t.Errorf("record %+v, want 2 wins of 6", r)
	}
	p.Forget("main")
	if _, ok := p["main"]; ok {
		t.Error("Forget kept the learner's row")
	}
	if _, ok := p["exp"]["main"]; ok {
		t.Error("Forget kept a record against the learner")
	}
}

// The cores are split evenly when every learner can have one, else every
// learner trains on all of them in turn.
func TestShares(t *testing.T) {
	for _, c := range []struct {
		workers, learners int
		want              []int
		conc              bool
	}{
		{16, 3, []int{6, 5, 5}, true},
		{3, 3, []int{1, 1, 1}, true},
		{2, 3, []int{2, 2, 2}, false},
		{1, 1, []int{1}, true},
	} {
		got, conc := Shares(c.workers, c.learners)
		if conc != c.conc || len(got) != len(c.want) {
			t.Errorf("Shares(%d, %d) = %v, %v", c.workers, c.learners, got, conc)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("Shares(%d, %d) = %v, want %v", c.workers, c.learners, got, c.want)
				break
			}
		}
	}
}
