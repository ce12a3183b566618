// Package rectangleheldout holds Rectangle's held-out bots (issue 54): three
// hand-written bots of styles no other bot of the project plays, registered
// with agents.RegisterHeldOut, so that no training ever sees them. They are
// the test set that measures whether a network learned to play Rectangle or
// only to beat the bots it trained with.
//
//   - blitz: a corner sprinter. It places its robots round a square in a
//     corner before anyone has moved, closes it in its first moves, and
//     grows its territory out of that corner along its own walls.
//   - raider: a wrecker. It scans every rival's paint for the large
//     rectangle that rival is about to close and parks a robot on its
//     boundary (a second robot arriving unpaints the cell, R10, so a parked
//     robot keeps it broken for good); its other robots close rings of their
//     own.
//   - pairs: a mid-size harvester. Its robots work in pairs, each pair
//     closing the best rectangle of side up to 10 near it, the two pairs
//     keeping out of each other's rectangles and reusing their walls.
//
// Every bot sees only a competition bot's view (rectangle.View, R19) and
// answers through the codec's move helpers; all randomness comes from the
// *rules.RNG given to Reset, and none allocates after its first move.
package rectangleheldout

import (
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

var (
	dRow = [5]int{-1, 0, 1, 0, 0}
	dCol = [5]int{0, 1, 0, -1, 0}
)

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// stillLimit: a rival robot that stayed this many moves is parked.
const stillLimit = 3

// core is what the three bots share: the view, the rival robots' counts and
// stillness, and the step rule.
type core struct {
	seat   int
	rng    *rules.RNG
	v      rectangle.View
	prev   [rules.MaxSeats][rectangle.MaxRobots]rectangle.Pos
	still  [rules.MaxSeats][rectangle.MaxRobots]int
	moving [rules.MaxSeats][rectangle.MaxRobots]bool
	rivals [rectangle.MaxN * rectangle.MaxN]uint8 // rival robots on each cell
	parked [rectangle.MaxN * rectangle.MaxN]bool  // a parked rival robot on the cell
	plans  [rectangle.MaxRobots]rectangle.Plan
	dirs   [rectangle.MaxRobots]rectangle.Dir
	dest   [rectangle.MaxRobots]rectangle.Pos
	pos    [rectangle.MaxRobots]rectangle.Pos
}

func (a *core) reset(seat int, rng *rules.RNG) {
	a.seat, a.rng = seat, rng
	a.still = [rules.MaxSeats][rectangle.MaxRobots]int{}
}

// observe reads seat's view and updates the rival robots' tables.
func (a *core) observe(s *rectangle.State) {
	v := &a.v
	s.View(a.seat, v)
	n := v.N
	clear(a.rivals[:n*n])
	clear(a.parked[:n*n])
	if v.MoveNum == 0 {
		return
	}
	for k := 1; k < v.Players; k++ {
		for j := 0; j < v.Robots; j++ {
			p := v.Pos[k][j]
			if v.MoveNum > 1 && p == a.prev[k][j] {
				a.still[k][j]++
			} else {
				a.still[k][j] = 0
			}
			a.prev[k][j] = p
			a.rivals[p.R*n+p.C]++
			a.moving[k][j] = a.still[k][j] < stillLimit
			if !a.moving[k][j] {
				a.parked[p.R*n+p.C] = true
			}
		}
	}
}

// blocked reports a cell no boundary of ours should use: not painted 0 and
// holding two rival robots or a parked one (a robot of ours arriving there
// would make two, and R10 leaves such a cell unpainted).
func (a *core) blocked(r, c int) bool {
	n := a.v.N
	return a.v.Board[r][c] != 0 && (a.rivals[r*n+c] >= 2 || a.parked[r*n+c])
}

// free reports whether robot i may step onto (r, c): on the grid, and not
// where a later robot of ours stands or an earlier one goes.
func (a *core) free(i, r, c int) bool {
	if r < 0 || r >= a.v.N || c < 0 || c >= a.v.N {
		return false
	}
	for j := 0; j < a.v.Robots; j++ {
		p := rectangle.Pos{R: r, C: c}
		if (j < i && a.dest[j] == p) || (j > i && a.v.Pos[0][j] == p) {
			return false
		}
	}
	return true
}

// toward is robot i's step to the target (tr, tc) at distance td: on the
// target (td 0) a step off, then back on next move (a robot that stays never
// paints, R10); else a step that brings it closer; both preferring cells
// where onB holds and avoiding cells a rival robot stands on (it would
// unpaint them); uniformly at random among the preferred. X when td < 0 or
// no step is left.
func (a *core) toward(i, tr, tc, td int, onB func(r, c int) bool) rectangle.Dir {
	if td < 0 {
		return rectangle.Stay
	}
	r, c := a.v.Pos[0][i].R, a.v.Pos[0][i].C
	n := a.v.N
	best, ties, top := rectangle.Stay, 0, 0
	for d := rectangle.North; d < rectangle.Stay; d++ {
		y, x := r+dRow[d], c+dCol[d]
		if !a.free(i, y, x) {
			continue
		}
		if td > 0 && abs(y-tr)+abs(x-tc) >= td {
			continue
		}
		w := 2
		if onB != nil && onB(y, x) {
			w = 4
		}
		if a.rivals[y*n+x] > 0 && !(y == tr && x == tc) {
			w--
		}
		switch {
		case w > top:
			best, ties, top = d, 1, w
		case w == top:
			ties++
			if a.rng.U(ties) == 0 {
				best = d
			}
		}
	}
	return best
}

// setDir records robot i's step d.
func (a *core) setDir(i int, d rectangle.Dir) {
	a.dirs[i] = d
	p := a.v.Pos[0][i]
	a.dest[i] = rectangle.Pos{R: p.R + dRow[d], C: p.C + dCol[d]}
}

// team is a group of a player's robots closing one rectangle together with
// the ring procedure of package rectangle (Rings), on a view that holds only
// its robots.
type team struct {
	idx     [rectangle.MaxRobots]int // the team's robots (indices in the seat's view)
	size    int
	sub     rectangle.View
	ring    rectangle.Rings
	cur     rectangle.Rect // R2 < 0: none
	lastU   int            // cells to paint at the last assignment (−1: reassign)
	bestPot int            // lowest potential since cur was taken
	since   int            // moves since it fell
	cool    int            // moves left without a rectangle after a stall
}

func (t *team) drop() { t.cur.R2, t.lastU = -1, -1 }

// load copies v into the team's view with only the team's robots, and
// builds its tables with the blocked cells of bl.
func (t *team) load(v *rectangle.View, bl func(r, c int) bool) {
	t.sub = *v
	t.sub.Robots = t.size
	for j := 0; j < t.size; j++ {
		t.sub.Pos[0][j] = v.Pos[0][t.idx[j]]
	}
	t.ring.Load(&t.sub, bl)
}

// valid reports whether the team's rectangle can still be claimed.
func (t *team) valid() bool {
	if t.cur.R2 < 0 {
		return false
	}
	_, ok := t.ring.Valid(t.cur)
	return ok
}

// take makes q the team's rectangle.
func (t *team) take(q rectangle.Rect) {
	t.cur, t.lastU, t.bestPot, t.since = q, -1, 1<<30, 0
}

// steps sets the team's robots' steps on its rectangle (Rings' arcs and
// targets, core.toward's steps) and drops the rectangle when it made no
// progress for stall moves (cool moves without one follow). It reports
// false when the team has no rectangle.
func (t *team) steps(a *core, stall, cool int) bool {
	if t.cur.R2 < 0 || t.size == 0 {
		return false
	}
	q := t.cur
	U, _ := t.ring.Needs(&t.sub, q, a.rivals[:])
	if U > t.lastU || t.lastU < 0 {
		if U > 0 {
			t.ring.Assign(&t.sub)
		}
		t.lastU = U
	}
	pot := U
	for j := 0; j < t.size; j++ {
		tr, tc, td := t.ring.Target(&t.sub, q, j)
		pot += max(td, 0)
		i := t.idx[j]
		a.setDir(i, a.toward(i, tr, tc, td, q.OnBoundary))
	}
	if pot < t.bestPot {
		t.bestPot, t.since = pot, 0
	} else if t.since++; t.since >= stall {
		t.drop()
		t.cool = cool
	}
	return true
}
