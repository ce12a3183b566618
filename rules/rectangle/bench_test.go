package rectangle

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// recorded is a game replayed by BenchmarkStep: its moves, step by step.
type recorded [][]rules.Move

// mover makes the moves of all seats for one step.
type mover func(s *State, rng *rules.RNG, dst []rules.Move)

// record plays games of s's parameters, each seeded with its index and
// played by a fresh mover from newMover, and keeps their moves.
func record(s *State, games int, newMover func() mover) []recorded {
	var out []recorded
	for g := 0; g < games; g++ {
		s.Reset()
		rng := rules.NewRNG(uint64(g))
		gen := newMover()
		var rec recorded
		for !s.Done() {
			moves := make([]rules.Move, s.p)
			gen(s, rng, moves)
			s.Step(moves, rng)
			rec = append(rec, moves)
		}
		out = append(out, rec)
	}
	return out
}

func randomMoves(s *State, rng *rules.RNG, dst []rules.Move) {
	for i := range dst {
		dst[i] = s.RandomMove(i, rng)
	}
}

// replay measures Step alone over recorded games (a step is one Step call).
func replay(b *testing.B, s *State, games []recorded) {
	b.ReportAllocs()
	steps := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Reset()
		for _, moves := range games[i%len(games)] {
			s.Step(moves, nil)
		}
		steps += len(games[i%len(games)])
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkStep replays recorded random games at the defaults (20×20, 4
// players, 4 robots).
func BenchmarkStep(b *testing.B) {
	s := NewSized(20, 4, 4, 100, 2000)
	replay(b, s, record(s, 8, func() mover { return randomMoves }))
}

// BenchmarkStepClaims replays games of robots walking squares: a claim in
// most steps, with several candidates at a time.
func BenchmarkStepClaims(b *testing.B) {
	s := NewSized(20, 4, 4, 100, 2000)
	replay(b, s, record(s, 8, func() mover { return (&looper{noise: 8}).moves }))
}

// BenchmarkGame plays whole random games with RandomMove at the defaults.
func BenchmarkGame(b *testing.B) {
	s := NewSized(20, 4, 4, 100, 2000)
	rng := rules.NewRNG(1)
	moves := make([]rules.Move, s.p)
	b.ReportAllocs()
	b.ResetTimer()
	steps := 0
	for i := 0; i < b.N; i++ {
		s.Reset()
		for !s.Done() {
			randomMoves(s, rng, moves)
			s.Step(moves, rng)
			steps++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(steps)/float64(b.N), "steps/game")
}
