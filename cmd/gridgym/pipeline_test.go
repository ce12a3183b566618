package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// startHog runs a child process that keeps every core busy until the test
// ends (TestMain's GRIDGYM_TEST_HOG branch).
func startHog(t *testing.T) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GRIDGYM_TEST_HOG=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
}

// hog spins on every core forever.
func hog() {
	for i := 0; i < runtime.NumCPU(); i++ {
		go func() {
			x := 0
			for {
				x++
			}
		}()
	}
	select {}
}

// The pipeline ends with a bot and a table within its stated time even
// with every core taken by another process (issue 27: under load it failed
// 2 of 3 times with "training stopped before its first checkpoint").
func TestPipelineUnderLoadYieldsABot(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the pipeline for 12 s")
	}
	startHog(t)
	dir := t.TempDir()
	t0 := time.Now()
	// A stand-in runner: building cmd/slimebot (export's own tests build
	// and run it) took most of this test's 2 minutes at load 16.
	runner := filepath.Join(t.TempDir(), "runner")
	if err := os.WriteFile(runner, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := run("pipeline", "--game", "slime", "--minutes", "0.2", "--games", "4", "--heldout-games", "2", "-q", "--out", dir, "--runner", runner)
	took := time.Since(t0)
	if err != nil {
		t.Fatalf("pipeline: %v\n%s", err, out)
	}
	for _, w := range []string{"== 1/4 train", "== 2/4 export", "== 3/4 held-out: 2 games against each of 4 held-out bots (never trained against), in 2 companies", "beside simplebot, simplebot", "in every company", "surveyor", "margin a game [95%]", "== 4/4 evaluate", "trained", "1st", "submit: "} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	for _, f := range []string{"bot/weights.safetensors", "bot/slime_bot.py", "run/checkpoints/iter-000000/weights.safetensors", "heldout/reference/surveyor/report.md", "heldout/field/surveyor/report.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// The command it prints for the run's learning curve runs as printed.
	hint := regexp.MustCompile(`(?m)^the run's learning curve against them: gridgym (heldout .*)$`).FindStringSubmatch(out)
	if hint == nil {
		t.Errorf("no learning-curve command in the output:\n%s", out)
	} else if cout, err := run(append(strings.Fields(hint[1]), "-n", "2", "-q")...); err != nil || !strings.Contains(cout, "surveyor") || !strings.Contains(cout, "curve: ") {
		t.Errorf("%s: %v\n%s", hint[1], err, cout)
	}
	// How long it took under load is logged, not judged (a verdict on
	// wall time would depend on the machine): what must hold is that the
	// capped training still leaves checkpoint 0 and the rest follows.
	t.Logf("pipeline under load: %v\n%s", took, out)
}
