package search_test

import (
	"testing"

	"github.com/gridgym/gridgym/agents"
	_ "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/search"
)

// RootVisits after a search of Slime's first position (sequential: every
// legal move of the seat to move is a root candidate, each simulation visits
// the root once) gives legal, distinct moves whose visits add up to the
// budget; a seat that is not to move gets nothing, and before any Act
// nothing either.
func TestRootVisits(t *testing.T) {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	rc, err := g.Configure(nil)
	if err != nil {
		t.Fatal(err)
	}
	st := g.New(rc)
	st.Reset()
	e, err := agents.Lookup("slime", "search:greedy@64:trees=2:depth=2")
	if err != nil {
		t.Fatal(err)
	}
	a := e.New().(*search.Agent)
	if m, v := a.RootVisits(nil, nil); len(m) != 0 || len(v) != 0 {
		t.Fatalf("before Act: %v %v", m, v)
	}
	a.Reset(st, 0, rules.NewRNG(3))
	played := a.Act(st)
	moves, visits := a.RootVisits(nil, nil)
	if len(moves) != len(st.LegalMoves(0, nil)) || len(moves) != len(visits) {
		t.Fatalf("%d candidates, %d visit counts, %d legal moves", len(moves), len(visits), len(st.LegalMoves(0, nil)))
	}
	sum, best := int32(0), 0
	seen := map[rules.Move]bool{}
	for i, m := range moves {
		if !st.Legal(0, m) || seen[m] {
			t.Fatalf("candidate %v: legal %v, repeated %v", m, st.Legal(0, m), seen[m])
		}
		seen[m] = true
		sum += visits[i]
		if visits[i] > visits[best] {
			best = i
		}
	}
	if sum != 64 {
		t.Fatalf("root visits sum to %d, want the budget 64", sum)
	}
	if i := indexOf(moves, played); i < 0 || visits[i] != visits[best] {
		t.Fatalf("played %v (candidate %d), not a most visited candidate (%v, %d visits)", played, i, moves[best], visits[best])
	}
	// RootValues: one mean value in 0..1 per candidate, 0 where unvisited;
	// among the most visited the agent plays the one of highest value.
	values := a.RootValues(nil)
	if len(values) != len(moves) {
		t.Fatalf("%d values for %d candidates", len(values), len(moves))
	}
	for i, q := range values {
		if q < 0 || q > 1 || visits[i] == 0 && q != 0 {
			t.Fatalf("candidate %d: value %v after %d visits", i, q, visits[i])
		}
		if p := indexOf(moves, played); visits[i] == visits[p] && q > values[p] {
			t.Fatalf("played candidate %d (value %v), but %d has as many visits and value %v", p, values[p], i, q)
		}
	}
	b := e.New().(*search.Agent)
	if v := b.RootValues(nil); len(v) != 0 {
		t.Fatalf("RootValues before Act: %v", v)
	}
	b.Reset(st, 1, rules.NewRNG(3))
	b.Act(st)
	if m, _ := b.RootVisits(nil, nil); len(m) > 1 || len(b.RootValues(nil)) != len(m) {
		t.Fatalf("seat 1, not to move: %d candidates, %d values", len(m), len(b.RootValues(nil)))
	}
}

func indexOf(ms []rules.Move, m rules.Move) int {
	for i := range ms {
		if ms[i] == m {
			return i
		}
	}
	return -1
}
