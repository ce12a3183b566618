package bovinebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

func init() {
	agents.Register(bovine.Name, "voronoi_vera",
		"scripted: greedy's barn rules (take a rival barn, clear a rival cow next to its own), else, while the race for the empty board is on, the place that leaves it the most empty cells it reaches before every rival (its front's Voronoi region, bovine.State.FrontierAfter), nearest its barn among equals; greedy once the race is over",
		func() agents.Agent { return &Voronoi{} })
}

// Voronoi is a scripted bot for Bovine Borders that plays the opening as a
// race: every round all four seats place one cow, so the empty cells a
// seat reaches in fewer side steps than every rival are the cells it
// would win if it went for them. Of its places it plays the one after
// which that region (bovine.State.FrontierAfter) is largest — a cow that
// pushes its front toward the rivals cuts their reach, a cow in its own
// backyard changes nothing — nearest its barn (row+column distance in the
// real board) among equals, uniformly at random among those. Greedy's
// steps 1 and 2 (take a rival barn, clear a rival cow next to its own barn)
// come first, and once no place wins any cell of the race (the board is
// closed) it plays Greedy's move. A place scans every empty cell beside
// its connected cows, one breadth-first race each: about 0.1–1 ms a move
// in the opening, greedy's cost after it.
type Voronoi struct {
	Greedy
	cand []int // real cells of the best places
}

// Act implements agents.Agent.
func (a *Voronoi) Act(st rules.State) rules.Move {
	m, score := a.pick(st)
	s, ok := st.(*bovine.State)
	if !ok || score >= scoreDefend || !s.Alive(a.seat) {
		return m
	}
	conn := s.Connected(a.seat)
	br, bc := bovine.Barn(a.seat)
	best, bestDist := 0, 0
	a.cand = a.cand[:0]
	for r := 0; r < bovine.Size; r++ {
		for c := 0; c < bovine.Size; c++ {
			if s.Cell(r, c) != bovine.Empty || !besideConnected(&conn, r, c) {
				continue
			}
			f := s.FrontierAfter(a.seat, r, c)
			d := abs(r-br) + abs(c-bc)
			switch {
			case f > best || f == best && f > 0 && d < bestDist:
				best, bestDist = f, d
				a.cand = append(a.cand[:0], r*bovine.Size+c)
			case f == best && f > 0 && d == bestDist:
				a.cand = append(a.cand, r*bovine.Size+c)
			}
		}
	}
	if best == 0 {
		return m // the race is over: greedy
	}
	dst := a.cand[a.rng.U(len(a.cand))]
	r, c := dst/bovine.Size, dst%bovine.Size
	for _, n := range [4][2]int{{r - 1, c}, {r, c - 1}, {r, c + 1}, {r + 1, c}} {
		if n[0] >= 0 && n[0] < bovine.Size && n[1] >= 0 && n[1] < bovine.Size && conn[n[0]]>>uint(n[1])&1 != 0 {
			return bovine.FullMove(n[0]*bovine.Size+n[1], dst)
		}
	}
	return m // unreachable: dst is beside a connected cow
}

// besideConnected reports whether (r, c) has a side-neighbour in conn.
func besideConnected(conn *[bovine.Size]uint64, r, c int) bool {
	b := uint64(1) << uint(c)
	return conn[r]&(b<<1|b>>1) != 0 || r > 0 && conn[r-1]&b != 0 || r+1 < bovine.Size && conn[r+1]&b != 0
}
