package eval

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Figure is one report plot rendered as a PNG, kept in memory so that the
// HTML report can embed it and WriteReport can also save it.
type Figure struct {
	Name  string // file name under plots/, e.g. "ratings.png"
	Title string // caption
	PNG   []byte
}

// RenderPlots draws the report's figures from a tournament and its ratings:
// ratings with their intervals, the rank distribution of each agent (stacked
// bars) and each agent's score histogram. Agents appear in rating order.
func RenderPlots(r *Result, rt Ratings) ([]Figure, error) {
	order := ratingOrder(r, rt)
	var figs []Figure
	for _, f := range []struct {
		name, title string
		draw        func(*Result, Ratings, []int) ([]byte, error)
	}{
		{"ratings.png", "Plackett–Luce rating with bootstrap interval", plotRatings},
		{"ranks.png", "Rank distribution (share of seats finishing at each rank)", plotRanks},
		{"scores.png", "Per-game score histogram per agent", plotScores},
	} {
		png, err := f.draw(r, rt, order)
		if err != nil {
			return figs, fmt.Errorf("plot %s: %w", f.name, err)
		}
		figs = append(figs, Figure{Name: f.name, Title: f.title, PNG: png})
	}
	return figs, nil
}

// ratingOrder returns the agent indices best-rated first, falling back to
// first-listed order when rt does not match r.
func ratingOrder(r *Result, rt Ratings) []int {
	names, _ := agentsOf(r)
	if len(rt.Order) == len(names) {
		return rt.Order
	}
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	return order
}

// margin keeps nominal-axis labels, which gonum/plot sets flush with the
// canvas edge, from being clipped.
const margin = 8 * vg.Millimeter / 2

func pngOf(p *plot.Plot, w, h vg.Length) ([]byte, error) {
	c := vgimg.New(w, h)
	p.Draw(draw.Crop(draw.New(c), margin, -margin, margin/2, -margin/2))
	return encodePNG(c)
}

func encodePNG(c *vgimg.Canvas) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// rowsHeight sizes a plot with one row per agent.
func rowsHeight(n int) vg.Length {
	return vg.Length(max(3, 1+0.45*float64(n))) * vg.Inch
}

func plotRatings(r *Result, rt Ratings, order []int) ([]byte, error) {
	p := plot.New()
	p.Title.Text = "Rating (Elo scale, mean 0)"
	p.X.Label.Text = "rating"
	if rt.Resamples > 0 {
		p.X.Label.Text = fmt.Sprintf("rating with %.0f%% bootstrap interval (%d resamples)", 100*rt.Level, rt.Resamples)
	}
	n := len(order)
	labels := make([]string, n)
	var pts plotter.XYs
	var errs plotter.XErrors
	for k, i := range order {
		a := rt.Agents[i]
		y := float64(n - 1 - k) // best at the top
		labels[n-1-k] = a.Name
		pts = append(pts, plotter.XY{X: a.Elo, Y: y})
		lo, hi := 0.0, 0.0
		if !math.IsNaN(a.Lo) {
			lo, hi = a.Elo-a.Lo, a.Hi-a.Elo
		}
		errs = append(errs, struct{ Low, High float64 }{lo, hi})
	}
	if n > 0 {
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		s.GlyphStyle.Radius = vg.Points(3.5)
		s.GlyphStyle.Color = plotutil.Color(0)
		p.Add(s)
		if rt.Resamples > 0 {
			eb, err := plotter.NewXErrorBars(struct {
				plotter.XYs
				plotter.XErrors
			}{pts, errs})
			if err != nil {
				return nil, err
			}
			eb.LineStyle.Width = vg.Points(1.5)
			eb.LineStyle.Color = plotutil.Color(0)
			p.Add(eb)
		}
		p.Add(plotter.NewGrid())
		p.NominalY(labels...)
		lo, hi := math.Inf(1), math.Inf(-1) // pad the range so end caps show
		for k, pt := range pts {
			lo, hi = min(lo, pt.X-errs[k].Low), max(hi, pt.X+errs[k].High)
		}
		pad := max(10, 0.06*(hi-lo))
		p.X.Min, p.X.Max = lo-pad, hi+pad
	}
	return pngOf(p, 7*vg.Inch, rowsHeight(n))
}

