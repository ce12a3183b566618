package league

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/gridgym/gridgym/agents/neural"
)

// CurvePlot is the learning curve drawn (curve.png in the league folder):
// the main agent's margin over each eval bot by round, with its 95%
// interval, and the zero line it has to clear.
const CurvePlot = "curve.png"

// curvePlot draws points as CurvePlot's PNG: one line with error bars per
// eval bot, in the order of bots.
func curvePlot(points []CurvePoint, bots []string) ([]byte, error) {
	p := plot.New()
	p.Title.Text = "main agent − eval bot (95% interval)"
	p.X.Label.Text = "round"
	score, last := "", 0
	for k, bot := range bots {
		// Each bot's points a little apart, so that the bars do not hide
		// one another.
		dx := 0.12 * (float64(k) - float64(len(bots)-1)/2)
		var pts plotter.XYs
		var errs plotter.YErrors
		for _, c := range points {
			if c.Bot == bot {
				pts = append(pts, plotter.XY{X: float64(c.Round) + dx, Y: c.Margin})
				last = max(last, c.Round)
				errs = append(errs, struct{ Low, High float64 }{c.Margin - c.MarginLo, c.MarginHi - c.Margin})
				score = c.ScoreName
			}
		}
		if len(pts) == 0 {
			continue
		}
		l, ps, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return nil, err
		}
		c := plotutil.Color(k)
		l.Color, ps.Color, ps.Shape, bars.Color = c, c, plotutil.Shape(k), c
		p.Add(l, ps, bars)
		p.Legend.Add(bot, l, ps)
	}
	zero := plotter.NewFunction(func(float64) float64 { return 0 })
	zero.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(zero)
	p.Y.Label.Text = "margin (" + score + " a game)"
	p.X.Min, p.X.Max = 0.5, float64(last)+0.5
	p.Legend.Top, p.Legend.Left = true, true
	w, err := p.WriterTo(7*vg.Inch, 4*vg.Inch, "png")
	if err != nil {
		return nil, fmt.Errorf("plot: %w", err)
	}
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("plot: %w", err)
	}
	return b.Bytes(), nil
}

// writeCurvePlot writes curve.png from the state (nothing without eval
// bots or points).
func (l *League) writeCurvePlot() error {
	st := l.State
	if len(st.Settings.Eval) == 0 || len(st.Curve) == 0 {
		return nil
	}
	b, err := curvePlot(st.Curve, st.Settings.Eval)
	if err != nil {
		return err
	}
	return neural.WriteFileAtomic(l.abs(CurvePlot), b)
}
