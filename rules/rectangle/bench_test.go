package rectangle

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// BenchmarkStep replays recorded random games at the defaults (20×20, 4
// players, 4 robots).
func BenchmarkStep(b *testing.B) {
	s := NewSized(20, 4, 4, 100, 2000)
	rulestest.BenchSteps(b, s, rules.Record(s, 8, nil))
}

// BenchmarkStepClaims replays games of robots walking squares: a claim in
// most steps, with several candidates at a time.
func BenchmarkStepClaims(b *testing.B) {
	s := NewSized(20, 4, 4, 100, 2000)
	var l *looper
	rulestest.BenchSteps(b, s, rules.Record(s, 8, func(st rules.State, rng *rules.RNG, moves []rules.Move) {
		if st.Steps() == 0 {
			l = &looper{noise: 8}
		}
		l.moves(st.(*State), rng, moves)
	}))
}

// BenchmarkGame plays whole random games with RandomMove at the defaults.
func BenchmarkGame(b *testing.B) { rulestest.BenchGames(b, NewSized(20, 4, 4, 100, 2000)) }
