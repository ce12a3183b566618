package eval

import (
	"math"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/stats"
)

func TestPairwise(t *testing.T) {
	out := func(points ...float64) *rules.Outcome { return &rules.Outcome{Points: points} }
	r := &Result{Spec: rules.Spec{Seats: 2}, Config: Config{Bots: []string{"a", "b", "c", "a"}}}
	// a and b: a ahead 6 times, 2 ties, b ahead twice: a scores 7 of 10.
	for i, p := range [][2]float64{{1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {0.5, 0.5}, {0.5, 0.5}, {0, 1}, {0, 1}} {
		if i%2 == 0 {
			r.Games = append(r.Games, GameResult{Lineup: []int{0, 1}, Outcome: out(p[0], p[1])})
		} else { // the second "a" entry is the same agent, seated second
			r.Games = append(r.Games, GameResult{Lineup: []int{1, 3}, Outcome: out(p[1], p[0])})
		}
	}
	// A 4-seat game with a seated twice, ahead of b once and behind once.
	r.Games = append(r.Games, GameResult{Lineup: []int{0, 1, 3, 2}, Outcome: out(3, 2, 1, 0)})
	pw := ComputePairwise(r)
	if len(pw.Names) != 3 || pw.Names[2] != "c" {
		t.Fatalf("names %v", pw.Names)
	}
	for _, tc := range []struct {
		a, b  int
		games int
		score float64
	}{
		{0, 1, 11, 7.5}, // 7 + ½ from the 4-seat game
		{1, 0, 11, 3.5},
		{0, 2, 1, 1}, // both of a's seats ahead of c
		{2, 1, 1, 0},
	} {
		p := pw.Pairs[tc.a][tc.b]
		if p.Games != tc.games || p.Score != tc.score || math.Abs(p.Rate-tc.score/float64(tc.games)) > 1e-12 {
			t.Errorf("%s vs %s: %+v, want %d games, score %v", pw.Names[tc.a], pw.Names[tc.b], p, tc.games, tc.score)
		}
		lo, hi := stats.Wilson(tc.score, float64(tc.games))
		if p.Lo != lo || p.Hi != hi {
			t.Errorf("%s vs %s: interval [%v, %v], want [%v, %v]", pw.Names[tc.a], pw.Names[tc.b], p.Lo, p.Hi, lo, hi)
		}
	}
	// Without the 4-seat game, a vs b is exactly 7 of 10: [0.3968, 0.8922].
	r.Games = r.Games[:10]
	pw = ComputePairwise(r)
	if p := pw.Pairs[0][1]; p.Rate != 0.7 || math.Abs(p.Lo-0.396780) > 1e-5 || math.Abs(p.Hi-0.892209) > 1e-5 {
		t.Errorf("a vs b: %+v, want 0.7 [0.3968, 0.8922]", p)
	}
	if p := pw.Pairs[0][2]; p.Games != 0 || !math.IsNaN(p.Rate) || p.Lo != 0 || p.Hi != 1 {
		t.Errorf("a vs c without common games: %+v", p)
	}
	if p := pw.Pairs[1][1]; p.Games != 0 {
		t.Errorf("diagonal: %+v", p)
	}
}
