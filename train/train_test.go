package train

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/configs"
	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules"
)

// tinyConfig is a run small enough for a unit test.
func tinyConfig(t testing.TB) Config {
	t.Helper()
	c := tinyConfigOf(t, "slime")
	c.Eval.Baselines = []string{"simplebot"}
	return c
}

// tinyConfigOf is game's default config shrunk to a run of seconds: a tiny
// network, 4 iterations of a few decisions, no warm start.
func tinyConfigOf(t testing.TB, game string) Config {
	t.Helper()
	c, err := DefaultConfig(game)
	if err != nil {
		t.Fatal(err)
	}
	c.Iterations, c.Minutes = 4, 0
	c.Network = NetworkConfig{Filters: 4, Layers: 1, Hidden: 8}
	c.Envs, c.Decisions = 4, 60
	c.PPO.Minibatch, c.PPO.Epochs = 32, 2
	c.Opponents.PoolEvery, c.Opponents.PoolSize = 1, 2
	c.Eval = EvalConfig{Every: 2, Games: 4}
	c.CheckpointEvery = 1
	c.BC.Samples = 0
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	return c
}

// collected is a trainer of cfg whose buffer holds iteration 1's rollout
// (collect with a generator seeded seed), closed when the test ends.
func collected(t *testing.T, cfg Config, seed uint64) *trainer {
	t.Helper()
	tr, err := newTrainer(cfg, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.close)
	var m Metrics
	if _, ok := tr.collect(context.Background(), rules.NewRNG(seed), 1, &m); !ok {
		t.Fatal("collect stopped without a reason")
	}
	return tr
}

// Every registered game has an embedded default config, and each validates.
func TestEmbeddedConfigs(t *testing.T) {
	for _, g := range rules.Names() {
		c, err := DefaultConfig(g)
		if err != nil {
			t.Errorf("%s: %v", g, err)
			continue
		}
		if c.Game != g {
			t.Errorf("%s is for game %q", configs.File(g, ""), c.Game)
		}
	}
	if len(configs.Games()) != len(rules.Names()) {
		t.Errorf("configs for %v, games %v", configs.Games(), rules.Names())
	}
}

// Every game has a strength preset that validates, plays its own game,
// turns the stabilisers on and fits in 2 hours (issue 22).
func TestStrongPresets(t *testing.T) {
	for _, g := range rules.Names() {
		c, err := PresetConfig(g, "strong")
		if err != nil {
			t.Errorf("%s: %v", g, err)
			continue
		}
		def, _ := DefaultConfig(g)
		switch {
		case c.Game != g:
			t.Errorf("%s is for game %q", configs.File(g, "strong"), c.Game)
		case c.Minutes <= 0 || c.Minutes > 120:
			t.Errorf("%s: minutes %v, want (0, 120]", g, c.Minutes)
		case c.PPO.CriticWarmup == 0 || c.PPO.KLClone == 0 || c.PPO.EntropyFloor == 0 || !c.Opponents.PFSP || c.Opponents.Clone == 0:
			t.Errorf("%s: stabilisers off: %+v %+v", g, c.PPO, c.Opponents)
		case c.Network != def.Network || c.BC.Teacher != def.BC.Teacher:
			t.Errorf("%s: the preset changes the network or the teacher of the default", g)
		}
	}
	if _, err := PresetConfig("slime", "nonesuch"); err == nil {
		t.Error("an unknown preset is accepted")
	}
}

