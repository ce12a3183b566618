package datasets_test

import (
	"fmt"
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/env"
	_ "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
)

// shortParams shortens some games so that random episodes end by the rules
// within a test's budget; games not listed run with their defaults and are
// truncated at maxEpisode steps.
var shortParams = map[string]map[string]string{
	"nuggets":   {"setup_moves": "4", "build_moves": "10"},
	"slime":     {"max_turns": "30"},
	"rectangle": {"max_moves": "30", "idle_limit": "15"},
}

const maxEpisode = 40

// testConfig returns the configuration the round-trip tests play g with.
func testConfig(t testing.TB, g *rules.Game) rules.Config {
	cfg, err := g.Configure(shortParams[g.Name])
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// episode is one generated episode: its rows and, per row, the observation
// the env produced for the row's seat before the step.
type episode struct {
	rows    []datasets.Row
	planes  [][]uint8
	scalars [][]float32
}

var testAgents = []string{"random-a", "random-b", "policy"}

// testMeta describes shards of cfg.
func testMeta(t testing.TB, cfg rules.Config, seed uint64) datasets.Meta {
	g := cfg.Game()
	enc := g.Encoder(cfg)
	sp := enc.Space()
	return datasets.Meta{
		SchemaVersion: datasets.SchemaVersion,
		RunID:         fmt.Sprintf("test-%s-%d", g.Name, seed),
		Game:          g.Name,
		Params:        cfg.String(),
		Seed:          seed,
		Agents:        testAgents,
		CodeVersion:   "test",
		StateWords:    len(g.New(cfg).AppendWords(nil)),
		MaskWords:     sp.MaskWords(),
		Heads:         sp.Heads,
		Reward:        "rank",
		Created:       time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.UTC),
	}
}

// generate plays random legal actions in an env batch of cfg (two envs,
// episodes truncated at maxEpisode steps; NoObs unless keepObs) and returns the first n complete
// episodes as rows, with the env's observations. Seat s of env i is played
// by testAgents[(i+s)%3]; rows of agent "policy" carry LogP and Value.
func generate(t testing.TB, cfg rules.Config, n int, seed uint64, keepObs bool) []episode {
	return generateMax(t, cfg, n, seed, keepObs, maxEpisode)
}

// generateMax is generate with episodes truncated at maxSteps steps.
func generateMax(t testing.TB, cfg rules.Config, n int, seed uint64, keepObs bool, maxSteps int) []episode {
	t.Helper()
	const envs = 2
	v, err := env.New(env.Config{Game: cfg, N: envs, Seed: seed, Workers: 1, MaxSteps: maxSteps, NoObs: !keepObs})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	v.Reset(seed)
	enc := v.Encoder()
	seats, heads, mw := v.Seats, v.Space.Heads, v.Space.MaskWords()
	obsN, ns := v.Space.ObsSize(), v.Space.Scalars
	rng := rules.NewRNG(seed ^ 0xabcdef)
	actions := make([]int32, envs*seats*heads)
	cur := make([]episode, envs)
	ids := make([]uint64, envs)
	nextID := uint64(seed * 1000)
	for i := range ids {
		ids[i] = nextID
		nextID++
	}
	var out []episode
	for len(out) < n {
		for k := range actions {
			actions[k] = -1
		}
		v.SampleActions(rng, actions)
		firsts := make([]int, envs)
		for i := 0; i < envs; i++ {
			st := v.State(i)
			words := st.AppendWords(nil)
			firsts[i] = len(cur[i].rows)
			for s := 0; s < seats; s++ {
				k := i*seats + s
				row := datasets.Row{
					EpisodeID: ids[i],
					Step:      v.Steps[i],
					Seat:      uint8(s),
					State:     words,
					Action:    append([]int32(nil), actions[k*heads:(k+1)*heads]...),
					Legal:     append([]uint64(nil), v.Mask[k*mw:(k+1)*mw]...),
					Agent:     testAgents[(i+s)%len(testAgents)],
				}
				if v.Active[k] {
					row.Move = enc.Decode(st, s, row.Action)
				}
				if row.Agent == "policy" {
					row.HasPolicy = true
					row.LogP = -float32(rng.U(1000)) / 100
					row.Value = float32(rng.U(2001)-1000) / 1000
				}
				cur[i].rows = append(cur[i].rows, row)
				if keepObs {
					cur[i].planes = append(cur[i].planes, append([]uint8(nil), v.Obs[k*obsN:(k+1)*obsN]...))
					cur[i].scalars = append(cur[i].scalars, append([]float32(nil), v.Scalars[k*ns:(k+1)*ns]...))
				}
			}
		}
		v.Step(actions)
		for i := 0; i < envs; i++ {
			for s := 0; s < seats; s++ {
				r := &cur[i].rows[firsts[i]+s]
				r.Reward = v.Reward[i*seats+s]
				r.Done, r.Truncated = v.Terminated[i], v.Truncated[i]
			}
			if v.Terminated[i] || v.Truncated[i] {
				out = append(out, cur[i])
				cur[i] = episode{}
				ids[i] = nextID
				nextID++
			}
		}
	}
	return out[:n]
}

// writeEpisodes writes eps into dir with a fresh Writer and closes it.
func writeEpisodes(t testing.TB, dir string, meta datasets.Meta, opts datasets.WriterOptions, eps []episode) datasets.WriterStats {
	t.Helper()
	w, err := datasets.NewWriter(dir, meta, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range eps {
		if err := w.WriteEpisode(ep.rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.Stats()
}

// readAll reads every row under path (cloned).
func readAll(t testing.TB, path string) []datasets.Row {
	t.Helper()
	var rows []datasets.Row
	err := datasets.EachRow(path, func(_ datasets.Meta, r datasets.Row) error {
		rows = append(rows, r.Clone())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// names returns the base names of the entries of dir.
func names(t testing.TB, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// sameRow compares two rows field by field (NaN-free floats compared
// exactly) and describes the first difference.
func sameRow(a, b datasets.Row) string {
	switch {
	case a.EpisodeID != b.EpisodeID || a.Step != b.Step || a.Seat != b.Seat:
		return fmt.Sprintf("key (%d,%d,%d) vs (%d,%d,%d)", a.EpisodeID, a.Step, a.Seat, b.EpisodeID, b.Step, b.Seat)
	case !slices.Equal(a.State, b.State):
		return "state"
	case !slices.Equal(a.Action, b.Action):
		return fmt.Sprintf("action %v vs %v", a.Action, b.Action)
	case a.Move != b.Move:
		return fmt.Sprintf("move %+v vs %+v", a.Move, b.Move)
	case !slices.Equal(a.Legal, b.Legal):
		return "legal"
	case math.Float32bits(a.Reward) != math.Float32bits(b.Reward):
		return fmt.Sprintf("reward %v vs %v", a.Reward, b.Reward)
	case a.Done != b.Done || a.Truncated != b.Truncated:
		return "done/truncated"
	case a.HasPolicy != b.HasPolicy || a.LogP != b.LogP || a.Value != b.Value:
		return fmt.Sprintf("policy (%v %v %v) vs (%v %v %v)", a.HasPolicy, a.LogP, a.Value, b.HasPolicy, b.LogP, b.Value)
	case a.Agent != b.Agent:
		return fmt.Sprintf("agent %q vs %q", a.Agent, b.Agent)
	}
	return ""
}

// shardRows returns the row count of every shard under dir.
func shardRows(t testing.TB, dir string) []int64 {
	t.Helper()
	files, err := datasets.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, f := range files {
		r, err := datasets.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r.NumRows())
		r.Close()
	}
	return out
}
