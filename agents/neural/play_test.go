package neural_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
)

// Mix64 is SplitMix64's output function: from state 0 the generator
// (state += golden; output Mix64(state)) gives the published first outputs
// 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f. The exported
// Python bots emulate exactly this on uint64 (export/py/common.py).
func TestMix64IsSplitMix64(t *testing.T) {
	want := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	var state uint64
	for i, w := range want {
		state += 0x9E3779B97F4A7C15
		if got := neural.Mix64(state); got != w {
			t.Errorf("output %d: %#x, want %#x", i, got, w)
		}
	}
}

// SampleAt picks only legal actions, is greedy at temperature 0, and maps
// the draw's extremes to the first and last legal action.
func TestSampleAt(t *testing.T) {
	inf := float32(math.Inf(-1))
	for _, tc := range []struct {
		name string
		l    []float32
		temp float64
		u    float64
		want int
	}{
		{"greedy at T=0", []float32{0, 3, 1}, 0, 0.01, 1},
		{"greedy at T=0, first of equals", []float32{2, 0, 2}, 0, 0.99, 0},
		{"no legal action", []float32{inf, inf}, 1, 0.5, 0},
		{"one legal action", []float32{inf, 5, inf}, 1, 0.999, 1},
		{"u=0: first legal", []float32{inf, 0, 0, 0}, 1, 0, 1},
		{"u→1: last legal", []float32{0, 0, 0, inf}, 1, 0.9999999, 2},
		{"equal thirds, middle", []float32{0, 0, 0}, 1, 0.5, 1},
		{"equal thirds, just below 1/3", []float32{0, 0, 0}, 1, 0.333, 0},
		{"low T is nearly greedy", []float32{0, 1, 0}, 0.01, 0.999, 1},
	} {
		if got := neural.SampleAt(tc.l, tc.temp, tc.u); got != tc.want {
			t.Errorf("%s: SampleAt(%v, %g, %g) = %d, want %d", tc.name, tc.l, tc.temp, tc.u, got, tc.want)
		}
	}
}

// Over many observation keys the seeded draws follow softmax(l/T) over the
// legal actions: each frequency within 0.005 of its probability (200 000
// draws: 4.5 standard deviations at most), illegal actions never drawn.
func TestSampleAtFollowsSoftmax(t *testing.T) {
	inf := float32(math.Inf(-1))
	l := []float32{1, inf, 0.5, -1, 2, inf}
	for _, temp := range []float64{0.5, 1, 3} {
		const n = 200000
		count := make([]int, len(l))
		for k := 0; k < n; k++ {
			count[neural.SampleAt(l, temp, neural.Draw(7, uint64(k), 0))]++
		}
		sum := 0.0
		for _, v := range l {
			sum += math.Exp(float64(v) / temp)
		}
		for i, v := range l {
			p := math.Exp(float64(v)/temp) / sum
			if f := float64(count[i]) / n; math.Abs(f-p) > 0.005 {
				t.Errorf("T=%g action %d: frequency %.4f, softmax %.4f", temp, i, f, p)
			}
		}
	}
}

// Draw is a function of (seed, key, head) alone, and changing any of them
// changes it.
func TestDrawDeterministic(t *testing.T) {
	u := neural.Draw(1, 2, 3)
	if u != neural.Draw(1, 2, 3) || u < 0 || u >= 1 {
		t.Fatalf("Draw(1, 2, 3) = %v, not repeatable in [0, 1)", u)
	}
	for _, v := range []float64{neural.Draw(0, 2, 3), neural.Draw(1, 3, 3), neural.Draw(1, 2, 4)} {
		if v == u {
			t.Errorf("a changed seed, key or head gives the same draw %v", u)
		}
	}
	if neural.SeatSeed(5, 0) == neural.SeatSeed(5, 1) || neural.SeatSeed(5, 0) == neural.SeatSeed(6, 0) {
		t.Error("SeatSeed ignores the seat or the seed")
	}
}

// playGame plays a Rectangle game of four agents made by mk for steps
// steps and returns every seat's moves.
func playGame(t *testing.T, cfg rules.Config, mk func(seat int) *neural.Agent, steps int) [][]rules.Move {
	t.Helper()
	st := cfg.Game().New(cfg)
	seats := st.Spec().Seats
	bots := make([]*neural.Agent, seats)
	for s := range bots {
		bots[s] = mk(s)
		bots[s].Reset(st, s, nil)
	}
	var out [][]rules.Move
	for step := 0; step < steps && !st.Done(); step++ {
		moves := make([]rules.Move, seats)
		for s := range moves {
			if st.Active(s) {
				moves[s] = bots[s].Act(st)
			}
		}
		out = append(out, moves)
		st.Step(moves, rules.NewRNG(0))
	}
	return out
}

