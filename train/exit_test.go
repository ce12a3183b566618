package train

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/configs"
	"github.com/gridgym/gridgym/rules"
)

// tinyExItConfig is tinyConfig with Expert Iteration on: a greedy-prior
// search of 16 simulations, 48 decisions per iteration, games cut at 60
// steps.
func tinyExItConfig(t testing.TB) Config {
	t.Helper()
	c := tinyConfig(t)
	c.Iterations = 2
	c.MaxEpisodeSteps = 60
	c.Workers = 2
	c.ExIt = ExItConfig{Expert: "search:greedy@16:depth=2", Decisions: 48, PolicyCoef: 1, ValueCoef: 0.5}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	return c
}

// The exit section is off unless exit.expert is set, leaves the YAML of
// configs without it unchanged, and refuses bad values naming the field.
func TestExItConfigValidate(t *testing.T) {
	c := tinyConfig(t)
	if c.ExIt.Expert != "" {
		t.Fatalf("slime's default config turns Expert Iteration on: %+v", c.ExIt)
	}
	if strings.Contains(string(c.YAML()), "exit") {
		t.Fatalf("a config without exit renders an exit section:\n%s", c.YAML())
	}
	good := ExItConfig{Expert: "search:{net}@64:opp=prior", Decisions: 512, PolicyCoef: 1, ValueCoef: 0.5}
	c.ExIt = good
	if err := c.Validate(); err != nil {
		t.Fatalf("valid exit section: %v", err)
	}
	y := string(c.YAML())
	if !strings.Contains(y, "exit:") || !strings.Contains(y, "search:{net}@64:opp=prior") {
		t.Fatalf("YAML lacks the exit section:\n%s", y)
	}
	for _, tc := range []struct {
		name string
		edit func(*ExItConfig)
		want string
	}{
		{"fields without expert", func(e *ExItConfig) { e.Expert = "" }, "exit.expert"},
		{"not a search spec", func(e *ExItConfig) { e.Expert = "greedy" }, "exit.expert"},
		{"bad search setting", func(e *ExItConfig) { e.Expert = "search:greedy@64:depth=-1" }, "exit.expert"},
		{"unknown prior bot", func(e *ExItConfig) { e.Expert = "search:nosuchbot@64" }, "exit.expert"},
		{"placeholder inside a name", func(e *ExItConfig) { e.Expert = "search:runs/{net}.safetensors" }, "exit.expert"},
		{"placeholder inside an alt name", func(e *ExItConfig) { e.Expert = "search:greedy@8:alt=simplebot+runs/{net}.safetensors" }, "exit.expert"},
		{"placeholder inside a rollout name", func(e *ExItConfig) { e.Expert = "search:greedy@8:roll={net}x" }, "exit.expert"},
		{"unknown bot beside the placeholder", func(e *ExItConfig) { e.Expert = "search:{net}@8:alt=nosuchbot" }, "exit.expert"},
		{"unknown rollout bot beside the placeholder", func(e *ExItConfig) { e.Expert = "search:greedy@8:roll=nosuchbot:alt={net}" }, "exit.expert"},
		{"placeholder inside a value name", func(e *ExItConfig) { e.Expert = "search:greedy@8:value=runs/{net}" }, "exit.expert"},
		{"a scripted value bot", func(e *ExItConfig) { e.Expert = "search:{net}@8:value=greedy" }, "exit.expert"},
		{"top moves of a scripted prior", func(e *ExItConfig) { e.Expert = "search:greedy@8:top=3:alt={net}" }, "exit.expert"},
		{"no decisions", func(e *ExItConfig) { e.Decisions = 0 }, "exit.decisions"},
		{"too many decisions", func(e *ExItConfig) { e.Decisions = 2e6 }, "exit.decisions"},
		{"negative policy coef", func(e *ExItConfig) { e.PolicyCoef = -1 }, "exit.policy_coef"},
		{"NaN value coef", func(e *ExItConfig) { e.ValueCoef = math.NaN() }, "exit.value_coef"},
		{"nothing to learn", func(e *ExItConfig) { e.PolicyCoef, e.ValueCoef = 0, 0 }, "exit.policy_coef"},
		{"negative temperature", func(e *ExItConfig) { e.Temperature = -0.5 }, "exit.temperature"},
		{"temperature too high", func(e *ExItConfig) { e.Temperature = 11 }, "exit.temperature"},
		{"unknown policy target", func(e *ExItConfig) { e.Policy = "visit" }, "exit.policy"},
		{"value share above 1", func(e *ExItConfig) { e.ValueMinShare = 1.5 }, "exit.value_min_share"},
		{"keep_prior above 1", func(e *ExItConfig) { e.KeepPrior = 1.5 }, "exit.keep_prior"},
		{"negative keep_prior", func(e *ExItConfig) { e.KeepPrior = -0.1 }, "exit.keep_prior"},
		{"keep_disagree above 1", func(e *ExItConfig) { e.KeepDisagree = 2 }, "exit.keep_disagree"},
		{"window too long", func(e *ExItConfig) { e.Window = 1001 }, "exit.window"},
		{"negative window", func(e *ExItConfig) { e.Window = -1 }, "exit.window"},
		{"unknown opponent", func(e *ExItConfig) { e.Opponents = []string{"simplebot", "nosuchbot"} }, "exit.opponents"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.ExIt = good
			tc.edit(&c.ExIt)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate = %v, want an error naming %s", err, tc.want)
			}
		})
	}
	// {net} may stand for the prior (which ranks its moves, top=), the rollout
	// bot, an alternative or the evaluator.
	for _, x := range []string{"search:greedy@8:alt={net}", "search:greedy@8:roll={net}", "search:{net}@8:roll=greedy:alt=simplebot+{net}", "search:greedy@8:value={net}", "search:{net}@8:top=4:roll=greedy"} {
		c.ExIt = good
		c.ExIt.Expert = x
		if err := c.Validate(); err != nil {
			t.Errorf("expert %s: %v", x, err)
		}
	}
	// Accepted opponents: bots, {net}, search specs.
	c.ExIt = good
	c.ExIt.Opponents = []string{"simplebot", "{net}", "search:greedy@8"}
	if err := c.Validate(); err != nil {
		t.Fatalf("valid opponents: %v", err)
	}
	// The YAML form is read back as written.
	src := "game: slime\nexit:\n  expert: search:{net}@32:opp=prior\n  decisions: 100\n  policy_coef: 1\n  value_coef: 0.25\n"
	pc, err := ParseConfig([]byte(src), "exit.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if e := pc.ExIt; e.Expert != "search:{net}@32:opp=prior" || e.Decisions != 100 || e.PolicyCoef != 1 || e.ValueCoef != 0.25 || len(e.Opponents) != 0 {
		t.Fatalf("parsed %+v", pc.ExIt)
	}
	if _, err := ParseConfig([]byte("game: slime\nexit:\n  expert: search:greedy\n  decisions: 0\n  policy_coef: 1\n"), "bad.yaml"); err == nil || !strings.Contains(err.Error(), "exit.decisions") {
		t.Fatalf("decisions 0 in YAML: %v", err)
	}
}

