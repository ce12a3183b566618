package slime

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// BenchmarkStep replays recorded random games with Step alone; a step is one
// turn (one Step call). Target: ≥ 5 M steps/s on one core.
func BenchmarkStep(b *testing.B) {
	s := New(config(b))
	rulestest.BenchSteps(b, s, rules.Record(s, 4, nil))
}

// BenchmarkGame plays whole games with RandomMove for the seat to move.
func BenchmarkGame(b *testing.B) { rulestest.BenchGames(b, New(config(b))) }
