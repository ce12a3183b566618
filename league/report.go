package league

import (
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gridgym/gridgym/agents/neural"
)

// RoundReport is one finished round, for the progress line.
type RoundReport struct {
	Round    int
	Elapsed  time.Duration // the league's wall time so far
	Learners []LearnerReport
	Events   []string // snapshots taken on success, resets
	Pool     int      // members after the round
	Curve    []CurvePoint
}

// LearnerReport is one learner's round: its iterations and its win share
// (the payoff table's, after the round's matches) against each opponent
// it met, and their mean weighted by how often it met each.
type LearnerReport struct {
	Name, Role string
	Iterations int // this round
	Total      int // since its last reset
	Versus     map[string]float64
	Mean       float64
}

// report gathers the learners' part of the round's report, after its
// payoff matches.
func (l *League) report(round int, plans []*plan) RoundReport {
	r := RoundReport{Round: round}
	for _, p := range plans {
		lr := LearnerReport{Name: p.learner.Name, Role: p.learner.Role, Iterations: p.trained, Total: p.learner.Iterations, Versus: map[string]float64{}}
		for _, o := range p.opponents {
			w := l.State.Payoff.Rate(p.learner.Name, o)
			lr.Versus[o] = w
			lr.Mean += w / float64(len(p.opponents))
		}
		r.Learners = append(r.Learners, lr)
	}
	return r
}

// String is the round's progress lines: one a learner, then the events
// and the learning curve's points.
func (r RoundReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "round %d  %s  pool %d\n", r.Round, r.Elapsed.Round(time.Second), r.Pool)
	for _, lr := range r.Learners {
		var vs []string
		for _, o := range slices.Sorted(maps.Keys(lr.Versus)) {
			vs = append(vs, fmt.Sprintf("%s %.2f", o, lr.Versus[o]))
		}
		fmt.Fprintf(&b, "  %-18s %3d it (%d since reset)  win share %.2f  vs %s\n", lr.Name, lr.Iterations, lr.Total, lr.Mean, strings.Join(vs, ", "))
	}
	for _, e := range r.Events {
		fmt.Fprintf(&b, "  · %s\n", e)
	}
	for _, c := range r.Curve {
		fmt.Fprintf(&b, "  eval vs %s: main %.3f, %s %.3f, margin %+.3f [%+.3f, %+.3f] (%s, %d games)\n", c.Bot, c.Main, c.Bot, c.Opponent, c.Margin, c.MarginLo, c.MarginHi, c.ScoreName, c.Games)
	}
	return b.String()
}

// CurveFile is the learning curve's CSV in the league folder: one row a
// round and eval bot.
const CurveFile = "curve.csv"

// writeCurve writes curve.csv from the state (nothing without eval bots).
func (l *League) writeCurve() error {
	if len(l.State.Settings.Eval) == 0 {
		return nil
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"round", "minutes", "bot", "games", "score", "main_score", "bot_score", "margin", "margin_lo", "margin_hi"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	for _, c := range l.State.Curve {
		_ = w.Write([]string{strconv.Itoa(c.Round), strconv.FormatFloat(c.Minutes, 'f', 3, 64), c.Bot, strconv.Itoa(c.Games), c.ScoreName,
			f(c.Main), f(c.Opponent), f(c.Margin), f(c.MarginLo), f(c.MarginHi)})
	}
	w.Flush()
	return neural.WriteFileAtomic(l.abs(CurveFile), []byte(b.String()))
}

// Summary writes the league's state in words: its rounds, the learners,
// the pool with the first main agent's win share against each member, and
// where its files are.
func (l *League) Summary(w io.Writer) {
	st := l.State
	fmt.Fprintf(w, "league %s (%s): %d rounds, %s, %d pool members\n", l.Dir, st.Game, st.Round,
		time.Duration(st.ElapsedS*float64(time.Second)).Round(time.Second), len(st.Members))
	for _, ln := range st.Learners {
		fmt.Fprintf(w, "  %-18s %-16s %d it since reset, %d resets, %d snapshots, %s\n", ln.Name, ln.Role, ln.Iterations, ln.Resets, ln.Snapshots, filepath.Join(l.Dir, ln.Name, finalFile))
	}
	main := st.Learners[0].Name
	fmt.Fprintf(w, "  %s's win share against the pool (payoff table; ½ = never measured):\n", main)
	for _, m := range st.Members {
		r := st.Payoff[main][m.Name]
		fmt.Fprintf(w, "    %-26s %-16s %.2f (%.1f games)\n", m.Name, m.Role, r.Rate(), r.Games)
	}
	if len(st.Settings.Eval) > 0 {
		fmt.Fprintf(w, "  learning curve: %s, drawn in %s\n", l.abs(CurveFile), l.abs(CurvePlot))
	}
	fmt.Fprintf(w, "  main agent: %s (gridgym tournament / export take it)\n", l.MainWeights())
}

// relTo is path relative to dir, refused if outside it.
func relTo(dir, path string) (string, error) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is not inside the league folder %s", path, dir)
	}
	return rel, nil
}
