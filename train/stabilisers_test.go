package train

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
)

// UPGO along one seat's chain, against the formula written out by hand:
// G_i = r_i + γ·max(V_j, G_j) for the next decision j, adv_i = G_i − V_i;
// the value targets stay GAE's.
func TestUPGO(t *testing.T) {
	b := buffer{
		value:  []float32{0.5, 0.2, -0.1, 0.3, 0.4},
		reward: []float32{0, 0.1, 1, -1, 0},
		done:   []bool{false, false, true, true, false},
		next:   []int32{1, 2, -1, -1, -1},
	}
	b.logp = make([]float32, 5)
	const g = 0.9
	b.gae(g, 0.8)
	ret := append([]float32(nil), b.ret...)
	b.upgo(g)
	G2 := 1.0                        // terminal: the reward alone
	G1 := 0.1 + g*math.Max(-0.1, G2) // the return beat V₂: follow it
	G0 := 0 + g*math.Max(0.2, G1)    // G₁ = 1.0 > V₁ = 0.2: follow it
	G3 := -1.0                       // terminal
	G4 := 0.0                        // last decision, not done (truncated): no bootstrap
	want := []float64{G0 - 0.5, G1 - 0.2, G2 + 0.1, G3 - 0.3, G4 - 0.4}
	for i, w := range want {
		if math.Abs(float64(b.adv[i])-w) > 1e-6 {
			t.Fatalf("adv[%d] = %v, want %v", i, b.adv[i], w)
		}
		if b.ret[i] != ret[i] {
			t.Fatalf("ret[%d] changed from GAE's %v to %v", i, ret[i], b.ret[i])
		}
	}
	// Where a later return falls below the critic's value, UPGO bootstraps
	// from the value instead (the max).
	b = buffer{value: []float32{0, 0.8}, reward: []float32{0, 0}, done: []bool{false, true}, next: []int32{1, -1}}
	b.logp = make([]float32, 2)
	b.gae(g, 1)
	b.upgo(g)
	if w := g * 0.8; math.Abs(float64(b.adv[0])-w) > 1e-6 {
		t.Fatalf("adv[0] = %v, want γ·V₁ = %v (G₁ = 0 < V₁)", b.adv[0], w)
	}
}

// The KL weight is 0 during the critic warm-up, kl_clone at the first
// policy update, and falls linearly to 0 over kl_anneal policy updates.
func TestKLCoefAnneals(t *testing.T) {
	tr := &trainer{clone: &neural.Net{}}
	tr.cfg.PPO.CriticWarmup, tr.cfg.PPO.KLClone, tr.cfg.PPO.KLAnneal = 2, 0.8, 4
	for _, c := range []struct {
		it   int
		want float64
	}{{1, 0}, {2, 0}, {3, 0.8}, {4, 0.6}, {5, 0.4}, {6, 0.2}, {7, 0}, {50, 0}} {
		if got := tr.klCoef(c.it); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("iteration %d: kl coefficient %v, want %v", c.it, got, c.want)
		}
	}
	tr.clone = nil
	if got := tr.klCoef(3); got != 0 {
		t.Errorf("without a clone: %v, want 0", got)
	}
}

