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

// TestMargin: with margin=X the agent plays its prior's move (the first
// root candidate) unless the most visited candidate's mean value beats the
// prior move's by at least X, and Stats counts the moves it kept and the
// ones it departed on. margin=0 plays exactly what no margin plays.
func TestMargin(t *testing.T) {
	keptAt, departedAt := map[string]int{}, map[string]int{} // over the games, by margin
	for _, g := range rules.Games() {
		for _, margin := range []string{"0", "0.01", "0.05", "0.2"} {
			base := "search:random@64:trees=1:depth=2:extra=4:prior=0.2" // a weak prior, so that the search departs from it
			e, err := agents.Lookup(g.Name, base+":margin="+margin)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := agents.Lookup(g.Name, base)
			if err != nil {
				t.Fatal(err)
			}
			x := e.New().(*search.Agent)
			m := x.Params().Margin
			var kept, departed, searched int
			for pos := uint64(1); pos <= 12; pos++ {
				st := position(g, 6+int(pos), pos)
				if st.Done() {
					continue
				}
				seat := int(pos) % st.Spec().Seats
				for !st.Active(seat) {
					seat = (seat + 1) % st.Spec().Seats
				}
				x.Reset(st, seat, rules.NewRNG(pos))
				played := x.Act(st)
				moves, visits := x.RootVisits(nil, nil)
				values := x.RootValues(nil)
				if len(moves) < 2 {
					continue
				}
				best := 0
				for i := range moves {
					if visits[i] > visits[best] || visits[i] == visits[best] && visits[i] > 0 && values[i] > values[best] {
						best = i
					}
				}
				want, k, d := best, 0, 0
				if best != 0 && m > 0 && visits[0] > 0 && values[best]-values[0] < m {
					want, k = 0, 1
				}
				if want != 0 {
					d = 1
				}
				searched++
				kept, departed = kept+k, departed+d
				if played != moves[want] {
					t.Fatalf("%s margin %s position %d: played %v, want candidate %d %v (visits %v, values %v)",
						g.Name, margin, pos, played, want, moves[want], visits, values)
				}
				if s := x.Stats(); s.Moves != 1 || s.Kept != k || s.Departed != d { // Stats count from the Reset
					t.Fatalf("%s margin %s position %d: Stats %+v, want 1 move, kept %d, departed %d", g.Name, margin, pos, s, k, d)
				}
				if m == 0 {
					y := plain.New()
					y.Reset(st, seat, rules.NewRNG(pos))
					if mv := y.Act(st); mv != played {
						t.Fatalf("%s position %d: margin=0 played %v, no margin %v", g.Name, pos, played, mv)
					}
				}
			}
			t.Logf("%s margin %s: %d searched, kept %d, departed %d", g.Name, margin, searched, kept, departed)
			keptAt[margin] += kept
			departedAt[margin] += departed
		}
	}
	// The positions exercise both branches: without a margin the search
	// departs from its weak prior somewhere, and a wide margin keeps it.
	if departedAt["0"] == 0 || keptAt["0.2"] == 0 || keptAt["0"] != 0 {
		t.Errorf("departed at margin 0: %d, kept at 0.2: %d, kept at 0: %d", departedAt["0"], keptAt["0.2"], keptAt["0"])
	}
}
