package train

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run that stopped before its first checkpoint (its folder has
// config.yaml and metrics.csv, no "latest") can be started again in the
// same folder: --resume says so instead of "start it again", and a plain
// start runs there, logging that it starts again, and ends like a run in a
// fresh folder. A folder with a checkpoint is still refused (issue 56,
// item 8: the folder had to be deleted by hand).
func TestStartAgainAfterNoCheckpoint(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.Iterations = 1
	cfg.Eval.Every = 0
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.MkdirAll(filepath.Join(dir, "checkpoints"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), cfg.YAML(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "metrics.csv"), []byte(metricsHeader()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), cfg, Options{Dir: dir, Resume: true})
	if err == nil || !strings.Contains(err.Error(), "without --resume") {
		t.Fatalf("resume of a run without a checkpoint: %v, want it to say to run without --resume", err)
	}
	var logged []string
	log := func(f string, a ...any) { logged = append(logged, f) }
	res, err := Run(context.Background(), cfg, Options{Dir: dir, Log: log})
	if err != nil {
		t.Fatalf("starting again in the same folder: %v", err)
	}
	if res.Checkpoint == "" || !strings.Contains(strings.Join(logged, "\n"), "starting it again") {
		t.Errorf("checkpoint %q, log %q: want a checkpoint and a note that it starts again", res.Checkpoint, logged)
	}
	if _, err := Run(context.Background(), cfg, Options{Dir: dir}); err == nil || !strings.Contains(err.Error(), "pass --resume") {
		t.Errorf("a new run over a folder with a checkpoint: %v, want it refused", err)
	}
}
