package selfplay

import (
	"context"
	"fmt"
	"hash"
	"hash/fnv"
	"maps"
	"math"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/env"
	_ "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

// Every game: the run's shards validate, hold the rows it counted, the
// stored masks equal the masks rebuilt from the stored states, and each
// step's rows carry one state for all seats.
func TestRunWritesValidShards(t *testing.T) {
	for _, g := range rules.Games() {
		t.Run(g.Name, func(t *testing.T) {
			dir := t.TempDir()
			names := agents.Names(g.Name)
			cfg := Config{Game: g.Default(), Agents: names, Envs: 4, Steps: 1200, Seed: 3, Workers: 2, Out: dir, RowsPerShard: 2000, MaxEpisode: 150}
			st, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if st.Rows == 0 || st.Episodes == 0 || st.Shards == 0 {
				t.Fatalf("nothing written: %+v", st)
			}
			rep, err := datasets.Validate(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.OK() || rep.Rows != st.Rows || rep.Episodes != st.Episodes {
				t.Fatalf("validate: %+v (run wrote %d rows, %d episodes)", rep, st.Rows, st.Episodes)
			}
			var obs *datasets.Observer
			var mask []uint64
			rows := int64(0)
			agentsSeen := map[string]bool{}
			err = datasets.EachRow(dir, func(m datasets.Meta, r datasets.Row) error {
				if obs == nil {
					if obs, err = datasets.NewObserver(m); err != nil {
						return err
					}
					mask = make([]uint64, m.MaskWords)
				}
				if err := obs.Mask(r, mask); err != nil {
					return err
				}
				if fmt.Sprint(mask) != fmt.Sprint(r.Legal) {
					return fmt.Errorf("episode %d step %d seat %d: stored mask differs from the mask of the stored state", r.EpisodeID, r.Step, r.Seat)
				}
				agentsSeen[r.Agent] = true
				rows++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			seats := g.New(cfg.Game).Spec().Seats
			if rows != st.Rows || len(agentsSeen) < min(len(names), seats) {
				t.Fatalf("read %d rows of agents %v, wrote %d rows of %v", rows, agentsSeen, st.Rows, names)
			}
			for a := range agentsSeen {
				if _, err := agents.Lookup(g.Name, a); err != nil {
					t.Fatalf("rows name agent %q: %v", a, err)
				}
			}
		})
	}
}

// Same seed, same shards' content.
func TestRunDeterministic(t *testing.T) {
	g, _ := rules.Lookup("rising-tide")
	sum := func(workers int) string {
		dir := t.TempDir()
		_, err := Run(context.Background(), Config{Game: g.Default(), Agents: []string{"trench_tunis", "random"}, Envs: 3, Steps: 900, Seed: 5, Workers: workers, Out: dir})
		if err != nil {
			t.Fatal(err)
		}
		var h uint64
		datasets.EachRow(dir, func(_ datasets.Meta, r datasets.Row) error {
			h = h*1000003 ^ r.EpisodeID<<40 ^ uint64(r.Step)<<8 ^ uint64(r.Seat) ^ uint64(r.Action[0]) ^ uint64(int64(r.Reward*1000))
			for _, w := range r.State {
				h = h*31 + w
			}
			return nil
		})
		return fmt.Sprint(h)
	}
	if a, b := sum(1), sum(1); a != b {
		t.Fatalf("two runs with the same seed differ")
	}
	// With two workers the episodes are the same; only their order may differ.
	count := func(workers int) (n int64) {
		dir := t.TempDir()
		st, err := Run(context.Background(), Config{Game: g.Default(), Agents: []string{"trench_tunis", "random"}, Envs: 3, Steps: 900, Seed: 5, Workers: workers, Out: dir})
		if err != nil {
			t.Fatal(err)
		}
		return st.Rows*1000 + st.Episodes
	}
	if a, b := count(1), count(2); a != b {
		t.Fatalf("1 and 2 workers write different amounts: %d vs %d", a, b)
	}
}

// Every env's episodes depend only on (Seed, env index), not on the worker
// that plays it (each worker's envs run on their own env.Vec, env i seeded
// with rules.EnvStream(Seed, i)): one worker and three write the same
// episodes, row for row, in every game.
func TestRunSameEpisodesAnyWorkers(t *testing.T) {
	for _, g := range rules.Games() {
		t.Run(g.Name, func(t *testing.T) {
			episodes := func(workers int) map[uint64]uint64 {
				dir := t.TempDir()
				cfg := Config{Game: g.Default(), Agents: agents.Names(g.Name), Envs: 5, Steps: 1000, Seed: 8,
					Workers: workers, Out: dir, MaxEpisode: 60, Reward: env.RewardScore}
				if _, err := Run(context.Background(), cfg); err != nil {
					t.Fatal(err)
				}
				hs := map[uint64]hash.Hash64{}
				err := datasets.EachRow(dir, func(_ datasets.Meta, r datasets.Row) error {
					if hs[r.EpisodeID] == nil {
						hs[r.EpisodeID] = fnv.New64a()
					}
					hashRow(hs[r.EpisodeID], r)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				out := map[uint64]uint64{}
				for id, h := range hs {
					out[id] = h.Sum64()
				}
				return out
			}
			one, three := episodes(1), episodes(3)
			if len(one) < 5 || !maps.Equal(one, three) {
				t.Fatalf("%d episodes with one worker, %d with three; the same: %v", len(one), len(three), maps.Equal(one, three))
			}
		})
	}
}

// With Shaping, a row's reward is Shaping·(Φ(next state) − Φ(its state)) of
// its seat (RewardNone: nothing else), checked against the potential of the
// stored states; the last row of an episode is checked by the meta only. The
// game's own potential (Nuggets) and one chosen by name (Bovine Borders'
// frontier).
func TestRunShapingRewards(t *testing.T) {
	for _, tc := range []struct {
		game, potential, meta string
		maxEpisode            int
	}{
		{"nuggets", "", "none+shaping 2", 0},
		{"bovine-borders", "frontier", "none+shaping 2 frontier", 150},
	} {
		t.Run(tc.game, func(t *testing.T) {
			g, _ := rules.Lookup(tc.game)
			dir := t.TempDir()
			cfg := Config{Game: g.Default(), Agents: []string{"greedy", "random"}, Envs: 2, Steps: 600, Seed: 4, Workers: 1,
				Out: dir, Reward: env.RewardNone, Shaping: 2, Potential: tc.potential, MaxEpisode: tc.maxEpisode}
			if _, err := Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			pot, err := rules.PotentialOf(g.Encoder(cfg.Game), tc.potential)
			if err != nil {
				t.Fatal(err)
			}
			st := g.New(cfg.Game)
			type key struct {
				ep   uint64
				seat uint8
			}
			prev := map[key]datasets.Row{}
			checked, nonzero := 0, 0
			err = datasets.EachRow(dir, func(m datasets.Meta, r datasets.Row) error {
				if m.Reward != tc.meta {
					return fmt.Errorf("meta reward %q, want %q", m.Reward, tc.meta)
				}
				k := key{r.EpisodeID, r.Seat}
				if p, ok := prev[k]; ok {
					if err := st.SetWords(p.State); err != nil {
						return err
					}
					before := pot.Potential(st, int(r.Seat))
					if err := st.SetWords(r.State); err != nil {
						return err
					}
					want := 2 * (pot.Potential(st, int(r.Seat)) - before)
					if math.Abs(float64(p.Reward)-want) > 1e-5 {
						return fmt.Errorf("episode %d step %d seat %d: reward %v, want %v", p.EpisodeID, p.Step, p.Seat, p.Reward, want)
					}
					checked++
					if p.Reward != 0 {
						nonzero++
					}
				}
				prev[k] = r
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if checked < 1000 || nonzero < 100 {
				t.Fatalf("checked %d rewards, %d of them non-zero", checked, nonzero)
			}
		})
	}
}

func TestRunBadConfig(t *testing.T) {
	g, _ := rules.Lookup("slime")
	for _, cfg := range []Config{
		{Game: g.Default(), Agents: []string{"random"}, Envs: 0, Steps: 10},
		{Game: g.Default(), Agents: []string{"random"}, Envs: 1, Steps: 0},
		{Game: g.Default(), Agents: []string{"nobody"}, Envs: 1, Steps: 10},
	} {
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("Run(%+v) accepted", cfg)
		}
	}
}

// A cancelled run keeps its finished episodes and leaves valid shards only.
func TestRunCancelled(t *testing.T) {
	g, _ := rules.Lookup("bovine-borders")
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	st, err := Run(ctx, Config{Game: g.Default(), Agents: []string{"defensive_dan_heng", "random_raven"}, Envs: 4, Steps: 1 << 40, Seed: 1, Out: dir, MaxEpisode: 40,
		Progress: func(s Stats) {
			if n++; s.Episodes > 0 {
				cancel()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := datasets.Validate(dir)
	if err != nil || !rep.OK() || rep.Rows != st.Rows || st.Rows == 0 {
		t.Fatalf("after cancel: %+v, %v (run: %+v)", rep, err, st)
	}
}

// BenchmarkSelfplay: env steps per second with scripted agents on all cores,
// with and without writing shards (the cost of writing is the difference).
// An op is 500000 env steps (2 million rows with four seats): long enough
// that the last record batch, which Close compresses with nothing left to
// overlap it, is a small part of the run. Compare write=false and
// write=true over several -count runs: the machine's speed drifts.
func BenchmarkSelfplay(b *testing.B) {
	for _, g := range rules.Games() {
		for _, write := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/write=%v", g.Name, write), func(b *testing.B) {
				var steps, rows, bytes int64
				for i := 0; i < b.N; i++ {
					out := ""
					if write {
						out = b.TempDir()
					}
					st, err := Run(context.Background(), Config{Game: g.Default(), Agents: agents.Names(g.Name), Envs: 16, Steps: 500000, Seed: uint64(i), Out: out, MaxEpisode: 500})
					if err != nil {
						b.Fatal(err)
					}
					steps += st.Steps
					rows += st.Rows
					bytes += st.Bytes
				}
				b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
				b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
				if write {
					b.ReportMetric(float64(bytes)/float64(max(rows, 1)), "bytes/row")
				}
			})
		}
	}
}

// LZ4 shards (the faster codec) validate like zstd ones; a bad codec is refused.
func TestRunCompression(t *testing.T) {
	g, _ := rules.Lookup("slime")
	dir := t.TempDir()
	st, err := Run(context.Background(), Config{Game: g.Default(), Agents: []string{"simplebot"}, Envs: 2, Steps: 600, Out: dir, Compression: "lz4"})
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := datasets.Validate(dir); err != nil || !rep.OK() || rep.Rows != st.Rows {
		t.Fatalf("lz4 shards: %+v %v", rep, err)
	}
	if _, err := Run(context.Background(), Config{Game: g.Default(), Agents: []string{"simplebot"}, Envs: 1, Steps: 10, Out: t.TempDir(), Compression: "gzip"}); err == nil {
		t.Fatal("compression gzip accepted")
	}
}

// Self-play allocates nothing per row: the allocations of a run grow with
// its episodes (each seat's agent and its generator), not with its rows.
// Measured as the extra allocations of a run twice as long, per extra row
// (before the reused episode buffers: 2.3 per row for slime).
func TestRunAllocationsPerRow(t *testing.T) {
	g, _ := rules.Lookup("slime")
	run := func(steps int64) (allocs float64, rows int64) {
		allocs = testing.AllocsPerRun(1, func() {
			st, err := Run(context.Background(), Config{Game: g.Default(), Agents: agents.Names(g.Name), Envs: 4, Steps: steps, Seed: 2, Workers: 1, MaxEpisode: 200})
			if err != nil {
				t.Fatal(err)
			}
			rows = st.Rows
		})
		return allocs, rows
	}
	a1, r1 := run(20000)
	a2, r2 := run(40000)
	if r2-r1 < 10000 {
		t.Fatalf("the longer run wrote %d rows, the shorter %d", r2, r1)
	}
	per := (a2 - a1) / float64(r2-r1)
	if per > 0.05 {
		t.Fatalf("%.3f allocations per row (%v allocations for %d rows, %v for %d)", per, a1, r1, a2, r2)
	}
	t.Logf("%.4f allocations per row (%v allocations for %d rows, %v for %d)", per, a1, r1, a2, r2)
}

// A Labeler's rows hold its label as the action and its played move as
// the move (agents.Dagger: DAgger's data): random_rizhao plays, pass_perth
// labels, so every action is the pass while the moves are not; the other
// agents' rows keep their own moves as actions. A spec behind a label
// (LABEL=SPEC) is named by its label in the rows and the metadata.
func TestRunRecordsALabelersLabel(t *testing.T) {
	g, err := rules.Lookup("rising-tide")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// Behind a label, as DAgger's data names the teacher's rows: the rows
	// and the shards' metadata name the label.
	const dagger = "pass_perth"
	cfg := Config{Game: g.Default(), Agents: []string{dagger + "=dagger:pass_perth:random_rizhao", "wall_warsaw"}, Envs: 2, Steps: 400, Seed: 1, Workers: 1, Out: dir, MaxEpisode: 100}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	var labelled, moved, other, otherPass int
	err = datasets.EachRow(dir, func(_ datasets.Meta, r datasets.Row) error {
		if r.Action[0] < 0 {
			return nil // an inactive seat
		}
		switch r.Agent {
		case dagger:
			labelled++
			if r.Action[0] != risingtide.PassAction {
				return fmt.Errorf("step %d: action %d, want the label (pass)", r.Step, r.Action[0])
			}
			if r.Move.Kind != rules.Pass {
				moved++
			}
		default:
			other++
			if r.Action[0] == risingtide.PassAction {
				otherPass++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if labelled < 100 || moved < labelled*9/10 || other < 100 || otherPass > other/10 {
		t.Fatalf("%d labelled rows, %d of them moved; %d other rows, %d of them passes", labelled, moved, other, otherPass)
	}
}
