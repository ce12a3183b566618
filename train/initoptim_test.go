package train

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
)

// optimState reads checkpoint folder cp's Adam step count and its first
// parameter's first moment.
func optimState(t *testing.T, cp string) (steps float32, m []float32) {
	t.Helper()
	ts, err := OptimizerState(cp)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range ts {
		switch {
		case x.Name == "t":
			steps = x.Data[0]
		case m == nil && strings.HasPrefix(x.Name, "m."):
			m = x.Data
		}
	}
	return steps, m
}

// A fresh run given Options.InitOptim starts Adam from that checkpoint's
// moments and step count (a league round continuing the last one), where
// a run without it starts from zeros; a folder without optimiser state is
// refused with the option's name.
func TestInitOptimContinuesAdam(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.Iterations, cfg.Eval.Every = 2, 0
	first := filepath.Join(t.TempDir(), "first")
	if _, err := Run(context.Background(), cfg, Options{Dir: first}); err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(first, "checkpoints", "iter-000002")
	net, _, err := neural.Load(filepath.Join(cp, "weights.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	steps, _ := optimState(t, cp)
	if steps <= 0 {
		t.Fatalf("the first run's optimiser took %v steps", steps)
	}
	again := func(opt Options) (float32, []float32) {
		opt.Dir, opt.Init = filepath.Join(t.TempDir(), "next"), net
		if _, err := Run(context.Background(), cfg, opt); err != nil {
			t.Fatal(err)
		}
		return optimState(t, filepath.Join(opt.Dir, "checkpoints", "iter-000002"))
	}
	fresh, mf := again(Options{})
	cont, mc := again(Options{InitOptim: cp})
	if fresh != steps || cont != 2*steps {
		t.Errorf("step counts: fresh %v, continued %v; want %v and %v", fresh, cont, steps, 2*steps)
	}
	same := true
	for i := range mf {
		same = same && mf[i] == mc[i]
	}
	if same {
		t.Error("the continued run's first moments equal the fresh run's: the checkpoint's were not loaded")
	}
	_, err = Run(context.Background(), cfg, Options{Dir: filepath.Join(t.TempDir(), "bad"), Init: net, InitOptim: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "initial optimiser state") {
		t.Errorf("a folder without optim.safetensors: err %v", err)
	}
}
