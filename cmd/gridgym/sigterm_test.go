package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents/host"
)

// stayingBot is a Nuggets bot that, at its first move, starts a thread that
// is not a daemon, so its interpreter never exits on its own (issue 56,
// item 6: such a bot outlived a gridgym killed by SIGTERM).
const stayingBot = `import threading
import time

started = False


def spin():
    while True:
        time.sleep(0.05)


def bot(board, move_num):
    global started
    if not started:
        started = True
        threading.Thread(target=spin).start()
        print("playing", flush=True)
    return (move_num % 20, move_num // 20 % 20)
`

// processesWith returns the ids of the processes whose command line
// contains marker.
func processesWith(marker string) []string {
	var ids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(marker)) {
			ids = append(ids, e.Name())
		}
	}
	return ids
}

// waitFor polls cond every 50 ms until it holds or limit passes; it
// reports whether it held.
func waitFor(limit time.Duration, cond func() bool) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// Issue 56, item 6: SIGTERM of a tournament hosting a bot that keeps its
// interpreter alive (a non-daemon thread) kills every bot process, removes
// every temporary folder of the run, says so and exits with status 143.
// The bounds are liveness bounds (a program that ignores the signal misses
// them by minutes); how fast it went is logged, not judged.
func TestTournamentSIGTERMLeavesNothing(t *testing.T) {
	if _, err := host.Interpreter(""); err != nil {
		t.Skip(err)
	}
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc to look for the bot's processes in")
	}
	botDir, tmp, logs := t.TempDir(), t.TempDir(), t.TempDir()
	bot := filepath.Join(botDir, "staying_bot.py")
	if err := os.WriteFile(bot, []byte(stayingBot), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp,
		"GRIDGYM_TEST_ARGS=tournament --game nuggets --bots py:"+bot+",random --games 50 --workers 2 --bot-log "+logs)
	outFile, err := os.Create(filepath.Join(logs, "gridgym.out"))
	if err != nil {
		t.Fatal(err)
	}
	defer outFile.Close()
	cmd.Stdout, cmd.Stderr = outFile, outFile
	output := func() string { b, _ := os.ReadFile(outFile.Name()); return string(b) }
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	playing := func() bool {
		files, _ := filepath.Glob(filepath.Join(logs, "*-nuggets.log"))
		for _, f := range files {
			if b, _ := os.ReadFile(f); bytes.Contains(b, []byte("playing")) {
				return true
			}
		}
		return false
	}
	if !waitFor(60*time.Second, playing) {
		t.Fatalf("the bot did not play within 60 s:\n%s", output())
	}
	if len(processesWith(bot)) == 0 {
		t.Fatalf("no process runs the bot %s while it plays", bot)
	}
	t0 := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 143 {
			t.Errorf("after SIGTERM: %v, want exit status 143\n%s", err, output())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("still running 60 s after SIGTERM:\n%s", output())
	}
	t.Logf("gridgym exited %v after SIGTERM", time.Since(t0).Round(time.Millisecond))
	if !strings.Contains(output(), "stopped by SIGTERM: hosted bots killed, temporary folders removed") {
		t.Errorf("no message saying what SIGTERM did:\n%s", output())
	}
	if !waitFor(20*time.Second, func() bool { return len(processesWith(bot)) == 0 }) {
		ids := processesWith(bot)
		for _, id := range ids {
			if p, err := strconv.Atoi(id); err == nil {
				syscall.Kill(p, syscall.SIGKILL) // the test's own leftovers
			}
		}
		t.Errorf("bot processes %v still run 20 s after gridgym exited", ids)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("temporary folders left in $TMPDIR: %v", names)
	}
}
