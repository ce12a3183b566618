package league

import (
	"bytes"
	"testing"
)

// curve.png shows the league's points (eval.PlotCurve draws it; its test
// checks the picture): another margin, another interval or another round
// draws another picture.
func TestCurvePlot(t *testing.T) {
	var pts []CurvePoint
	for r := 1; r <= 3; r++ {
		for k, bot := range []string{"a", "b"} {
			m := float64(r*k) - 1
			pts = append(pts, CurvePoint{Round: r, Bot: bot, Games: 8, Margin: m, MarginLo: m - 0.5, MarginHi: m + 0.5, ScoreName: "cells"})
		}
	}
	b, err := curvePlot(pts, []string{"a", "b"})
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Fatalf("curve.png: %v", err)
	}
	for name, change := range map[string]func(*CurvePoint){
		"margin":   func(c *CurvePoint) { c.Margin, c.MarginHi = 4, 4.5 },
		"interval": func(c *CurvePoint) { c.MarginLo = -3 },
		"round":    func(c *CurvePoint) { c.Round = 5 },
	} {
		q := append([]CurvePoint(nil), pts...)
		change(&q[5])
		other, err := curvePlot(q, []string{"a", "b"})
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(b, other) {
			t.Errorf("another %s drew the same picture", name)
		}
	}
}
