package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 56, items 7: counts and sizes from the user are bounded before
// anything is allocated for them, and inputs that are not regular files
// are refused before they are opened: each is bad input (exit 2) with a
// message that says what is wrong. (--games 10^12 died out of memory
// after a 120 TB allocation; a named pipe hung its reader.) Each command
// runs under a one-minute guard that only turns a hang into a failure:
// nothing is asserted of the time taken.
func TestUnboundedInputsRefused(t *testing.T) {
	dir := t.TempDir()
	fifoDir := filepath.Join(dir, "shards")
	if err := os.Mkdir(fifoDir, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(fifoDir, "shard-000000.arrow")
	pipeWeights := filepath.Join(dir, "w.safetensors")
	for _, p := range []string{fifo, pipeWeights} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	big := filepath.Join(dir, "big.yaml") // a comment line over 1 MB
	if err := os.WriteFile(big, append([]byte("# "), bytes.Repeat([]byte("a"), 1<<20)...), 0o644); err != nil {
		t.Fatal(err)
	}
	const pipe = "is a named pipe (FIFO), not a regular file"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tournament", "-g", "slime", "--games", "1000000000000", "-q"}, "--games 1000000000000: at most 1000000: every game's result is kept in memory"},
		{[]string{"tournament", "-g", "slime", "--games", "10", "--workers", "1000000000", "-q"}, "--workers 1000000000: want 0 (all cores) to 4096"},
		{[]string{"tournament", "-g", "slime", "--games", "10", "--replays", "1000000000000", "-q"}, "--replays 1000000000000: want 0..1000000"},
		{[]string{"pipeline", "--games", "1000000000000", "-o", filepath.Join(dir, "p")}, "--games 1000000000000: at most 1000000"},
		{[]string{"rate", "-g", "slime", "--resamples", "1000000000000", filepath.Join(dir, "games.jsonl")}, "--resamples 1000000000000: want 1..100000"},
		{[]string{"train", "--config", big, "--out", filepath.Join(dir, "run")}, big + ": is 1048578 bytes, more than a config file may be (1048576 bytes)"},
		{[]string{"train", "--config", fifo, "--out", filepath.Join(dir, "run2")}, fifo + ": " + pipe},
		{[]string{"datasets", "validate", fifoDir}, fifo + ": " + pipe},
		{[]string{"datasets", "validate", fifo}, fifo + ": " + pipe},
		{[]string{"datasets", "export", fifoDir, "--out", filepath.Join(dir, "pq")}, fifo + ": " + pipe},
		{[]string{"datasets", "inspect", fifoDir}, fifo + ": " + pipe},
		{[]string{"replay", fifo}, fifo + ": " + pipe},
		{[]string{"play", "-g", "slime", "-b", pipeWeights + ",random"}, pipeWeights + ": " + pipe},
		{[]string{"export", "--checkpoint", pipeWeights, "--out", filepath.Join(dir, "bot"), "--no-binary", "--python", "none"}, pipeWeights + ": " + pipe},
	}
	for _, c := range cases {
		done := make(chan error, 1)
		go func() { _, err := run(c.args...); done <- err }()
		var err error
		select {
		case err = <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%v: still running after a minute", c.args)
		}
		if err == nil {
			t.Errorf("%v: accepted", c.args)
			continue
		}
		if s := exitStatus(err); s != 2 {
			t.Errorf("%v: exit status %d, want 2 (bad input): %v", c.args, s, err)
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %q should say %q", c.args, err, c.want)
		}
	}
	for _, p := range []string{"run", "run2", "pq", "bot"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was created for a refused input", p)
		}
	}
}

// Issue 56, item 7: a bit flipped in the footer key gridgym.checksum made a
// shard pass `datasets validate` as unchecked, exit 0. It fails now (exit
// 1) unless --strict=false; a shard written before checksums passes with a
// notice, and fails only under an explicit --strict.
func TestValidateStrictChecksums(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := run("selfplay", "--game", "nuggets", "--agents", "greedy,random", "--envs", "2", "--steps", "600", "-q", "--out", dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "shard-000000.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(data, []byte("gridgym.checksum\x00"))
	if at < 0 {
		t.Fatal("no gridgym.checksum key in the shard")
	}
	data[at+len("gridgym.ch")] ^= 1
	flipped := filepath.Join(t.TempDir(), "shard-000000.arrow")
	if err := os.WriteFile(flipped, data, 0o644); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join("..", "..", "datasets", "testdata", "nuggets-unchecked.arrow")
	for _, c := range []struct {
		args   []string
		status int // 0: accepted
		want   string
	}{
		{[]string{flipped}, 1, "no checksums: its footer has gridgym.checksum.footer"},
		{[]string{flipped, "--strict=false"}, 0, "notice: 1 shards unchecked"},
		{[]string{old}, 0, "notice: 1 shards unchecked"},
		{[]string{old, "--strict"}, 1, "no checksums: checksums are required"},
	} {
		out, err := run(append([]string{"datasets", "validate"}, c.args...)...)
		status := 0
		if err != nil {
			status = exitStatus(err)
		}
		if status != c.status || !strings.Contains(out, c.want) {
			t.Errorf("validate %v: status %d (%v), want %d with %q:\n%s", c.args, status, err, c.status, c.want, out)
		}
	}
}
