package eval

import (
	"bytes"
	"image/png"
	"testing"
)

// PlotCurve draws a landscape PNG for points at spaced iterations (0, 60,
// 120: a learning curve's checkpoints), and other margins draw another
// picture; no points draws an empty plot, not an error.
func TestPlotCurve(t *testing.T) {
	var pts []CurvePoint
	for _, it := range []int{0, 60, 120} {
		for k, s := range []string{"a", "b"} {
			m := float64(it*k)/60 - 1
			pts = append(pts, CurvePoint{X: it, Series: s, Margin: Margin{Score: "cells", Games: 8, Mean: m, Lo: m - 0.5, Hi: m + 0.5}})
		}
	}
	b, err := PlotCurve("net − held-out bot", "iteration", []string{"a", "b"}, pts)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if s := img.Bounds().Size(); s.X < 400 || s.Y < 200 || s.X <= s.Y {
		t.Errorf("the curve is %v, want a landscape picture", s)
	}
	pts[5].Margin.Mean, pts[5].Margin.Hi = 4, 4.5
	other, err := PlotCurve("net − held-out bot", "iteration", []string{"a", "b"}, pts)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(b, other) {
		t.Error("another margin drew the same picture")
	}
	if _, err := PlotCurve("empty", "iteration", []string{"a"}, nil); err != nil {
		t.Errorf("no points: %v", err)
	}
}