func plotRanks(r *Result, rt Ratings, order []int) ([]byte, error) {
	names, of := agentsOf(r)
	seats := r.Spec.Seats
	for _, g := range r.Games {
		seats = max(seats, len(g.Lineup))
	}
	counts := make([][]float64, len(names)) // counts[agent][rank-1]
	for i := range counts {
		counts[i] = make([]float64, seats)
	}
	for _, g := range r.Games {
		if g.Outcome == nil {
			continue
		}
		for s, rank := range seatRanks(g.Outcome.Points) {
			counts[of[g.Lineup[s]]][rank-1]++
		}
	}
	p := plot.New()
	p.Title.Text = "Rank distribution"
	p.X.Label.Text = "share of seats"
	p.X.Min, p.X.Max = 0, 1.25 // room for the legend on the right
	var ticks []plot.Tick
	for k := 0; k <= 10; k++ {
		t := plot.Tick{Value: float64(k) / 10}
		if k%2 == 0 {
			t.Label = fmt.Sprintf("%d%%", 10*k)
		}
		ticks = append(ticks, t)
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	n := len(order)
	labels := make([]string, n)
	for k, i := range order {
		labels[n-1-k] = names[i]
	}
	var below *plotter.BarChart
	for rank := 0; rank < seats && n > 0; rank++ {
		vals := make(plotter.Values, n)
		for k, i := range order {
			total := 0.0
			for _, c := range counts[i] {
				total += c
			}
			if total > 0 {
				vals[n-1-k] = counts[i][rank] / total
			}
		}
		bar, err := plotter.NewBarChart(vals, vg.Points(18))
		if err != nil {
			return nil, err
		}
		bar.Horizontal = true
		bar.Color = rankColor(rank, seats)
		bar.LineStyle.Width = 0
		if below != nil {
			bar.StackOn(below)
		}
		below = bar
		p.Add(bar)
		p.Legend.Add(ordinal(rank+1), bar)
	}
	p.Legend.Top = true
	if n > 0 {
		p.NominalY(labels...)
	}
	return pngOf(p, 7*vg.Inch, rowsHeight(n))
}

// rankColor shades ranks from green (1st) through yellow to red (last), the
// ColorBrewer RdYlGn scale.
func rankColor(rank, seats int) color.Color {
	stops := [3][3]float64{{26, 150, 65}, {254, 224, 139}, {215, 25, 28}}
	t := 0.0
	if seats > 1 {
		t = 2 * float64(rank) / float64(seats-1)
	}
	k := min(1, int(t))
	f := t - float64(k)
	var c [3]uint8
	for i := range c {
		c[i] = uint8(stops[k][i] + f*(stops[k+1][i]-stops[k][i]) + 0.5)
	}
	return color.RGBA{R: c[0], G: c[1], B: c[2], A: 255}
}

func plotScores(r *Result, rt Ratings, order []int) ([]byte, error) {
	names, of := agentsOf(r)
	scores := make([][]float64, len(names))
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, g := range r.Games {
		if g.Outcome == nil {
			continue
		}
		for s, bi := range g.Lineup {
			v := g.Outcome.Score[s]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			scores[of[bi]] = append(scores[of[bi]], v)
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	total := 0
	for _, s := range scores {
		total += len(s)
	}
	bins := int(math.Round(math.Sqrt(float64(total) / float64(max(1, len(names))))))
	bins = min(30, max(5, bins))
	width := (hi - lo) / float64(bins)
	name := r.Spec.ScoreName
	if name == "" {
		name = "score"
	}
	rows := max(1, len(order))
	plots := make([][]*plot.Plot, rows)
	for k := range plots {
		p := plot.New()
		plots[k] = []*plot.Plot{p}
		p.X.Min, p.X.Max = lo, hi
		p.Y.Label.Text = "share"
		if k == rows-1 {
			p.X.Label.Text = name
		}
		if k >= len(order) {
			continue
		}
		i := order[k]
		xs := scores[i]
		mean := math.NaN()
		if len(xs) > 0 {
			mean = 0
			for _, x := range xs {
				mean += x
			}
			mean /= float64(len(xs))
		}
		p.Title.Text = fmt.Sprintf("%s (%d games, mean %.3g)", names[i], len(xs), mean)
		h := &plotter.Histogram{Width: width, FillColor: plotutil.Color(k), LineStyle: draw.LineStyle{Width: vg.Points(0.5), Color: color.Black}}
		for b := 0; b < bins; b++ {
			h.Bins = append(h.Bins, plotter.HistogramBin{Min: lo + float64(b)*width, Max: lo + float64(b+1)*width})
		}
		for _, x := range xs {
			b := min(bins-1, int((x-lo)/width))
			h.Bins[b].Weight += 1 / float64(len(xs))
		}
		p.Add(h)
	}
	w, ht := 7*vg.Inch, vg.Length(max(3, 1.7*float64(rows)))*vg.Inch
	c := vgimg.New(w, ht)
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: rows, Cols: 1, PadY: vg.Points(6), PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8)}
	canvases := plot.Align(plots, tiles, draw.Crop(dc, margin, -margin, 0, 0))
	for k := range plots {
		plots[k][0].Draw(canvases[k][0])
	}
	return encodePNG(c)
}
