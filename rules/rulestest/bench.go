package rulestest

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// BenchSteps measures Step alone by replaying recs (the "pre-drawn random
// legal actions" benchmark), after checking that each replay ends in the
// recorded position. It reports steps/s, a step being one Step call.
func BenchSteps(b *testing.B, st rules.State, recs []rules.Recording) {
	rng := rules.NewRNG(0)
	for _, r := range recs {
		if h, _ := rules.Hash(r.Replay(st, rng), nil); h != r.Hash {
			b.Fatalf("replay of seed %d ends in another position: Step is not deterministic", r.Seed)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	steps := 0
	for i := 0; i < b.N; i++ {
		r := &recs[i%len(recs)]
		r.Replay(st, rng)
		steps += len(r.Moves)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchGames plays whole random games (RandomMove for every active seat) and
// reports games/s and steps/game.
func BenchGames(b *testing.B, st rules.State) {
	rng := rules.NewRNG(1)
	moves := make([]rules.Move, st.Spec().Seats)
	b.ReportAllocs()
	b.ResetTimer()
	steps := 0
	for i := 0; i < b.N; i++ {
		st.Reset()
		for !st.Done() {
			rules.RandomMover(st, rng, moves)
			st.Step(moves, rng)
			steps++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(steps)/float64(b.N), "steps/game")
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}
