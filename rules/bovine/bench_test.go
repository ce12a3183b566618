package bovine

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// BenchmarkStep replays recorded random games with Step alone (the replay is
// checked to end in the recorded position); a step is one round. Target:
// ≥ 500 k steps/s on one core.
func BenchmarkStep(b *testing.B) {
	st := newState(false)
	rulestest.BenchSteps(b, st, rules.Record(st, 3, nil))
}

// BenchmarkGame plays whole games with RandomMove for every alive seat (random
// games run the full 10 000 rounds).
func BenchmarkGame(b *testing.B) { rulestest.BenchGames(b, newState(false)) }
