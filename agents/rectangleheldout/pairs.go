package rectangleheldout

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

func init() {
	agents.RegisterHeldOut(rectangle.Name, "pairs",
		"held out (issue 54): robots work in pairs, each pair closing the fastest-paying rectangle of side up to 10 near it, the pairs keeping out of each other's rectangles and reusing their own walls",
		func() agents.Agent { return NewPairs() })
}

// Pairs' defaults.
const (
	pairsMaxSide = 10
	pairsHazard  = 1.5
	pairsStall   = 6
	pairsCool    = 4
	pairsSide    = 8 // the opening squares' side
)

// Pairs harvests mid-size rectangles fast. One robot closing a side-k square
// paints 4(k−1) cells for (k−2)² (boxer, planner); all robots closing one
// ring (encloser) wait for the slowest and lose it all to one crossing. A
// pair closes a 10×10 in about 18 moves for 64 cells, two pairs at once,
// and a short ring is seldom crossed. In view coordinates:
//
//   - Teams: robots 0..⌈b/2⌉−1 and the rest (b = 1: one team).
//   - Placement: each team draws a Side×Side square against its edge of the
//     board (team 0 the top, team 1 the bottom; a drawn column), where fewer
//     rival robots cross than in the middle, its robots spread evenly round
//     it.
//   - Moves: each team keeps its rectangle while it is valid and
//     progressing (Stall), its robots painting their arcs (rectangle.Rings).
//     Without one it takes the rectangle of the highest rate, sides up to
//     MaxSide (Rings.Best, Hazard), whose boundary avoids the interior of
//     the other team's rectangle (walls are shared, areas not). With none,
//     or for Cool moves after a stall, its robots take planner's steps.
type Pairs struct {
	MaxSide     int
	Hazard      float64
	Stall, Cool int

	core
	t     [2]team
	other rectangle.Rect // the other team's rectangle while one team chooses
	per   [4 * rectangle.MaxN]rectangle.Pos
}

// NewPairs returns a pairs bot with its defaults.
func NewPairs() *Pairs {
	return &Pairs{MaxSide: pairsMaxSide, Hazard: pairsHazard, Stall: pairsStall, Cool: pairsCool}
}

// Reset implements agents.Agent.
func (a *Pairs) Reset(_ rules.State, seat int, rng *rules.RNG) {
	a.reset(seat, rng)
	for k := range a.t {
		a.t[k].drop()
		a.t[k].cool = 0
	}
}

// split sets the teams' robots.
func (a *Pairs) split(b int) int {
	h := (b + 1) / 2
	a.t[0].size, a.t[1].size = h, b-h
	for i := range b {
		if i < h {
			a.t[0].idx[i] = i
		} else {
			a.t[1].idx[i-h] = i
		}
	}
	if b == 1 {
		return 1
	}
	return 2
}

// Act implements agents.Agent.
func (a *Pairs) Act(st rules.State) rules.Move {
	s := st.(*rectangle.State)
	a.observe(s)
	v := &a.v
	b := v.Robots
	teams := a.split(b)
	if v.MoveNum == 0 {
		return a.place(teams)
	}
	planned := false
	for k := 0; k < teams; k++ {
		t := &a.t[k]
		a.other = rectangle.Rect{R2: -1}
		if teams == 2 {
			a.other = a.t[1-k].cur
		}
		t.load(v, a.blockedFor)
		if !t.valid() {
			t.drop()
		}
		if t.cur.R2 < 0 {
			if t.cool > 0 {
				t.cool--
			} else if q, _ := t.ring.Best(&t.sub, &a.moving, a.Hazard, a.MaxSide, 0); q.R2 >= 0 {
				t.take(q)
			}
		}
		if !t.steps(&a.core, a.Stall, a.Cool) {
			if !planned {
				rectangle.Plans(v, a.plans[:b])
				planned = true
			}
			for j := 0; j < t.size; j++ {
				i := t.idx[j]
				a.setDir(i, a.plans[i].Step)
			}
		}
	}
	// the teams chose apart: a robot stepping where an earlier one goes stays
	for i := range b {
		d := a.dirs[i]
		p := v.Pos[0][i]
		to := rectangle.Pos{R: p.R + dRow[d], C: p.C + dCol[d]}
		for j := 0; j < i; j++ {
			if a.dest[j] == to {
				d, to = rectangle.Stay, p
				break
			}
		}
		a.dirs[i], a.dest[i] = d, to
	}
	return rectangle.DirsMove(a.dirs[:b])
}

// blockedFor is core.blocked plus the interior of the other team's
// rectangle.
func (a *Pairs) blockedFor(r, c int) bool {
	if o := a.other; o.R2 >= 0 && r > o.R1 && r < o.R2 && c > o.C1 && c < o.C2 {
		return true
	}
	return a.blocked(r, c)
}

// place draws each team's opening square and spreads its robots round it.
func (a *Pairs) place(teams int) rules.Move {
	v := &a.v
	n, b := v.N, v.Robots
	k := min(pairsSide, n/2)
	for ti := 0; ti < teams; ti++ {
		t := &a.t[ti]
		r0 := 0 // team 0 against the top edge, team 1 the bottom
		switch {
		case teams == 1:
			r0 = a.rng.U(n - k + 1)
		case ti == 1:
			r0 = n - k
		}
		c0 := a.rng.U(n - k + 1)
		q := rectangle.Rect{R1: r0, C1: c0, R2: r0 + k - 1, C2: c0 + k - 1}
		per := q.Perimeter(a.per[:0])
		L := len(per)
		off := a.rng.U(max(1, L/max(1, t.size)))
		for j := 0; j < t.size; j++ {
			a.pos[t.idx[j]] = per[(off+j*L/t.size)%L]
		}
		t.take(q)
	}
	return rectangle.PlaceMove(n, a.pos[:b])
}
