package train

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules"
)

// actorsConfig is tinyConfig with one actor per worker on workers workers
// (envs_per_worker 2) and the rollout played ahead (ppo.overlap).
func actorsConfig(t *testing.T, workers int) Config {
	cfg := tinyConfig(t)
	cfg.Workers, cfg.EnvsPerWorker, cfg.PPO.Overlap = workers, 2, true
	cfg.Opponents.PFSP = true
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// With envs_per_worker every worker is an actor of its own games and its
// share of the decisions, at least envs games in all; the joined buffer
// links each decision only forward, inside the buffer, and holds at least
// the iteration's decisions.
func TestActorsShareTheGames(t *testing.T) {
	cfg := actorsConfig(t, 3)
	cfg.Envs = 7
	tr := collected(t, cfg, 1)
	if len(tr.actors) != 3 {
		t.Fatalf("%d actors for 3 workers", len(tr.actors))
	}
	games, decisions := 0, 0
	for _, a := range tr.actors {
		games += a.v.N
		decisions += a.decisions
		if a.v.N < 2 {
			t.Errorf("an actor of %d games, want at least envs_per_worker 2", a.v.N)
		}
	}
	if games != 7 || decisions != cfg.Decisions {
		t.Errorf("%d games, %d decisions shared out; want max(envs 7, 2·3) = 7 and %d", games, decisions, cfg.Decisions)
	}
	b := &tr.buf
	if b.len() < cfg.Decisions {
		t.Fatalf("%d decisions, want at least %d", b.len(), cfg.Decisions)
	}
	for i, j := range b.next {
		if j >= 0 && (int(j) <= i || int(j) >= b.len()) {
			t.Fatalf("decision %d links to %d of %d", i, j, b.len())
		}
	}
	if n, g := cfg.actorCount(1); n != 1 || g != 7 {
		t.Errorf("one worker: %d actors of %d games, want 1 of envs 7", n, g)
	}
	cfg.EnvsPerWorker = 0
	if n, g := cfg.actorCount(3); n != 1 || g != 7 {
		t.Errorf("envs_per_worker 0: %d actors of %d games, want 1 of envs 7", n, g)
	}
}

// With ppo.overlap, iteration 2's rollout is played during iteration 1's
// update with the network as it was before it, whatever the update does
// meanwhile: its buffer is bit for bit the rollout of iteration 2 played by
// a trainer whose network never changed.
func TestOverlapPlaysWithTheFrozenPolicy(t *testing.T) {
	cfg := actorsConfig(t, 2)
	tr, err := newTrainer(cfg, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.close()
	var m Metrics
	if _, ok := tr.play(context.Background(), 1, &m); !ok || tr.ahead == nil || tr.ahead.it != 2 {
		t.Fatalf("play 1: ok %v, ahead %+v: want iteration 2's rollout under way", ok, tr.ahead)
	}
	for _, v := range tr.net.Values { // the update, as far as the actors can tell
		for i := range v {
			v[i] *= 1.5
		}
	}
	if _, ok := tr.play(context.Background(), 2, &m); !ok {
		t.Fatal("play 2 stopped")
	}
	tr.dropAhead()

	ref, err := newTrainer(cfg, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.close()
	if _, ok := ref.collect(context.Background(), rules.IterationStream(cfg.Seed, 2, rules.CollectPhase), 2, &m); !ok {
		t.Fatal("collect stopped")
	}
	a, b := &tr.buf, &ref.buf
	if !slices.Equal(a.logp, b.logp) || !slices.Equal(a.actions, b.actions) || !slices.Equal(a.planes, b.planes) ||
		!slices.Equal(a.reward, b.reward) || !slices.Equal(a.next, b.next) || !slices.Equal(a.value, b.value) {
		t.Fatalf("the rollout played ahead (%d decisions) differs from iteration 2's with the frozen policy (%d)", a.len(), b.len())
	}
}

// A run of actors playing ahead, interrupted after iteration 2 and
// resumed, ends bit-identical to the run uninterrupted: the rollouts do not
// depend on timing, and a checkpoint keeps the policy and pool of the
// rollout under way.
func TestOverlapResumeEqualsUninterrupted(t *testing.T) {
	for _, target := range []string{"gae", "vtrace"} {
		t.Run(target, func(t *testing.T) {
			cfg := actorsConfig(t, 2)
			cfg.PPO.Target = target
			testResume(t, cfg, Options{})
		})
	}
}

// opponents.table seats exactly its bots beside the learner in every
// episode (the learner rotated through the seats), each of them in every
// other seat over the episodes; a table of the wrong size, one beside self
// or past seats, or an unknown bot is refused with the field's name.
func TestOpponentsTable(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.Opponents.Self, cfg.Opponents.Past, cfg.Opponents.Clone = 0, 0, 0
	cfg.Opponents.Table = []string{"greedy", "simplebot", "random"}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	tr := collected(t, cfg, 1)
	a := tr.actors[0]
	rng := rules.NewRNG(7)
	where := map[string]map[int]bool{}
	for ep := 0; ep < 64; ep++ {
		a.seatEpisode(0, ep, rng)
		var others []string
		for s, sa := range a.pl.actors[0] {
			if s == ep%4 {
				if sa.kind != byLearner {
					t.Fatalf("episode %d: seat %d is %s, want the learner", ep, s, sa.label)
				}
				continue
			}
			if sa.kind != byScripted || sa.bot == nil {
				t.Fatalf("episode %d: seat %d is %s (kind %d), want a bot of the table", ep, s, sa.label, sa.kind)
			}
			others = append(others, sa.label)
			if where[sa.label] == nil {
				where[sa.label] = map[int]bool{}
			}
			where[sa.label][s] = true
		}
		if !slices.Equal(slices.Sorted(slices.Values(others)), []string{"greedy", "random", "simplebot"}) {
			t.Fatalf("episode %d: the other seats %v, want the table's bots once each", ep, others)
		}
	}
	for name, seats := range where {
		if len(seats) != 4 {
			t.Errorf("%s sat in seats %v over 64 episodes, want every seat", name, seats)
		}
	}
	for _, c := range []struct {
		table             []string
		self, past, share float64
		want              string
	}{
		{[]string{"greedy", "simplebot"}, 0, 0, 0, "opponents.table: 2 bots, want exactly 3"},
		{[]string{"greedy", "simplebot", "random"}, 0.2, 0, 0, "set opponents.self, past and clone to 0"},
		{[]string{"greedy", "simplebot", "random"}, 0.2, 0, 1, "set opponents.self, past and clone to 0"},
		{[]string{"greedy", "simplebot", "nosuch"}, 0, 0, 0, `opponents.table: unknown bot "nosuch"`},
		{[]string{"greedy", "simplebot", "random"}, 0.2, 0, 1.5, "opponents.table_share = 1.5: want 0..1"},
		{nil, 0.2, 0, 0.5, "opponents.table_share = 0.5: it needs opponents.table"},
	} {
		bad := tinyConfig(t)
		bad.Opponents.Self, bad.Opponents.Past, bad.Opponents.Clone = c.self, c.past, 0
		bad.Opponents.Table, bad.Opponents.TableShare = c.table, c.share
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("table %v, self %g, share %g: %v, want %q", c.table, c.self, c.share, err, c.want)
		}
	}
}

// opponents.table_share seats the table in about that share of the
// episodes, and the others draw their seats as without a table (here
// self-play or the one scripted bot, which alone can never make up the
// table); beside self-play a share of 0 or 1 is refused above.
func TestOpponentsTableShare(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.Opponents.Self, cfg.Opponents.Past, cfg.Opponents.Clone = 0.5, 0, 0
	cfg.Opponents.Scripted = []string{"random"}
	cfg.Opponents.Table = []string{"greedy", "simplebot", "random"}
	cfg.Opponents.TableShare = 0.25
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	tr := collected(t, cfg, 1)
	a := tr.actors[0]
	rng := rules.NewRNG(11)
	const episodes = 800
	tables, selfSeats := 0, 0
	for ep := 0; ep < episodes; ep++ {
		a.seatEpisode(0, ep, rng)
		var others []string
		for s, sa := range a.pl.actors[0] {
			if s == ep%4 {
				continue
			}
			if sa.kind == byLearner {
				selfSeats++
			}
			others = append(others, sa.label)
		}
		slices.Sort(others)
		if slices.Equal(others, []string{"greedy", "random", "simplebot"}) {
			tables++
			continue
		}
		for _, l := range others {
			if l != "learner" && l != "random" {
				t.Fatalf("episode %d away from the table seats %v, want only self-play and random", ep, others)
			}
		}
	}
	if share := float64(tables) / episodes; share < 0.2 || share > 0.3 {
		t.Errorf("the table sat in %d of %d episodes (%.3f), want about 0.25", tables, episodes, share)
	}
	// away from the table, each seat is self-play with probability 0.5
	if away := 3 * (episodes - tables); selfSeats < away*4/10 || selfSeats > away*6/10 {
		t.Errorf("%d self-play seats of %d away from the table, want about half", selfSeats, away)
	}
}

// With continue_cut a game cut at max_episode_steps is played on by the
// next rollout from where it stands, and each piece is scored by the change
// of the learner seat's terminal reward over it: the last decision of a
// piece carries the reward at its cut (or the game's end) less the reward
// at the position it started from, so the pieces of a game add up to the
// game's own terminal reward.
func TestContinueCutScoresEachPieceByItsChange(t *testing.T) {
	cfg := tinyConfigOf(t, "slime")
	cfg.Envs, cfg.Decisions, cfg.MaxEpisodeSteps, cfg.ContinueCut = 1, 1, 7, true
	cfg.Opponents.Self, cfg.Opponents.Past = 0, 0
	cfg.PPO.Shaping = 0
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	tr, err := newTrainer(cfg, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.close)
	a := tr.actors[0]
	v := a.v
	mode, _ := cfg.RewardMode()
	out := rules.NewOutcome(v.Seats)
	var hbuf []uint64
	hash := func() uint64 {
		var h uint64
		h, hbuf = rules.Hash(v.State(0), hbuf)
		return h
	}
	v.Reset(0)
	start := hash()
	cuts, ends, carried := 0, 0, 0
	for it := 1; it <= 60; it++ {
		before := slices.Clone(a.base)
		cut, at := a.cut[0], hash()
		a.resetGames(uint64(it))
		if cut && hash() != at || !cut && hash() != start {
			t.Fatalf("iteration %d (cut %v): the rollout's game is not the cut game or a new one", it, cut)
		}
		var m Metrics
		if _, ok := tr.collect(context.Background(), rules.NewRNG(uint64(it)), it, &m); !ok {
			t.Fatal("collect stopped without a reason")
		}
		learner := -1
		for s := 0; s < v.Seats; s++ {
			if a.pl.actors[0][s].kind == byLearner {
				learner = s
			}
		}
		copy(out.Points, v.FinalPoints)
		copy(out.Score, v.FinalScore)
		var done []int
		for i, d := range tr.buf.done {
			if d {
				done = append(done, i)
			}
		}
		if len(done) != 1 || learner < 0 {
			t.Fatalf("iteration %d: %d ended pieces, learner seat %d; want one piece of one env", it, len(done), learner)
		}
		if a.out.episodes > 1 { // a piece before it gave the learner no decision (its seat out, or the game over at once)
			continue
		}
		want := env.TerminalReward(mode, out, learner, v.Space.ScoreScale) - before[learner]
		if got := float64(tr.buf.reward[done[0]]); math.Abs(got-want) > 1e-6 {
			t.Fatalf("iteration %d: the piece's reward %v, want its change %v (base %v, trunc %v term %v, learner %d, points %v)", it, got, want, before, v.Truncated[0], v.Terminated[0], learner, v.FinalPoints)
		}
		if a.cut[0] != v.Truncated[0] {
			t.Fatalf("iteration %d: cut %v, the env truncated %v", it, a.cut[0], v.Truncated[0])
		}
		for s := 0; s < v.Seats; s++ {
			want := 0.0
			if v.Truncated[0] {
				want = env.TerminalReward(mode, out, s, v.Space.ScoreScale)
			}
			if a.base[s] != want {
				t.Fatalf("iteration %d: seat %d's base %v, want %v", it, s, a.base[s], want)
			}
		}
		switch {
		case v.Truncated[0]:
			cuts++
		default:
			ends++
		}
		if cut && before[learner] != 0 && a.out.episodes == 1 {
			carried++
		}
	}
	if cuts == 0 || ends == 0 || carried == 0 {
		t.Fatalf("%d cuts, %d game ends, %d pieces checked from a cut with a ranking: the test saw too little", cuts, ends, carried)
	}
	t.Logf("%d cuts, %d game ends, %d pieces checked from a cut with a ranking", cuts, ends, carried)
}
