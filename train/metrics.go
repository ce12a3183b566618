package train

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Metrics is one iteration's row of metrics.csv.
type Metrics struct {
	Iteration    int
	Elapsed      float64 // seconds since the run started (resumed runs included)
	EnvSteps     int64   // env steps played so far
	Episodes     int     // episodes finished this iteration
	Decisions    int     // learner decisions collected this iteration
	Samples      int     // minibatch samples learned from (epochs × decisions, rounded to minibatches)
	LR           float64
	PGLoss       float64 // clipped policy loss
	ValueLoss    float64 // mean squared value error
	Entropy      float64 // mean policy entropy per head (nats)
	ApproxKL     float64 // mean (old − new) log-probability of the actions taken
	ClipFrac     float64 // share of samples whose ratio left [1−ε, 1+ε]
	GradNorm     float64 // mean global gradient norm before clipping
	MeanReward   float64 // mean total reward (terminal and shaping) per learner seat and episode
	TrainWin     float64 // learner's win share in episodes against scripted bots only (NaN: none)
	EvalWin      float64 // greedy policy's win share against the baselines (NaN: not evaluated)
	EvalScore    float64 // its mean competition score
	EvalPoints   float64 // its mean placement points
	EvalMargin   float64 // its mean score minus the best baseline's (EvalResult.Margin)
	ActSeconds   float64 // time playing (inference, bots, env)
	LearnSeconds float64 // time in gradient steps
	EvalSeconds  float64
	WriteSeconds float64 // checkpoint writing
	KLCoef       float64 // weight of the KL penalty towards the clone (ppo.kl_clone, annealed)
	KLClone      float64 // mean KL(π_clone ‖ π) per sample over the minibatches (NaN: no penalty)
	EntropyCoef  float64 // mean entropy-bonus weight of the steps (the floor's extra included)
}

var metricColumns = []string{"iteration", "elapsed_s", "env_steps", "episodes", "decisions", "samples", "lr",
	"pg_loss", "value_loss", "entropy", "approx_kl", "clip_frac", "grad_norm", "mean_reward", "train_win",
	"eval_win", "eval_score", "eval_points", "eval_margin", "act_s", "learn_s", "eval_s", "write_s",
	"kl_coef", "kl_clone", "entropy_coef"}

func metricsHeader() string { return strings.Join(metricColumns, ",") + "\n" }

func (m Metrics) values() []float64 {
	return []float64{float64(m.Iteration), m.Elapsed, float64(m.EnvSteps), float64(m.Episodes), float64(m.Decisions),
		float64(m.Samples), m.LR, m.PGLoss, m.ValueLoss, m.Entropy, m.ApproxKL, m.ClipFrac, m.GradNorm, m.MeanReward,
		m.TrainWin, m.EvalWin, m.EvalScore, m.EvalPoints, m.EvalMargin, m.ActSeconds, m.LearnSeconds, m.EvalSeconds, m.WriteSeconds,
		m.KLCoef, m.KLClone, m.EntropyCoef}
}

func (t *trainer) appendMetrics(m Metrics) error {
	f, err := os.OpenFile(filepath.Join(t.opt.Dir, "metrics.csv"), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	var sb strings.Builder
	for i, v := range m.values() {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.FormatFloat(v, 'g', 8, 64))
	}
	sb.WriteByte('\n')
	_, err = f.WriteString(sb.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ReadMetrics reads a run's metrics.csv as columns by name.
func ReadMetrics(path string) (map[string][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(bufio.NewReader(f)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("metrics %s: %w", path, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("metrics %s: empty", path)
	}
	cols := map[string][]float64{}
	for _, r := range rows[1:] {
		for i, name := range rows[0] {
			v := math.NaN()
			if i < len(r) {
				if x, err := strconv.ParseFloat(r[i], 64); err == nil {
					v = x
				}
			}
			cols[name] = append(cols[name], v)
		}
	}
	return cols, nil
}

// truncateMetrics drops rows after iteration it (a resumed run rewrites them).
func truncateMetrics(path string, it int) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	var keep strings.Builder
	for i, l := range lines {
		if i == 0 {
			keep.WriteString(l)
			continue
		}
		f := strings.SplitN(l, ",", 2)
		if n, err := strconv.Atoi(f[0]); err == nil && n <= it && strings.HasSuffix(l, "\n") {
			keep.WriteString(l)
		}
	}
	return os.WriteFile(path, []byte(keep.String()), 0o644)
}

// writePlots draws losses.png and winrate.png from metrics.csv.
func (t *trainer) writePlots() error { return WritePlots(t.opt.Dir) }

// WritePlots draws a run folder's losses.png (policy and value loss,
// entropy) and winrate.png (win share against the baselines, in training
// games and greedy evaluations) from its metrics.csv.
func WritePlots(dir string) error {
	cols, err := ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		return err
	}
	if len(cols["iteration"]) == 0 {
		return nil
	}
	line := func(p *plot.Plot, name, col string, k int) error {
		var pts plotter.XYs
		for i, x := range cols["iteration"] {
			if y := cols[col][i]; !math.IsNaN(y) {
				pts = append(pts, plotter.XY{X: x, Y: y})
			}
		}
		if len(pts) == 0 {
			return nil
		}
		l, ps, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		l.Color, ps.Color, ps.Shape = plotutil.Color(k), plotutil.Color(k), plotutil.Shape(k)
		p.Add(l, ps)
		p.Legend.Add(name, l, ps)
		return nil
	}
	p := plot.New()
	p.Title.Text = "losses"
	p.X.Label.Text = "iteration"
	for k, c := range [][2]string{{"policy loss", "pg_loss"}, {"value loss", "value_loss"}, {"entropy", "entropy"}} {
		if err := line(p, c[0], c[1], k); err != nil {
			return err
		}
	}
	if err := p.Save(7*vg.Inch, 4*vg.Inch, filepath.Join(dir, "losses.png")); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	w := plot.New()
	w.Title.Text = "win share against the baselines"
	w.X.Label.Text = "iteration"
	w.Y.Min, w.Y.Max = 0, 1
	for k, c := range [][2]string{{"training games", "train_win"}, {"greedy evaluation", "eval_win"}} {
		if err := line(w, c[0], c[1], k); err != nil {
			return err
		}
	}
	w.Legend.Top, w.Legend.Left = false, false // bottom right: the lines live near the top
	if err := w.Save(7*vg.Inch, 4*vg.Inch, filepath.Join(dir, "winrate.png")); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}
