package export

import (
	"context"
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
}

// timePython runs python FILE REQUEST pythonRuns times, REQUEST being the
// competition's request for seat 0 of cfg's first position, each a fresh
// process as the competition runs it, and returns their times. The answer
// itself is not checked (the parity tests do that); a run that fails or
// outlives 10 × the limit is an error.
func timePython(python, file string, cfg rules.Config, comp *rules.Competition) (pythonTiming, error) {
	g := cfg.Game()
	req := string(g.Codec.AppendRequest(nil, g.New(cfg), 0))
	ts := make([]time.Duration, 0, pythonRuns)
	for range pythonRuns {
		ctx, cancel := context.WithTimeout(context.Background(), 10*comp.Limit)
		t0 := time.Now()
		out, err := exec.CommandContext(ctx, python, file, req).CombinedOutput()
		d := time.Since(t0)
		cancel()
		if err != nil {
			return pythonTiming{}, fmt.Errorf("timing %s %s: %v (%.200s)", python, file, err, out)
		}
		ts = append(ts, d)
	}
	slices.Sort(ts)
	return pythonTiming{p50: ts[len(ts)/2], max: ts[len(ts)-1], limit: comp.Limit}, nil
}

// pythonNotes times t's Python bot in dir with python where the
// competition starts a fresh process every move (t.Pure, rules.ProgramRun):
// the README's lines, and a warning when the slowest run takes more than
// half the limit or all of it, or when the bot could not be timed. Other
// games get neither.
func pythonNotes(python string, t Target, dir string, cfg rules.Config) (readme, warning string) {
	comp := cfg.Game().Competition
	if !t.Pure || comp == nil || comp.Protocol != rules.ProgramRun {
		return "", ""
	}
	tm, err := timePython(python, filepath.Join(dir, t.File), cfg, comp)
	if err != nil {
		return "", fmt.Sprintf("%s was not timed: %v", t.File, err)
	}
	if !tm.slow() {
		return tm.readme(t.File, python), ""
	}
	alt := "train a smaller network"
	if t.Executable != "" {
		alt = "submit " + t.Executable + " where the competition accepts an executable, or " + alt
	}
	over := "more than half the limit, which a slower machine can pass"
	if tm.max > tm.limit {
		over = "over the limit already here"
	}
	return tm.readme(t.File, python), fmt.Sprintf("%s took up to %.0f ms a move here (p50 %.0f ms; the limit %.0f ms), %s: %s",
		t.File, ms(tm.max), ms(tm.p50), ms(tm.limit), over, alt)
}

// readme is the timing's line in README.txt.
func (p pythonTiming) readme(file, python string) string {
	return fmt.Sprintf("Measured at export on the exporting machine, this network: %d fresh `%s %s REQUEST` runs on the\n"+
		"first position took p50 %.0f ms, slowest %.0f ms, against the competition's %.0f ms a move (start-up included).\n",
		pythonRuns, python, file, ms(p.p50), ms(p.max), ms(p.limit))
}

// slow says whether the slowest run took more than half the limit: too
// little margin for a competition machine that may be slower.
func (p pythonTiming) slow() bool { return 2*p.max > p.limit }

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
