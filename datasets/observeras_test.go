package datasets_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/rules"
)

// Shards played without an observation parameter (rules.Param.Observation)
// are encoded with it by NewObserverAs exactly as an env configured with it
// observed the same positions; a parameter the rules read must match.
func TestObserverAs(t *testing.T) {
	n := 0
	for _, g := range rules.Games() {
		for _, p := range g.Params {
			if !p.Observation || p.Kind != rules.Bool {
				continue
			}
			n++
			t.Run(g.Name+"/"+p.Name, func(t *testing.T) {
				vals := map[string]string{}
				for k, v := range shortParams[g.Name] {
					vals[k] = v
				}
				played := testConfig(t, g)
				vals[p.Name] = "true"
				with, err := g.Configure(vals)
				if err != nil {
					t.Fatal(err)
				}
				eps := generate(t, with, 2, 5, true) // the env's observations with the parameter
				dir := t.TempDir()
				writeEpisodes(t, dir, testMeta(t, played, 5), datasets.WriterOptions{}, eps)
				files, err := datasets.Files(dir)
				if err != nil || len(files) != 1 {
					t.Fatal(files, err)
				}
				r, err := datasets.Open(files[0])
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				obs, err := datasets.NewObserverAs(r.Meta(), with)
				if err != nil {
					t.Fatal(err)
				}
				sp := obs.Space()
				if sp.Planes != g.Encoder(with).Space().Planes || sp.Planes == g.Encoder(played).Space().Planes {
					t.Fatalf("%d planes: want the parameter's encoder", sp.Planes)
				}
				planes, scalars := make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars)
				i := 0
				err = r.Each(func(row datasets.Row) error {
					ep, k := eps[0], i
					if k >= len(ep.rows) {
						ep, k = eps[1], k-len(ep.rows)
					}
					if err := obs.Observe(row, planes, scalars); err != nil {
						return err
					}
					if !bytes.Equal(planes, ep.planes[k]) || !slices.Equal(scalars, ep.scalars[k]) {
						t.Fatalf("row %d: the observation differs from the env's with %s", i, p.Name)
					}
					i++
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				for _, q := range g.Params {
					if q.Observation || q.Kind != rules.Bool {
						continue
					}
					vals[q.Name] = map[bool]string{true: "false", false: "true"}[played.Bool(q.Name)]
					other, err := g.Configure(vals)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := datasets.NewObserverAs(r.Meta(), other); err == nil {
						t.Errorf("%s differs from the shards' and is read by the rules: want an error", q.Name)
					}
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("no game has a boolean observation parameter: the test proves nothing")
	}
}