// The agent at temperature T: repeatable for a seed; equal to the greedy
// agent at T = 0; different from it at T = 1; and with PerSeat, copies in
// different seats break the symmetry of Rectangle's placement, where every
// seat sees the same observation (R19) and greedy copies choose the same
// cells (R10 then leaves them unpainted).
func TestAgentTemperature(t *testing.T) {
	net, cfg := newNet(t, "rectangle")
	agent := func(temp float64, seed uint64, perSeat bool) func(int) *neural.Agent {
		return func(int) *neural.Agent {
			a, err := neural.NewAgent(net, cfg, false)
			if err != nil {
				t.Fatal(err)
			}
			a.Temperature, a.Seed, a.PerSeat = temp, seed, perSeat
			return a
		}
	}
	same := func(a, b [][]rules.Move) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			for s := range a[i] {
				if a[i][s] != b[i][s] {
					return false
				}
			}
		}
		return true
	}
	greedy := playGame(t, cfg, agent(0, 0, false), 30)
	if !same(greedy, playGame(t, cfg, agent(0, 9, true), 30)) {
		t.Error("T=0 with a seed differs from the greedy agent")
	}
	hot := playGame(t, cfg, agent(1, 9, true), 30)
	if !same(hot, playGame(t, cfg, agent(1, 9, true), 30)) {
		t.Error("T=1, seed 9: two runs differ")
	}
	if same(hot, greedy) {
		t.Error("T=1 plays exactly the greedy moves")
	}
	if same(hot, playGame(t, cfg, agent(1, 10, true), 30)) {
		t.Error("seeds 9 and 10 play the same moves")
	}
	// TempSteps 1: the placement (step 0) is sampled, every move after it
	// is the greedy one for that position.
	first := func(seat int) *neural.Agent {
		a := agent(1, 9, true)(seat)
		a.TempSteps = 1
		return a
	}
	st := cfg.Game().New(cfg)
	bots, greedyBot := make([]*neural.Agent, 4), agent(0, 0, false)(0)
	moves := make([]rules.Move, 4)
	for step := 0; step < 20 && !st.Done(); step++ {
		for s := range moves {
			if step == 0 {
				bots[s] = first(s)
				bots[s].Reset(st, s, nil)
			}
			moves[s] = bots[s].Act(st)
			greedyBot.Reset(st, s, nil)
			if g := greedyBot.Act(st); (g == moves[s]) != (step > 0) {
				t.Fatalf("TempSteps 1, step %d seat %d: move %v, greedy %v", step, s, moves[s], g)
			}
		}
		st.Step(moves, rules.NewRNG(0))
	}
	// With PerSeat, one draw of Reset's generator joins the seed: games of
	// different generators place differently, equal ones alike.
	place := func(rng uint64) rules.Move {
		st := cfg.Game().New(cfg)
		a := agent(1, 9, true)(0)
		a.Reset(st, 0, rules.NewRNG(rng))
		return a.Act(st)
	}
	if place(1) != place(1) || place(1) == place(2) {
		t.Errorf("placements with generators 1, 1, 2: %v %v %v; want equal, equal, different", place(1), place(1), place(2))
	}
	for _, tc := range []struct {
		temp      float64
		perSeat   bool
		wantEqual bool
	}{{0, true, true}, {1, false, true}, {1, true, false}} {
		place := playGame(t, cfg, agent(tc.temp, 9, tc.perSeat), 1)[0]
		equal := place[0] == place[1] && place[1] == place[2] && place[2] == place[3]
		if equal != tc.wantEqual {
			t.Errorf("T=%g PerSeat=%v: placements %v, all equal %v, want %v", tc.temp, tc.perSeat, place, equal, tc.wantEqual)
		}
	}
}

