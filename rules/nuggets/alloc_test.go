package nuggets

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// Step, RandomMove, LogScore and Outcome (without exact ties to settle)
// allocate nothing, so an env may compute rewards every step.
func TestNoAllocs(t *testing.T) {
	s := randomStates(1, 21)[0]
	rng := rules.NewRNG(1)
	o := rules.NewOutcome(Seats)
	moves := make([]rules.Move, Seats)
	if n := testing.AllocsPerRun(100, func() {
		for seat := range moves {
			moves[seat] = s.RandomMove(seat, rng)
		}
		if s.Done() {
			s.SetMoveNum(100)
		}
		s.Step(moves, rng)
		s.LogScore(0)
	}); n != 0 {
		t.Errorf("RandomMove+Step+LogScore: %v allocations", n)
	}
	s.Reset()
	for seat := 0; seat < Seats; seat++ { // distinct scores: no exact comparison
		for x := 0; x <= seat; x++ {
			s.SetCell(x, seat, seat)
		}
	}
	if n := testing.AllocsPerRun(100, func() { s.Outcome(o) }); n != 0 {
		t.Errorf("Outcome: %v allocations", n)
	}
}
