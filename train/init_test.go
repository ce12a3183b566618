package train

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// Options.Init: a fresh run starts from a copy of the given network —
// checkpoint 0 is that network, value for value, whatever the config's
// network section says — and the caller's network is left as it was.
func TestRunStartsFromInit(t *testing.T) {
	game := "four-square"
	init, _, err := neural.Load(rulestest.Policy(t, game))
	if err != nil {
		t.Fatal(err)
	}
	before := init.Clone()
	cfg := tinyConfigOf(t, game)
	cfg.Iterations, cfg.Workers = 1, 1
	cfg.Network = NetworkConfig{Filters: 2, Layers: 1, Hidden: 3} // not the fixture's shape: Init wins
	dir := t.TempDir()
	res, err := Run(context.Background(), cfg, Options{Dir: dir, Init: init})
	if err != nil {
		t.Fatal(err)
	}
	cp0, _, err := neural.Load(filepath.Join(dir, "checkpoints", checkpointName(0), "weights.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if cp0.Arch != init.Arch {
		t.Fatalf("checkpoint 0 has shape %+v, want Init's %+v", cp0.Arch, init.Arch)
	}
	for i := range cp0.Values {
		if !slices.Equal(cp0.Values[i], before.Values[i]) {
			t.Fatalf("checkpoint 0's %s differs from Init's", cp0.Params[i].Name)
		}
	}
	last, _, err := neural.Load(res.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	changed := false
	for i := range last.Values {
		changed = changed || !slices.Equal(last.Values[i], before.Values[i])
		if !slices.Equal(init.Values[i], before.Values[i]) {
			t.Fatalf("the run changed the caller's network (%s)", init.Params[i].Name)
		}
	}
	if !changed {
		t.Fatal("an iteration of PPO left Init's values as they were")
	}
}
