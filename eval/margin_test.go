package eval

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// TestPairMargin checks the per-game margin on a hand-made table: the
// games that seat both bots only, a bot held twice counted by its mean,
// the interval 1.96·s/√n (reports/pair.py's), and the placement points
// where the tournament ranks by them.
func TestPairMargin(t *testing.T) {
	out := func(score ...float64) *rules.Outcome {
		return &rules.Outcome{Score: score, Points: []float64{3, 2, 1, 0}[:len(score)]}
	}
	r := &Result{Spec: rules.Spec{Seats: 4, ScoreName: "cells"}, Config: Config{Bots: []string{"net", "held", "x", "net"}}}
	r.Games = []GameResult{
		{Lineup: []int{0, 1, 2, 2}, Outcome: out(10, 7, 1, 1)},  // +3
		{Lineup: []int{1, 2, 0, 2}, Outcome: out(9, 0, 8, 0)},   // −1
		{Lineup: []int{0, 3, 1, 2}, Outcome: out(6, 2, 5, 0)},   // net's two seats: 4 − 5 = −1
		{Lineup: []int{2, 2, 0, 3}, Outcome: out(1, 1, 30, 30)}, // no held: not counted
		{Lineup: []int{0, 1, 2, 2}},                             // unfinished: not counted
	}
	m, err := PairMargin(r, "net", "held")
	if err != nil {
		t.Fatal(err)
	}
	d := []float64{3, -1, -1}
	mean := 1.0 / 3
	var ss float64
	for _, x := range d {
		ss += (x - mean) * (x - mean)
	}
	half := 1.96 * math.Sqrt(ss/2) / math.Sqrt(3)
	if math.Abs(m.MeanA-(10+8+4)/3.0) > 1e-12 || math.Abs(m.MeanB-(7+9+5)/3.0) > 1e-12 {
		t.Errorf("means %v and %v, want %v and %v", m.MeanA, m.MeanB, 22/3.0, 21/3.0)
	}
	if m.Games != 3 || math.Abs(m.Mean-mean) > 1e-12 || math.Abs(m.Hi-m.Mean-half) > 1e-12 || math.Abs(m.Mean-m.Lo-half) > 1e-12 || m.Score != "cells" {
		t.Errorf("margin %+v, want 3 games, mean %.4f ± %.4f cells", m, mean, half)
	}
	if got := m.String(); !strings.HasPrefix(got, "net − held: +0.33 [") || !strings.HasSuffix(got, "cells a game over 3 games") {
		t.Errorf("String() = %q", got)
	}
	back, err := PairMargin(r, "held", "net")
	if err != nil || math.Abs(back.Mean+m.Mean) > 1e-12 {
		t.Errorf("held − net = %+v, %v; want the negation", back, err)
	}

	r.Spec.Tournament = rules.MeanPoints // placement points: net 3, 1, (3+2)/2; held 2, 3, 1
	m, err = PairMargin(r, "net", "held")
	if err != nil || math.Abs(m.Mean-(1-2+1.5)/3) > 1e-12 || m.Score != "placement points" {
		t.Errorf("by points: %+v, %v; want mean %.4f placement points", m, err, (1-2+1.5)/3)
	}

	for _, bad := range [][2]string{{"net", "nobody"}, {"net", "net"}, {"x", "held"}} {
		if bad[0] == "x" {
			r.Games = r.Games[:1] // one game seats both: no interval
		}
		if _, err := PairMargin(r, bad[0], bad[1]); err == nil {
			t.Errorf("PairMargin(%s, %s): no error", bad[0], bad[1])
		}
	}
	var buf bytes.Buffer // one game left: the line says why, the call does not fail
	if err := WriteMargins(&buf, r, [][2]string{{"net", "held"}, {"net", "nobody"}}); err != nil ||
		!strings.Contains(buf.String(), "net − held: 1 games seat both, want at least 2") || !strings.Contains(buf.String(), "(its bots: net, held, x)") {
		t.Errorf("WriteMargins: %v, wrote %q", err, buf.String())
	}
}
