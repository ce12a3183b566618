package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gridgym/gridgym/internal/s3test"
	"github.com/gridgym/gridgym/store"
)

// tinyRun is a training config that runs in well under a second.
const tinyRun = `game: slime
iterations: 2
minutes: 0
network: {filters: 4, layers: 1, hidden: 8}
envs: 4
decisions: 60
max_episode_steps: 60
opponents: {scripted: [simplebot], pool_every: 1, pool_size: 2}
ppo: {epochs: 1, minibatch: 32}
bc: {samples: 0}
eval: {every: 2, games: 2, baselines: [simplebot]}
checkpoint_every: 1
workers: 1
`

func mustRun(t *testing.T, want string, args ...string) string {
	t.Helper()
	t0 := time.Now()
	out, err := run(args...)
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	if !strings.Contains(out, want) {
		t.Fatalf("%v: output lacks %q:\n%s", args, want, out)
	}
	t.Logf("%s: %.2fs", args[0], time.Since(t0).Seconds())
	return out
}

func mustExist(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("missing %s", p)
		}
	}
}

// locationFlow runs every command that reads or writes shards, weights,
// run folders, reports or replays against locations made by at (a path
// under the test's store → its location); check maps such a path to the
// local folder where it can be looked at ("" for a remote store).
func locationFlow(t *testing.T, at func(string) string, check func(string) string) {
	cfg := filepath.Join(t.TempDir(), "tiny.yaml")
	os.WriteFile(cfg, []byte(tinyRun), 0o644)
	run1 := at("runs/r1")

	// train --out LOCATION, then --resume from it
	out := mustRun(t, "2 iterations (PPO)", "train", "--config", cfg, "--out", run1, "-q")
	want := store.Join(run1, "checkpoints/iter-000002/weights.safetensors") // a remote run's URL
	if d := check("runs/r1"); d != "" {
		want = filepath.Join(d, "checkpoints/iter-000002/weights.safetensors") // a local one's path
	}
	if !strings.Contains(out, want) {
		t.Errorf("train names its weights %s:\n%s", want, out)
	}
	mustRun(t, "2 iterations", "train", "--resume", "--out", run1, "-q")
	if d := check("runs/r1"); d != "" {
		mustExist(t, filepath.Join(d, "latest"), filepath.Join(d, "config.yaml"), filepath.Join(d, "metrics.csv"),
			filepath.Join(d, "losses.png"), filepath.Join(d, "pool"), filepath.Join(d, "checkpoints/iter-000001/optim.safetensors"),
			filepath.Join(d, "checkpoints/iter-000002/weights.safetensors"))
	}

	// bots at a location: a run folder and one weights object
	weights := store.Join(run1, "checkpoints/iter-000001/weights.safetensors")
	mustRun(t, "points", "play", "-g", "slime", "-b", weights+",random")
	mustRun(t, "replay", "tournament", "-g", "slime", "-b", run1+",simplebot", "-n", "2", "-q",
		"--report", at("report"), "--replays", "1")
	if d := check("report"); d != "" {
		mustExist(t, filepath.Join(d, "report.md"), filepath.Join(d, "games.jsonl"), filepath.Join(d, "replays/replay-0000.jsonl"))
	}
	mustRun(t, "outcome", "replay", store.Join(at("report"), "replays/replay-0000.jsonl"), "--step", "-1")

	// export --checkpoint LOCATION --out LOCATION
	mustRun(t, "slime_bot.py", "export", "--checkpoint", run1, "--out", at("bot"), "--no-binary")
	if d := check("bot"); d != "" {
		mustExist(t, filepath.Join(d, "weights.safetensors"), filepath.Join(d, "slime_bot.py"))
	}

	// selfplay --agents with a bot at a location, --out LOCATION; datasets
	mustRun(t, "1 shards", "selfplay", "-g", "slime", "-a", run1+",random", "--envs", "2", "--steps", "300",
		"--max-episode", "30", "--workers", "1", "-q", "-o", at("shards"))
	mustRun(t, ": ok", "datasets", "validate", at("shards"))
	mustRun(t, "Parquet", "datasets", "export", at("shards"), "--out", at("parquet"))
	if d := check("parquet"); d != "" {
		mustExist(t, filepath.Join(d, "shard-000000.parquet"))
	}

	// behaviour cloning from shards at a location
	bc := strings.Replace(tinyRun, "bc: {samples: 0}", "bc: {samples: 200, epochs: 1, minibatch: 32, teacher: random}", 1)
	os.WriteFile(cfg, []byte(bc), 0o644)
	mustRun(t, "behaviour cloning", "train", "--config", cfg, "--shards", at("shards"), "--clone-only", "--out", at("runs/bc"), "-q")
	if d := check("runs/bc"); d != "" {
		mustExist(t, filepath.Join(d, "checkpoints/iter-000000/weights.safetensors"))
	}

	// Failures name the location.
	for _, args := range [][]string{
		{"replay", at("nope/replay-0000.jsonl")},
		{"play", "-g", "slime", "-b", at("nope")},
		{"export", "--checkpoint", at("nope"), "--out", at("bot2")},
		{"datasets", "export", at("nope")},
	} {
		_, err := run(args...)
		// s3://bucket/nope (its query aside), or the path of file:///…/nope
		name := strings.TrimPrefix(strings.SplitN(at("nope"), "?", 2)[0], "file://")
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%v: error %v should name the location", args, err)
		}
	}
}