// A bad value gets an error that names its field.
func TestConfigErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct{ yaml, field string }{
		{"game: slime\nppo: {clip: 1.5}", "ppo.clip"},
		{"game: slime\nenvs: 0", "envs"},
		{"game: slime\nnetwork: {filters: 0}", "network.filters"},
		{"game: slime\nopponents: {self: 0.9, past: 0.5}", "opponents.past"},
		{"game: slime\nopponents: {scripted: [nobody]}", "opponents.scripted"},
		{"game: slime\nopponents: {scripted: []}", "opponents.scripted"},
		{"game: slime\nbc: {teacher: nobody}", "bc.teacher"},
		{"game: slime\nbc: {max_episode_steps: -2}", "bc.max_episode_steps"},
		{"game: slime\nppo: {lr: .nan}", "ppo.lr"},
		{"game: slime\nparams: {board_size: 99}", "params"},
		{"game: chess", "game"},
		{"ppo: {lr: 0.1}", "game"},
		{"game: slime\nppo: {learning_rate: 0.1}", "learning_rate"},
		{"game: slime\niterations: many", "iterations"},
		{"game: slime\nppo: {reward: medals}", "ppo.reward"},
		{"game: nuggets\nppo: {shaping: -1}", "ppo.shaping"},
		{"game: bovine-borders\nppo: {potential: frontier}", "ppo.potential"},
		{"game: bovine-borders\nppo: {shaping: 1, potential: voronoi}", "territory, frontier"},
		{"game: slime\nppo: {shaping: 1, potential: frontier}", "ppo.potential"},
		{"game: nuggets\neval: {select: wins}", "eval.select"},
		{"game: slime\nmax_episode_steps: 0\ncontinue_cut: true", "continue_cut"},
		{"game: nuggets\neval: {lineup: true, baselines: [greedy, random]}", "eval.lineup"},
	} {
		_, err := ParseConfig([]byte(tc.yaml), "test.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%q: err = %v, want one naming %s", tc.yaml, err, tc.field)
		}
	}
	if _, err := ParseConfig([]byte("game: bovine-borders\nppo: {shaping: 1, potential: frontier}"), "test.yaml"); err != nil {
		t.Errorf("the frontier potential: %v", err)
	}
	// Fields left out keep the game's defaults.
	c, err := ParseConfig([]byte("game: slime\nppo: {clip: 0.3}"), "test.yaml")
	d, _ := DefaultConfig("slime")
	if err != nil || c.PPO.Clip != 0.3 || c.PPO.LR != d.PPO.LR || c.Envs != d.Envs {
		t.Fatalf("override: %v %+v", err, c.PPO)
	}
}

// A config file meant for a game (train --game G --config F) may leave the
// game out; one naming another game is refused, naming both.
func TestLoadConfigFor(t *testing.T) {
	dir := t.TempDir()
	bare := filepath.Join(dir, "bare.yaml")
	other := filepath.Join(dir, "other.yaml")
	os.WriteFile(bare, []byte("ppo: {clip: 0.3}\n"), 0o644)
	os.WriteFile(other, []byte("game: slime\n"), 0o644)
	c, err := LoadConfigFor(bare, "nuggets")
	d, _ := DefaultConfig("nuggets")
	if err != nil || c.Game != "nuggets" || c.PPO.Clip != 0.3 || c.BC.Teacher != d.BC.Teacher || c.Envs != d.Envs {
		t.Fatalf("bare file for nuggets: %v, game %q clip %v teacher %q", err, c.Game, c.PPO.Clip, c.BC.Teacher)
	}
	if _, err := LoadConfig(bare); err == nil || !strings.Contains(err.Error(), "game") {
		t.Fatalf("bare file without a game: %v", err)
	}
	if _, err := LoadConfigFor(other, "nuggets"); err == nil || !strings.Contains(err.Error(), "slime") || !strings.Contains(err.Error(), "nuggets") {
		t.Fatalf("slime file asked for nuggets: %v", err)
	}
}

// GAE along one seat's chain, against the formula written out by hand.
func TestGAE(t *testing.T) {
	b := buffer{
		value:  []float32{0.5, 0.2, -0.1, 0.3},
		reward: []float32{0, 0, 1, -1},
		done:   []bool{false, false, true, true},
		next:   []int32{1, 2, -1, -1},
	}
	b.logp = make([]float32, 4)
	const g, l = 0.9, 0.8
	b.gae(g, l)
	d2 := 1 - (-0.1)
	d1 := 0 + g*(-0.1) - 0.2
	d0 := 0 + g*0.2 - 0.5
	want := []float64{d0 + g*l*(d1+g*l*d2), d1 + g*l*d2, d2, -1 - 0.3}
	for i, w := range want {
		if math.Abs(float64(b.adv[i])-w) > 1e-6 || math.Abs(float64(b.ret[i]-b.value[i])-w) > 1e-6 {
			t.Fatalf("adv[%d] = %v, want %v", i, b.adv[i], w)
		}
	}
}

