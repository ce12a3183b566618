package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
)

// --bot-log (Options.BotLog): what a hosted bot prints goes to
// DIR/BOT-GAME.log, a Python bot's print() and a program's stderr alike,
// with a line per process (Python) or move (program) saying which.
func TestBotLog(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	opt := Options{Limit: 5 * time.Second, Log: &syncBuffer{}, BotLog: dir}
	a, err := NewPython("rising-tide", "testdata/risingtide_faulty.py", "prints", opt)
	if err != nil {
		t.Fatal(err)
	}
	play(t, "rising-tide", 3, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 3)
	a.Close()
	b, err := os.ReadFile(filepath.Join(dir, "py_testdata_risingtide_faulty.py-rising-tide.log"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "garbage {not json\nmore garbage\n"); n != 3 {
		t.Errorf("bot log %q: want the bot's prints 3 times", b)
	}
	if !strings.Contains(string(b), "--- gridgym: py:testdata/risingtide_faulty.py, seat 0, move 1: a new process") {
		t.Errorf("bot log %q: no process line", b)
	}

	c, err := NewCommand("slime", []string{"sh", "testdata/slime.sh", "fail"}, Options{Limit: 2 * time.Second, Log: &syncBuffer{}, BotLog: dir})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.Lookup("slime")
	st := g.New(g.Default())
	c.Reset(st, 0, nil)
	c.Act(st)
	b, err = os.ReadFile(filepath.Join(dir, "cmd_sh_testdata_slime.sh_fail-slime.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "slime.sh: cannot think") || !strings.Contains(string(b), "seat 0, move 1: 1,") {
		t.Errorf("program's bot log %q: want its stderr after the move's line", b)
	}
}

// After games with hosted bots, Timings has each bot's answer times
// against the limit, and WriteTimings prints them: a bot that answers in
// time has nothing over the limit; one that answers late has it counted.
func TestTimingSummary(t *testing.T) {
	needPython(t)
	ResetTimings()
	log := &syncBuffer{}
	a, err := NewPython("rising-tide", "testdata/risingtide_faulty.py", "good", Options{Limit: 5 * time.Second, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewPython("rising-tide", "testdata/risingtide_faulty.py", "slow", Options{Limit: 150 * time.Millisecond, HangAfter: 5 * time.Second, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	// The slow entry sleeps in round 1 only (beyond its limit).
	play(t, "rising-tide", 1, []agents.Agent{a, s, agents.Pass{}, agents.Pass{}}, 3)
	a.Close()
	s.Close()
	// Both agents are one spec name (py:FILE): one line.
	ts := Timings()
	var all Timing
	for _, tm := range ts {
		if tm.Bot == "py:testdata/risingtide_faulty.py" {
			all = tm
		}
	}
	if all.Moves != 6 || all.Over != 1 || all.P50 <= 0 || all.P50 > all.P99 || all.P99 > all.Max {
		t.Errorf("timing %+v, want 6 moves, 1 over the limit, p50 ≤ p99 ≤ max", all)
	}
	var out strings.Builder
	if err := WriteTimings(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"answer times", "p50", "p99", "limit", "py:testdata/risingtide_faulty.py"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	ResetTimings()
	if len(Timings()) != 0 {
		t.Errorf("after ResetTimings: %+v", Timings())
	}
}

// A cmd: bot whose first line is `#!/usr/bin/env python3`, where python3 on
// the PATH is a slow shim (as pyenv's), times out on every move; after
// hintAfter such moves the log names the shim, how long it takes to start
// and what to write instead.
func TestShebangShimHint(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	shims := filepath.Join(dir, "shims")
	if err := os.Mkdir(shims, 0o755); err != nil {
		t.Fatal(err)
	}
	shim := "#!/bin/sh\n# a slow version-manager shim\nsleep 1\nexec /usr/bin/python3 \"$@\"\n"
	if err := os.WriteFile(filepath.Join(shims, "python3"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	bot := filepath.Join(dir, "bot.py")
	if err := os.WriteFile(bot, []byte("#!/usr/bin/env python3\nprint('0 0 1 1')\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", shims+string(os.PathListSeparator)+os.Getenv("PATH"))
	log := &syncBuffer{}
	c, err := NewCommand("slime", []string{bot}, Options{Limit: 100 * time.Millisecond, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.Lookup("slime")
	st := g.New(g.Default())
	c.Reset(st, 0, nil)
	for i := 0; i < hintAfter; i++ {
		c.Act(st)
	}
	if ev := c.Events(); ev.Timeouts != hintAfter {
		t.Fatalf("events %v, want %d time-outs (the shim sleeps 1 s)", ev, hintAfter)
	}
	got := log.String()
	for _, want := range []string{"every move so far timed out", `"#!/usr/bin/env python3"`, filepath.Join(shims, "python3"), "itself a script", "just to start", "#!/usr/bin/python3"} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q:\n%s", want, got)
		}
	}
	// A fast interpreter gets no hint.
	if h := shebangHint("testdata/slime.sh", 100*time.Millisecond); h != "" {
		t.Errorf("hint for /bin/sh: %s", h)
	}
}