// Every command's file arguments accept file:// URLs.
func TestFileURLs(t *testing.T) {
	root := t.TempDir()
	locationFlow(t,
		func(p string) string { return "file://" + filepath.ToSlash(filepath.Join(root, p)) },
		func(p string) string { return filepath.Join(root, p) })
	// A file:// datasets export without --out goes beside its input.
	mustRun(t, "Parquet", "datasets", "export", "file://"+filepath.Join(root, "shards"))
	mustExist(t, filepath.Join(root, "shards-parquet", "shard-000000.parquet"))
}

// The same against a real S3-compatible server: everything goes through
// the bucket (checked by listing it), nothing stays in temporary folders.
func TestS3URLs(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an S3 server")
	}
	t0 := time.Now()
	srv := s3test.Start(t)
	srv.SetEnv(t)
	t.Logf("s3rver up in %.1fs", time.Since(t0).Seconds())
	before, _ := filepath.Glob(filepath.Join(os.TempDir(), "gridgym-*load-*"))
	locationFlow(t, srv.URL, func(string) string { return "" })
	ctx := context.Background()
	s, err := store.Open(ctx, srv.URL(""))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	objs, err := s.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, o := range objs {
		have[o.Key] = true
	}
	for _, k := range []string{"runs/r1/latest", "runs/r1/config.yaml", "runs/r1/metrics.csv", "runs/r1/winrate.png",
		"runs/r1/checkpoints/iter-000002/weights.safetensors", "runs/r1/checkpoints/iter-000002/optim.safetensors",
		"report/report.html", "report/replays/replay-0000.jsonl", "bot/slime_bot.py", "bot/weights.safetensors",
		"parquet/shard-000000.parquet", "runs/bc/checkpoints/iter-000000/weights.safetensors"} {
		if !have[k] {
			t.Errorf("bucket lacks %s", k)
		}
	}
	if after, _ := filepath.Glob(filepath.Join(os.TempDir(), "gridgym-*load-*")); len(after) > len(before) {
		t.Errorf("temporary folders left: %v (before: %v)", after, before)
	}
	t.Logf("total %.1fs", time.Since(t0).Seconds())
}

// A run with an exit section says it ran Expert Iteration, not PPO.
func TestTrainNamesExpertIteration(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "exit.yaml")
	exit := tinyRun + "exit: {expert: \"search:greedy@8:depth=2\", decisions: 20, policy_coef: 1, value_coef: 0.5, policy: value}\n"
	if err := os.WriteFile(cfg, []byte(exit), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, "2 iterations (Expert Iteration)", "train", "--config", cfg, "--out", filepath.Join(t.TempDir(), "run"), "-q")
	if strings.Contains(out, "PPO") {
		t.Errorf("an Expert Iteration run's summary names PPO:\n%s", out)
	}
}
