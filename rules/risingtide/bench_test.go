package risingtide

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// recorded is a random game: its Step seed and the moves of every round.
type recorded struct {
	seed  uint64
	moves [][]rules.Move
}

// record plays n random games (RandomMove from a separate generator) and keeps
// their moves, so a benchmark can replay them with Step alone.
func record(b *testing.B, n int) []recorded {
	var games []recorded
	for g := 0; g < n; g++ {
		s := newGame(b, false)
		rec := recorded{seed: uint64(1000 + g)}
		stepRNG, moveRNG := rules.NewRNG(rec.seed), rules.NewRNG(uint64(2000+g))
		for !s.Done() {
			m := make([]rules.Move, Seats)
			for seat := range m {
				m[seat] = s.RandomMove(seat, moveRNG)
			}
			rec.moves = append(rec.moves, m)
			s.Step(m, stepRNG)
		}
		games = append(games, rec)
	}
	return games
}

// BenchmarkStep replays recorded random games; a step is one Step call (one round).
func BenchmarkStep(b *testing.B) {
	games := record(b, 8)
	s := newGame(b, false)
	rng := rules.NewRNG(0)
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

// BenchmarkGame plays whole games with RandomMove for every seat.
func BenchmarkGame(b *testing.B) {
	s := newGame(b, false)
	rng := rules.NewRNG(1)
	moves := make([]rules.Move, Seats)
	b.ReportAllocs()
	b.ResetTimer()
	steps := 0
	for i := 0; i < b.N; i++ {
		s.Reset()
		for !s.Done() {
			for seat := range moves {
				moves[seat] = s.RandomMove(seat, rng)
			}
			s.Step(moves, rng)
			steps++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(steps)/float64(b.N), "steps/game")
}

// BenchmarkAllPassGame plays the E6 game (503 rounds, flooding ring by ring).
func BenchmarkAllPassGame(b *testing.B) {
	s := newGame(b, false)
	rng := rules.NewRNG(1)
	moves := make([]rules.Move, Seats)
	b.ReportAllocs()
	steps := 0
	for i := 0; i < b.N; i++ {
		s.Reset()
		for !s.Done() {
			s.Step(moves, rng)
			steps++
		}
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkRandomMove draws one seat's move in mid-game positions.
func BenchmarkRandomMove(b *testing.B) {
	states := randomStates(b, false, 16)
	rng := rules.NewRNG(1)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s := states[i%len(states)]
		s.RandomMove(i%Seats, rng)
	}
}
