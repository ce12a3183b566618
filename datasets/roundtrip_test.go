package datasets_test

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/rules"
)

// TestRoundTripEveryGame writes random episodes of every registered game,
// reads them back, and checks that the rows are equal, that observations
// rebuilt from the stored state equal the env's at the time, and that the
// shard validates.
func TestRoundTripEveryGame(t *testing.T) {
	for gi, g := range rules.Games() {
		t.Run(g.Name, func(t *testing.T) {
			if g.Encoder == nil {
				t.Fatalf("game %s has no encoder", g.Name)
			}
			cfg := testConfig(t, g)
			meta := testMeta(t, cfg, 3)
			eps := generate(t, cfg, 4, 3, true)
			dir := t.TempDir()
			// Small batches so that batches straddle episodes; every other
			// game compresses on two goroutines.
			st := writeEpisodes(t, dir, meta, datasets.WriterOptions{BatchRows: 97, CompressWorkers: 1 + gi%2}, eps)
			var want []datasets.Row
			for _, ep := range eps {
				want = append(want, ep.rows...)
			}
			done := 0
			for _, ep := range eps {
				if ep.rows[len(ep.rows)-1].Done {
					done++
				}
			}
			if _, short := shortParams[g.Name]; short && done == 0 {
				t.Errorf("no episode ended by the rules; shortParams should make them end within %d steps", maxEpisode)
			}
			if st.Rows != int64(len(want)) || st.Episodes != 4 || st.Shards != 1 || st.Bytes <= 0 {
				t.Errorf("stats %+v, want %d rows, 4 episodes, 1 shard, some bytes", st, len(want))
			}

			files, err := datasets.Files(dir)
			if err != nil || len(files) != 1 {
				t.Fatalf("Files = %v, %v; want one shard", files, err)
			}
			r, err := datasets.Open(files[0])
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got := r.Meta(); !reflect.DeepEqual(got, meta) {
				t.Errorf("meta read back\n%+v\nwant\n%+v", got, meta)
			}
			if r.NumRows() != int64(len(want)) {
				t.Errorf("NumRows = %d, want %d", r.NumRows(), len(want))
			}
			if r.NumBatches() != (len(want)+96)/97 {
				t.Errorf("NumBatches = %d, want %d", r.NumBatches(), (len(want)+96)/97)
			}

			obs, err := r.Observer()
			if err != nil {
				t.Fatal(err)
			}
			sp := obs.Space()
			planes, scalars := make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars)
			i := 0
			var flat []struct {
				p []uint8
				s []float32
			}
			for _, ep := range eps {
				for k := range ep.rows {
					flat = append(flat, struct {
						p []uint8
						s []float32
					}{ep.planes[k], ep.scalars[k]})
				}
			}
			err = r.Each(func(row datasets.Row) error {
				if i >= len(want) {
					t.Fatalf("more rows than written")
				}
				if d := sameRow(row, want[i]); d != "" {
					t.Fatalf("row %d differs: %s", i, d)
				}
				if err := obs.Observe(row, planes, scalars); err != nil {
					t.Fatal(err)
				}
				// slices.Equal: a game without scalars has an empty
				// slice here and a nil one from the env.
				if !bytes.Equal(planes, flat[i].p) || !slices.Equal(scalars, flat[i].s) {
					t.Fatalf("row %d (episode %d step %d seat %d): observation rebuilt from the state differs from the env's",
						i, row.EpisodeID, row.Step, row.Seat)
				}
				i++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if i != len(want) {
				t.Fatalf("read %d rows, wrote %d", i, len(want))
			}

			rep, err := datasets.Validate(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.OK() {
				var b bytes.Buffer
				rep.WriteText(&b)
				t.Errorf("a freshly written shard does not validate:\n%s", b.String())
			}
		})
	}
}

// TestParamsRoundTrip parses Config.String() back for every game's default
// config (Nuggets' decay_table holds ',' and '=' is never ambiguous) and for
// a changed Nuggets config.
func TestParamsRoundTrip(t *testing.T) {
	type tc struct {
		game string
		vals map[string]string
	}
	cases := []tc{{"nuggets", map[string]string{"decay_table": "101-200:5,4,2,1,0;1-100:9,8,7,6,5", "invalid_query": "pass", "build_moves": "150"}}}
	for _, g := range rules.Games() {
		cases = append(cases, tc{g.Name, nil})
	}
	for _, c := range cases {
		g, err := rules.Lookup(c.game)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := g.Configure(c.vals)
		if err != nil {
			t.Fatal(err)
		}
		meta := datasets.Meta{Game: g.Name, Params: cfg.String()}
		back, err := meta.Config()
		if err != nil {
			t.Fatalf("%s: %v", cfg.String(), err)
		}
		if back.String() != cfg.String() {
			t.Errorf("%s: parsed back as %s", cfg.String(), back.String())
		}
		for k, v := range c.vals {
			if back.Get(k) != v {
				t.Errorf("%s: %s = %q, want %q", g.Name, k, back.Get(k), v)
			}
		}
	}
	// Errors.
	g, _ := rules.Lookup("nuggets")
	for _, bad := range []string{"nosuch=1", "setup_moves=1,setup_moves=2", "=3"} {
		if _, err := datasets.ParseParams(g, bad); err == nil {
			t.Errorf("ParseParams(%q) accepted", bad)
		}
	}
}

// TestSchema checks the column layout for one and several heads, and that
// MetaFromSchema inverts Schema.
func TestSchema(t *testing.T) {
	for _, heads := range []int{1, 4} {
		m := datasets.Meta{SchemaVersion: 1, RunID: "r", Game: "g", Params: "a=1,b=x,y", Seed: 1 << 63,
			Agents: []string{"x", "y\"z"}, CodeVersion: "v", StateWords: 3, MaskWords: 2, Heads: heads, Reward: "score"}
		s, err := datasets.Schema(m)
		if err != nil {
			t.Fatal(err)
		}
		var cols []string
		for _, f := range s.Fields() {
			cols = append(cols, f.Name)
		}
		want := []string{"game", "run_id", "episode_id", "step", "seat", "state", "action", "move", "legal",
			"reward", "done", "truncated", "policy_logp", "value", "agent"}
		if heads > 1 {
			want = append(want[:7], append([]string{"action_heads"}, want[7:]...)...)
		}
		if !reflect.DeepEqual(cols, want) {
			t.Errorf("heads %d: columns %v, want %v", heads, cols, want)
		}
		back, err := datasets.MetaFromSchema(s)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, m) {
			t.Errorf("heads %d: meta %+v, want %+v", heads, back, m)
		}
		if err := datasets.CheckSchema(s, m); err != nil {
			t.Error(err)
		}
		m2 := m
		m2.StateWords = 4
		if err := datasets.CheckSchema(s, m2); err == nil {
			t.Error("CheckSchema accepted a schema of other widths")
		}
	}
	if _, err := datasets.Schema(datasets.Meta{SchemaVersion: 1, Game: "g", RunID: "r", StateWords: 1, MaskWords: 1, Heads: 1}); err == nil {
		t.Error("Schema accepted a meta without agents")
	}
}
