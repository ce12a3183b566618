package games

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/host"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/export"
	"github.com/gridgym/gridgym/games/internal/foursquare"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train"
)

// The test game, declared only in its own folder, plays a tournament, gets
// a new-bot template, and its network exports to a Python bot that the host
// runs and that plays exactly the Go policy's greedy moves.
func TestTestGameHostsAndExports(t *testing.T) {
	g, err := rules.Lookup(foursquare.Name)
	if err != nil {
		t.Fatal(err)
	}
	res, err := eval.Run(t.Context(), eval.Config{Game: g.Default(), Bots: agents.Names(g.Name), Games: 4, Seed: 3})
	if err != nil || len(res.Bots) != len(agents.Names(g.Name)) {
		t.Fatalf("tournament: %v, %+v", err, res)
	}
	if _, ok := export.TargetOf(g.Name); !ok {
		t.Fatalf("no export target for %s", g.Name)
	}
	if os.Getenv("GRIDGYM_SKIP_PYTHON") != "" {
		t.Skip("GRIDGYM_SKIP_PYTHON is set")
	}
	py, err := host.Interpreter("")
	if err != nil {
		t.Skipf("no Python: %v", err)
	}
	tm, err := host.NewTemplate(g.Name, py)
	if err != nil || tm.File != "my_four_square_bot.py" || tm.Executable {
		t.Fatalf("template %+v: %v", tm, err)
	}

	cfg := g.Default()
	arch, err := neural.NewArch(g.Name, g.Encoder(cfg).Space(), 8, 1, 16)
	if err != nil {
		t.Fatal(err)
	}
	net, err := neural.NewInit(arch, rules.NewRNG(5))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wp := filepath.Join(dir, "w.safetensors")
	if err := net.Save(wp, map[string]string{"params": "{}", "run": "test-game", "encoding": "0"}); err != nil {
		t.Fatal(err)
	}
	rep, err := export.Export(wp, filepath.Join(dir, "out"), export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bot := filepath.Join(dir, "out", "four_square_bot.py")
	if _, err := os.Stat(bot); err != nil {
		t.Fatalf("export wrote %v: %v", rep.Files, err)
	}
	hosted, err := host.NewPython(g.Name, bot, "", host.Options{Limit: 10 * time.Second, Log: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer hosted.Close()
	gop, err := neural.NewAgent(net, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	// The hosted bot plays seat 0 against "first"; at each of its turns its
	// answer must be the Go policy's greedy move.
	st := g.New(cfg)
	first, _ := agents.Lookup(g.Name, "first")
	opp := first.New()
	rng := rules.NewRNG(1)
	hosted.Reset(st, 0, rules.NewRNG(2))
	gop.Reset(st, 0, nil)
	opp.Reset(st, 1, rules.NewRNG(3))
	moves := make([]rules.Move, 2)
	asked := 0
	for !st.Done() {
		moves[0], moves[1] = rules.Move{}, rules.Move{}
		if st.Active(0) {
			want := gop.Act(st)
			moves[0] = hosted.Act(st)
			asked++
			if moves[0] != want {
				t.Fatalf("step %d: the exported bot played %+v, the Go policy %+v", st.Steps(), moves[0], want)
			}
		} else {
			moves[1] = opp.Act(st)
		}
		st.Step(moves, rng)
	}
	if ev := hosted.Events(); ev.Answered != asked || asked == 0 {
		t.Fatalf("events %+v after %d moves asked", ev, asked)
	}
}

// The test game trains from the default config in its own folder
// (train/default.yaml, declared on its registration): one PPO iteration
// against its scripted bot, with a checkpoint and an evaluation.
func TestTestGameTrains(t *testing.T) {
	cfg, err := train.DefaultConfig(foursquare.Name)
	if err != nil {
		t.Fatal(err)
	}
	res, err := train.Run(t.Context(), cfg, train.Options{Dir: t.TempDir(), Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations != 1 || res.Checkpoint == "" || math.IsNaN(res.Last.EvalWin) {
		t.Fatalf("run %+v: want 1 iteration, a checkpoint and an evaluation", res)
	}
}
