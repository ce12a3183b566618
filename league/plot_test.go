package league

import (
	"bytes"
	"image/png"
	"testing"
)

// curve.png is a PNG of the plot's size, and it shows the margins: other
// margins draw another picture.
func TestCurvePlot(t *testing.T) {
	var pts []CurvePoint
	for r := 1; r <= 3; r++ {
		for k, bot := range []string{"a", "b"} {
			m := float64(r*k) - 1
			pts = append(pts, CurvePoint{Round: r, Bot: bot, Games: 8, Margin: m, MarginLo: m - 0.5, MarginHi: m + 0.5, ScoreName: "cells"})
		}
	}
	b, err := curvePlot(pts, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if s := img.Bounds().Size(); s.X < 400 || s.Y < 200 || s.X <= s.Y {
		t.Errorf("curve.png is %v, want a landscape picture", s)
	}
	pts[5].Margin, pts[5].MarginHi = 4, 4.5
	other, err := curvePlot(pts, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(b, other) {
		t.Error("another margin drew the same picture")
	}
}