// candidateTargets on Slime's first position (seat 0 to move, R8's moves),
// with visitKeys (exit.policy visits) and valueKeys (exit.policy value):
// every head's row sums to 1 over the legal actions and is 0 elsewhere, each
// legal candidate's action (Encode) holds its share — of the legal
// candidates' visits^(1/τ), or of exp((Q − Q_max)/τ) over the legal
// candidates with at least the minimum share of the visits — and decodes
// back to it, and candidates outside the mask (seat 1's moves, not seat 0's
// turn) are dropped.
func TestCandidateTargets(t *testing.T) {
	rc, err := (&Config{Game: "slime"}).RulesConfig()
	if err != nil {
		t.Fatal(err)
	}
	enc := rc.Game().Encoder(rc)
	sp := enc.Space()
	st := rc.Game().New(rc)
	st.Reset()
	legal := st.LegalMoves(0, nil)
	// Seat 1's moves after seat 0's first: moves of its own cells, none
	// of them legal for seat 0 at the start.
	next := st.Clone()
	next.Step([]rules.Move{legal[0], {}, {}, {}}, rules.NewRNG(1))
	var other []rules.Move
	for _, m := range next.LegalMoves(1, nil) {
		if !st.Legal(0, m) {
			other = append(other, m)
		}
	}
	if len(legal) < 3 || len(other) == 0 {
		t.Fatalf("%d legal moves for seat 0, %d of seat 1's illegal for it", len(legal), len(other))
	}
	mask := make([]uint64, sp.MaskWords())
	enc.Mask(st, 0, mask)
	inMask := func(h, a int) bool { b := h*sp.Actions + a; return mask[b>>6]>>(b&63)&1 != 0 }
	seq := func(n int) []int32 {
		v := make([]int32, n)
		for i := range v {
			v[i] = int32(i + 1)
		}
		return v
	}
	for _, tc := range []struct {
		name   string
		moves  []rules.Move
		visits []int32
		tau    float64
		ok     bool
		values []float64 // policy value: the candidates' mean values
		share  float64   // and the minimum share of the visits
		played int       // policy played: 1 + the index of the candidate played (0: not this policy)
	}{
		{"one move", legal[1:2], []int32{7}, 1, true, nil, 0, 0},
		{"all legal moves, rising visits", legal, seq(len(legal)), 1, true, nil, 0, 0},
		{"some unvisited", legal[:3], []int32{0, 5, 15}, 1, true, nil, 0, 0},
		{"an illegal candidate dropped", append([]rules.Move{other[0]}, legal[:2]...), []int32{100, 1, 3}, 1, true, nil, 0, 0},
		{"no visits", legal[:2], []int32{0, 0}, 1, false, nil, 0, 0},
		{"only illegal candidates", other[:1], []int32{9}, 1, false, nil, 0, 0},
		{"temperature 0.5 squares the visits", legal[:3], []int32{1, 2, 3}, 0.5, true, nil, 0, 0},
		{"temperature 2", legal[:3], []int32{1, 4, 9}, 2, true, nil, 0, 0},
		{"temperature 0: the most visited alone", legal[:4], []int32{3, 8, 1, 2}, 0, true, nil, 0, 0},
		{"temperature 0: the first of a tie", legal[:4], []int32{3, 8, 8, 2}, 0, true, nil, 0, 0},
		{"temperature 0: an illegal top dropped", append([]rules.Move{other[0]}, legal[:2]...), []int32{50, 4, 9}, 0, true, nil, 0, 0},
		{"temperature 0: no visits", legal[:2], []int32{0, 0}, 0, false, nil, 0, 0},
		{"values: the best value, not the most visited", legal[:3], []int32{80, 15, 5}, 0, true, []float64{0.5, 0.7, 0.9}, 0.1, 0},
		{"values at temperature 0.05", legal[:4], []int32{60, 20, 15, 5}, 0.05, true, []float64{0.5, 0.6, 0.55, 0.99}, 0.1, 0},
		{"values: all candidates", legal[:3], []int32{1, 1, 1}, 0.1, true, []float64{0.2, 0.3, 0.4}, 0.3, 0},
		{"values: an illegal best dropped", append([]rules.Move{other[0]}, legal[:2]...), []int32{50, 30, 20}, 0, true, []float64{0.9, 0.6, 0.7}, 0.05, 0},
		{"values: an unvisited candidate left out", legal[:2], []int32{10, 0}, 0, true, []float64{0.1, 0.9}, 0, 0},
		{"values: nothing well visited and legal", append([]rules.Move{other[0]}, legal[:1]...), []int32{9, 1}, 0, false, []float64{0.5, 0.6}, 0.5, 0},
		{"played: the move played alone, not the most visited", legal[:4], []int32{3, 8, 1, 2}, 0, true, nil, 0, 3},
		{"played at temperature 1: still the move alone", legal[:3], []int32{5, 5, 5}, 1, true, nil, 0, 1},
		{"played: an illegal move teaches nothing", append([]rules.Move{other[0]}, legal[:2]...), []int32{5, 9, 9}, 0, false, nil, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := make([]float32, sp.Heads*sp.Actions)
			actions := make([]int32, sp.Heads)
			acts := make([]int32, sp.Heads)
			keys := visitKeys(tc.visits, nil)
			if tc.values != nil {
				keys = valueKeys(tc.visits, tc.values, tc.share, nil)
			}
			if tc.played > 0 {
				keys = playedKeys(tc.moves, tc.moves[tc.played-1], nil)
			}
			ok := candidateTargets(enc, st, 0, tc.moves, keys, mask, tc.tau, target, actions, acts)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			// The expected distribution, from Legal and Encode independently:
			// weights visits^(1/τ), or exp((Q − Q_max)/τ) over the candidates
			// with enough visits, or 1 on the first best (τ = 0).
			key := func(i int) float64 { return float64(tc.visits[i]) }
			sum := 0
			for _, v := range tc.visits {
				sum += int(v)
			}
			in := func(i int) bool { return st.Legal(0, tc.moves[i]) && tc.visits[i] > 0 }
			if tc.played > 0 {
				in = func(i int) bool { return st.Legal(0, tc.moves[i]) && i == tc.played-1 }
			}
			if tc.values != nil {
				key = func(i int) float64 { return tc.values[i] }
				in = func(i int) bool {
					return st.Legal(0, tc.moves[i]) && tc.visits[i] > 0 && float64(tc.visits[i]) >= tc.share*float64(sum)
				}
			}
			top := -1
			for i := range tc.moves {
				if in(i) && (top < 0 || key(i) > key(top)) {
					top = i
				}
			}
			weight := make([]float64, len(tc.moves))
			total := 0.0
			for i := range tc.moves {
				switch {
				case !in(i):
				case tc.tau == 0 && i == top, tc.played > 0:
					weight[i] = 1
				case tc.tau > 0 && tc.values != nil:
					weight[i] = math.Exp((key(i) - key(top)) / tc.tau)
				case tc.tau > 0:
					weight[i] = math.Pow(key(i), 1/tc.tau)
				}
				total += weight[i]
			}
			want := make([]float64, sp.Heads*sp.Actions)
			for i, m := range tc.moves {
				if !st.Legal(0, m) {
					continue
				}
				if !enc.Encode(st, 0, m, acts) {
					t.Fatalf("legal move %v does not encode", m)
				}
				if got := enc.Decode(st, 0, acts); got != m {
					t.Fatalf("move %v encodes to %v, which decodes to %v", m, acts, got)
				}
				for h := 0; h < sp.Heads; h++ {
					want[h*sp.Actions+int(acts[h])] += weight[i] / total
				}
			}
			for h := 0; h < sp.Heads; h++ {
				sum, best := 0.0, 0
				for a := 0; a < sp.Actions; a++ {
					q := float64(target[h*sp.Actions+a])
					if !inMask(h, a) && q != 0 {
						t.Fatalf("head %d: illegal action %d has target %v", h, a, q)
					}
					if math.Abs(q-want[h*sp.Actions+a]) > 1e-6 {
						t.Fatalf("head %d action %d: target %v, want %v", h, a, q, want[h*sp.Actions+a])
					}
					if want[h*sp.Actions+a] > want[h*sp.Actions+best] {
						best = a
					}
					sum += q
				}
				if math.Abs(sum-1) > 1e-6 {
					t.Fatalf("head %d sums to %v", h, sum)
				}
				if int(actions[h]) != best {
					t.Fatalf("head %d: most visited action %d, want %d", h, actions[h], best)
				}
			}
		})
	}
}

