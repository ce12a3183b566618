package export

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/gridgym/gridgym/rules"
)

// pythonRuns is how many fresh processes of the Python bot Export times.
const pythonRuns = 5

// pythonTiming is what Export measured of a Python bot that the
// competition starts afresh for every move (rules.ProgramRun, Slime's R14),
// where start-up counts against the per-move limit (R16): the median and
// slowest of pythonRuns runs on the game's first position.
type pythonTiming struct {
	p50, max time.Duration
	limit    time.Duration
	// start is the median of pythonRuns runs of the bare interpreter
	// (`python -c pass`): the part of p50 that is not the bot's own, which
	// a slow interpreter start (site-packages, a version manager's build)
	// makes large. 0 where it could not be measured.
	start time.Duration
}

// errOverrun is a timed run that was killed at its deadline (10 × the
// limit): the bot is far over the limit, not broken.
var errOverrun = errors.New("killed at 10× the limit")

// pyRunner runs `python file req` once as a fresh process and returns how
// long it took. Export uses runProcess; the tests pass a stand-in whose
// times they choose, so no test depends on the speed of the machine.
type pyRunner func(python, file, req string, deadline time.Duration) (time.Duration, error)

// runProcess is the real pyRunner: the wall time of one process, from
// start to exit, killed at deadline (errOverrun).
func runProcess(python, file, req string, deadline time.Duration) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	t0 := time.Now()
	out, err := exec.CommandContext(ctx, python, file, req).CombinedOutput()
	d := time.Since(t0)
	if ctx.Err() != nil {
		return d, errOverrun
	}
	if err != nil {
		return d, fmt.Errorf("%v (%.200s)", err, out)
	}
	return d, nil
}

// timePython runs python FILE REQUEST pythonRuns times through run,
// REQUEST being the competition's request for seat 0 of cfg's first
// position, each a fresh process as the competition runs it, and returns
// their times, then the bare interpreter (`python -c pass`) as many times,
// whose median says how much of the bot's time is the interpreter's own
// start. The answer itself is not checked (the parity tests do
// that). A run that outlives 10 × the limit counts as taking the whole
// deadline (it is over the limit, not unmeasured); a run that fails is an
// error (a bare interpreter's failure only leaves its start unmeasured).
func timePython(run pyRunner, python, file string, cfg rules.Config, comp *rules.Competition) (pythonTiming, error) {
	g := cfg.Game()
	req := string(g.Codec.AppendRequest(nil, g.New(cfg), 0))
	ts := make([]time.Duration, 0, pythonRuns)
	deadline := 10 * comp.Limit
	for range pythonRuns {
		d, err := run(python, file, req, deadline)
		if errors.Is(err, errOverrun) {
			d = deadline
		} else if err != nil {
			return pythonTiming{}, fmt.Errorf("timing %s %s: %w", python, file, err)
		}
		ts = append(ts, d)
	}
	slices.Sort(ts)
	tm := pythonTiming{p50: ts[len(ts)/2], max: ts[len(ts)-1], limit: comp.Limit}
	// The bare interpreter, the same number of times; a failure leaves it
	// unmeasured rather than failing the bot's timing.
	ts = ts[:0]
	for range pythonRuns {
		d, err := run(python, "-c", "pass", deadline)
		if err != nil {
			return tm, nil
		}
		ts = append(ts, d)
	}
	slices.Sort(ts)
	tm.start = ts[len(ts)/2]
	return tm, nil
}

// pythonNotes times t's Python bot in dir with python where the
// competition starts a fresh process every move (t.Pure, rules.ProgramRun):
// the README's lines, and a warning when the slowest run takes more than
// half the limit or all of it, or when the bot could not be timed. Other
// games get neither.
func pythonNotes(run pyRunner, python string, t Target, dir string, cfg rules.Config) (readme, warning string) {
	comp := cfg.Game().Competition
	if !t.Pure || comp == nil || comp.Protocol != rules.ProgramRun {
		return "", ""
	}
	tm, err := timePython(run, python, filepath.Join(dir, t.File), cfg, comp)
	if err != nil {
		return fmt.Sprintf("Not measured at export: %s could not be run (%v).\n", t.File, err),
			fmt.Sprintf("%s was not timed: %v", t.File, err)
	}
	if !tm.slow() {
		return tm.readme(t.File, python), ""
	}
	alt := "train a smaller network"
	if t.Executable != "" {
		alt = "submit " + t.Executable + " where the competition accepts an executable, or " + alt
	}
	if tm.startDominates() {
		alt = fmt.Sprintf("%s; half of it or more is %s starting (p50 %.0f ms for `%s -c pass`), which the competition's own interpreter decides, not the network", alt, python, ms(tm.start), python)
	}
	over := "more than half the limit, which a slower machine can pass"
	if tm.max > tm.limit {
		over = "OVER THE LIMIT already here (a loaded machine makes it worse; so may a competition's)"
	}
	return tm.readme(t.File, python), fmt.Sprintf("%s took up to %.0f ms a move here (p50 %.0f ms; the limit %.0f ms), %s: %s",
		t.File, ms(tm.max), ms(tm.p50), ms(tm.limit), over, alt)
}

// readme is the timing's line in README.txt: what was measured, and what
// that means against the limit.
func (p pythonTiming) readme(file, python string) string {
	verdict := "within the limit with at least 2x margin"
	switch {
	case p.max > p.limit:
		verdict = "OVER the limit on the exporting machine"
	case p.slow():
		verdict = "within the limit but with less than 2x margin"
	}
	start := ""
	if p.start > 0 {
		start = fmt.Sprintf(" (the bare interpreter, `%s -c pass`, p50 %.0f ms of it)", python, ms(p.start))
	}
	return fmt.Sprintf("Measured at export on the exporting machine, this network: %d fresh `%s %s REQUEST` runs on the\n"+
		"first position took p50 %.0f ms%s, slowest %.0f ms, against the competition's %.0f ms a move (start-up included):\n%s.\n",
		pythonRuns, python, file, ms(p.p50), start, ms(p.max), ms(p.limit), verdict)
}

// slow says whether the slowest run took more than half the limit: too
// little margin for a competition machine that may be slower.
func (p pythonTiming) slow() bool { return 2*p.max > p.limit }

// startDominates says whether starting the bare interpreter takes half the
// bot's median run or more: then the interpreter, not the network, is what
// a user should look at first.
func (p pythonTiming) startDominates() bool { return p.start > 0 && 2*p.start >= p.p50 }

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
