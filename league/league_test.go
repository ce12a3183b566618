package league

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/eval"
	_ "github.com/gridgym/gridgym/games/gamestest" // every game and the test game, Four Square
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train"
)

const testGame = "four-square"

// tinySettings is a league of seconds on the test game: one learner of
// each role, one iteration a round, snapshots every round, a main
// exploiter budget of 2 rounds, a learning curve against "first".
func tinySettings() *Settings {
	s := Defaults()
	s.Seed, s.Iterations, s.SnapshotEvery, s.Draws = 5, 1, 1, 3
	s.PayoffGames, s.EvalGames, s.ExploiterBudget = 4, 4, 2
	s.Eval = []string{"first"}
	return &s
}

// runLeague opens (or resumes) the league in dir and plays it to rounds.
func runLeague(t *testing.T, dir string, s *Settings, rounds, workers int) *League {
	t.Helper()
	opt := Options{Dir: dir, Rounds: rounds, Workers: workers}
	if s != nil {
		opt.Game, opt.Settings = testGame, s
	}
	l, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return l
}

// stateWithoutTimes is league.json with its wall times zeroed: what must
// be the same, bit for bit, for the same seed and cores.
func stateWithoutTimes(t *testing.T, dir string) []byte {
	t.Helper()
	st, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	st.ElapsedS = 0
	for i := range st.Curve {
		st.Curve[i].Minutes = 0
	}
	b, _ := json.MarshalIndent(st, "", " ")
	return b
}