// PFSP draws the opponent the learner loses to more often, in the ratio of
// their weights (1 − w)² + 0.05; record moves a win share towards each
// game's result; without pfsp the draw is uniform.
func TestPFSPFavoursTheOpponentsItLosesTo(t *testing.T) {
	tr := &actor{league: leagueRecord{pfsp: true, share: map[string]float64{"strong": 0.1, "weak": 0.9}}}
	labels := []string{"strong", "weak", "new"}
	label := func(k int) string { return labels[k] }
	rng := rules.NewRNG(1)
	count := make([]int, 3)
	const n = 60000
	for range n {
		count[tr.league.pick(rng, 3, label)]++
	}
	w := []float64{0.9*0.9 + 0.05, 0.1*0.1 + 0.05, 0.5*0.5 + 0.05}
	total := w[0] + w[1] + w[2]
	for k := range w {
		if got, want := float64(count[k])/n, w[k]/total; math.Abs(got-want) > 0.01 {
			t.Errorf("%s drawn %.3f of the time, want %.3f", labels[k], got, want)
		}
	}
	if count[0] < 10*count[1] {
		t.Errorf("the opponent beaten 90%% of the time drawn %d times, the one losing 90%% %d", count[1], count[0])
	}

	// record: learner seats 0 and 2, opponents "strong" (seat 1) and "new" (seat 3).
	tr.pl = &player{actors: [][]seatActor{{{kind: byLearner}, {kind: byScripted, label: "strong"}, {kind: byLearner}, {kind: byClone, label: "new"}}}}
	tr.record(0, []float64{3, 2, 1, 1})
	// strong: seat 0 ahead (1), seat 2 behind (0); new: seat 0 ahead (1), seat 2 level (½).
	s := 0.1 + pfspRate*(1-0.1)
	s += pfspRate * (0 - s)
	nw := 0.5 + pfspRate*(1-0.5)
	nw += pfspRate * (0.5 - nw)
	if l := tr.league.share; math.Abs(l["strong"]-s) > 1e-12 || math.Abs(l["new"]-nw) > 1e-12 || l["weak"] != 0.9 {
		t.Fatalf("league after one game %v, want strong %v, new %v, weak 0.9", l, s, nw)
	}

	tr.league.pfsp = false
	clear(count)
	for range n {
		count[tr.league.pick(rng, 3, label)]++
	}
	for k := range count {
		if math.Abs(float64(count[k])/n-1.0/3) > 0.01 {
			t.Errorf("without pfsp %s drawn %.3f of the time, want 1/3", labels[k], float64(count[k])/n)
		}
	}
}

