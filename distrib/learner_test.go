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

// smallRun is a distributed run of seconds on Slime in a test's temporary
// folder: a tiny network, its published versions in pub, an actor's
// shards in shards.
type smallRun struct {
	ctx         context.Context
	pub, shards string
	cfg         train.Config
	log         func(format string, args ...any) // the learner's warnings, if set
}

func newSmallRun(t *testing.T) *smallRun {
	t.Helper()
	dir := t.TempDir()
	cfg, err := train.DefaultConfig("slime")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Network.Filters, cfg.Network.Layers, cfg.Network.Hidden = 4, 1, 8
	return &smallRun{ctx: context.Background(), pub: filepath.Join(dir, "pub"), shards: filepath.Join(dir, "shards"), cfg: cfg}
}

// learner runs a learner of r with lc's budget.
func (r *smallRun) learner(t *testing.T, lc distrib.LearnerConfig) distrib.LearnerStats {
	t.Helper()
	lc.Train, lc.Shards, lc.Publish, lc.Poll, lc.Log = r.cfg, r.shards, r.pub, 20*time.Millisecond, r.log
	st, err := distrib.RunLearner(r.ctx, lc)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// act publishes v0 (a learner's first moment) and has an actor play
// several shards with it.
func (r *smallRun) act(t *testing.T) distrib.ActorStats {
	t.Helper()
	r.learner(t, distrib.LearnerConfig{Minutes: 0.001})
	game, err := r.cfg.RulesConfig()
	if err != nil {
		t.Fatal(err)
	}
	ast, err := distrib.RunActor(r.ctx, distrib.ActorConfig{Weights: r.pub, Out: r.shards, Game: game,
		Envs: 2, RoundSteps: 100, Steps: 300, Seed: 3, Workers: 1, MaxEpisode: 50})
	if err != nil {
		t.Fatal(err)
	}
	if ast.Shards < 2 {
		t.Fatalf("actor uploaded %d shards, want several", ast.Shards)
	}
	return ast
}

// A resumed learner does not learn again from the shards it learned from
// before it stopped: it publishes v0, an actor plays shards with it, a
// second run learns them all (v1) and lists them in learner-seen.txt, and a
// third run, resuming from v1 with those v0 shards still well within
// MaxStale, takes none of them.
func TestLearnerResumeSkipsLearnedShards(t *testing.T) {
	r := newSmallRun(t)
	ast := r.act(t)
	st := r.learner(t, distrib.LearnerConfig{Versions: 1, MinShards: ast.Shards, MaxWait: time.Minute})
	if st.Version != 1 || st.Shards != ast.Shards {
		t.Fatalf("second run: %+v, want v1 from all %d shards", st, ast.Shards)
	}
	s, err := store.Open(r.ctx, r.pub)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b, err := s.Get(r.ctx, "learner-seen.txt")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(b))); n != ast.Shards {
		t.Fatalf("learner-seen.txt lists %d shards, want %d:\n%s", n, ast.Shards, b)
	}
	st = r.learner(t, distrib.LearnerConfig{Minutes: 0.02, MinShards: 1, MaxWait: time.Millisecond})
	if st.Shards != 0 || st.Dropped != 0 || st.Version != 1 {
		t.Fatalf("resumed run took shards it had learned: %+v", st)
	}
}
