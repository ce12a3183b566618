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

// TestJudgeTime: an answer is late when host.py's measure exceeds the
// limit, or gridgym's own exceeds it by more than transportAllowance; the
// time recorded is the one that decided.
func TestJudgeTime(t *testing.T) {
	const limit = 100 * time.Millisecond
	ms := time.Millisecond
	cases := []struct {
		name            string
		inside, outside time.Duration
		late            bool
		took            time.Duration
		why             string
	}{
		{"in time", 40 * ms, 41 * ms, false, 40 * ms, ""},
		{"at the limit", limit, limit, false, limit, ""},
		{"pipes within the allowance", 99 * ms, limit + transportAllowance, false, 99 * ms, ""},
		{"late by host.py", 101 * ms, 102 * ms, true, 101 * ms, "answered in 0.101 s"},
		{"faked clock", 0, 600 * ms, true, 600 * ms, "0.600 s after its request by gridgym's clock (its host measured 0.000 s)"},
		{"just over the allowance", 0, limit + transportAllowance + 1, true, limit + transportAllowance + 1, "gridgym's clock"},
		{"negative forged time", -5 * ms, 700 * ms, true, 700 * ms, "gridgym's clock"},
		{"negative forged time in time", -5 * ms, 3 * ms, false, 0, ""},
	}
	for _, c := range cases {
		v := judgeTime(c.inside, c.outside, limit)
		if v.late != c.late || v.took != c.took || !strings.Contains(v.why, c.why) || (v.why == "") == c.late {
			t.Errorf("%s: judgeTime(%v, %v) = %+v, want late %v, took %v, why with %q",
				c.name, c.inside, c.outside, v, c.late, c.took, c.why)
		}
	}
}

// fakeClock is a clock whose every reading is step after the previous one:
// a move's request and answer are step apart, whatever the machine does.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	c.t = c.t.Add(c.step)
	return c.t
}

// A Python bot that answers at once by every real clock loses the move when
// gridgym's clock (a fake one here) says the answer came later than the
// limit plus transportAllowance, and keeps it when it came at the limit:
// the decision is gridgym's clock's, never host.py's.
func TestPythonTimedByGridgymsClock(t *testing.T) {
	needPython(t)
	const limit = 2 * time.Second
	log := &syncBuffer{}
	a, err := NewPython("rising-tide", "testdata/risingtide_faulty.py", "good",
		Options{Limit: limit, HangAfter: time.Minute, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	a.bot.now = clock.now
	g, _ := rules.Lookup("rising-tide")
	st := g.New(g.Default())
	a.Reset(st, 0, rules.NewRNG(1))
	steps := []time.Duration{limit, limit + transportAllowance + time.Millisecond, time.Millisecond}
	for i, step := range steps {
		clock.step = step
		m := a.Act(st)
		if late := i == 1; (m == rules.Move{}) != late {
			t.Errorf("move %d, %v by gridgym's clock: %+v, want a pass only when late", i+1, step, m)
		}
	}
	if ev := a.Events(); ev.Timeouts != 1 || ev.Answered != 2 {
		t.Errorf("events %v, want 2 answered, 1 time-out", ev)
	}
	if got := log.String(); !strings.Contains(got, "move 2: answered 2.011 s after its request by gridgym's clock") {
		t.Errorf("log %q, want move 2's time-out by gridgym's clock", got)
	}
}

// fakedClockBot patches every clock of Python's time module (host.py's
// included: they share it) so that its calls seem to take no time, then
// sleeps far over the limit.
const fakedClockBot = `import time
_sleep = time.sleep
time.perf_counter = lambda: 0.0
time.time = lambda: 0.0
time.monotonic = lambda: 0.0

def my_bot_fn(terrain, round_num):
    _sleep(%s)
    return None
`

// Issue 56, item 5: a bot that fakes the clock host.py reads and takes 5×
// the limit (2 s over it; the hang limit is 28 s further) loses every move:
// gridgym's own clock finds each answer late.
func TestPythonFakedClockLosesItsMoves(t *testing.T) {
	needPython(t)
	file := filepath.Join(t.TempDir(), "faker.py")
	if err := os.WriteFile(file, []byte(strings.Replace(fakedClockBot, "%s", "2.5", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	a, err := NewPython("rising-tide", file, "", Options{Limit: 500 * time.Millisecond, HangAfter: 30 * time.Second, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	play(t, "rising-tide", 1, []agents.Agent{a, agents.Pass{}, agents.Pass{}, agents.Pass{}}, 2)
	if ev := a.Events(); ev.Moves != 2 || ev.Timeouts != 2 {
		t.Errorf("events %v, want both moves timed out", ev)
	}
	if got := log.String(); strings.Count(got, "by gridgym's clock (its host measured 0.000 s)") != 2 {
		t.Errorf("log %q, want two time-outs by gridgym's clock", got)
	}
}