// newExItTrainer is a trainer of cfg in a temporary run folder.
func newExItTrainer(t *testing.T, cfg Config) *trainer {
	t.Helper()
	tr, err := newTrainer(cfg, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.close)
	return tr
}

// One iteration's search-labelled games fill the buffer with distributions
// over legal actions and outcomes in −1..1, and a few update steps on those
// fixed targets lower the policy's cross-entropy to them.
func TestExItLowersCrossEntropy(t *testing.T) {
	for _, policy := range []string{ExItVisits, ExItValue} {
		t.Run(policy, func(t *testing.T) { exItLowersCrossEntropy(t, policy) })
	}
}

func exItLowersCrossEntropy(t *testing.T, policy string) {
	cfg := tinyExItConfig(t)
	cfg.ExIt.Policy = policy
	cfg.ExIt.Expert = "search:{net}@16:depth=2:opp=prior" // the network itself as the prior
	cfg.PPO.Minibatch, cfg.PPO.Epochs, cfg.PPO.LR = 16, 1, 0.01
	tr := newExItTrainer(t, cfg)
	if err := tr.create(); err != nil {
		t.Fatal(err)
	}
	var m Metrics
	steps, err := tr.exitIteration(context.Background(), 1, &m)
	if err != nil {
		t.Fatal(err)
	}
	b := &tr.ex.buf
	sp := tr.sp
	A := sp.Heads * sp.Actions
	if b.len() < cfg.ExIt.Decisions || m.Decisions != b.len() || m.Episodes < 1 || steps < int64(b.len()) {
		t.Fatalf("%d decisions (metrics %d) in %d games and %d steps, want at least %d", b.len(), m.Decisions, m.Episodes, steps, cfg.ExIt.Decisions)
	}
	mw := sp.MaskWords()
	for r := 0; r < b.len(); r++ {
		sum := 0.0
		for a := 0; a < A; a++ {
			q := b.target[r*A+a]
			if bit := a; q != 0 && b.masks[r*mw+bit>>6]>>(bit&63)&1 == 0 {
				t.Fatalf("row %d: illegal action %d has target %v", r, a, q)
			}
			sum += float64(q)
		}
		if math.Abs(sum-float64(sp.Heads)) > 1e-5 || b.ret[r] < -1 || b.ret[r] > 1 {
			t.Fatalf("row %d: targets sum to %v, outcome %v", r, sum, b.ret[r])
		}
	}
	if !(m.PGLoss > 0) || math.IsNaN(m.ValueLoss) || m.Samples == 0 {
		t.Fatalf("metrics after the update: %+v", m)
	}
	ce0, err := tr.exitCrossEntropy()
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 6; k++ {
		if err := tr.exitLearn(context.Background(), rules.NewRNG(uint64(k)), 0.01, &m); err != nil {
			t.Fatal(err)
		}
	}
	ce1, err := tr.exitCrossEntropy()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cross-entropy to the visit distributions: %.4f -> %.4f", ce0, ce1)
	if !(ce1 < 0.9*ce0) {
		t.Fatalf("cross-entropy %.4f -> %.4f after 6 epochs, want a drop of at least 10%%", ce0, ce1)
	}
}

