package eval

import (
	"fmt"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// CurvePoint is one point of a learning curve measured by margins: at X
// (a league round, a training iteration), a bot's per-game margin over
// Series (an eval or held-out bot) with its 95% interval.
type CurvePoint struct {
	X      int
	Series string
	Margin Margin
}

// PlotCurve draws a learning curve of margins as a PNG: one line with
// error bars per series (in the order of series), the dashed zero line a
// margin has to clear, xLabel under the axis and title above it. The
// series' points are set a little apart on the x axis so that their bars
// do not hide one another. The league's curve.png and gridgym heldout
// --curve's draw with it.
func PlotCurve(title, xLabel string, series []string, points []CurvePoint) ([]byte, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	score, lo, hi := "", 0, 0
	first := true
	for _, c := range points {
		if first || c.X < lo {
			lo = c.X
		}
		if first || c.X > hi {
			hi = c.X
		}
		first = false
	}
	step := 1.0
	if len(series) > 0 && hi > lo {
		step = float64(hi-lo) / float64(max(len(points)/len(series), 2)-1)
	}
	for k, s := range series {
		dx := 0.12 * step * (float64(k) - float64(len(series)-1)/2)
		var pts plotter.XYs
		var errs plotter.YErrors
		for _, c := range points {
			if c.Series != s {
				continue
			}
			m := c.Margin
			pts = append(pts, plotter.XY{X: float64(c.X) + dx, Y: m.Mean})
			errs = append(errs, struct{ Low, High float64 }{m.Mean - m.Lo, m.Hi - m.Mean})
			score = m.Score
		}
		if len(pts) == 0 {
			continue
		}
		l, ps, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", s, err)
		}
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", s, err)
		}
		col := plotutil.Color(k)
		l.Color, ps.Color, ps.Shape, bars.Color = col, col, plotutil.Shape(k), col
		p.Add(l, ps, bars)
		p.Legend.Add(s, l, ps)
	}
	zero := plotter.NewFunction(func(float64) float64 { return 0 })
	zero.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(zero)
	p.Y.Label.Text = "margin (" + score + " a game)"
	p.X.Tick.Marker = plainTicks{}
	p.X.Min, p.X.Max = float64(lo)-0.5*step, float64(hi)+0.5*step
	p.Legend.Top, p.Legend.Left = true, true
	return pngOf(p, 7*vg.Inch, 4*vg.Inch)
}

// plainTicks are gonum's default ticks labelled as plainly as their values
// allow (an iteration 250, not 250.00).
type plainTicks struct{}

// Ticks implements plot.Ticker.
func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', -1, 64)
		}
	}
	return ts
}
