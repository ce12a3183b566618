package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// lineWaiter collects a child's output lines and says when one containing
// a text arrives.
type lineWaiter struct {
	lines chan string
	all   strings.Builder
}

func newLineWaiter(r io.Reader) *lineWaiter {
	w := &lineWaiter{lines: make(chan string, 1024)}
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	return w
}

// wait returns how long until a line containing text arrived, or fails.
func (w *lineWaiter) wait(t *testing.T, text string, limit time.Duration) time.Duration {
	t.Helper()
	t0 := time.Now()
	timeout := time.After(limit)
	for {
		select {
		case l, ok := <-w.lines:
			if !ok {
				t.Fatalf("output ended without %q:\n%s", text, w.all.String())
			}
			w.all.WriteString(l + "\n")
			if strings.Contains(l, text) {
				return time.Since(t0)
			}
		case <-timeout:
			t.Fatalf("no %q within %v:\n%s", text, limit, w.all.String())
		}
	}
}

// Issue 27: train says what it does from the first second, the first Ctrl-C
// answers at once ("stopping after this step", Ctrl-C again to stop now) and
// the second one stops the program now with status 130, saying what is kept.
func TestTrainCtrlCTwice(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GRIDGYM_TEST_ARGS=train --game slime --minutes 10 --out "+dir+"/run")
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	out := newLineWaiter(pr)
	// The first line (the warm start's plan) comes before any work. The
	// limits below are liveness bounds that only a program ignoring the
	// signal misses (the run is 10 minutes long); how fast it answered is
	// logged, not judged, so a loaded machine cannot fail the test.
	out.wait(t, "warm start", 60*time.Second)
	t.Logf("first line after %v", time.Since(t0).Round(time.Millisecond))
	time.Sleep(300 * time.Millisecond) // into the teacher's play
	cmd.Process.Signal(os.Interrupt)
	d1 := out.wait(t, "Ctrl-C again to stop now", 30*time.Second)
	cmd.Process.Signal(os.Interrupt)
	t2 := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait(); pw.Close() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Fatalf("after the second Ctrl-C: %v, want exit status 130\n%s", err, out.all.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("still running 30 s after the second Ctrl-C\n%s", out.all.String())
	}
	out.wait(t, "stopped", 10*time.Second)
	t.Logf("first Ctrl-C answered in %v; the second stopped the program in %v", d1.Round(time.Millisecond), time.Since(t2).Round(time.Millisecond))
}
