package nuggets

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// recorded is a random game: the seed of its Step generator and the moves
// drawn for it (from another generator), replayed by BenchmarkStep.
type recorded struct {
	seed  uint64
	moves [][]rules.Move
}

func record(games int) []recorded {
	out := make([]recorded, games)
	mrng := rules.NewRNG(12345)
	for g := range out {
		r := &out[g]
		r.seed = uint64(1000 + g)
		s, rng := NewDefault(), rules.NewRNG(r.seed)
		for !s.Done() {
			m := make([]rules.Move, Seats)
			for seat := range m {
				m[seat] = s.RandomMove(seat, mrng)
			}
			r.moves = append(r.moves, m)
			s.Step(m, rng)
		}
	}
	return out
}

// BenchmarkStep replays recorded random games; a step is one Step call (four
// queries and, in the build phase, the decay).
func BenchmarkStep(b *testing.B) {
	games := record(4)
	s, rng := NewDefault(), rules.NewRNG(0)
	b.ReportAllocs()
	b.ResetTimer()
	steps := 0
	for i := 0; i < b.N; i++ {
		g := &games[i%len(games)]
		s.Reset()
		rng.Seed(g.seed)
		for _, m := range g.moves {
			s.Step(m, rng)
		}
		steps += len(g.moves)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkGame plays whole random games with RandomMove.
func BenchmarkGame(b *testing.B) {
	s, rng := NewDefault(), rules.NewRNG(1)
	moves := make([]rules.Move, Seats)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.Reset()
		for !s.Done() {
			for seat := range moves {
				moves[seat] = s.RandomMove(seat, rng)
			}
			s.Step(moves, rng)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
