package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gridgym/gridgym/datasets"
)

// TestMain lets a test run the CLI as a child process (to kill it).
func TestMain(m *testing.M) {
	if os.Getenv("GRIDGYM_TEST_HOG") != "" {
		hog()
	}
	if args := os.Getenv("GRIDGYM_TEST_ARGS"); args != "" {
		root := newRoot()
		root.SetArgs(strings.Fields(args))
		if err := root.Execute(); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startSelfplay runs `gridgym selfplay` on rising-tide into dir as a child
// process, endless, rolling shards over every 3000 rows, and waits until at
// least shards shards are finished.
func startSelfplay(t *testing.T, dir string, shards int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GRIDGYM_TEST_ARGS=selfplay -g rising-tide -a trench_tunis,random --envs 8 --steps 1000000000 --shard-rows 3000 -q -o "+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		files, _ := filepath.Glob(filepath.Join(dir, "shard-*.arrow"))
		if len(files) >= shards {
			return cmd
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no %d shards within 60 s", shards)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A runner killed mid-shard (SIGKILL) leaves only complete shards under
// final names, and each validates; its temporary file is never read.
func TestSelfplayKilledLeavesCompleteShards(t *testing.T) {
	dir := t.TempDir()
	cmd := startSelfplay(t, dir, 2)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	files, err := datasets.Files(dir)
	if err != nil || len(files) < 2 {
		t.Fatalf("files %v, %v", files, err)
	}
	for _, f := range files {
		rep, err := datasets.Validate(f)
		if err != nil || !rep.OK() {
			t.Fatalf("%s after SIGKILL: %+v %v", f, rep, err)
		}
	}
}

// SIGINT finishes the open shard: exit status 0, everything validates, no
// temporary file left.
func TestSelfplayInterruptFinishesCleanly(t *testing.T) {
	dir := t.TempDir()
	cmd := startSelfplay(t, dir, 1)
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("interrupted selfplay: %v", err)
	}
	rep, err := datasets.Validate(dir)
	if err != nil || !rep.OK() || rep.Files < 1 {
		t.Fatalf("after SIGINT: %+v %v", rep, err)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*tmp")); len(tmp) != 0 {
		t.Fatalf("temporary files left: %v", tmp)
	}
}

func TestDatasetsCommands(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := run("selfplay", "-g", "slime", "-a", "simplebot,random", "--envs", "4", "--steps", "2000", "-q", "-o", dir); err != nil {
		t.Fatal(err)
	}
	out, err := run("datasets", "validate", dir)
	if err != nil || !strings.Contains(out, ": ok") {
		t.Fatalf("validate: %v\n%s", err, out)
	}
	out, err = run("datasets", "inspect", dir)
	if err != nil || !strings.Contains(out, "simplebot") || !strings.Contains(out, "episodes") {
		t.Fatalf("inspect: %v\n%s", err, out)
	}
	if out, err = run("datasets", "export", dir); err != nil || !strings.Contains(out, "Parquet") {
		t.Fatalf("export: %v\n%s", err, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.arrow")
	os.WriteFile(bad, []byte("not an arrow file"), 0o644)
	if out, err := run("datasets", "validate", bad); err == nil || !strings.Contains(out+err.Error(), "bad.arrow") {
		t.Fatalf("validate of a foreign file: %v\n%s (want a failure naming it)", err, out)
	}
}

// Self-play that finishes no episode writes nothing and says so with a
// non-zero exit and a way out (issue 25: 8 envs × 250 steps of Slime, whose
// games last up to 2000 turns by R5, used to print "0 shards" and exit 0).
func TestSelfplayNoEpisodeIsAnError(t *testing.T) {
	dir := t.TempDir()
	out, err := run("selfplay", "--game", "slime", "--agents", "pass", "--envs", "8", "--steps", "2000", "-q", "-o", dir)
	if err == nil {
		t.Fatalf("want an error, got none:\n%s", out)
	}
	for _, w := range []string{"no episode finished", "250 steps", "up to 2000 steps", "--steps to at least 16008", "--max-episode"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q: %v", w, err)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.arrow")); len(files) != 0 {
		t.Errorf("shards written: %v", files)
	}
	// The advice works: --max-episode 200 ends every game in time.
	if out, err := run("selfplay", "--game", "slime", "--agents", "pass", "--envs", "8", "--steps", "2000", "--max-episode", "200", "-q", "-o", t.TempDir()); err != nil {
		t.Fatalf("with --max-episode 200: %v\n%s", err, out)
	}
}
