// Package bovinebots holds the official sample bots of Bovine Borders
// (sample-bots.md; the controller's sample_ais.py). Each one reads its seat's
// board exactly as a competition bot does (bovine.View: rotated so its barn is
// at (0,0), own cows = 0, empty = −1), decides in view coordinates with the
// same choices and uniform tie-breaking as the original, using its own seeded
// generator, and maps its answer back with bovine.ViewFullMove/ViewDstMove.
//
// Beside them, stronger scripted baselines (greedy.go, voronoi.go, reach.go):
//
// | name | behaviour |
// | --- | --- |
// | `greedy` | takes a rival barn if it can (R12a), else clears a rival cow next to its own barn, else the connected place or capture whose destination has the smallest row+column, a capture ranked lower for each own cow its emptied source cuts off (R4, R11); else moves a disconnected cow; never moves its barn onto a rival (R12b); ties uniformly at random. About 9 µs a move, no allocation; wins about 94% of games against random_raven, defensive_dan_heng and adjacent_asta |
// | `centre_cleo` | greedy's rules, but after filling the cells within row+column 3 of its barn its places and captures take the destination nearest the board's centre first: it races for the middle, which the shipped networks left to whoever came first (reports/bovine-borders/finetune, 2026-11-29); first in 67% of 48 games against greedy, defensive_dan_heng and adjacent_asta, above the shipped network in a 48-game table with greedy and defensive_dan_heng (1.75 points against 1.67). A training opponent |
// | `voronoi_vera` | greedy's barn rules, then while the board is open the place after which it reaches the most empty cells before every rival (voronoi.go) |
// | `reach_rosa` | a one-step simulation: each of its moves played on a copy of the game by the engine, the rivals passing, the best position kept by own and connected cows, the race for the empty cells and the rivals' connected cows (reach.go); a training sparring partner that sees what a capture cuts off |
package bovinebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

func init() {
	agents.Register(bovine.Name, "pass_pompom", "always passes", func() agents.Agent { return &PassPompom{} })
	agents.Register(bovine.Name, "random_raven",
		"a legal destination uniformly at random, sent without a source (the rules draw the source, R8)",
		func() agents.Agent { return &RandomRaven{} })
	agents.Register(bovine.Name, "defensive_dan_heng",
		"uniformly among the legal moves whose destination has the smallest row+column (a diagonal front line)",
		func() agents.Agent { return &DefensiveDanHeng{} })
	agents.Register(bovine.Name, "adjacent_asta",
		"moves from its previous destination to a free neighbour of it; otherwise a uniformly random legal move",
		func() agents.Agent { return &AdjacentAsta{} })
}

// pos is a cell (i, j) of the view.
type pos struct{ i, j int }

// move is a (source, destination) pair in view coordinates.
type move struct{ src, dst pos }

// nearby lists pos's side-neighbours in sample_ais.py's order (they may be off
// the board).
func nearby(p pos) [4]pos {
	return [4]pos{{p.i + 1, p.j}, {p.i - 1, p.j}, {p.i, p.j + 1}, {p.i, p.j - 1}}
}

func inBounds(p pos) bool { return p.i >= 0 && p.i < bovine.Size && p.j >= 0 && p.j < bovine.Size }

// view is a seat's board as the competition passes it (R19).
type view = [bovine.Size][bovine.Size]int8

// allowedMoves appends sample_ais.allowed_moves(board): for every cell not
// owned, row-major, each own side-neighbour (nearby order) as its source.
func allowedMoves(b *view, dst []move) []move {
	for i := 0; i < bovine.Size; i++ {
		for j := 0; j < bovine.Size; j++ {
			if b[i][j] == 0 {
				continue
			}
			to := pos{i, j}
			for _, from := range nearby(to) {
				if inBounds(from) && b[from.i][from.j] == 0 {
					dst = append(dst, move{from, to})
				}
			}
		}
	}
	return dst
}

// allowedDsts appends sample_ais.allowed_dsts(board): the cells not owned with
// an own side-neighbour, row-major.
func allowedDsts(b *view, dst []pos) []pos {
	for i := 0; i < bovine.Size; i++ {
		for j := 0; j < bovine.Size; j++ {
			if b[i][j] == 0 {
				continue
			}
			for _, from := range nearby(pos{i, j}) {
				if inBounds(from) && b[from.i][from.j] == 0 {
					dst = append(dst, pos{i, j})
					break
				}
			}
		}
	}
	return dst
}

