package slime

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// recordedGame is a random game kept as its seed and the move of the seat to
// move at every turn.
type recordedGame struct {
	seed  uint64
	moves []rules.Move
}

func recordGames(cfg rules.Config, seeds ...uint64) []recordedGame {
	var games []recordedGame
	for _, seed := range seeds {
		s, rng := New(cfg), rules.NewRNG(seed)
		g := recordedGame{seed: seed}
		moves := make([]rules.Move, Seats)
		for !s.Done() {
			m := s.RandomMove(s.ToMove(), rng)
			g.moves = append(g.moves, m)
			moves[s.ToMove()] = m
			s.Step(moves, rng)
		}
		games = append(games, g)
	}
	return games
}

// BenchmarkStep replays pre-drawn random games (default rules): one op is one
// Step call, i.e. one turn.
func BenchmarkStep(b *testing.B) {
	cfg := config(b)
	games := recordGames(cfg, 1, 2, 3, 4)
	s, rng := New(cfg), rules.NewRNG(0)
	moves := make([]rules.Move, Seats)
	g, k := 0, 0
	rng.Seed(games[0].seed)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if k == len(games[g].moves) {
			g, k = (g+1)%len(games), 0
			s.Reset()
			rng.Seed(games[g].seed)
		}
		moves[s.ToMove()] = games[g].moves[k]
		k++
		s.Step(moves, rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkGame plays whole random games (default rules, RandomMove for the
// seat to move); one op is one game.
func BenchmarkGame(b *testing.B) {
	s, rng := New(config(b)), rules.NewRNG(1)
	moves := make([]rules.Move, Seats)
	steps := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Reset()
		for !s.Done() {
			moves[s.ToMove()] = s.RandomMove(s.ToMove(), rng)
			s.Step(moves, rng)
			steps++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}
