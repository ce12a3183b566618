package risingtide

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// BenchmarkStep replays recorded random games with Step alone; a step is one
// round. Target: ≥ 1 M steps/s on one core.
func BenchmarkStep(b *testing.B) {
	s := newGame(b, false)
	rulestest.BenchSteps(b, s, rules.Record(s, 8, nil))
}

// BenchmarkGame plays whole games with RandomMove for every alive seat.
func BenchmarkGame(b *testing.B) { rulestest.BenchGames(b, newGame(b, false)) }

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