// base holds what every bot keeps: its seat and generator.
type base struct {
	seat int
	rng  *rules.RNG
}

// look returns the seat's view, ok=false if st is not a Bovine Borders game.
func (b *base) look(st rules.State) (view, bool) {
	s, ok := st.(*bovine.State)
	if !ok {
		return view{}, false
	}
	return bovine.View(s, b.seat), true
}

func (b *base) full(m move) rules.Move {
	return bovine.ViewFullMove(b.seat, int64(m.src.i), int64(m.src.j), int64(m.dst.i), int64(m.dst.j))
}

// PassPompom is pass_pompom: it always passes.
type PassPompom struct{}

// Reset implements agents.Agent.
func (*PassPompom) Reset(rules.State, int, *rules.RNG) {}

// Act implements agents.Agent.
func (*PassPompom) Act(rules.State) rules.Move { return rules.Move{} }

// RandomRaven is random_raven: random.choice(allowed_dsts(board)), returned as
// a destination only, so the rules pick the source (R8).
type RandomRaven struct {
	base
	dsts []pos
}

// Reset implements agents.Agent.
func (a *RandomRaven) Reset(_ rules.State, seat int, rng *rules.RNG) { a.base = base{seat, rng} }

// Act implements agents.Agent.
func (a *RandomRaven) Act(st rules.State) rules.Move {
	b, ok := a.look(st)
	if !ok {
		return rules.Move{}
	}
	a.dsts = allowedDsts(&b, a.dsts[:0])
	if len(a.dsts) == 0 { // random.choice([]) raises: a pass (R21)
		return rules.Move{}
	}
	d := a.dsts[a.rng.U(len(a.dsts))]
	return bovine.ViewDstMove(a.seat, int64(d.i), int64(d.j))
}

// DefensiveDanHeng is defensive_dan_heng: uniformly among the legal moves
// whose destination has the smallest i + j in its view.
type DefensiveDanHeng struct {
	base
	moves, best []move
}

// Reset implements agents.Agent.
func (a *DefensiveDanHeng) Reset(_ rules.State, seat int, rng *rules.RNG) { a.base = base{seat, rng} }

// Act implements agents.Agent.
func (a *DefensiveDanHeng) Act(st rules.State) rules.Move {
	b, ok := a.look(st)
	if !ok {
		return rules.Move{}
	}
	a.moves = allowedMoves(&b, a.moves[:0])
	a.best = a.best[:0]
	bestScore := 0
	for _, m := range a.moves {
		score := m.dst.i + m.dst.j
		switch {
		case len(a.best) == 0 || score < bestScore:
			bestScore = score
			a.best = append(a.best[:0], m)
		case score == bestScore:
			a.best = append(a.best, m)
		}
	}
	if len(a.best) == 0 {
		return rules.Move{}
	}
	return a.full(a.best[a.rng.U(len(a.best))])
}

// AdjacentAsta is adjacent_asta (sample_ais.AdjacentAsta): it remembers its
// previous destination P, (0,0) at the start. If P is its own, it moves P →
// a uniformly chosen in-bounds side-neighbour of P it does not own; otherwise
// (or with no such neighbour) a uniformly random legal move. The chosen
// destination becomes P.
type AdjacentAsta struct {
	base
	prev  pos
	moves []move
}

// Reset implements agents.Agent; P goes back to (0,0).
func (a *AdjacentAsta) Reset(_ rules.State, seat int, rng *rules.RNG) {
	a.base = base{seat, rng}
	a.prev = pos{}
}

// Prev is the remembered destination P in view coordinates.
func (a *AdjacentAsta) Prev() (i, j int) { return a.prev.i, a.prev.j }

// Act implements agents.Agent.
func (a *AdjacentAsta) Act(st rules.State) rules.Move {
	b, ok := a.look(st)
	if !ok {
		return rules.Move{}
	}
	if b[a.prev.i][a.prev.j] == 0 {
		var cand [4]pos
		n := 0
		for _, p := range nearby(a.prev) {
			if inBounds(p) && b[p.i][p.j] != 0 {
				cand[n] = p
				n++
			}
		}
		if n > 0 {
			m := move{a.prev, cand[a.rng.U(n)]}
			a.prev = m.dst
			return a.full(m)
		}
	}
	a.moves = allowedMoves(&b, a.moves[:0])
	if len(a.moves) == 0 { // random.choice([]) raises before P changes: a pass
		return rules.Move{}
	}
	m := a.moves[a.rng.U(len(a.moves))]
	a.prev = m.dst
	return a.full(m)
}
