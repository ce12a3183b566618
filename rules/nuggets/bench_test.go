package nuggets

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// BenchmarkStep replays recorded random games with Step alone; a step is one
// move (four queries and the decay). Target: ≥ 300 k steps/s on one core.
func BenchmarkStep(b *testing.B) {
	s := NewDefault()
	rulestest.BenchSteps(b, s, rules.Record(s, 4, nil))
}

// BenchmarkGame plays whole games with RandomMove for every seat.
func BenchmarkGame(b *testing.B) { rulestest.BenchGames(b, NewDefault()) }