// Adam with clipping: the first step moves every weight by lr against the
// gradient's sign (bias-corrected Adam), and clipping bounds the norm used.
func TestAdam(t *testing.T) {
	net, _ := neural.New(neural.Arch{Game: "x", Planes: 1, Height: 1, Width: 1, Filters: 1, Layers: 1, Hidden: 1, Heads: 1, Actions: 1, APlanes: 1})
	a := newAdam(net)
	params := [][]float32{{1, -2}}
	a.m, a.v = [][]float32{{0, 0}}, [][]float32{{0, 0}}
	norm := a.step(params, [][]float32{{3, -4}}, 0.1, 1)
	if norm != 5 {
		t.Fatalf("norm %v, want 5", norm)
	}
	if math.Abs(float64(params[0][0])-0.9) > 1e-5 || math.Abs(float64(params[0][1])+1.9) > 1e-5 {
		t.Fatalf("after one step %v, want [0.9 -1.9]", params[0])
	}
}

// Adam's update split over the cores by element ranges (issue 55) gives the
// serial update's bits, with tensors that straddle the parts' bounds and a
// frozen one between them.
func TestAdamSplitSameBits(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	net, _ := neural.New(neural.Arch{Game: "x", Planes: 1, Height: 1, Width: 1, Filters: 1, Layers: 1, Hidden: 1, Heads: 1, Actions: 1, APlanes: 1})
	run := func(procs int) [][]float32 {
		runtime.GOMAXPROCS(procs)
		rng := rules.NewRNG(3)
		sizes := []int{5 * adamElems / 2, 7, 3 * adamElems, adamElems + 1}
		var params, grads [][]float32
		a := newAdam(net)
		a.m, a.v, a.frozen = nil, nil, []bool{false, false, true, false}
		for _, n := range sizes {
			p, g := make([]float32, n), make([]float32, n)
			for i := range p {
				p[i], g[i] = float32(rng.Float64()-0.5), float32(rng.Float64()-0.5)
			}
			params, grads = append(params, p), append(grads, g)
			a.m, a.v = append(a.m, make([]float32, n)), append(a.v, make([]float32, n))
		}
		for range 3 {
			a.step(params, grads, 1e-3, 0.5)
		}
		return append(params, append(a.m, a.v...)...)
	}
	one := run(1)
	for _, procs := range []int{2, 3, 8} {
		for i, p := range run(procs) {
			for j := range p {
				if math.Float32bits(p[j]) != math.Float32bits(one[i][j]) {
					t.Fatalf("GOMAXPROCS %d: tensor %d element %d is %v, one core %v", procs, i, j, p[j], one[i][j])
				}
			}
		}
	}
	if f := one[2]; f[0] == 0 && f[1] == 0 {
		t.Fatal("the test's frozen tensor is zero") // it must keep its random values
	}
}

// A run interrupted after iteration 2 and resumed ends with the same weights,
// optimiser-driven metrics and pool as the same run uninterrupted (issue 6).
func TestResumeEqualsUninterrupted(t *testing.T) {
	plain := tinyConfig(t)
	stab := tinyConfig(t)
	stab.PPO.CriticWarmup, stab.PPO.KLClone, stab.PPO.KLAnneal = 1, 0.5, 2
	stab.PPO.EntropyFloor, stab.PPO.EntropyFloorCoef, stab.PPO.Target = 5, 0.01, "upgo"
	stab.Opponents.Clone, stab.Opponents.PFSP = 0.3, true
	// A KL anchor other than checkpoint 0 (a league's initial network):
	// the resumed run must pull towards it too, not towards checkpoint 0.
	arch, err := stab.Arch()
	if err != nil {
		t.Fatal(err)
	}
	anchor, err := neural.NewInit(arch, rules.NewRNG(99))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cfg  Config
		opt  Options
	}{{"plain", plain, Options{}}, {"stabilisers", stab, Options{}}, {"anchor", stab, Options{Anchor: anchor}}} {
		t.Run(c.name, func(t *testing.T) { testResume(t, c.cfg, c.opt) })
	}
}

