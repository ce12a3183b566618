package export

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

// pythonNotes judges the times its runner reports, not the machine's: a
// stand-in runner returns the times each case chooses (and checks it was
// asked for the bot file, a Slime request and a deadline of 10× the
// limit), so the verdicts hold however loaded the machine is.
func TestPythonNotesJudgesTheTimes(t *testing.T) {
	g, err := rules.Lookup(slime.Name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := g.Default()
	tgt, ok := TargetOf(slime.Name)
	if !ok || !tgt.Pure {
		t.Fatalf("slime has no pure-Python export target: %+v", tgt)
	}
	limit := g.Competition.Limit
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, c := range []struct {
		name    string
		times   []time.Duration // one per run; an entry < 0 means killed at the deadline
		start   time.Duration   // each bare interpreter run's time (0: it fails)
		fail    error
		readme  string // a substring of the README lines ("" = none)
		warning string // a substring of the warning ("" = none)
		not     string // a substring the warning must not have ("" = none)
	}{
		{"fast", []time.Duration{ms(5), ms(6), ms(4), ms(7), ms(5)}, ms(2), nil, "at least 2x margin", "", ""},
		{"half", []time.Duration{ms(20), ms(60), ms(20), ms(20), ms(20)}, ms(3), nil, "less than 2x margin", "more than half the limit", "starting"},
		{"over", []time.Duration{ms(120), ms(110), ms(130), ms(90), ms(115)}, ms(15), nil, "OVER the limit", "OVER THE LIMIT already here", "starting"},
		{"over, the interpreter's start", []time.Duration{ms(120), ms(110), ms(130), ms(90), ms(115)}, ms(60), nil,
			"`py-standin -c pass`, p50 60 ms of it", "half of it or more is py-standin starting (p50 60 ms", ""},
		{"over, start unmeasured", []time.Duration{ms(120), ms(110), ms(130), ms(90), ms(115)}, 0, nil, "OVER the limit", "OVER THE LIMIT already here", "starting"},
		{"killed", []time.Duration{ms(30), -1, ms(30), ms(30), ms(30)}, ms(10), nil, "OVER the limit", "OVER THE LIMIT already here", "starting"},
		{"broken", nil, ms(10), errors.New("exit status 3"), "Not measured at export", "slime_bot.py was not timed", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls, starts := 0, 0
			run := func(python, file, req string, deadline time.Duration) (time.Duration, error) {
				if python != "py-standin" || deadline != 10*limit {
					t.Errorf("runner called with %q %v", python, deadline)
				}
				if file == "-c" && req == "pass" {
					starts++
					if c.start == 0 {
						return 0, errors.New("exit status 1")
					}
					return c.start, nil
				}
				if !strings.HasSuffix(file, tgt.File) || !strings.HasPrefix(req, "1,") {
					t.Errorf("runner called with %q %q", file, req)
				}
				if c.fail != nil {
					return 0, c.fail
				}
				d := c.times[calls]
				calls++
				if d < 0 {
					return deadline, errOverrun
				}
				return d, nil
			}
			readme, warning := pythonNotes(run, "py-standin", tgt, t.TempDir(), cfg)
			if c.fail == nil && calls != pythonRuns {
				t.Errorf("%d runs, want %d", calls, pythonRuns)
			}
			if c.fail == nil && c.start > 0 && starts != pythonRuns {
				t.Errorf("%d bare interpreter runs, want %d", starts, pythonRuns)
			}
			if !strings.Contains(readme, c.readme) {
				t.Errorf("README %q, want it to contain %q", readme, c.readme)
			}
			if c.warning == "" && warning != "" || !strings.Contains(warning, c.warning) {
				t.Errorf("warning %q, want one containing %q", warning, c.warning)
			}
			if c.not != "" && strings.Contains(warning, c.not) {
				t.Errorf("warning %q, want none containing %q", warning, c.not)
			}
		})
	}
}

// The killed run counts as the whole deadline: its p50 and slowest figures
// are what the README prints.
func TestTimePythonCountsAKilledRunAsTheDeadline(t *testing.T) {
	g, err := rules.Lookup(slime.Name)
	if err != nil {
		t.Fatal(err)
	}
	run := func(_, _, _ string, deadline time.Duration) (time.Duration, error) { return deadline, errOverrun }
	tm, err := timePython(run, "py", "bot.py", g.Default(), g.Competition)
	if err != nil {
		t.Fatal(err)
	}
	if want := 10 * g.Competition.Limit; tm.max != want || tm.p50 != want {
		t.Errorf("timing %+v, want p50 = max = %v", tm, want)
	}
}
