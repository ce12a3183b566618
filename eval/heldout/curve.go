package heldout

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/eval"
)

// CurveGames is the default number of games of each table of a learning
// curve (rounded up to whole rounds of the seating orders): a curve plays
// a set of tables per checkpoint, so its points are smaller than the
// acceptance's 400-game tables.
const CurveGames = 96

// Files a learning curve writes into its report folder.
const (
	CurveCSV = "curve.csv" // one row per checkpoint and held-out bot
	CurvePNG = "curve.png" // the margins by iteration with their intervals (eval.PlotCurve)
)

// Curve is the learning curve of a training run against the held-out bots:
// the plan's tables for each checkpoint, the network of the checkpoint in
// the bot's seat. The plan's Bot is the run folder (LABEL=FOLDER and play
// settings, FOLDER:temp=T, as a tournament takes them; each checkpoint
// plays with the same label and settings); Games 0 is CurveGames. NewCurve
// makes one.
type Curve struct {
	Plan
	Checkpoints []neural.RunCheckpoint // the points, in the order played
	base        string                 // the run folder
	label       string                 // the bot's label ("net" where Bot has none)
	settings    string                 // the play settings of Bot (":temp=T…"), given to every checkpoint
}

// NewCurve is the learning curve of the training run folder that p.Bot
// names: n of its checkpoints or those at iterations (SelectCheckpoints).
// An error says when the folder holds no checkpoints or lacks one named.
func NewCurve(p Plan, n int, iterations []int) (Curve, error) {
	label, rest := agents.SplitLabel(p.Bot)
	if label == "" {
		label = "net"
	}
	base, _, _, err := neural.SplitPlaySpecGiven(rest)
	if err != nil {
		return Curve{}, err
	}
	all, err := neural.RunCheckpoints(base)
	if err != nil {
		return Curve{}, err
	}
	cps, err := SelectCheckpoints(all, n, iterations)
	if err != nil {
		return Curve{}, fmt.Errorf("%s: %w", base, err)
	}
	return Curve{Plan: p, Checkpoints: cps, base: base, label: label, settings: rest[len(base):]}, nil
}

// SelectCheckpoints picks the points of a curve from a run's checkpoints
// (in the order of their iterations): the ones at iterations when any are
// given (an error lists the iterations there are), else n of them evenly
// spaced from the first to the last (all of them when there are n or
// fewer).
func SelectCheckpoints(cps []neural.RunCheckpoint, n int, iterations []int) ([]neural.RunCheckpoint, error) {
	if len(iterations) > 0 {
		var out []neural.RunCheckpoint
		for _, it := range iterations {
			k := -1
			for i, c := range cps {
				if c.Iteration == it {
					k = i
				}
			}
			if k < 0 {
				have := make([]string, len(cps))
				for i, c := range cps {
					have[i] = strconv.Itoa(c.Iteration)
				}
				return nil, fmt.Errorf("no checkpoint of iteration %d (the run has %v)", it, have)
			}
			out = append(out, cps[k])
		}
		return out, nil
	}
	if n <= 0 || n >= len(cps) {
		return cps, nil
	}
	if n == 1 {
		return cps[len(cps)-1:], nil
	}
	out := make([]neural.RunCheckpoint, n)
	for i := range out {
		out[i] = cps[i*(len(cps)-1)/(n-1)]
	}
	return out, nil
}

// Run plays the tables of every checkpoint, first to last, and prints the
// curve as a table, a row per checkpoint and a column per held-out bot
// (the margin a game with its 95% interval); with Report set, each
// checkpoint's tables' reports go to Report/iter-N/<held-out bot> and the
// curve to Report/curve.csv and Report/curve.png. Stopped (ctx), it keeps
// the points finished.
func (c Curve) Run(ctx context.Context, w io.Writer) error {
	fmt.Fprintf(w, "%s: the learning curve against %s's held-out bots, %d checkpoints, each table %s, every seating order, seed %d:\n",
		c.base, c.Config.Game().Name, len(c.Checkpoints), c.beside(), c.Seed)
	var pts []eval.CurvePoint
	for _, cp := range c.Checkpoints {
		if c.Progress != nil {
			fmt.Fprintf(c.Progress, "iteration %d\n", cp.Iteration)
		}
		p := c.Plan
		p.Bot = c.label + "=" + cp.Path + c.settings
		report := ""
		if c.Report != "" {
			report = filepath.Join(c.Report, neural.CheckpointName(cp.Iteration))
		}
		ms, err := p.tables(ctx, CurveGames, report)
		if err != nil {
			return fmt.Errorf("iteration %d: %w", cp.Iteration, err)
		}
		if len(ms) < len(c.Held) {
			break // stopped
		}
		for _, m := range ms {
			pts = append(pts, eval.CurvePoint{X: cp.Iteration, Series: m.B, Margin: m})
		}
	}
	if err := writeCurve(w, c.Held, pts); err != nil {
		return err
	}
	if len(pts) < len(c.Held)*len(c.Checkpoints) {
		fmt.Fprintf(w, "stopped early: %d of %d checkpoints played\n", len(pts)/max(len(c.Held), 1), len(c.Checkpoints))
	}
	if c.Report == "" || len(pts) == 0 {
		return nil
	}
	if err := os.MkdirAll(c.Report, 0o755); err != nil {
		return err
	}
	if err := writeCurveCSV(filepath.Join(c.Report, CurveCSV), pts); err != nil {
		return err
	}
	png, err := eval.PlotCurve(c.label+" − held-out bot (95% interval)", "iteration", c.Held, pts)
	if err != nil {
		return err
	}
	if err := neural.WriteFileAtomic(filepath.Join(c.Report, CurvePNG), png); err != nil {
		return err
	}
	fmt.Fprintf(w, "curve: %s, %s; tables: %s\n", filepath.Join(c.Report, CurvePNG), filepath.Join(c.Report, CurveCSV),
		filepath.Join(c.Report, "iter-N", "<held-out bot>", "report.md"))
	return nil
}

// writeCurve prints pts as a table: a row per iteration, a column per
// held-out bot, each cell the margin a game with its 95% interval and the
// verdict.
func writeCurve(w io.Writer, held []string, pts []eval.CurvePoint) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "iteration\t")
	for _, h := range held {
		fmt.Fprintf(tw, "%s\t", h)
	}
	fmt.Fprintln(tw)
	for i := 0; i < len(pts); i += len(held) {
		fmt.Fprintf(tw, "%d\t", pts[i].X)
		for _, p := range pts[i : i+len(held)] {
			m := p.Margin
			fmt.Fprintf(tw, "%+.2f [%+.2f, %+.2f] %s\t", m.Mean, m.Lo, m.Hi, Verdict(m))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(pts) > 0 {
		fmt.Fprintf(w, "(the bot's margin over each held-out bot, %s a game, %d games a table)\n", pts[0].Margin.Score, pts[0].Margin.Games)
	}
	return nil
}

// writeCurveCSV writes pts to path: iteration, held-out bot, games, the
// two means, the margin and its interval.
func writeCurveCSV(path string, pts []eval.CurvePoint) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(f)
	_ = cw.Write([]string{"iteration", "held_out", "games", "score", "bot_mean", "held_out_mean", "margin", "margin_lo", "margin_hi", "verdict"})
	g := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	for _, p := range pts {
		m := p.Margin
		_ = cw.Write([]string{strconv.Itoa(p.X), p.Series, strconv.Itoa(m.Games), m.Score, g(m.MeanA), g(m.MeanB), g(m.Mean), g(m.Lo), g(m.Hi), Verdict(m)})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
