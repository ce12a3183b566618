package search

import "github.com/gridgym/gridgym/rules"

// RootVisits appends to moves and visits the agent's own root candidates of
// its last Act and each one's visit count summed over the trees: the search's
// move distribution at that position (Expert Iteration's policy target,
// package train). A position where the seat had a single candidate (no
// search) gives that move with one visit, and one where it had none (not
// active) gives nothing. Before any Act it appends nothing.
func (a *Agent) RootVisits(moves []rules.Move, visits []int32) ([]rules.Move, []int32) {
	if a.seat < 0 || a.seat >= len(a.rootCands) {
		return moves, visits
	}
	own := a.rootCands[a.seat]
	if len(own) == 1 {
		return append(moves, own[0].m), append(visits, 1)
	}
	if len(a.total) != len(own) {
		return moves, visits // the last Act searched nothing (or none yet)
	}
	for i, c := range own {
		moves = append(moves, c.m)
		visits = append(visits, a.total[i])
	}
	return moves, visits
}
