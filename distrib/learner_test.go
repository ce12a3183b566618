package distrib_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gridgym/gridgym/distrib"
	"github.com/gridgym/gridgym/store"
	"github.com/gridgym/gridgym/train"
)

// A resumed learner does not learn again from the shards it learned from
// before it stopped: it publishes v0, an actor plays shards with it, a
// second run learns them all (v1) and lists them in learner-seen.txt, and a
// third run, resuming from v1 with those v0 shards still well within
// MaxStale, takes none of them.
func TestLearnerResumeSkipsLearnedShards(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	pub, shards := filepath.Join(dir, "pub"), filepath.Join(dir, "shards")
	cfg, err := train.DefaultConfig("slime")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Network.Filters, cfg.Network.Layers, cfg.Network.Hidden = 4, 1, 8
	learner := func(lc distrib.LearnerConfig) distrib.LearnerStats {
		t.Helper()
		lc.Train, lc.Shards, lc.Publish, lc.Poll = cfg, shards, pub, 20*time.Millisecond
		st, err := distrib.RunLearner(ctx, lc)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	learner(distrib.LearnerConfig{Minutes: 0.001}) // publishes v0
	game, err := cfg.RulesConfig()
	if err != nil {
		t.Fatal(err)
	}
	ast, err := distrib.RunActor(ctx, distrib.ActorConfig{Weights: pub, Out: shards, Game: game,
		Envs: 2, RoundSteps: 100, Steps: 300, Seed: 3, Workers: 1, MaxEpisode: 50})
	if err != nil {
		t.Fatal(err)
	}
	if ast.Shards < 2 {
		t.Fatalf("actor uploaded %d shards, want several", ast.Shards)
	}
	st := learner(distrib.LearnerConfig{Versions: 1, MinShards: ast.Shards, MaxWait: time.Minute})
	if st.Version != 1 || st.Shards != ast.Shards {
		t.Fatalf("second run: %+v, want v1 from all %d shards", st, ast.Shards)
	}
	s, err := store.Open(ctx, pub)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b, err := s.Get(ctx, "learner-seen.txt")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(b))); n != ast.Shards {
		t.Fatalf("learner-seen.txt lists %d shards, want %d:\n%s", n, ast.Shards, b)
	}
	st = learner(distrib.LearnerConfig{Minutes: 0.02, MinShards: 1, MaxWait: time.Millisecond})
	if st.Shards != 0 || st.Dropped != 0 || st.Version != 1 {
		t.Fatalf("resumed run took shards it had learned: %+v", st)
	}
}