// exit.policy reaches the collected targets: the same games labelled by a
// greedy-prior search's values and by its visits differ in some rows (the
// search keeps visiting greedy's move where another scores better).
func TestExItValuePolicyLabels(t *testing.T) {
	var acts [2][]int32
	for k, policy := range []string{ExItVisits, ExItValue} {
		cfg := tinyExItConfig(t)
		cfg.ExIt.Expert = "search:greedy@300:depth=4:opp=prior:trees=1"
		cfg.ExIt.Policy = policy
		tr := newExItTrainer(t, cfg)
		if err := tr.create(); err != nil {
			t.Fatal(err)
		}
		var m Metrics
		if _, err := tr.exitIteration(context.Background(), 1, &m); err != nil {
			t.Fatal(err)
		}
		acts[k] = slices.Clone(tr.ex.buf.actions)
	}
	if len(acts[0]) != len(acts[1]) || len(acts[0]) == 0 {
		t.Fatalf("%d and %d labelled actions: the same games should give as many", len(acts[0]), len(acts[1]))
	}
	differ := 0
	for i := range acts[0] {
		if acts[0][i] != acts[1][i] {
			differ++
		}
	}
	t.Logf("%d of %d labels differ between visit and value targets", differ, len(acts[0]))
	if differ == 0 {
		t.Fatal("value targets label every decision as the visits do: exit.policy is not applied")
	}
}

