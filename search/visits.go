package search

import "github.com/gridgym/gridgym/rules"

// RootVisits appends to moves and visits the agent's own root candidates of
// its last Act and each one's visit count summed over the trees: the search's
// move distribution at that position (Expert Iteration's policy target,
// package train). A position where the seat had a single candidate (no
// search) gives that move with one visit, and one where it had none (not
// active) gives nothing. Before any Act it appends nothing.
func (a *Agent) RootVisits(moves []rules.Move, visits []int32) ([]rules.Move, []int32) {
	own, searched := a.lastRoot()
	if len(own) == 1 {
		return append(moves, own[0].m), append(visits, 1)
	}
	if !searched {
		return moves, visits
	}
	for i, c := range own {
		moves = append(moves, c.m)
		visits = append(visits, a.total[i])
	}
	return moves, visits
}

// RootValues appends to values, for the candidates that RootVisits gives
// and in its order, the agent's seat's mean value of each (search.Value's
// 0..1 summed over the trees' simulations through it, divided by its
// visits; 0 for an unvisited candidate, and for a single candidate that was
// not searched). With the visits it gives the search's action values, the
// "improved action values" policy target of Expert Iteration.
func (a *Agent) RootValues(values []float64) []float64 {
	own, searched := a.lastRoot()
	if len(own) == 1 {
		return append(values, 0)
	}
	if !searched {
		return values
	}
	for i := range own {
		q := 0.0
		if a.total[i] > 0 {
			q = a.wsum[i] / float64(a.total[i])
		}
		values = append(values, q)
	}
	return values
}

// lastRoot is the agent's own root candidates at its last Act (none before
// any Act or where its seat was not active) and whether that Act searched
// them (a.total and a.wsum hold their visits and values).
func (a *Agent) lastRoot() (own []cand, searched bool) {
	if a.seat < 0 || a.seat >= len(a.rootCands) {
		return nil, false
	}
	own = a.rootCands[a.seat]
	return own, len(own) > 1 && len(a.total) == len(own)
}
