package host

import (
	"fmt"
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
// every line after its seat, with a line per process (Python) or move
// (program) saying which.
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
	if n := strings.Count(string(b), "[seat 0] garbage {not json\n[seat 0] more garbage\n"); n != 3 {
		t.Errorf("bot log %q: want the bot's prints 3 times", b)
	}
	if !strings.HasPrefix(string(b), "[seat 0] --- gridgym: move 1: a new process\n") {
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
	if !strings.Contains(string(b), "[seat 0] --- gridgym: move 1: 1,") || !strings.Contains(string(b), "\n[seat 0] slime.sh: cannot think\n") {
		t.Errorf("program's bot log %q: want its stderr after the move's line", b)
	}
}

// inGame is a hosted Python agent that a tournament has told its game's
// number (SetGame after Reset, as eval's games do).
type inGame struct {
	*Python
	game uint64
}

func (a inGame) Reset(st rules.State, seat int, rng *rules.RNG) {
	a.Python.Reset(st, seat, rng)
	a.Python.SetGame(a.game)
}

// TestBotLogSeats: two seats of one Python bot in one game share its bot
// log, each line after its game and seat, so the two are told apart (issue
// 52's item 6): every line of the log is one seat's, and each seat's prints
// are there once a move.
func TestBotLogSeats(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	opt := Options{Limit: 5 * time.Second, Log: &syncBuffer{}, BotLog: dir}
	var bots []agents.Agent
	for range 2 {
		a, err := NewPython("rising-tide", "testdata/risingtide_faulty.py", "prints", opt)
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, inGame{a, 7})
	}
	play(t, "rising-tide", 3, append(bots, agents.Pass{}, agents.Pass{}), 3)
	closeAll(bots)
	b, err := os.ReadFile(filepath.Join(dir, "py_testdata_risingtide_faulty.py-rising-tide.log"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line == "" {
			continue
		}
		switch {
		case strings.HasPrefix(line, "[game 7, seat 0] "), strings.HasPrefix(line, "[game 7, seat 1] "):
			seen[line]++
		default:
			t.Errorf("bot log line %q: no game and seat", line)
		}
	}
	for seat := range 2 {
		p := fmt.Sprintf("[game 7, seat %d] ", seat)
		if seen[p+"garbage {not json\n"] != 3 || seen[p+"more garbage\n"] != 3 {
			t.Errorf("bot log %q: want seat %d's prints 3 times each", b, seat)
		}
		if seen[p+"--- gridgym: move 1: a new process\n"] != 1 {
			t.Errorf("bot log %q: want seat %d's process line", b, seat)
		}
	}
}

// TestBotLogTraceback: a Python bot's exception is written to its bot log
// with the traceback of the bot's own code (not the host's frames), after
// a line naming the move, which is played as no answer (a pass).
func TestBotLogTraceback(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	log := &syncBuffer{}
	a, err := NewPython("rising-tide", "testdata/risingtide_faulty.py", "raises", Options{Limit: 5 * time.Second, Log: log, BotLog: dir})
	if err != nil {
		t.Fatal(err)
	}
	moves, _ := play(t, "rising-tide", 3, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 3)
	a.Close()
	// The entry raises in round 1, the game's second move.
	if moves[0][0] == (rules.Move{}) || moves[1][0] != (rules.Move{}) || moves[2][0] == (rules.Move{}) {
		t.Errorf("moves %v: want a pass at move 2 only", moves)
	}
	if ev := a.Events(); ev.Errors != 1 || ev.Answered != 2 {
		t.Errorf("events %v, want 1 error, 2 answered", ev)
	}
	b, err := os.ReadFile(filepath.Join(dir, "py_testdata_risingtide_faulty.py-rising-tide.log"))
	if err != nil {
		t.Fatal(err)
	}
	want := "[seat 0] --- gridgym: move 2: the bot raised an exception: played as no answer\n" +
		"[seat 0] Traceback (most recent call last):\n" +
		"[seat 0]   File \"" // the bot's file, absolute
	if !strings.Contains(string(b), want) {
		t.Fatalf("bot log %q: want %q", b, want)
	}
	for _, w := range []string{"risingtide_faulty.py\", line ", ", in raises\n[seat 0]     return 1 // 0\n", "\n[seat 0] ZeroDivisionError: integer division or modulo by zero\n"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("bot log %q: want %q", b, w)
		}
	}
	if strings.Contains(string(b), "in main") {
		t.Errorf("bot log %q: the host's own frame in the traceback", b)
	}
	if strings.Count(string(b), "Traceback") != 1 {
		t.Errorf("bot log %q: want one traceback", b)
	}
	if !strings.Contains(log.String(), "raised ZeroDivisionError") {
		t.Errorf("event log %q: want the exception", log)
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
	s, err := NewPython("rising-tide", "testdata/risingtide_faulty.py", "slow", Options{Limit: 2 * time.Second, HangAfter: 10 * time.Second, Log: log})
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

// A seatLog starts every line with its prefix, ends a last piece without
// its newline with one, and hands each piece to the file in one write.
func TestSeatLogPrefixesEveryLine(t *testing.T) {
	out := &countingWriter{}
	l := &seatLog{w: out, prefix: []byte("[game 2, seat 1] ")}
	l.Write([]byte("a\nb\n"))
	l.Write([]byte("no newline"))
	want := "[game 2, seat 1] a\n[game 2, seat 1] b\n[game 2, seat 1] no newline\n"
	if out.b.String() != want || out.writes != 2 {
		t.Errorf("wrote %q in %d writes, want %q in 2", out.b.String(), out.writes, want)
	}
	if p := seatPrefix(-1, 3); p != "[seat 3] " {
		t.Errorf("prefix without a game %q", p)
	}
}

type countingWriter struct {
	b      strings.Builder
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.b.Write(p)
}

// A hosted bot that lost moves to the limit on a machine busier than its
// cores gets a note that the load may be the cause; on an idle machine, or
// with no move lost, none.
func TestTimingsLoadHint(t *testing.T) {
	ts := []Timing{{Bot: "cmd:bot", Game: "slime", Limit: 100 * time.Millisecond, Moves: 10, P50: 50 * time.Millisecond,
		P99: 300 * time.Millisecond, Max: 400 * time.Millisecond, Over: 3}}
	for _, c := range []struct {
		load float64
		cpus int
		over int
		hint bool
	}{
		{8.5, 2, 3, true},
		{1.5, 2, 3, false},
		{8.5, 2, 0, false},
		{0, 0, 3, false}, // load unknown
	} {
		ts[0].Over = c.over
		var out strings.Builder
		if err := writeTimings(&out, ts, c.load, c.cpus); err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(out.String(), "may be the machine's fault")
		if got != c.hint || got && !strings.Contains(out.String(), "load average is 8.5 on 2 cores") {
			t.Errorf("load %.1f on %d cores, %d over: hint %v, want %v:\n%s", c.load, c.cpus, c.over, got, c.hint, out.String())
		}
	}
}