// exit.window keeps the decisions of the last Window iterations as the
// training set, oldest dropped first, rows intact and in order.
func TestExItWindow(t *testing.T) {
	cfg := tinyExItConfig(t)
	cfg.ExIt.Window = 2
	cfg.PPO.Minibatch = 16
	tr := newExItTrainer(t, cfg)
	if err := tr.create(); err != nil {
		t.Fatal(err)
	}
	var iters []exitBuffer // each iteration's own decisions, copied
	for it := 1; it <= 3; it++ {
		var m Metrics
		if _, err := tr.exitIteration(context.Background(), it, &m); err != nil {
			t.Fatal(err)
		}
		var c exitBuffer
		c.append(&tr.ex.cur)
		iters = append(iters, c)
		var want exitBuffer // the last two iterations' rows, in order
		for _, b := range iters[max(0, len(iters)-2):] {
			want.append(&b)
		}
		b := &tr.ex.buf
		if m.Decisions != c.len() || b.len() != want.len() {
			t.Fatalf("iteration %d: %d rows in the window, want %d (metrics: %d decisions this iteration, %d collected)", it, b.len(), want.len(), m.Decisions, c.len())
		}
		if !slices.Equal(b.planes, want.planes) || !slices.Equal(b.scalars, want.scalars) || !slices.Equal(b.masks, want.masks) ||
			!slices.Equal(b.target, want.target) || !slices.Equal(b.actions, want.actions) || !slices.Equal(b.ret, want.ret) {
			t.Fatalf("iteration %d: the window's rows are not the last two iterations' in order", it)
		}
	}
	if iters[1].len() == 0 || slices.Equal(iters[1].planes, iters[2].planes) {
		t.Fatal("iterations collected no decisions or the same ones: the test cannot tell them apart")
	}
}