// Sampling at a temperature allocates nothing per move.
func TestAgentTemperatureAllocatesNothing(t *testing.T) {
	net, cfg := newNet(t, "rectangle")
	a, err := neural.NewAgent(net, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	a.Temperature, a.Seed = 0.5, 3
	st := cfg.Game().New(cfg)
	a.Reset(st, 0, nil)
	if n := testing.AllocsPerRun(5, func() { a.Act(st) }); n != 0 {
		t.Errorf("Act at T=0.5 allocates %v times", n)
	}
}

// Weights specs take trailing :temp=T and :seed=S settings; anything else
// stays part of the path, and bad values are refused with the reason.
func TestSplitPlaySpec(t *testing.T) {
	for _, tc := range []struct {
		spec, base string
		play       neural.Play
		err        string
	}{
		{"w.safetensors", "w.safetensors", neural.Play{}, ""},
		{"w.safetensors:temp=0.3", "w.safetensors", neural.Play{Temperature: 0.3}, ""},
		{"runs/x:seed=7:temp=1", "runs/x", neural.Play{Temperature: 1, Seed: 7}, ""},
		{"w.safetensors:temp=3:steps=1", "w.safetensors", neural.Play{Temperature: 3, Steps: 1}, ""},
		{"w.safetensors:steps=-1", "", neural.Play{}, "number of steps"},
		{"a:b/w.safetensors:depth=4", "a:b/w.safetensors:depth=4", neural.Play{}, ""},
		{"s3://b/run?endpoint=http://m:9000&x=1", "s3://b/run?endpoint=http://m:9000&x=1", neural.Play{}, ""},
		{"w.safetensors:temp=-1", "", neural.Play{}, "want a temperature"},
		{"w.safetensors:temp=nan", "", neural.Play{}, "want a temperature"},
		{"w.safetensors:seed=x", "", neural.Play{}, "unsigned 64-bit"},
		{"w.safetensors:temp=1:temp=2", "", neural.Play{}, "given twice"},
		{"w.safetensors:temp=6:steps=1:opening=8", "w.safetensors", neural.Play{Temperature: 6, Steps: 1, Opening: 8}, ""},
		{"w.safetensors:opening=65", "", neural.Play{}, "want a size"},
		{"w.safetensors:opening=-1", "", neural.Play{}, "want a size"},
		{"w.safetensors:temp=1:guard=1", "w.safetensors", neural.Play{Temperature: 1, Guard: true}, ""},
		{"w.safetensors:guard=0", "w.safetensors", neural.Play{}, ""},
		{"w.safetensors:guard=yes", "", neural.Play{}, "want 1"},
	} {
		base, p, err := neural.SplitPlaySpec(tc.spec)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want one mentioning %q", tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil || base != tc.base || p != tc.play {
			t.Errorf("%s: %q %+v %v, want %q %+v", tc.spec, base, p, err, tc.base, tc.play)
		}
	}
}

// A weights spec with settings resolves (agents.Lookup) to an agent with
// them, the seat mixed into the seed; a bad setting is an error.
func TestWeightsSpecSettings(t *testing.T) {
	net, _ := newNet(t, "rectangle")
	file := filepath.Join(t.TempDir(), "w.safetensors")
	if err := net.Save(file, nil); err != nil {
		t.Fatal(err)
	}
	e, err := agents.Lookup("rectangle", file+":temp=0.25:seed=4:steps=2")
	if err != nil {
		t.Fatal(err)
	}
	a, ok := e.New().(*neural.Agent)
	if !ok || a.Temperature != 0.25 || a.Seed != 4 || a.TempSteps != 2 || !a.PerSeat {
		t.Fatalf("agent %+v, want T 0.25, seed 4, 2 steps, per seat", a)
	}
	if !strings.Contains(e.Doc, "temperature 0.25") {
		t.Errorf("doc %q does not say the temperature", e.Doc)
	}
	if _, err := agents.Lookup("rectangle", file+":temp=x"); err == nil || !strings.Contains(err.Error(), "temp") {
		t.Errorf("bad temp: err %v", err)
	}
}

// Softmax: probabilities summing to 1 over the legal (finite) logits, 0 for
// −Inf, all 0 without a legal action; dst is reused.
func TestSoftmax(t *testing.T) {
	inf := float32(math.Inf(-1))
	for _, tc := range []struct {
		name string
		l    []float32
		want []float64
	}{
		{"two equal", []float32{1, 1}, []float64{0.5, 0.5}},
		{"illegal gets 0", []float32{0, inf, float32(math.Log(3))}, []float64{0.25, 0, 0.75}},
		{"no legal action", []float32{inf, inf}, []float64{0, 0}},
		{"empty", nil, []float64{}},
	} {
		dst := []float64{9, 9, 9, 9} // stale values must not survive
		got := neural.Softmax(dst, tc.l)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %v, want %v", tc.name, got, tc.want)
		}
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-6 {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
	dst := make([]float64, 0, 8)
	if a := testing.AllocsPerRun(100, func() { dst = neural.Softmax(dst, []float32{1, 2, 3}) }); a != 0 {
		t.Errorf("Softmax into a large enough dst allocates %v times", a)
	}
}

// TestPlaySampling: a network samples somewhere it plays unless it is
// greedy or its temperature covers only the step its opening plays.
func TestPlaySampling(t *testing.T) {
	for _, tc := range []struct {
		p    neural.Play
		want bool
	}{
		{neural.Play{}, false},
		{neural.Play{Opening: 8}, false},
		{neural.Play{Temperature: 0.3}, true},
		{neural.Play{Temperature: 6, Steps: 1}, true},
		{neural.Play{Temperature: 6, Steps: 1, Opening: 8}, false}, // Rectangle's shipped settings
		{neural.Play{Temperature: 6, Steps: 2, Opening: 8}, true},
		{neural.Play{Temperature: 1, Opening: 8}, true},
	} {
		if got := tc.p.Sampling(); got != tc.want {
			t.Errorf("%+v: Sampling %v, want %v", tc.p, got, tc.want)
		}
	}
}