// tensors is a weights file's tensors without its metadata (which holds
// the time it was written).
func tensors(t *testing.T, path string) []byte {
	t.Helper()
	net, _, err := neural.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "w.safetensors")
	if err := net.Save(p, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A league stopped after a round and resumed ends in the same state —
// members, payoff table, learners, learning curve — and with the same
// main agent as one run straight through, for the same seed and cores;
// and its learners trained concurrently (3 cores, 3 learners) give the
// same league as one after another (1 core), since each train.Run has one
// worker either way.
func TestLeagueResumeIsDeterministic(t *testing.T) {
	straight, resumed, sequential := t.TempDir(), t.TempDir(), t.TempDir()
	runLeague(t, straight, tinySettings(), 3, 3)
	runLeague(t, resumed, tinySettings(), 1, 3)
	runLeague(t, resumed, nil, 3, 3)
	runLeague(t, sequential, tinySettings(), 3, 1)
	a, b, c := stateWithoutTimes(t, straight), stateWithoutTimes(t, resumed), stateWithoutTimes(t, sequential)
	if !bytes.Equal(a, b) {
		t.Errorf("resumed league differs from the straight one:\n%s\n---\n%s", a, b)
	}
	if !bytes.Equal(a, c) {
		t.Errorf("sequential league differs from the concurrent one:\n%s\n---\n%s", a, c)
	}
	for _, d := range []string{resumed, sequential} {
		if !bytes.Equal(tensors(t, filepath.Join(straight, "main", finalFile)), tensors(t, filepath.Join(d, "main", finalFile))) {
			t.Errorf("%s: the main agent's final weights differ from the straight run's", d)
		}
	}
}

// A round killed before its commit — its run folders, weights and pool
// snapshots half written, league.json still at the round before — is
// played again from the same inputs on resume.
func TestLeagueReplaysAKilledRound(t *testing.T) {
	straight, killed := t.TempDir(), t.TempDir()
	runLeague(t, straight, tinySettings(), 2, 1)
	runLeague(t, killed, tinySettings(), 1, 1)
	for _, f := range []string{"main/run-r0002/config.yaml", "main/run-r0002/latest", "main/weights-r0002.safetensors", "pool/main-r0002.safetensors"} {
		p := filepath.Join(killed, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("half written"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runLeague(t, killed, nil, 2, 1)
	if a, b := stateWithoutTimes(t, straight), stateWithoutTimes(t, killed); !bytes.Equal(a, b) {
		t.Errorf("the replayed round differs:\n%s\n---\n%s", a, b)
	}
	if !bytes.Equal(tensors(t, filepath.Join(straight, "pool", "main-r0002.safetensors")), tensors(t, filepath.Join(killed, "pool", "main-r0002.safetensors"))) {
		t.Error("the replayed round's snapshot differs")
	}
}

// Each role trains against its own opponents: the main agent a PFSP
// mixture of the pool with self-play, the main exploiter its main agent
// alone, the league exploiter the pool; no derived config keeps a warm
// start, Expert Iteration, train's own snapshots or evaluations. Every
// round snapshots every learner (snapshot_every 1), the main exploiter is
// reset within its budget, and the payoff table has the learners' rows.
func TestLeagueRoles(t *testing.T) {
	dir := t.TempDir()
	l := runLeague(t, dir, tinySettings(), 2, 1)
	st := l.State
	plans, err := l.plans(rules.Derive(st.Settings.Seed, 3), 3)
	if err != nil {
		t.Fatal(err)
	}
	pool := st.memberNames()
	for _, p := range plans {
		o := p.config.Opponents
		switch p.learner.Role {
		case RoleMain:
			if o.Self != st.Settings.MainSelf || len(p.opponents) != st.Settings.Draws {
				t.Errorf("main: self %v, %d draws", o.Self, len(p.opponents))
			}
		case RoleMainExploiter:
			if !slices.Equal(p.opponents, []string{"main"}) || o.Self != 0 || len(o.Scripted) != 1 || !strings.HasPrefix(o.Scripted[0], "main="+dir) {
				t.Errorf("main exploiter: opponents %v, config %+v; want the main agent alone", p.opponents, o)
			}
		case RoleLeagueExploiter:
			if o.Self != 0 || len(p.opponents) != st.Settings.Draws {
				t.Errorf("league exploiter: self %v, %d draws", o.Self, len(p.opponents))
			}
		}
		if p.learner.Role != RoleMainExploiter {
			for _, n := range p.opponents {
				if !slices.Contains(pool, n) {
					t.Errorf("%s drew %s, not a pool member", p.learner.Name, n)
				}
			}
		}
		c := p.config
		if o.Past != 0 || o.Clone != 0 || c.BC.Samples != 0 || c.ExIt.Expert != "" || c.Eval.Every != 0 || c.Iterations != 1 || c.PPO.LRFinal != 1 {
			t.Errorf("%s: derived config keeps more than the league's opponents:\n%s", p.learner.Name, c.YAML())
		}
	}
	want := []string{"initial", "first", "main-r0001", "main-exploiter-r0001", "league-exploiter-r0001", "main-r0002", "main-exploiter-r0002", "league-exploiter-r0002"}
	if !slices.Equal(pool, want) {
		t.Errorf("pool %v, want %v", pool, want)
	}
	for _, m := range st.Members {
		if m.Weights != "" {
			if _, err := os.Stat(filepath.Join(dir, m.Weights)); err != nil {
				t.Errorf("member %s: %v", m.Name, err)
			}
		}
	}
	if me := st.learner("main-exploiter"); me.Resets != 1 || me.Weights != initialFile || me.Optim != "" {
		t.Errorf("main exploiter %+v: want reset once after its 2-round budget, its optimiser state forgotten", me)
	}
	if len(st.Payoff["main"]) == 0 || len(st.Payoff["league-exploiter"]) == 0 {
		t.Errorf("payoff table %v: want rows for the main agent and the league exploiter", st.Payoff)
	}
	if len(st.Curve) != 2 || st.Curve[1].Round != 2 || st.Curve[1].Games != 4 {
		t.Errorf("learning curve %+v: want a point a round", st.Curve)
	}
	for _, f := range []string{CurveFile, CurvePlot, "main/final.safetensors", "main/run-r0002/config.yaml", "base.yaml", initialFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "main", "run-r0001")); err == nil {
		t.Error("an older round's run folder was kept")
	}
}

// With Settings.Anchor the main agents' rounds carry a constant KL term
// (towards the initial network, train.Options.Anchor), the exploiters'
// none; the main agent's run logs its weight.
func TestLeagueAnchor(t *testing.T) {
	dir := t.TempDir()
	s := tinySettings()
	s.Anchor = 0.5
	l := runLeague(t, dir, s, 2, 1)
	plans, err := l.plans(rules.Derive(s.Seed, 3), 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plans {
		kl, anneal := p.config.PPO.KLClone, p.config.PPO.KLAnneal
		if p.learner.Role == RoleMain && (kl != 0.5 || anneal < 1e6) || p.learner.Role != RoleMain && kl != 0 {
			t.Errorf("%s: kl_clone %v, kl_anneal %v; want 0.5 not annealed for the main agent, 0 for exploiters", p.learner.Name, kl, anneal)
		}
	}
	m, err := train.ReadMetrics(filepath.Join(dir, "main", "run-r0002", "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if c := m["kl_coef"]; len(c) != 1 || c[0] != 0.5 || !(m["kl_clone"][0] > 0) {
		t.Errorf("main agent's round 2: kl_coef %v, kl_clone %v; want 0.5 and a KL above 0 (it starts off the anchor)", c, m["kl_clone"])
	}
	bad := tinySettings()
	bad.Anchor = -1
	if _, err := Open(Options{Dir: t.TempDir(), Game: testGame, Settings: bad, Rounds: 1}); err == nil || !strings.Contains(err.Error(), "anchor") {
		t.Errorf("anchor −1: error %v, want one naming the setting", err)
	}
}

// A league started from a weights file with stored play settings plays
// and writes its networks with them (as train --init does), unless the
// base config sets its own.
func TestLeagueTakesTheInitsPlay(t *testing.T) {
	first := runLeague(t, t.TempDir(), tinySettings(), 1, 1)
	init := filepath.Join(t.TempDir(), "init.safetensors")
	net, _, err := neural.Load(filepath.Join(first.Dir, initialFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := net.Save(init, map[string]string{neural.PlayKey: neural.EncodePlay(neural.Play{Temperature: 0.5})}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	l, err := Open(Options{Dir: dir, Game: testGame, Settings: tinySettings(), Init: init, Rounds: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if l.base.Play.Temperature != 0.5 {
		t.Errorf("base play %+v, want the init's temperature 0.5", l.base.Play)
	}
	_, meta, err := neural.Load(filepath.Join(dir, "main", "final.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if p, ok, err := neural.StoredPlay(meta); err != nil || !ok || p.Temperature != 0.5 {
		t.Errorf("main agent's play %+v (stored %v, %v), want temperature 0.5", p, ok, err)
	}
}

// Bad inputs are clear *InputErrors, never panics.
func TestLeagueBadInput(t *testing.T) {
	dir := t.TempDir()
	runLeague(t, dir, tinySettings(), 1, 1)
	bad := *tinySettings()
	bad.WinThreshold = 0.2
	other := *tinySettings()
	other.Seed = 9
	unknown := *tinySettings()
	unknown.Eval = []string{"nobody"}
	for _, c := range []struct {
		name string
		opt  Options
		want string
	}{
		{"no folder", Options{Game: testGame, Rounds: 1}, "no league folder"},
		{"no budget", Options{Dir: t.TempDir(), Game: testGame}, "no budget"},
		{"no game", Options{Dir: t.TempDir(), Rounds: 1}, "no game"},
		{"unknown game", Options{Dir: t.TempDir(), Game: "chess", Rounds: 1}, "chess"},
		{"bad setting", Options{Dir: t.TempDir(), Game: testGame, Settings: &bad, Rounds: 1}, "win_threshold"},
		{"unknown eval bot", Options{Dir: t.TempDir(), Game: testGame, Settings: &unknown, Rounds: 1}, "nobody"},
		{"bad init", Options{Dir: t.TempDir(), Game: testGame, Init: "/nonexistent.safetensors", Rounds: 1}, "init"},
		{"resume, other game", Options{Dir: dir, Game: "slime", Rounds: 2}, "not slime"},
		{"resume, other settings", Options{Dir: dir, Settings: &other, Rounds: 2}, "other settings"},
		{"negative rounds", Options{Dir: dir, Rounds: -1}, "rounds"},
	} {
		_, err := Open(c.opt)
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an input error saying %q", c.name, err, c.want)
		}
	}
}

// TestEvaluateWith checks the learning curve in the acceptance form
// (Settings.EvalWith): the main agent, the eval bot and the bots beside
// them in every seating order, the curve's figures the main agent's
// per-game margin over the eval bot in exactly the games a tournament of
// that table and seed plays, and not the copies form's.
func TestEvaluateWith(t *testing.T) {
	base, err := train.DefaultConfig("nuggets")
	if err != nil {
		t.Fatal(err)
	}
	rcfg, err := base.RulesConfig()
	if err != nil {
		t.Fatal(err)
	}
	arch, err := base.Arch()
	if err != nil {
		t.Fatal(err)
	}
	net, err := neural.NewInit(arch, rules.InitStream(3))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := net.Save(filepath.Join(dir, "main.safetensors"), nil); err != nil {
		t.Fatal(err)
	}
	s := Defaults()
	s.Eval, s.EvalWith, s.EvalGames = []string{"greedy"}, []string{"greedy_tuned", "random"}, 24
	l := &League{Dir: dir, rcfg: rcfg, workers: 2,
		State: &State{Settings: s, Learners: []Learner{{Name: "main", Weights: "main.safetensors"}}}}
	with, err := l.evaluate(context.Background(), 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	seed := rules.Derive(s.Seed^0xe7a1, 3<<8).Uint64()
	r, err := eval.Run(context.Background(), eval.Config{Game: rcfg, Seed: seed, Games: 24, AllOrders: true,
		Bots: []string{"main=" + filepath.Join(dir, "main.safetensors"), "greedy", "greedy_tuned", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	want, err := eval.PairMargin(r, "main", "greedy")
	if err != nil {
		t.Fatal(err)
	}
	p := with[0]
	if len(with) != 1 || p.Bot != "greedy" || p.Games != 24 || p.Margin != want.Mean || p.MarginLo != want.Lo || p.MarginHi != want.Hi ||
		p.Main != want.MeanA || p.Opponent != want.MeanB || p.ScoreName != "log-score" {
		t.Errorf("curve point %+v, want the tournament's margin %+v", p, want)
	}
	l.State.Settings.EvalWith = nil // the copies form: another table
	copies, err := l.evaluate(context.Background(), 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	if copies[0].Margin == p.Margin {
		t.Errorf("with and without --eval-with the same margin %v", p.Margin)
	}
}

// TestEvalWithBadInput: bots beside the evaluation must fill the table
// exactly and need an eval bot.
func TestEvalWithBadInput(t *testing.T) {
	for _, c := range []struct {
		eval, with []string
		want       string
	}{
		{[]string{"first"}, []string{"first"}, "seats 2, so the main agent and an eval bot want 0 beside them, not 1"},
		{nil, []string{"first"}, "name the bots to evaluate against"},
		{[]string{"first"}, []string{"nobody"}, "nobody"},
	} {
		s := tinySettings()
		s.Eval, s.EvalWith = c.eval, c.with
		_, err := Open(Options{Dir: t.TempDir(), Game: testGame, Settings: s, Rounds: 1})
		var in *InputError
		if err == nil || !errors.As(err, &in) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("eval %v with %v: %v, want an input error saying %q", c.eval, c.with, err, c.want)
		}
	}
}

// A league interrupted in the middle of a round still leaves every
// learner's final.safetensors, the last finished round's weights (what
// the command's summary names), and its State back at that round, not
// the round in progress's changes (here: the main agent's weights moved
// to an exploiter's, as training does before the round's commit).
func TestLeagueInterruptedWritesFinals(t *testing.T) {
	dir := t.TempDir()
	runLeague(t, dir, tinySettings(), 1, 1)
	want := tensors(t, filepath.Join(dir, "main", finalFile))
	if err := os.Remove(filepath.Join(dir, "main", finalFile)); err != nil {
		t.Fatal(err)
	}
	l, err := Open(Options{Dir: dir, Rounds: 3, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	committed := l.State.Learners[0].Weights
	l.State.Learners[0].Weights = l.State.Learners[1].Weights // a change not committed
	if bytes.Equal(tensors(t, l.abs(committed)), tensors(t, l.abs(l.State.Learners[1].Weights))) {
		t.Fatal("main agent and main exploiter have the same weights: the check below could not fail")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Run(ctx); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Run: %v, want ErrInterrupted", err)
	}
	if l.State.Round != 1 || l.State.Learners[0].Weights != committed {
		t.Errorf("state at round %d, main agent at %s after the interruption; want round 1's, %s", l.State.Round, l.State.Learners[0].Weights, committed)
	}
	if got := tensors(t, filepath.Join(dir, "main", finalFile)); !bytes.Equal(got, want) {
		t.Errorf("main/%s after the interruption is not round 1's weights", finalFile)
	}
}

// adamSteps is the optimiser step count in checkpoint folder cp.
func adamSteps(t *testing.T, cp string) float32 {
	t.Helper()
	ts, err := train.OptimizerState(cp)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range ts {
		if x.Name == "t" {
			return x.Data[0]
		}
	}
	t.Fatalf("%s: no step count", cp)
	return 0
}

// A learner's rounds continue one optimiser (Learner.Optim, passed as
// train.Options.InitOptim) until it is reset: after three rounds the main
// agent's Adam has taken three times the steps it takes with
// Settings.RestartOptimizer, which starts it again every round.
func TestLeagueContinuesTheOptimizer(t *testing.T) {
	var steps [2]float32
	for i, restart := range []bool{false, true} {
		s := tinySettings()
		s.RestartOptimizer = restart
		dir := t.TempDir()
		main := runLeague(t, dir, s, 3, 1).State.learner("main")
		if !strings.HasPrefix(main.Optim, filepath.Join("main", "run-r0003", "checkpoints")) {
			t.Fatalf("restart %v: Optim %q: want the round-3 run's checkpoint", restart, main.Optim)
		}
		steps[i] = adamSteps(t, filepath.Join(dir, main.Optim))
	}
	if steps[1] <= 0 || steps[0] != 3*steps[1] {
		t.Errorf("the main agent's Adam after three rounds: %v steps continued, %v restarted; want three times", steps[0], steps[1])
	}
}

// exploitWithLeague creates (without playing) a Nuggets league of one
// main agent and one main exploiter whose company is with.
func exploitWithLeague(t *testing.T, with []string) (*League, error) {
	t.Helper()
	base, err := train.DefaultConfig("nuggets")
	if err != nil {
		t.Fatal(err)
	}
	base.Envs, base.Decisions, base.PPO.Minibatch = 2, 64, 32
	s := Defaults()
	s.Iterations, s.LeagueExploiters, s.Draws, s.PayoffGames, s.ExploitWith = 1, 0, 2, 24, with
	return Open(Options{Dir: t.TempDir(), Game: "nuggets", Base: &base, Settings: &s, Rounds: 1, Workers: 2})
}

// TestExploitWith: with Settings.ExploitWith (the word field here) a main
// exploiter trains with its main agent and exactly those bots at the table
// (opponents.table), and its payoff match seats them beside it and the
// main agent in every seating order, the win share that table's; the main
// agent still draws from the pool. A round trains with it.
func TestExploitWith(t *testing.T) {
	l, err := exploitWithLeague(t, []string{"field"})
	if err != nil {
		t.Fatal(err)
	}
	field := agents.Field("nuggets")
	if len(field) != 2 || !slices.Equal(l.State.Settings.ExploitWith, field) {
		t.Fatalf("exploit_with %v: want the word field resolved to the game's field %v", l.State.Settings.ExploitWith, field)
	}
	plans, err := l.plans(rules.Derive(l.State.Settings.Seed, 1), 1)
	if err != nil {
		t.Fatal(err)
	}
	mainSpec := "main=" + filepath.Join(l.Dir, initialFile)
	var x *plan
	for _, p := range plans {
		o := p.config.Opponents
		switch p.learner.Role {
		case RoleMainExploiter:
			x = p
			if want := append([]string{mainSpec}, field...); !slices.Equal(o.Table, want) || o.Self != 0 {
				t.Errorf("main exploiter: opponents %+v, want the table %v", o, want)
			}
		case RoleMain:
			if len(o.Table) != 0 || len(o.Scripted) != l.State.Settings.Draws {
				t.Errorf("main agent: opponents %+v, want PFSP draws and no table", o)
			}
		}
	}
	if err := l.measure(context.Background(), 1, []*plan{x}); err != nil {
		t.Fatal(err)
	}
	s := l.State.Settings
	seed := rules.Derive(s.Seed, 1<<16|uint64(x.index)<<8).Uint64()
	r, err := eval.Run(context.Background(), eval.Config{Game: l.rcfg, Seed: seed, Games: s.PayoffGames, AllOrders: true,
		Bots: append([]string{"main-exploiter=" + filepath.Join(l.Dir, initialFile), mainSpec}, field...)})
	if err != nil {
		t.Fatal(err)
	}
	want := eval.ComputePairwise(r).Pairs[0][1]
	if got := l.State.Payoff["main-exploiter"]["main"]; got.Wins != want.Score || got.Games != float64(want.Games) || got.Games != 24 {
		t.Errorf("payoff record %+v, want the table's %+v over 24 games", got, want)
	}
	if err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cfg, err := train.LoadConfigFor(filepath.Join(l.Dir, "main-exploiter", "run-r0001", "config.yaml"), "nuggets")
	if err != nil {
		t.Fatal(err)
	}
	if want := append([]string{mainSpec}, field...); !slices.Equal(cfg.Opponents.Table, want) {
		t.Errorf("the main exploiter's round trained with table %v, want %v", cfg.Opponents.Table, want)
	}
}

// TestExploitWithBadInput: the company must fill the table beside the
// main exploiter and its main agent, hold no held-out bot, and have a
// main exploiter to sit beside.
func TestExploitWithBadInput(t *testing.T) {
	held := agents.HeldOut("nuggets")[0]
	for _, c := range []struct {
		with []string
		want string
	}{
		{[]string{"fortress"}, "1 bots, want 2"},
		{[]string{"fortress", held}, "held-out"},
		{[]string{"fortress", "nobody"}, "nobody"},
	} {
		_, err := exploitWithLeague(t, c.with)
		var in *InputError
		if err == nil || !errors.As(err, &in) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("exploit-with %v: %v, want an input error saying %q", c.with, err, c.want)
		}
	}
	s := tinySettings()
	s.MainExploiters, s.ExploitWith = 0, []string{"first"}
	if _, err := Open(Options{Dir: t.TempDir(), Game: testGame, Settings: s, Rounds: 1}); err == nil || !strings.Contains(err.Error(), "no main exploiter") {
		t.Errorf("exploit-with without a main exploiter: %v", err)
	}
}
