package eval

import (
	"math"
	"slices"
	"testing"

	"github.com/gridgym/gridgym/agents"
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

// A tournament's worker plays its games one after another on one env.Vec:
// every game equals the same game played alone by PlayGame from (seed,
// index), nothing carried over from the game before (steps, outcome,
// errors and the digest of its moves, every game).
func TestRunGamesEqualPlayGame(t *testing.T) {
	for _, g := range rules.Games() {
		t.Run(g.Name, func(t *testing.T) {
			cfg := g.Default()
			names := agents.Names(g.Name)
			res, err := Run(t.Context(), Config{Game: cfg, Bots: names, Games: 3, Seed: 17, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			entries := make([]agents.Entry, len(names))
			for i, n := range names {
				if entries[i], err = agents.Lookup(g.Name, n); err != nil {
					t.Fatal(err)
				}
			}
			for _, gr := range res.Games {
				alone := PlayGame(cfg, entries, gr.Lineup, 17, uint64(gr.Index), nil)
				if alone.Digest != gr.Digest || gr.Digest == 0 {
					t.Fatalf("game %d: moves digest %x in the tournament, %x alone", gr.Index, gr.Digest, alone.Digest)
				}
				if alone.Steps != gr.Steps || !slices.Equal(alone.Errors, gr.Errors) ||
					!sameFloats(alone.Outcome.Score, gr.Outcome.Score) || !sameFloats(alone.Outcome.Points, gr.Outcome.Points) {
					t.Fatalf("game %d: %d steps, scores %v, errors %v in the tournament; alone %d, %v, %v",
						gr.Index, gr.Steps, gr.Outcome.Score, gr.Errors, alone.Steps, alone.Outcome.Score, alone.Errors)
				}
			}
		})
	}
}

// MoveDigest tells apart games whose moves differ in a seat, a cell or their
// order.
func TestMoveDigest(t *testing.T) {
	a := rules.Move{Kind: 1, N: 2, Arg: [8]int16{3, 4}}
	b := rules.Move{Kind: 1, N: 2, Arg: [8]int16{4, 3}}
	c := rules.Move{Kind: 1, N: 1, Arg: [8]int16{3, 9}} // Arg beyond N is not part of the move
	c2 := rules.Move{Kind: 1, N: 1, Arg: [8]int16{3}}
	games := map[string]uint64{
		"a0":   MoveDigest(0, 0, a),
		"a1":   MoveDigest(0, 1, a),
		"b0":   MoveDigest(0, 0, b),
		"c0":   MoveDigest(0, 0, c),
		"pass": MoveDigest(0, 0, rules.Move{}),
		"ab":   MoveDigest(MoveDigest(0, 0, a), 0, b),
		"ba":   MoveDigest(MoveDigest(0, 0, b), 0, a),
	}
	seen := map[uint64]string{}
	for name, d := range games {
		if other, ok := seen[d]; ok {
			t.Errorf("%s and %s have the same digest %x", name, other, d)
		}
		seen[d] = name
	}
	if MoveDigest(0, 0, c) != MoveDigest(0, 0, c2) {
		t.Errorf("arguments past N changed the digest")
	}
}