// testResume checks that cfg's run (with opt's Init and Anchor)
// interrupted after iteration 2 and resumed ends bit-identical to the
// uninterrupted run.
func testResume(t *testing.T, cfg Config, opt Options) {
	full := filepath.Join(t.TempDir(), "full")
	if _, err := Run(context.Background(), cfg, Options{Dir: full, Init: opt.Init, Anchor: opt.Anchor}); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(t.TempDir(), "part")
	ctx, cancel := context.WithCancel(context.Background())
	_, err := Run(ctx, cfg, Options{Dir: part, Init: opt.Init, Anchor: opt.Anchor, Progress: func(p Progress) {
		if p.Phase == "ppo" && p.Iteration == 2 {
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(part, "checkpoints", "iter-000003")); err == nil {
		t.Fatal("the interrupted run went past iteration 2")
	}
	res, err := Run(context.Background(), cfg, Options{Dir: part, Resume: true, Init: opt.Init, Anchor: opt.Anchor})
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations != 4 {
		t.Fatalf("resumed run ended at iteration %d", res.Iterations)
	}
	a, _, err := neural.Load(filepath.Join(full, "checkpoints", "iter-000004", "weights.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := neural.Load(res.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Values {
		for j := range a.Values[i] {
			if math.Float32bits(a.Values[i][j]) != math.Float32bits(b.Values[i][j]) {
				t.Fatalf("tensor %s differs after resume", a.Params[i].Name)
			}
		}
	}
	ma, _ := ReadMetrics(filepath.Join(full, "metrics.csv"))
	mb, _ := ReadMetrics(filepath.Join(part, "metrics.csv"))
	for _, col := range []string{"iteration", "env_steps", "decisions", "pg_loss", "value_loss", "entropy", "train_win", "eval_win"} {
		if len(ma[col]) != 4 || len(mb[col]) != 4 {
			t.Fatalf("%s: %d and %d rows, want 4", col, len(ma[col]), len(mb[col]))
		}
		for i := range ma[col] {
			x, y := ma[col][i], mb[col][i]
			if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
				t.Fatalf("%s row %d: %v uninterrupted, %v resumed", col, i, x, y)
			}
		}
	}
	// A second resume of a finished run, or resuming with another config, is refused clearly.
	other := cfg
	other.Seed++
	if _, err := Run(context.Background(), other, Options{Dir: part, Resume: true}); err == nil || !strings.Contains(err.Error(), "config") {
		t.Fatalf("resume with another config: %v", err)
	}
	if _, err := Run(context.Background(), cfg, Options{Dir: part}); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("starting over an existing run: %v", err)
	}
	for _, f := range []string{"losses.png", "winrate.png", "config.yaml", "latest", "best.safetensors"} {
		if _, err := os.Stat(filepath.Join(part, f)); err != nil {
			t.Errorf("run folder lacks %s", f)
		}
	}
}

// ppo.reward none leaves the learner no reward at all; with ppo.shaping 1 its
// rewards add up to its final potential (Nuggets: log-score / 25, which random
// play keeps above 0 and far below 1), so the mean per episode lies in (0, 1).
func TestShapedRewards(t *testing.T) {
	c := tinyConfigOf(t, "nuggets")
	c.Iterations, c.Envs, c.Eval.Every = 1, 2, 0
	for _, tc := range []struct {
		shaping float64
		lo, hi  float64
	}{{0, 0, 0}, {1, 0.01, 1}} {
		c.PPO.Reward, c.PPO.Shaping = "none", tc.shaping
		res, err := Run(context.Background(), c, Options{Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if r := res.Last.MeanReward; !(r >= tc.lo && r <= tc.hi) {
			t.Errorf("shaping %v: mean reward %v, want %v..%v", tc.shaping, r, tc.lo, tc.hi)
		}
	}
}

// Behaviour cloning as its own command: a clone-only run saves checkpoint 0,
// whose greedy policy imitates the teacher better than chance.
func TestCloneOnly(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.BC = BCConfig{Teacher: "simplebot", Samples: 400, Epochs: 3, LR: 0.01, Minibatch: 32}
	cfg.MaxEpisodeSteps = 40 // whole episodes fit in the few steps played
	dir := filepath.Join(t.TempDir(), "bc")
	res, err := Run(context.Background(), cfg, Options{Dir: dir, CloneOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.BC.Samples < 400 || res.BC.Steps == 0 || !strings.HasSuffix(res.Checkpoint, filepath.Join("iter-000000", "weights.safetensors")) {
		t.Fatalf("result %+v", res)
	}
	if _, _, err := neural.Load(res.Checkpoint); err != nil {
		t.Fatal(err)
	}
	if res.BC.Accuracy <= 0.05 {
		t.Errorf("teacher-action accuracy %.3f after cloning", res.BC.Accuracy)
	}
	var rec bcRecord
	if b, err := os.ReadFile(filepath.Join(dir, "bc.json")); err != nil {
		t.Fatal(err)
	} else if err := json.Unmarshal(b, &rec); err != nil || rec.BCStats != res.BC || rec.Eval != nil {
		t.Fatalf("bc.json %s: %+v, %v (a clone-only run has no evaluation)", b, rec, err)
	}
	cfg.BC.Samples = 0
	if _, err := Run(context.Background(), cfg, Options{Dir: filepath.Join(t.TempDir(), "x"), CloneOnly: true}); err == nil || !strings.Contains(err.Error(), "bc.samples") {
		t.Fatalf("clone-only without samples: %v", err)
	}
}

// bc.max_episode_steps sets the length of the teacher's games apart from
// the run's own: with the run cut at 5 steps, the clone's shards hold
// games of up to 40 steps (bc 40) or whole games (bc −1), and, left at 0,
// games cut at 5 like the run's.
func TestBCEpisodeSteps(t *testing.T) {
	for _, tc := range []struct{ bc, lo, hi int }{{0, 1, 5}, {40, 6, 40}, {-1, 6, 1 << 30}} {
		cfg := tinyConfig(t)
		cfg.BC = BCConfig{Teacher: "simplebot", Samples: 200, Epochs: 1, LR: 0.01, Minibatch: 32, MaxEpisodeSteps: tc.bc}
		cfg.MaxEpisodeSteps = 5
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "bc")
		if _, err := Run(context.Background(), cfg, Options{Dir: dir, CloneOnly: true}); err != nil {
			t.Fatal(err)
		}
		longest := 0
		err := datasets.EachRow(filepath.Join(dir, "bc-shards"), func(_ datasets.Meta, r datasets.Row) error {
			longest = max(longest, int(r.Step)+1)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if longest < tc.lo || longest > tc.hi {
			t.Errorf("bc.max_episode_steps %d: the teacher's longest game %d steps, want %d..%d", tc.bc, longest, tc.lo, tc.hi)
		}
	}
}

// A warm start is the same every run with the same seed, although its
// shards are written by several workers in a varying order, and it clones
// with D4 augmentation on a board of another size than the default (the
// augmentation uses the shards' own encoder).
func TestCloneIsReproducible(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.Params = map[string]string{"board_size": "6"}
	cfg.BC = BCConfig{Teacher: "simplebot", Opponents: []string{"random"}, Samples: 300, Epochs: 2, LR: 0.01, Minibatch: 32}
	cfg.MaxEpisodeSteps = 30
	cfg.PPO.Augment = true
	cfg.Workers = 2
	var nets [2]*neural.Net
	for i := range nets {
		res, err := Run(context.Background(), cfg, Options{Dir: filepath.Join(t.TempDir(), "bc"), CloneOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if nets[i], _, err = neural.Load(res.Checkpoint); err != nil {
			t.Fatal(err)
		}
	}
	for p := range nets[0].Values {
		if !slices.Equal(nets[0].Values[p], nets[1].Values[p]) {
			t.Fatalf("%s differs between two clones with the same seed", nets[0].Params[p].Name)
		}
	}
}

// A run with a warm start evaluates the cloned policy before PPO (iteration
// 0, a candidate for best.safetensors) and records it with the cloning
// figures in bc.json.
func TestWarmStartRecordsTheClone(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.Iterations = 1
	cfg.BC = BCConfig{Teacher: "simplebot", Samples: 200, Epochs: 1, LR: 0.01, Minibatch: 32}
	cfg.MaxEpisodeSteps = 40
	dir := filepath.Join(t.TempDir(), "run")
	res, err := Run(context.Background(), cfg, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.CloneEval.Games != cfg.Eval.Games || res.BC.Samples < 200 {
		t.Fatalf("result: clone evaluation %+v, cloning %+v", res.CloneEval, res.BC)
	}
	b, err := os.ReadFile(filepath.Join(dir, "bc.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec bcRecord
	if err := json.Unmarshal(b, &rec); err != nil || rec.BCStats != res.BC || rec.Eval == nil ||
		rec.Eval.Games != cfg.Eval.Games || rec.Eval.Points != res.CloneEval.Points {
		t.Fatalf("bc.json %s: %+v, %v", b, rec, err)
	}
	if _, meta, err := neural.Load(filepath.Join(dir, "best.safetensors")); err != nil || (meta["iteration"] != "0" && meta["iteration"] != "1") {
		t.Fatalf("best.safetensors: %v %v", meta, err)
	}
}

// eval.lineup seats every baseline once per game, after the policy's seat
// (the acceptance table), and Margin is the policy's mean score minus the
// best baseline's; without lineup every seat is drawn from the baselines.
func TestEvaluateLineup(t *testing.T) {
	cfg := tinyConfigOf(t, "nuggets")
	rc, err := cfg.RulesConfig()
	if err != nil {
		t.Fatal(err)
	}
	net := testNet(t, "nuggets", nil, false)
	lineup := []string{"greedy", "random", "pass"}
	const games = 6
	r, err := EvaluateLineup(rc, net, lineup, games, 9, 2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Games != games {
		t.Fatalf("%d games, want %d", r.Games, games)
	}
	best := math.Inf(-1)
	for _, name := range lineup {
		if r.BaselineSeats[name] != games {
			t.Errorf("lineup: %s filled %d seats, want one per game (%d)", name, r.BaselineSeats[name], games)
		}
		best = max(best, r.BaselineScore[name])
	}
	if r.BaselineScore["greedy"] <= r.BaselineScore["random"] || r.BaselineScore["pass"] != 0 {
		t.Errorf("baseline scores %v: want greedy > random and pass 0", r.BaselineScore)
	}
	if math.Abs(r.Margin-(r.Score-best)) > 1e-9 {
		t.Errorf("margin %v, want score %v minus best baseline %v", r.Margin, r.Score, best)
	}
	// Game by game: a lineup game holds one of each baseline; drawn seats
	// hold three distinct baselines in only 6 of 27 games.
	mixed := 0
	for seed := uint64(1); seed <= 8; seed++ {
		l, err1 := EvaluateLineup(rc, net, lineup, 1, seed, 1)
		d, err2 := Evaluate(rc, net, lineup, 1, seed, 1)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if len(l.BaselineSeats) != 3 {
			t.Errorf("seed %d: lineup game seats %v, want one of each", seed, l.BaselineSeats)
		}
		if len(d.BaselineSeats) < 3 {
			mixed++
		}
	}
	// Errors are returned, not swallowed into an empty result (issue 26).
	for _, bad := range [][]string{{"nobody"}, nil} {
		if _, err := Evaluate(rc, net, bad, 2, 1, 1); err == nil {
			t.Errorf("baselines %q: no error", bad)
		}
	}
	if mixed == 0 {
		t.Error("drawn seats held one of each baseline in all 8 games: they are not drawn")
	}
}

// The evaluation plays the policy with the run's play settings (Config.Play)
// as the neural agent plays weights that store them: a vanishing temperature
// plays the greedy games, temperature 1 others, the same ones for a seed,
// and sampling limited to more steps than a game has samples every step.
func TestEvaluatePlaySettings(t *testing.T) {
	cfg := tinyConfigOf(t, "slime")
	rc, err := cfg.RulesConfig()
	if err != nil {
		t.Fatal(err)
	}
	net := testNet(t, "slime", nil, false)
	run := func(p PlayConfig) EvalResult {
		r, err := evaluate(rc, net, []string{"greedy"}, false, 8, 5, 1, p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	greedy := run(PlayConfig{})
	if got := run(PlayConfig{Temperature: 1e-4}); !reflect.DeepEqual(got, greedy) {
		t.Errorf("temperature 1e-4: %+v, want the greedy games %+v", got, greedy)
	}
	hot := run(PlayConfig{Temperature: 1})
	if again := run(PlayConfig{Temperature: 1}); !reflect.DeepEqual(again, hot) {
		t.Errorf("temperature 1 twice with one seed: %+v then %+v", hot, again)
	}
	if reflect.DeepEqual(hot, greedy) {
		t.Errorf("temperature 1 played the greedy games: %+v", hot)
	}
	if got := run(PlayConfig{Temperature: 1, Steps: 1 << 20}); !reflect.DeepEqual(got, hot) {
		t.Errorf("sampling in the first 2^20 steps: %+v, want every step's %+v", got, hot)
	}
}

// nextOrder walks through every order of the baselines, the listed one
// first, then cycles.
func TestNextOrder(t *testing.T) {
	order := []int{0, 1, 2}
	seen := map[[3]int]bool{}
	var second [3]int
	for k := 0; k < 6; k++ {
		o := [3]int(order)
		if seen[o] {
			t.Fatalf("order %d %v repeats an earlier one", k, o)
		}
		seen[o] = true
		if k == 1 {
			second = o
		}
		nextOrder(order)
	}
	if o := [3]int(order); o != [3]int{0, 1, 2} {
		t.Errorf("order 6 %v, want the listed one again", o)
	}
	if nextOrder(order); [3]int(order) != second {
		t.Errorf("order 7 %v, want order 1's %v", order, second)
	}
	one := []int{0}
	if nextOrder(one); one[0] != 0 {
		t.Errorf("one baseline: %v", one)
	}
}

// An evaluation that samples draws as the neural agent that plays the
// weights file does (neural.Agent.Act with the same seed): every seat's
// sampled move over 40 steps of a Slime game is the agent's. Fresh draws
// each step would agree only by chance.
func TestEvaluateDrawsAsTheAgent(t *testing.T) {
	cfg := tinyConfigOf(t, "slime")
	rc, err := cfg.RulesConfig()
	if err != nil {
		t.Fatal(err)
	}
	net := testNet(t, "slime", nil, false)
	v, err := env.New(env.Config{Game: rc, N: 1, Seed: 3, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	v.Reset(3)
	pl := newPlayer(v, rc, net, 1)
	pl.play = neural.Play{Temperature: 1}
	pl.drawSeed = []uint64{42}
	ag, err := neural.NewAgent(net, rc, false)
	if err != nil {
		t.Fatal(err)
	}
	ag.Temperature, ag.Seed = 1, 42
	greedy, _ := neural.NewAgent(net, rc, false)
	enc := rc.Game().Encoder(rc)
	heads := v.Space.Heads
	compared, differ := 0, 0
	for step := 0; step < 40 && !v.Terminated[0]; step++ {
		for s := 0; s < v.Seats; s++ {
			pl.actors[0][s] = seatActor{kind: byLearner}
		}
		pl.request([]bool{true}, byLearner, -1, false, nil)
		pl.decide(net, false, nil, nil)
		st := v.State(0)
		for s := 0; s < v.Seats; s++ {
			if !v.Active[s] {
				continue
			}
			ag.Reset(st, s, nil)
			want := ag.Act(st)
			got := enc.Decode(st, s, pl.actions[s*heads:(s+1)*heads])
			if got != want {
				t.Fatalf("step %d seat %d: the evaluation plays %+v, the agent %+v", step, s, got, want)
			}
			greedy.Reset(st, s, nil)
			if want != greedy.Act(st) {
				differ++
			}
			compared++
		}
		v.Step(pl.actions)
	}
	if compared < 20 || differ == 0 {
		t.Fatalf("%d moves compared, %d of them not the greedy move: the test would prove little", compared, differ)
	}
}
