package eval

import (
	"math"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

func TestAggregate(t *testing.T) {
	out := func(score, points, win []float64) *rules.Outcome {
		return &rules.Outcome{Score: score, Points: points, Win: win}
	}
	games := []GameResult{
		{Lineup: []int{0, 1}, Errors: []int{0, 2}, Outcome: out([]float64{3, 1}, []float64{1, 0}, []float64{1, 0})},
		{Lineup: []int{1, 0}, Errors: []int{0, 0}, Outcome: out([]float64{2, 2}, []float64{0.5, 0.5}, []float64{0.5, 0.5})},
	}
	spec := rules.Spec{Seats: 2, Tournament: rules.SumScore}
	st := aggregate(spec, []string{"a", "b"}, games)
	a, b := st[0], st[1]
	if a.Games != 2 || a.Score != 5 || a.MeanScore != 2.5 || a.MeanPoints != 0.75 || a.WinShare != 0.75 {
		t.Errorf("a: %+v", a)
	}
	if b.Score != 3 || b.Errors != 2 || b.Ranks[0] != 1 || b.Ranks[1] != 1 {
		t.Errorf("b: %+v (a tie shares the better rank)", b)
	}
	if math.Abs(a.ScoreCI-1.96*math.Sqrt(0.5)/math.Sqrt(2)) > 1e-12 {
		t.Errorf("a's interval %v", a.ScoreCI)
	}
}