// stabiliserRun trains cfg in a temporary folder and returns it.
func stabiliserRun(t *testing.T, cfg Config) string {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// loadCheckpoint loads the weights of checkpoint it of run dir.
func loadCheckpoint(t *testing.T, dir string, it int) *neural.Net {
	t.Helper()
	net, _, err := neural.Load(filepath.Join(dir, "checkpoints", checkpointName(it), "weights.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// The critic warm-up trains only the parameters that feed the value: after
// it, every parameter a logit depends on is bit-identical to checkpoint 0,
// and the value head has moved; the first policy update then moves the
// policy.
func TestCriticWarmupKeepsThePolicy(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.Iterations, cfg.PPO.CriticWarmup = 3, 2
	cfg.Eval.Every = 0
	dir := stabiliserRun(t, cfg)
	c0, c2, c3 := loadCheckpoint(t, dir, 0), loadCheckpoint(t, dir, 2), loadCheckpoint(t, dir, 3)
	tr := &trainer{net: c0}
	frozen := tr.policyParams()
	movedValue, movedPolicy := false, false
	for i, p := range c0.Params {
		same := equalBits(c0.Values[i], c2.Values[i])
		if frozen[i] && !same {
			t.Errorf("policy parameter %s changed during the critic warm-up", p.Name)
		}
		if !frozen[i] && !same {
			movedValue = true
		}
		if frozen[i] && !equalBits(c2.Values[i], c3.Values[i]) {
			movedPolicy = true
		}
	}
	if !movedValue {
		t.Error("the critic warm-up left the value parameters unchanged")
	}
	if !movedPolicy {
		t.Error("the first policy update after the warm-up left the policy unchanged")
	}
}

func equalBits(a, b []float32) bool {
	for j := range a {
		if math.Float32bits(a[j]) != math.Float32bits(b[j]) {
			return false
		}
	}
	return true
}

// meanKL is the mean over positions of Σ_heads KL(π_a ‖ π_b), the two
// networks' policies on the same observations (random legal masks of a
// few real positions' observations would do; random inputs suffice to
// compare distances between networks of one architecture).
func meanKL(a, b *neural.Net, rng *rules.RNG) float64 {
	arch := a.Arch
	const n = 32
	wa, wb := neural.NewWorkspace(arch, n), neural.NewWorkspace(arch, n)
	for i := range wa.Input {
		wa.Input[i] = float32(rng.U(2))
	}
	copy(wb.Input, wa.Input)
	a.Forward(wa, n, nil, 0)
	b.Forward(wb, n, nil, 0)
	kl := 0.0
	var pa, pb []float64
	for r := 0; r < n*arch.Heads; r++ {
		pa = neural.Softmax(pa, wa.Logits[r*arch.Actions:(r+1)*arch.Actions])
		pb = neural.Softmax(pb, wb.Logits[r*arch.Actions:(r+1)*arch.Actions])
		for k := range pa {
			if pa[k] > 0 {
				kl += pa[k] * math.Log(pa[k]/pb[k])
			}
		}
	}
	return kl / n
}

// The KL penalty keeps the policy nearer the clone than the same run
// without it, and the metrics log its weight and value.
func TestKLPenaltyKeepsThePolicyNearTheClone(t *testing.T) {
	base := tinyConfig(t)
	base.Eval.Every = 0
	base.PPO.LR = 0.01 // large steps, so the policy moves far
	withKL := base
	withKL.PPO.KLClone, withKL.PPO.KLAnneal = 20, 100
	free := stabiliserRun(t, base)
	held := stabiliserRun(t, withKL)
	rng := rules.NewRNG(3)
	seed := rng.Uint64()
	kFree := meanKL(loadCheckpoint(t, free, 0), loadCheckpoint(t, free, 4), rules.NewRNG(seed))
	kHeld := meanKL(loadCheckpoint(t, held, 0), loadCheckpoint(t, held, 4), rules.NewRNG(seed))
	t.Logf("KL(clone ‖ final): %.4g with the penalty, %.4g without", kHeld, kFree)
	if !(kHeld < 0.5*kFree) {
		t.Fatalf("KL(clone ‖ final) %.4g with the penalty, %.4g without: want under half", kHeld, kFree)
	}
	m, err := ReadMetrics(filepath.Join(held, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range m["kl_coef"] {
		if want := 20 * (1 - float64(i)/100); math.Abs(c-want) > 1e-9 {
			t.Errorf("iteration %d: kl_coef %v, want %v", i+1, c, want)
		}
		if k := m["kl_clone"][i]; math.IsNaN(k) || k < -1e-4 {
			t.Errorf("iteration %d: kl_clone %v, want a KL ≥ 0", i+1, k)
		}
	}
}

// With Options.Anchor the KL penalty pulls towards the anchor, not
// towards checkpoint 0: from the same start, the anchored run ends nearer
// a distant network (the anchor) than the run anchored at its start.
func TestAnchorIsTheKLReference(t *testing.T) {
	base := tinyConfig(t)
	base.Eval.Every = 0
	base.PPO.LR = 0.01
	free := stabiliserRun(t, base)
	start, far := loadCheckpoint(t, free, 0), loadCheckpoint(t, free, 4)
	withKL := base
	withKL.PPO.KLClone, withKL.PPO.KLAnneal = 20, 100
	withKL.Seed++ // other rollouts than the run that made far
	run := func(anchor *neural.Net) *neural.Net {
		dir := t.TempDir()
		if _, err := Run(context.Background(), withKL, Options{Dir: dir, Init: start, Anchor: anchor}); err != nil {
			t.Fatal(err)
		}
		return loadCheckpoint(t, dir, 4)
	}
	seed := rules.NewRNG(4).Uint64()
	kAnchored := meanKL(far, run(far), rules.NewRNG(seed))
	kStart := meanKL(far, run(nil), rules.NewRNG(seed))
	t.Logf("KL(far ‖ final): %.4g anchored at far, %.4g anchored at the start", kAnchored, kStart)
	if !(kAnchored < 0.5*kStart) {
		t.Fatalf("KL(far ‖ final) %.4g anchored at far, %.4g at the start: want under half", kAnchored, kStart)
	}
	other := base
	other.Network.Filters++
	if _, err := Run(context.Background(), other, Options{Dir: t.TempDir(), Anchor: far}); err == nil || !strings.Contains(err.Error(), "anchor") {
		t.Fatalf("an anchor of another shape: error %v, want one naming the anchor", err)
	}
}

// The entropy floor raises the entropy bonus while the policy's entropy
// is below it (entropy_coef above ppo.entropy_coef) and leaves the policy
// more random than the same run without it.
func TestEntropyFloorRaisesTheBonus(t *testing.T) {
	base := tinyConfig(t)
	base.Eval.Every = 0
	base.PPO.EntropyCoef = 0
	floor := base
	floor.PPO.EntropyFloor, floor.PPO.EntropyFloorCoef = 10, 1 // always below: the bonus is on
	mb, err := ReadMetrics(filepath.Join(stabiliserRun(t, base), "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	mf, err := ReadMetrics(filepath.Join(stabiliserRun(t, floor), "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range mf["entropy_coef"] {
		if c := mf["entropy_coef"][i]; !(c > 0.4) {
			t.Errorf("iteration %d: entropy_coef %v with the floor, want most steps at 1", i+1, c)
		}
		if c := mb["entropy_coef"][i]; c != 0 {
			t.Errorf("iteration %d: entropy_coef %v without the floor, want 0", i+1, c)
		}
	}
	last := len(mf["entropy"]) - 1
	if !(mf["entropy"][last] > mb["entropy"][last]) {
		t.Fatalf("final entropy %v with the floor, %v without", mf["entropy"][last], mb["entropy"][last])
	}
}

// With opponents.clone and pfsp, the learner meets the frozen clone and the
// scripted bots, and the league (saved with each checkpoint for a resume)
// holds a win share for each.
func TestLeagueSeatsTheCloneAndScriptedBots(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.Eval.Every = 0
	cfg.Opponents.Self, cfg.Opponents.Past, cfg.Opponents.Clone, cfg.Opponents.PFSP = 0, 0, 0.5, true
	dir := stabiliserRun(t, cfg)
	b, err := os.ReadFile(filepath.Join(dir, "checkpoints", checkpointName(4), "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st runState
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	want := append([]string{"clone"}, cfg.Opponents.Scripted...)
	for _, l := range want {
		w, ok := st.League[l]
		if !ok {
			t.Errorf("league %v has no %s", st.League, l)
		} else if w == 0.5 || w < 0 || w > 1 {
			t.Errorf("league[%s] = %v: want a share in [0, 1] moved by its games", l, w)
		}
	}
}

// The warm start's teacher plays about the steps its samples need (30%
// spare), in fewer envs when the game's episodes are long for that budget,
// and every env at least two of the longest episodes.
func TestTeacherBudget(t *testing.T) {
	for _, c := range []struct {
		name                     string
		samples                  int
		perStep                  float64
		maxSteps, longest        int
		wantEnvs                 int
		wantStepsLo, wantStepsHi int64
	}{
		// Slime: sequential, teacher + 1 opponent: ½ teacher decision a step.
		{"short games", 30000, 0.5, 2000, 2000, 19, 78000, 78600},
		// Bovine Borders: 4 seats, teacher + 1 opponent: 2 decisions a step.
		{"long games", 60000, 2, 10000, 10000, 2, 40004, 41600},
		// A small sample: 2 envs of 2 longest episodes each.
		{"few samples", 100, 2, 10000, 10000, 2, 40004, 40004},
		// Cut episodes count as the longest.
		{"cut episodes", 60000, 2, 10000, 500, 32, 41500, 41600},
	} {
		t.Run(c.name, func(t *testing.T) {
			envs, steps := teacherBudget(c.samples, c.perStep, c.maxSteps, c.longest)
			if envs != c.wantEnvs || steps < c.wantStepsLo || steps > c.wantStepsHi {
				t.Errorf("teacherBudget = %d envs, %d steps; want %d envs, steps in [%d, %d]", envs, steps, c.wantEnvs, c.wantStepsLo, c.wantStepsHi)
			}
			if per := steps / int64(envs); per < 2*int64(c.longest+1) {
				t.Errorf("%d steps per env, under two of the longest episodes (%d)", per, 2*(c.longest+1))
			}
		})
	}
}
