package rectangleheldout

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

func init() {
	agents.RegisterHeldOut(rectangle.Name, "blitz",
		"held out (issue 54): places every robot round a square in a drawn corner at step 0 and closes it in its first moves, then grows its territory out of the corner along its own walls, all robots on one rectangle of side up to 8 at a time",
		func() agents.Agent { return NewBlitz() })
}

// Blitz's defaults.
const (
	blitzSide    = 8   // the opening square's side
	blitzMargin  = 0   // its distance from the corner's two edges
	blitzHazard  = 1.5 // moves added per expected crossing by a moving rival robot
	blitzMaxSide = 8   // the longest side of a later rectangle
	blitzStall   = 6   // drop a rectangle after this many moves without progress
	blitzCool    = 4   // then take the squares' steps for this many moves
)

// Blitz is a corner sprinter. Nobody has a robot on the board before the
// placement (R7), so a ring laid out then costs no travel at all: its
// robots start on it, spread evenly, each painting one arc. The centre is
// where every rival's robots cross (a crossing repaints a cell, R10), a
// corner where the fewest do. In view coordinates:
//
//   - Placement: the opening ring is the Side×Side square Margin cells from
//     a drawn corner's two edges, its robots spread evenly round it from a
//     drawn offset (n = 20: 28 cells, 7 moves, 36 cells claimed).
//   - Moves: the team of all robots keeps its rectangle while it is valid
//     and progressing (Stall), each robot painting its arc (rectangle.Rings'
//     Assign and Target, reassigned whenever a rival broke a cell), stepping
//     off a cell to repaint it, away from rival robots where it can. Without
//     one it takes the rectangle of the highest rate, sides up to MaxSide
//     (Rings.Best, Hazard): its own paint counts as done, so it grows its
//     territory out of the corner along its own walls. After a stall it
//     plays the squares (rectangle.Plans) for Cool moves.
type Blitz struct {
	Side, Margin int
	MaxSide      int
	Hazard       float64
	Stall, Cool  int

	core
	t   team
	per [4 * rectangle.MaxN]rectangle.Pos
}

// NewBlitz returns a blitz with its defaults.
func NewBlitz() *Blitz {
	return &Blitz{Side: blitzSide, Margin: blitzMargin, MaxSide: blitzMaxSide, Hazard: blitzHazard, Stall: blitzStall, Cool: blitzCool}
}

// Reset implements agents.Agent.
func (a *Blitz) Reset(_ rules.State, seat int, rng *rules.RNG) {
	a.reset(seat, rng)
	a.t.drop()
	a.t.cool = 0
}

// Act implements agents.Agent.
func (a *Blitz) Act(st rules.State) rules.Move {
	s := st.(*rectangle.State)
	a.observe(s)
	v := &a.v
	b := v.Robots
	if v.MoveNum == 0 {
		return a.place()
	}
	a.t.size = b
	for i := range b {
		a.t.idx[i] = i
	}
	a.t.load(v, a.blocked)
	if !a.t.valid() {
		a.t.drop()
	}
	if a.t.cur.R2 < 0 {
		if a.t.cool > 0 {
			a.t.cool--
		} else {
			if q, _ := a.t.ring.Best(&a.t.sub, &a.moving, a.Hazard, a.MaxSide, 0); q.R2 >= 0 {
				a.t.take(q)
			}
		}
	}
	if !a.t.steps(&a.core, a.Stall, a.Cool) {
		rectangle.Plans(v, a.plans[:b])
		for i := range b {
			a.setDir(i, a.plans[i].Step)
		}
	}
	return rectangle.DirsMove(a.dirs[:b])
}

// place lays out the opening ring and spreads the robots round it.
func (a *Blitz) place() rules.Move {
	v := &a.v
	n, b := v.N, v.Robots
	k := min(a.Side, n)
	m := min(a.Margin, n-k) // the distance from the corner's edges
	r0, c0 := m, m
	if a.rng.U(2) == 1 {
		r0 = n - k - m
	}
	if a.rng.U(2) == 1 {
		c0 = n - k - m
	}
	q := rectangle.Rect{R1: r0, C1: c0, R2: r0 + k - 1, C2: c0 + k - 1}
	per := q.Perimeter(a.per[:0])
	L := len(per)
	off := a.rng.U(max(1, L/b))
	for i := range b {
		a.pos[i] = per[(off+i*L/b)%L]
	}
	a.t.take(q)
	return rectangle.PlaceMove(n, a.pos[:b])
}
