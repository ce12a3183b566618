package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules/rulestest"
	"github.com/gridgym/gridgym/train"
)

// train --init fine-tunes a weights file: checkpoint 0 is that file's
// network bit for bit, the run's config takes the file's shape over its own
// network section and its play settings, and behaviour cloning is skipped
// with a line that says so.
func TestTrainInit(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(cfg, []byte(tinyRun), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "1 iterations (PPO)", "train", "--config", cfg, "--iterations", "1", "--out", filepath.Join(dir, "base"), "-q")
	base := filepath.Join(dir, "base/checkpoints/iter-000001/weights.safetensors")
	mustRun(t, "temp 3", "weights", "play", base, "--temperature", "3", "--temp-steps", "2")

	// Another shape and a warm start in the config: --init overrides both.
	other := strings.Replace(tinyRun, "network: {filters: 4, layers: 1, hidden: 8}", "network: {filters: 6, layers: 2, hidden: 8}", 1)
	other = strings.Replace(other, "bc: {samples: 0}", "bc: {samples: 50, teacher: simplebot}", 1)
	cfg2 := filepath.Join(dir, "other.yaml")
	if err := os.WriteFile(cfg2, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	ft := filepath.Join(dir, "ft")
	out := mustRun(t, "behaviour cloning (bc.samples 50) skipped", "train", "--config", cfg2, "--init", base, "--iterations", "1", "--out", ft, "-q")
	if !strings.Contains(out, "1 iterations (PPO)") {
		t.Errorf("no PPO iteration:\n%s", out)
	}
	want, _, err := neural.Load(base)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := neural.Load(filepath.Join(ft, "checkpoints/iter-000000/weights.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Arch != want.Arch {
		t.Fatalf("checkpoint 0's shape %+v, want --init's %+v", got.Arch, want.Arch)
	}
	for i := range want.Values {
		if !slices.Equal(got.Values[i], want.Values[i]) {
			t.Fatalf("checkpoint 0's %s differs from --init's", want.Params[i].Name)
		}
	}
	rc, err := train.LoadConfig(filepath.Join(ft, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if n := rc.Network; n.Filters != 4 || n.Layers != 1 || rc.BC.Samples != 0 {
		t.Errorf("the run's config: network %+v, bc.samples %d; want the file's 4×1 and 0", n, rc.BC.Samples)
	}
	if p := rc.Play; p.Temperature != 3 || p.Steps != 2 {
		t.Errorf("the run's play settings %+v, want the file's temperature 3, steps 2", p)
	}
}

// --init's refusals: a missing file, another game's weights, --resume.
func TestTrainInitRefusals(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(cfg, []byte(tinyRun), 0o644); err != nil {
		t.Fatal(err)
	}
	fixture := rulestest.Policy(t, "four-square")
	cases := []refusal{
		{[]string{"train", "--config", cfg, "--init", filepath.Join(dir, "missing.safetensors"), "--out", filepath.Join(dir, "a")}, "no such file"},
		{[]string{"train", "--config", cfg, "--init", fixture, "--out", filepath.Join(dir, "b")}, "weights of four-square, the run trains slime"},
		{[]string{"train", "--resume", "--init", fixture, "--out", filepath.Join(dir, "c")}, "not with --resume"},
	}
	checkRefusals(t, cases)
}

// warnAsymmetric: a warning for a network that plays another policy in a
// symmetric frame (the shipped Nuggets network: policy distance 0.04–0.05),
// none for one whose greedy moves differ on ties only (the random Nuggets
// fixture, distance < 0.01) or that cannot differ (all weights zero: the
// uniform policy in every frame).
func TestWarnAsymmetric(t *testing.T) {
	net, _, err := neural.Load(filepath.Join("..", "..", "models", "nuggets", "final.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := train.DefaultConfig("nuggets")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	warnAsymmetric(&b, net, "fixture", cfg)
	if !strings.Contains(b.String(), "is not equivariant") || !strings.Contains(b.String(), "ppo.augment: false") {
		t.Errorf("no warning for the fixture: %q", b.String())
	}
	zero := net.Clone()
	for _, v := range zero.Values {
		clear(v)
	}
	fixture, _, err := neural.Load(rulestest.Policy(t, "nuggets"))
	if err != nil {
		t.Fatal(err)
	}
	for name, n := range map[string]*neural.Net{"zero": zero, "fixture": fixture} {
		b.Reset()
		warnAsymmetric(&b, n, name, cfg)
		if b.Len() != 0 {
			t.Errorf("a warning for the %s network: %q", name, b.String())
		}
	}
}

// train --init from a network without a game parameter's extra planes
// (Bovine Borders' frontier_planes) starts from that network grown by
// neural.WithPlanes, with a line that says so.
func TestTrainInitGrowsPlanes(t *testing.T) {
	dir := t.TempDir()
	tiny := `game: bovine-borders
iterations: 1
minutes: 0
network: {filters: 4, layers: 1, hidden: 8, coords: true}
envs: 2
decisions: 40
max_episode_steps: 20
opponents: {scripted: [greedy], pool_every: 1, pool_size: 2}
ppo: {epochs: 1, minibatch: 32}
bc: {samples: 0}
eval: {every: 0}
checkpoint_every: 1
workers: 1
`
	cfg, cfg2 := filepath.Join(dir, "base.yaml"), filepath.Join(dir, "planes.yaml")
	os.WriteFile(cfg, []byte(tiny), 0o644)
	os.WriteFile(cfg2, []byte("params: {frontier_planes: \"true\"}\n"+tiny), 0o644)
	mustRun(t, "1 iterations (PPO)", "train", "--config", cfg, "--out", filepath.Join(dir, "base"), "-q")
	base := filepath.Join(dir, "base/checkpoints/iter-000001/weights.safetensors")
	ft := filepath.Join(dir, "ft")
	mustRun(t, "sees 10 planes, the run's game 12: the new planes start with zero weights", "train", "--config", cfg2, "--init", base, "--out", ft, "-q")
	from, _, err := neural.Load(base)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := neural.Load(filepath.Join(ft, "checkpoints/iter-000000/weights.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := from.WithPlanes(got.Arch)
	if err != nil || got.Arch.Planes != 12 {
		t.Fatalf("checkpoint 0: %d planes (%v)", got.Arch.Planes, err)
	}
	for i := range want.Values {
		if !slices.Equal(got.Values[i], want.Values[i]) {
			t.Fatalf("checkpoint 0's %s is not the grown --init's", want.Params[i].Name)
		}
	}
}
