package bovine

import (
	"math/bits"

	"github.com/gridgym/gridgym/rules"
)

// PotentialFrontier and PotentialTerritory name the encoder's shaping
// potentials (rules.Potentials).
const (
	PotentialTerritory = "territory" // own cells / 400 (the default)
	PotentialFrontier  = "frontier"  // own cells plus the empty cells reached first, / 400
)

// Frontier returns the number of empty cells seat reaches strictly before
// every live rival: the cell's distance from seat's connected cows (R4), by
// side steps through empty cells, is below each rival's. Only connected cows
// can place (R11), and a seat places one cow a round, so these are the cells
// seat would win a race to: the Voronoi region of its front. It is 0 for an
// eliminated seat. Cells two seats reach in the same number of steps count
// for neither.
func (s *State) Frontier(seat int) int {
	if !s.Alive(seat) {
		return 0
	}
	var empty, theirs board
	for r := range Size {
		empty[r] = rowMask &^ (s.own[0][r] | s.own[1][r] | s.own[2][r] | s.own[3][r])
	}
	for k := range Seats {
		if k != seat && s.Alive(k) {
			c := s.Connected(k)
			for r := range Size {
				theirs[r] |= c[r]
			}
		}
	}
	first, _ := reach(s.Connected(seat), theirs, &empty)
	n := 0
	for _, w := range first {
		n += bits.OnesCount64(w)
	}
	return n
}

// reach races mine against theirs (cow sets that can place) over the empty
// cells: breadth-first, one layer for both sides at a time, both searches
// passing through every empty cell. first holds the cells mine reaches in
// fewer side steps than theirs, rival those theirs reaches in fewer; a cell
// both reach in the same number of steps is in neither. Any frame (a view
// or the real board) will do: the race has no direction.
func reach(mine, theirs board, empty *board) (first, rival board) {
	var nextM, nextT, seenM, seenT board
	g := grids[Size]
	for {
		g.Side4(nextM[:], mine[:])
		g.Side4(nextT[:], theirs[:])
		grew := uint64(0)
		for r := range Size {
			m := nextM[r] & empty[r] &^ seenM[r]
			t := nextT[r] & empty[r] &^ seenT[r]
			first[r] |= m &^ seenT[r] &^ t
			rival[r] |= t &^ seenM[r] &^ m
			seenM[r] |= m
			seenT[r] |= t
			mine[r], theirs[r] = m, t
			grew |= m | t
		}
		if grew == 0 {
			return first, rival
		}
	}
}

// frontierPotential is PotentialFrontier: (territory + Frontier) / 400.
type frontierPotential struct{}

func (frontierPotential) Potential(st rules.State, seat int) float64 {
	s := st.(*State)
	if !s.Alive(seat) {
		return 0
	}
	return float64(s.Territory(seat)+s.Frontier(seat)) / Cells
}

// PotentialNames implements rules.Potentials: territory (Potential's, the
// default) and frontier. The frontier potential also pays for reaching
// contested empty cells before the rivals, where the territory pays only
// for cells already placed: an opening that races for the open board and an
// opening that fills the cells behind its own front gain territory equally
// fast, but only the first takes cells from the rivals' reach.
func (Encoder) PotentialNames() []string { return []string{PotentialTerritory, PotentialFrontier} }

// NamedPotential implements rules.Potentials.
func (e Encoder) NamedPotential(name string) rules.Potential {
	switch name {
	case PotentialTerritory:
		return e
	case PotentialFrontier:
		return frontierPotential{}
	}
	return nil
}
