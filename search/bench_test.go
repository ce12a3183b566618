package search_test

import (
	"fmt"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/search"
)

// benchBudget is the simulations of one benchmarked move.
const benchBudget = 256

// BenchmarkSearch reports simulations per second of wall time for every
// registered game, the strongest scripted bot as prior and rollouts (depth 8,
// the default), one move of benchBudget simulations per op, from a position
// 10 random steps into the game. trees=1 is one tree on one core; trees=2 is
// root parallelism: run with -cpu 1,2 to see the two trees share one core or
// use two (about 2× the simulations per second on two idle cores).
//
//	go test ./search -run '^$' -bench Search -cpu 1,2
func BenchmarkSearch(b *testing.B) {
	for _, g := range rules.Games() {
		st := position(g, 10, 3)
		if st.Done() {
			b.Fatalf("%s: the position is over after 10 random steps", g.Name)
		}
		seat := 0
		for !st.Active(seat) {
			seat++
		}
		for _, trees := range []int{1, 2} {
			spec := fmt.Sprintf("search:%s@%d:trees=%d", prior(g.Name), benchBudget, trees)
			b.Run(fmt.Sprintf("%s/trees=%d", g.Name, trees), func(b *testing.B) {
				a := newAgent(b, g.Name, spec).(*search.Agent)
				a.Reset(st, seat, rules.NewRNG(1))
				a.Act(st) // the pools are allocated on the first move
				a.Reset(st, seat, rules.NewRNG(1))
				b.ResetTimer()
				for b.Loop() {
					a.Act(st)
				}
				s := a.Stats()
				b.ReportMetric(float64(s.Simulations)/b.Elapsed().Seconds(), "sims/s")
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(max(s.Moves, 1)), "ms/move")
			})
		}
	}
}
