package train

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gridgym/gridgym/rules"
)

// With a time cap the warm start takes at most bc.time_share of it: a
// cloning plan of minutes is cut short, the clone is checkpointed as
// iteration 0 and the run ends with a policy within its time (issue 27:
// `train --minutes 1` ran 4 minutes and left no checkpoint).
func TestTimeCapBoundsTheWarmStart(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.Iterations = 1000
	cfg.Minutes = 0.2 // 12 s: play ≤ 2.4 s, clone until 6 s, PPO after (at 6 s, a machine at load 15 cloned 0 steps)
	// Minutes of cloning (62,500 steps, ~500 a second here) of few
	// samples, so that reading them (up to 4 × Samples) stays well inside
	// its third of the time on a loaded machine: with 1,000,000 samples
	// planned it read all ~250,000 played for up to 2 s and then had no
	// time left for a step, one run in eight.
	cfg.BC = BCConfig{Teacher: "simplebot", Samples: 20_000, Epochs: 100, LR: 0.01, Minibatch: 32, TimeShare: 0.5}
	cfg.MaxEpisodeSteps = 40
	cfg.Eval.Every = 0
	dir := filepath.Join(t.TempDir(), "run")
	t0 := time.Now()
	res, err := Run(context.Background(), cfg, Options{Dir: dir})
	took := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	// Unbounded, this plan clones 20,000 samples 100 times over (62,500
	// steps: minutes on any machine). With the cap, cloning stops at its
	// share of the 12 s, after however many steps this machine managed
	// (none at all on a machine at load 15), and the run still ends with
	// checkpoint 0. How long it took is logged, not judged: the verdict
	// must not depend on the machine's speed or load.
	if !res.BC.Stopped || res.BC.Steps >= res.BC.Planned {
		t.Errorf("cloning %+v: want it stopped by its share of the time, before its plan", res.BC)
	}
	if res.Iterations >= cfg.Iterations {
		t.Errorf("%d PPO iterations of %d: the cap did not stop the run", res.Iterations, cfg.Iterations)
	}
	if res.Checkpoint == "" {
		t.Fatal("no checkpoint")
	}
	if _, err := os.Stat(filepath.Join(dir, "checkpoints", "iter-000000", "weights.safetensors")); err != nil {
		t.Errorf("the clone is not checkpoint 0: %v", err)
	}
	t.Logf("took %v: cloning %d of %d steps, %d PPO iterations", took, res.BC.Steps, res.BC.Planned, res.Iterations)
}

// Ctrl-C during cloning keeps what was learned: the run returns without an
// error, marked interrupted, with the part-trained clone as checkpoint 0
// (issue 27: everything was lost with "context canceled").
func TestInterruptDuringCloningKeepsTheClone(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.BC = BCConfig{Teacher: "simplebot", Samples: 2000, Epochs: 50, LR: 0.01, Minibatch: 32}
	cfg.MaxEpisodeSteps = 40
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := Run(ctx, cfg, Options{Dir: dir, Progress: func(p Progress) {
		if p.Phase == "bc" && p.Done >= 20 {
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || !res.BC.Stopped || res.BC.Steps < 20 || res.Iterations != 0 {
		t.Fatalf("result %+v", res)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "latest")); err != nil || string(b) != "iter-000000\n" {
		t.Fatalf("latest = %q, %v; want iter-000000", b, err)
	}
}

// An iteration cut short by its context leaves the network and the
// optimiser exactly as before it (so a resumed run repeats it whole).
func TestAbortedUpdateRollsBack(t *testing.T) {
	tr := collected(t, tinyConfig(t), 1)
	var m Metrics
	if err := tr.learn(context.Background(), 1, rules.NewRNG(2), 1e-3, &m); err != nil {
		t.Fatal(err)
	}
	before := tr.net.Clone()
	m0 := slices.Clone(tr.adam.m[0])
	step := tr.adam.t
	tr.snapshot()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	tr.adam.onStep = func() {
		if n++; n == 2 {
			cancel()
		}
	}
	if err := tr.learn(ctx, 2, rules.NewRNG(3), 1e-3, &m); !errors.Is(err, errAborted) {
		t.Fatalf("learn on an ended context: %v, want errAborted", err)
	}
	if tr.adam.t == step {
		t.Fatal("the update took no step before the end: the test checks nothing")
	}
	tr.rollback()
	for p := range before.Values {
		if !slices.Equal(before.Values[p], tr.net.Values[p]) {
			t.Fatalf("%s differs after rollback", before.Params[p].Name)
		}
	}
	if tr.adam.t != step || !slices.Equal(m0, tr.adam.m[0]) {
		t.Fatal("optimiser state differs after rollback")
	}
	cctx, ccancel := context.WithCancel(context.Background())
	ccancel()
	if _, ok := tr.collect(cctx, rules.NewRNG(4), 2, &m); ok {
		t.Fatal("collect on an ended context reported a full buffer")
	}
}

// Reading the shards keeps to its third of the time left: with the
// deadline already passed, Clone stops reading once it has a finished
// episode's samples and ends without an error, stopped, with fewer samples
// than the shards hold. (Before, it read on until every episode begun had
// finished: in CI a warm start read 246,400 samples past its deadline and
// cloned 0 steps. These small shards do not show that difference: 20 samples
// then, 10 now.)
func TestCloneReadingKeepsToItsTime(t *testing.T) {
	cfg := tinyConfig(t)
	good, _, _ := corruptShards(t, cfg)
	clone := func(deadline time.Time) BCStats {
		st, err := Clone(context.Background(), freshNet(t, cfg), CloneConfig{Shards: good, Teacher: "simplebot",
			BC: BCConfig{Samples: 1 << 20, Epochs: 1, LR: 0.01, Minibatch: 32}, Seed: 1, Deadline: deadline})
		if err != nil {
			t.Fatalf("clone: %v", err)
		}
		return st
	}
	all := clone(time.Time{})
	cut := clone(time.Now())
	if !cut.Stopped || cut.Samples == 0 || cut.Samples >= all.Samples {
		t.Errorf("past its deadline: %+v; without one %d samples: want it stopped with some samples, fewer", cut, all.Samples)
	}
	t.Logf("%d of %d samples read before the deadline", cut.Samples, all.Samples)
}
