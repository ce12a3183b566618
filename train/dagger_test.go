package train

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/rules"
)

// bc.dagger rounds: in round k the network as cloned so far plays the
// teacher's seat (its greedy move is the row's move) while the row's action
// is the teacher's answer, and the network is cloned again on every round's
// decisions (more samples than one round's, a new network each round). Two
// runs with the same seed give the same weights, whatever the workers'
// order.
func TestDaggerRounds(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.BC = BCConfig{Teacher: "simplebot", Opponents: []string{"random"}, Samples: 200, Epochs: 2, LR: 0.01, Minibatch: 32, Dagger: 2}
	cfg.MaxEpisodeSteps = 30
	cfg.Workers = 2
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	var finals [2]*neural.Net
	var dir string
	for i := range finals {
		dir = filepath.Join(t.TempDir(), "run")
		res, err := Run(context.Background(), cfg, Options{Dir: dir, CloneOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.BC.Dagger != 2 || res.BC.Samples <= 2*cfg.BC.Samples {
			t.Fatalf("cloning %+v: want round 2's clone, on more than two rounds' %d decisions", res.BC, cfg.BC.Samples)
		}
		if finals[i], _, err = neural.Load(res.Checkpoint); err != nil {
			t.Fatal(err)
		}
	}
	if !sameWeights(finals[0], finals[1]) {
		t.Fatal("two DAgger runs with the same seed differ")
	}
	players := make([]*neural.Net, 3)
	for k := 1; k <= 2; k++ {
		p := filepath.Join(dir, "dagger", fmt.Sprintf("round-%d", k), "player.safetensors")
		var err error
		if players[k], _, err = neural.Load(p); err != nil {
			t.Fatal(err)
		}
		played, labelled := daggerRows(t, cfg.Game, p, filepath.Join(dir, "dagger", fmt.Sprintf("round-%d", k), "shards"))
		if played < 50 || labelled < played/20 {
			t.Errorf("round %d: %d teacher-seat rows played by the round's network, %d of them labelled with another move", k, played, labelled)
		}
	}
	if sameWeights(players[1], players[2]) || sameWeights(players[2], finals[0]) {
		t.Error("the network was not cloned again after a round")
	}
	if n, err := datasets.Files(filepath.Join(dir, "dagger", "all")); err != nil || len(n) < 3 {
		t.Fatalf("dagger/all: %v, %v: want the first clone's shards and both rounds'", n, err)
	}
}

// daggerRows checks the teacher seat's rows of a DAgger round's shards: each
// move is the greedy move of the round's network (player), and it counts
// them and those whose action (the teacher's label) decodes to another move.
func daggerRows(t *testing.T, game, player, shards string) (played, labelled int) {
	t.Helper()
	e, err := agents.Lookup(game, player)
	if err != nil {
		t.Fatal(err)
	}
	var obs *datasets.Observer
	err = datasets.EachRow(shards, func(meta datasets.Meta, r datasets.Row) error {
		if r.Agent != "simplebot" || slices.Contains(r.Action, -1) {
			return nil
		}
		if obs == nil {
			if obs, err = datasets.NewObserver(meta); err != nil {
				return err
			}
		}
		st, err := obs.State(r)
		if err != nil {
			return err
		}
		a := e.New()
		a.Reset(st, int(r.Seat), rules.NewRNG(1))
		if m := a.Act(st); m != r.Move {
			return fmt.Errorf("episode %d step %d: move %v, the round's network plays %v", r.EpisodeID, r.Step, r.Move, m)
		}
		played++
		if obs.Encoder().Decode(st, int(r.Seat), r.Action) != r.Move {
			labelled++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return played, labelled
}

func sameWeights(a, b *neural.Net) bool {
	for p := range a.Values {
		if !slices.Equal(a.Values[p], b.Values[p]) {
			return false
		}
	}
	return true
}

// bc.dagger needs a teacher bot to ask: shards alone are refused, with the
// field named.
func TestDaggerNeedsATeacher(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.BC = BCConfig{Shards: os.TempDir(), Samples: 100, Epochs: 1, LR: 0.01, Minibatch: 32, Dagger: 1}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "bc.dagger") {
		t.Fatalf("dagger without a teacher: %v", err)
	}
	cfg.BC.Teacher, cfg.BC.Dagger = "simplebot", 21
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "bc.dagger") {
		t.Fatalf("21 rounds: %v", err)
	}
}

// copyShard, linkShards' fallback where a hard link is refused (another
// file system), writes the same bytes.
func TestCopyShard(t *testing.T) {
	dir := t.TempDir()
	want := []byte("ARROW1 not really, but any bytes\x00\x01")
	from, to := filepath.Join(dir, "a.arrow"), filepath.Join(dir, "b.arrow")
	if err := os.WriteFile(from, want, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := copyShard(from, to); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(to); err != nil || !slices.Equal(got, want) {
		t.Fatalf("copy: %q, %v", got, err)
	}
	if err := copyShard(filepath.Join(dir, "missing.arrow"), to); err == nil {
		t.Fatal("copy of a missing file: no error")
	}
}
