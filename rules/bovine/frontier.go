package bovine

import (
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bitboard"
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
func (s *State) Frontier(seat int) int { return s.frontier(seat, -1, -1) }

// FrontierAfter is Frontier(seat) as it would be after seat placed a cow on
// the empty cell (r, c) from a connected one (R11): the new cow is connected,
// with any of its cows it joins to the barn, and the cell no longer empty. A scripted bot ranks its
// places by it. (r, c) must be on the board.
func (s *State) FrontierAfter(seat, r, c int) int { return s.frontier(seat, r, c) }

// frontier is Frontier with a cow of seat added at (r, c) when r ≥ 0.
func (s *State) frontier(seat, r, c int) int {
	if !s.Alive(seat) {
		return 0
	}
	var empty, theirs board
	for i := range Size {
		empty[i] = rowMask &^ (s.own[0][i] | s.own[1][i] | s.own[2][i] | s.own[3][i])
	}
	for k := range Seats {
		if k != seat && s.Alive(k) {
			conn := s.Connected(k)
			for i := range Size {
				theirs[i] |= conn[i]
			}
		}
	}
	mine := s.Connected(seat)
	if r >= 0 { // the new cow may join disconnected cows to the barn
		own := s.own[seat]
		own[r] |= 1 << uint(c)
		mine[r] |= 1 << uint(c)
		grids[Size].Fill4(mine[:], own[:])
		empty[r] &^= 1 << uint(c)
	}
	first, _ := reach(mine, theirs, &empty)
	return bitboard.Count(first[:])
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