// A run in Expert Iteration mode writes its checkpoints and metrics.csv rows
// like PPO's, and the same seed gives the same network and rows.
func TestExItRunIsDeterministic(t *testing.T) {
	cfg := tinyExItConfig(t)
	var nets []*neural.Net
	var rows []map[string][]float64
	for k := 0; k < 2; k++ {
		dir := filepath.Join(t.TempDir(), "run")
		res, err := Run(context.Background(), cfg, Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if res.Iterations != cfg.Iterations {
			t.Fatalf("run ended at iteration %d", res.Iterations)
		}
		n, _, err := neural.Load(res.Checkpoint)
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, n)
		mc, err := ReadMetrics(filepath.Join(dir, "metrics.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, mc)
	}
	for i := range nets[0].Values {
		for j := range nets[0].Values[i] {
			if math.Float32bits(nets[0].Values[i][j]) != math.Float32bits(nets[1].Values[i][j]) {
				t.Fatalf("tensor %s differs between two runs of one seed", nets[0].Params[i].Name)
			}
		}
	}
	for _, col := range []string{"iteration", "env_steps", "episodes", "decisions", "samples", "pg_loss", "kl_clone", "value_loss", "entropy", "train_win", "eval_points"} {
		a, b := rows[0][col], rows[1][col]
		if len(a) != cfg.Iterations || len(b) != cfg.Iterations {
			t.Fatalf("%s: %d and %d rows, want %d", col, len(a), len(b), cfg.Iterations)
		}
		for i := range a {
			if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
				t.Fatalf("%s row %d: %v and %v", col, i, a[i], b[i])
			}
		}
	}
	if d := rows[0]["decisions"]; d[0] < float64(cfg.ExIt.Decisions) {
		t.Fatalf("iteration 1 collected %v decisions, want at least %d", d[0], cfg.ExIt.Decisions)
	}
	if ce := rows[0]["pg_loss"]; !(ce[0] > 0) {
		t.Fatalf("pg_loss (the cross-entropy) %v", ce)
	}
}

// The exit presets (train/exit.yaml in a game's folder, `gridgym train
// --preset exit`) are Expert Iteration's measured recipes: each validates,
// plays its own game within 2 hours, clones a teacher first and distils a
// search with a policy target of its own over a replay window. Slime's is
// the value-target recipe (reports/exit/slime), Bovine Borders' and Rising
// Tide's the departures recipe (reports/exit/bovine-borders/departures/keep-0.02,
// reports/exit/rising-tide/keep-disagree).
func TestExItPresets(t *testing.T) {
	want := map[string]string{"slime": ExItValue, "bovine-borders": ExItPlayed, "rising-tide": ExItPlayed}
	found := 0
	for _, g := range rules.Names() {
		if !slices.Contains(configs.PresetsOf(g), "exit") {
			continue
		}
		found++
		c, err := PresetConfig(g, "exit")
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		if c.Game != g || c.ExIt.Expert == "" || c.ExIt.Window < 2 || c.ExIt.Decisions == 0 || c.BC.Samples == 0 || c.Minutes <= 0 || c.Minutes > 120 {
			t.Errorf("%s: exit preset %+v, bc.samples %d, minutes %v", g, c.ExIt, c.BC.Samples, c.Minutes)
		}
		if p, ok := want[g]; ok && c.ExIt.Policy != p {
			t.Errorf("%s: exit.policy %q, want %q (the measured recipe)", g, c.ExIt.Policy, p)
		}
	}
	if found < len(want) {
		t.Errorf("%d games ship an exit preset, want at least %d", found, len(want))
	}
	if c, _ := PresetConfig("bovine-borders", "exit"); c.MaxEpisodeSteps != 150 || c.bcEpisodeSteps() != 0 || c.ExIt.KeepPrior != 0.02 {
		t.Errorf("bovine-borders exit: games cut at %d, the clone's at %d, keep_prior %v; want 150, whole games, 0.02", c.MaxEpisodeSteps, c.bcEpisodeSteps(), c.ExIt.KeepPrior)
	}
	// Rising Tide's measured run (reports/exit/rising-tide/keep-disagree): whole games, a
	// window that keeps every iteration's few departures, labels where the network
	// disagrees (without them it sinks itself), the 32-filter network.
	if c, _ := PresetConfig("rising-tide", "exit"); c.MaxEpisodeSteps != 0 || c.ExIt.Window < c.Iterations || c.ExIt.KeepPrior != 0.02 || c.ExIt.KeepDisagree != 0.1 || c.Network.Filters != 32 {
		t.Errorf("rising-tide exit: games cut at %d, window %d of %d iterations, keep_prior %v, keep_disagree %v, %d filters; want whole games, every iteration, 0.02, 0.1, 32",
			c.MaxEpisodeSteps, c.ExIt.Window, c.Iterations, c.ExIt.KeepPrior, c.ExIt.KeepDisagree, c.Network.Filters)
	}
}

// playedExItGames returns a trainer of whole games labelled with the move
// played, its expert (a search over random moves that departs often) and
// greedy as the opponents: the games of the keep_prior and keep_disagree
// tests.
func playedExItGames(t *testing.T) (*trainer, agents.Factory, []agents.Factory) {
	t.Helper()
	cfg := tinyExItConfig(t)
	cfg.MaxEpisodeSteps = 0 // whole games
	cfg.ExIt.Expert = "search:random@32:trees=1:depth=2:prior=0.2"
	cfg.ExIt.Policy = ExItPlayed
	tr := newExItTrainer(t, cfg)
	expert, err := agents.Lookup(cfg.Game, cfg.ExIt.Expert)
	if err != nil {
		t.Fatal(err)
	}
	opp, err := agents.Lookup(cfg.Game, "greedy")
	if err != nil {
		t.Fatal(err)
	}
	return tr, expert.New, []agents.Factory{opp.New}
}

// exit.keep_prior keeps a share of the decisions where the expert played
// its prior's move and every decision where it played another: the same
// game (its own streams) gives, with keep_prior 0.25, a subsequence of the
// rows it gives with every decision kept, at least its departures, and about
// a quarter of the rest; the game itself does not change.
func TestExItKeepPrior(t *testing.T) {
	tr, expert, opps := playedExItGames(t)
	var searched, departed, kept, rest int
	for k := uint64(0); k < 48; k++ {
		tr.cfg.ExIt.KeepPrior = 0
		all := tr.exitGame(expert, opps, 9, k)
		tr.cfg.ExIt.KeepPrior = 0.25
		some := tr.exitGame(expert, opps, 9, k)
		if all.err != nil || some.err != nil {
			t.Fatal(all.err, some.err)
		}
		if all.steps != some.steps || all.ret != some.ret || all.searched != some.searched || all.departed != some.departed {
			t.Fatalf("game %d changed with keep_prior: steps %d/%d, outcome %v/%v, searched %d/%d, departed %d/%d",
				k, all.steps, some.steps, all.ret, some.ret, all.searched, some.searched, all.departed, some.departed)
		}
		if all.buf.len() != all.searched {
			t.Fatalf("game %d: %d rows with every decision kept, %d searched decisions", k, all.buf.len(), all.searched)
		}
		os := len(all.buf.planes) / max(all.buf.len(), 1)
		j := 0 // the rows of some, in order, among those of all
		for i := 0; i < some.buf.len(); i++ {
			for j < all.buf.len() && !slices.Equal(all.buf.planes[j*os:(j+1)*os], some.buf.planes[i*os:(i+1)*os]) {
				j++
			}
			if j == all.buf.len() {
				t.Fatalf("game %d: row %d with keep_prior 0.25 is not a row of the game's (in order)", k, i)
			}
			j++
		}
		if some.buf.len() < some.departed || some.buf.len() > some.searched {
			t.Fatalf("game %d: %d rows kept, %d departures of %d decisions", k, some.buf.len(), some.departed, some.searched)
		}
		searched, departed = searched+all.searched, departed+all.departed
		kept, rest = kept+some.buf.len()-some.departed, rest+all.searched-all.departed
	}
	share := float64(kept) / float64(rest)
	t.Logf("%d decisions, %d departures; %d of the other %d kept (%.3f)", searched, departed, kept, rest, share)
	if departed == 0 || rest < 100 || share < 0.15 || share > 0.35 {
		t.Fatalf("departures %d, prior's moves %d, kept share %.3f: want departures and about 0.25", departed, rest, share)
	}
}

// exit.keep_disagree keeps, on top of exit.keep_prior's share, decisions
// where the network being trained would play another move than the
// expert's prior move: with keep_disagree 1 the game does not change, and
// more rows are kept (the untrained network disagrees often), never more
// than the decisions.
func TestExItKeepDisagree(t *testing.T) {
	tr, expert, opps := playedExItGames(t)
	tr.cfg.ExIt.KeepPrior = 0.1
	var base, more int
	for k := uint64(0); k < 24; k++ {
		tr.cfg.ExIt.KeepDisagree = 0
		without := tr.exitGame(expert, opps, 9, k)
		tr.cfg.ExIt.KeepDisagree = 1
		with := tr.exitGame(expert, opps, 9, k)
		if without.err != nil || with.err != nil {
			t.Fatal(without.err, with.err)
		}
		if without.steps != with.steps || without.ret != with.ret || without.departed != with.departed {
			t.Fatalf("game %d changed with keep_disagree: steps %d/%d, outcome %v/%v, departed %d/%d",
				k, without.steps, with.steps, without.ret, with.ret, without.departed, with.departed)
		}
		if with.buf.len() < without.buf.len() || with.buf.len() > with.searched {
			t.Fatalf("game %d: %d rows with keep_disagree, %d without, %d decisions", k, with.buf.len(), without.buf.len(), with.searched)
		}
		base, more = base+without.buf.len(), more+with.buf.len()
	}
	t.Logf("rows kept: %d without keep_disagree, %d with", base, more)
	if more <= base {
		t.Fatalf("keep_disagree 1 kept %d rows, no more than the %d without", more, base)
	}
}
