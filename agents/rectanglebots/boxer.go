// Package rectanglebots holds the scripted bots of Rectangle. No official
// sample bots were published (sample-bots.md), so besides the generic random
// bot there are boxer (below), planner (boxer's squares without memory or
// randomness, the networks' teacher), encloser (planner's squares, and one
// large rectangle for all robots whenever it pays more), mason (an opening
// square laid out at the placement, then a ring of side ≤ 8 whenever there is
// one) and ringer (what the ring planes show). Each sees only a
// competition bot's view (rectangle.View, R19) and answers through the
// codec's move helpers.
//
// # boxer
//
// Every robot draws squares of its player's colour and closes them. In view
// coordinates (own colour 0; there is no rotation):
//
//   - A plan is a square of side k ∈ {3, 4, 5, 6} inside the grid whose
//     boundary cells are all paintable and whose (k−2)² interior cells are all
//     paintable, and whose k×k area does not overlap the plan of another robot
//     of the player. Its gain is (k−2)², its cost the Manhattan distance from
//     the robot to the nearest boundary cell plus the number of boundary cells
//     not painted 0. A robot chooses the plan with the highest gain/(cost+1),
//     uniformly at random among ties.
//   - Placement (move_num 0): robots 0..b−1 in turn choose plans as above
//     with distance 0 (so: a side-6 square uniformly at random where one
//     fits) and are placed on their plan's top-left corner. A robot with no
//     plan goes to a uniformly random cell no other robot of the player took.
//   - Each move, robots 0..b−1 in turn: a plan is dropped when a boundary cell
//     became unpaintable or no interior cell is paintable (claimed); a robot
//     without a plan chooses one. The target is the boundary cell not painted
//     0 nearest to the robot (ties: the first clockwise from the top-left
//     corner). A robot on its target steps off to a neighbour, preferring
//     boundary cells of its plan; otherwise it takes a step that brings it
//     closer to the target, preferring steps onto its plan's boundary;
//     uniformly at random among the preferred steps. Steps onto a cell that
//     another robot of the player occupies or has just chosen are excluded;
//     if none is left the robot stays (X). A robot with no possible plan takes
//     a uniformly random step among those that stay on the grid and avoid the
//     player's other robots (X if none).
package rectanglebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

func init() {
	agents.Register(rectangle.Name, "boxer",
		"each robot traces and closes the best nearby free square (side 3..6) of its colour; a player's robots keep apart",
		func() agents.Agent { return &Boxer{} })
}

// Sides of the squares boxer draws.
const (
	minSide = 3
	maxSide = 6
)

// plan is a robot's square: top-left corner (R, C) and side K (K = 0: none).
type plan struct{ R, C, K int }

// rect is p's square, as rectangle.Plan draws it.
func (p plan) rect() rectangle.Rect { return rectangle.Plan{R: p.R, C: p.C, K: p.K}.Rect() }

func (p plan) onBoundary(r, c int) bool { return p.rect().OnBoundary(r, c) }

func (p plan) overlaps(q plan) bool { return p.rect().Overlaps(q.rect()) }

// perimeter calls f for the boundary cells of p clockwise from the top-left
// corner, until f returns false.
func (p plan) perimeter(f func(r, c int) bool) {
	r, c := p.R, p.C
	dr := [4]int{0, 1, 0, -1}
	dc := [4]int{1, 0, -1, 0}
	for e := 0; e < 4; e++ {
		for s := 0; s < p.K-1; s++ {
			if !f(r, c) {
				return
			}
			r, c = r+dr[e], c+dc[e]
		}
	}
}

// Boxer is the boxer bot (package doc).
type Boxer struct {
	seat  int
	rng   *rules.RNG
	v     rectangle.View
	plans [rectangle.MaxRobots]plan
	pos   []rectangle.Pos
	dirs  []rectangle.Dir

	// free lists the squares of side minSide..maxSide with no unpaintable
	// cell, in choose's order (sides down, then rows, then columns), and own
	// counts the cells painted 0, so that choose weighs only those squares,
	// each in O(1). Late in a game few squares are free, and robots without
	// a plan call choose every move. Built by choose at most once a move
	// (built says they match v).
	free     []plan
	unp, own rectangle.Prefix
	built    bool
}

// Reset implements agents.Agent.
func (a *Boxer) Reset(_ rules.State, seat int, rng *rules.RNG) {
	a.seat, a.rng = seat, rng
	a.plans = [rectangle.MaxRobots]plan{}
}

// Act implements agents.Agent.
func (a *Boxer) Act(st rules.State) rules.Move {
	s := st.(*rectangle.State)
	s.View(a.seat, &a.v)
	a.built = false
	if a.v.MoveNum == 0 {
		return a.place()
	}
	return a.move()
}

func (a *Boxer) place() rules.Move {
	v := &a.v
	a.pos = a.pos[:0]
	for i := 0; i < v.Robots; i++ {
		a.plans[i] = a.choose(i, -1, -1)
		if p := a.plans[i]; p.K > 0 {
			a.pos = append(a.pos, rectangle.Pos{R: p.R, C: p.C})
			continue
		}
		// No square fits: a uniformly random cell not taken by an earlier robot.
		free := v.N*v.N - len(a.pos)
		x := a.rng.U(free)
		for cell := 0; cell < v.N*v.N; cell++ {
			if a.taken(cell/v.N, cell%v.N) {
				continue
			}
			if x == 0 {
				a.pos = append(a.pos, rectangle.Pos{R: cell / v.N, C: cell % v.N})
				break
			}
			x--
		}
	}
	return rectangle.PlaceMove(v.N, a.pos)
}

func (a *Boxer) taken(r, c int) bool {
	for _, p := range a.pos {
		if p.R == r && p.C == c {
			return true
		}
	}
	return false
}

// valid reports whether plan p can still be closed with a gain: no boundary
// cell unpaintable, some interior cell paintable.
func (a *Boxer) valid(p plan) bool {
	if p.K == 0 {
		return false
	}
	ok := true
	p.perimeter(func(r, c int) bool {
		ok = a.v.Board[r][c] != rectangle.Unpaintable
		return ok
	})
	if !ok {
		return false
	}
	for r := p.R + 1; r < p.R+p.K-1; r++ {
		for c := p.C + 1; c < p.C+p.K-1; c++ {
			if a.v.Board[r][c] != rectangle.Unpaintable {
				return true
			}
		}
	}
	return false
}

// choose returns the best plan for robot i at (r, c) (r < 0: not placed, the
// distance counts 0), avoiding the plans of the player's other robots.
func (a *Boxer) choose(i, r, c int) plan {
	v := &a.v
	n := v.N
	if !a.built {
		a.unp.Build(n, func(y, x int) bool { return v.Board[y][x] == rectangle.Unpaintable })
		a.own.Build(n, func(y, x int) bool { return v.Board[y][x] == 0 })
		a.free = a.free[:0]
		for k := maxSide; k >= minSide; k-- {
			for pr := 0; pr+k <= n; pr++ {
				for pc := 0; pc+k <= n; pc++ {
					if a.unp.Sum(n, pr, pc, k, k) == 0 {
						a.free = append(a.free, plan{pr, pc, k})
					}
				}
			}
		}
		a.built = true
	}
	best, bestGain, bestCost, ties := plan{}, 0, 0, 0
next:
	for _, p := range a.free {
		for j := 0; j < v.Robots; j++ {
			if j != i && a.plans[j].K > 0 && a.plans[j].overlaps(p) {
				continue next
			}
		}
		// the boundary cells not painted 0, and the distance to them
		q := p.rect()
		gain, cost := (p.K-2)*(p.K-2), 4*(p.K-1)-int(a.own.Boundary(n, q))
		if r >= 0 {
			cost += q.Dist(r, c)
		}
		// Compare gain/(cost+1) with bestGain/(bestCost+1) exactly.
		switch lhs, rhs := gain*(bestCost+1), bestGain*(cost+1); {
		case ties == 0 || lhs > rhs:
			best, bestGain, bestCost, ties = p, gain, cost, 1
		case lhs == rhs:
			ties++
			if a.rng.U(ties) == 0 {
				best = p
			}
		}
	}
	return best
}

func (a *Boxer) move() rules.Move {
	v := &a.v
	me := &v.Pos[0]
	a.dirs = a.dirs[:0]
	var dest [rectangle.MaxRobots]rectangle.Pos
	blocked := rectangle.OwnBlocked(me, &dest, v.Robots)
	for i := 0; i < v.Robots; i++ {
		r, c := me[i].R, me[i].C
		if !a.valid(a.plans[i]) {
			a.plans[i] = plan{}
			a.plans[i] = a.choose(i, r, c)
		}
		p := a.plans[i]
		d := rectangle.Stay
		if p.K == 0 {
			d = a.pick(i, r, c, func(y, x int) int { return 1 }, blocked)
		} else {
			tr, tc, td := -1, -1, -1
			p.perimeter(func(y, x int) bool {
				if v.Board[y][x] != 0 {
					if dd := abs(y-r) + abs(x-c); td < 0 || dd < td {
						tr, tc, td = y, x, dd
					}
				}
				return true
			})
			// td < 0 (complete but unclaimed) cannot happen; it would wait.
			d = a.toward(i, r, c, tr, tc, td, p.onBoundary, blocked)
		}
		a.dirs = append(a.dirs, d)
		dest[i] = rectangle.Pos{R: r + dRow[d], C: c + dCol[d]}
	}
	return rectangle.DirsMove(a.dirs)
}

var (
	dRow = [5]int{-1, 0, 1, 0, 0}
	dCol = [5]int{0, 1, 0, -1, 0}
)

// toward is boxer's step for robot i at (r, c) with target (tr, tc) at
// distance td: on the target (td 0) a step off, preferring onBoundary cells;
// else a step that brings it closer, preferring onBoundary cells; X when
// td < 0 or no step is left (pick).
func (a *Boxer) toward(i, r, c, tr, tc, td int, onBoundary func(y, x int) bool, blocked func(i, y, x int) bool) rectangle.Dir {
	switch {
	case td < 0:
		return rectangle.Stay
	case td == 0:
		return a.pick(i, r, c, func(y, x int) int {
			if onBoundary(y, x) {
				return 2
			}
			return 1
		}, blocked)
	}
	return a.pick(i, r, c, func(y, x int) int {
		if abs(y-tr)+abs(x-tc) >= td {
			return 0
		}
		if onBoundary(y, x) {
			return 2
		}
		return 1
	}, blocked)
}

// pick chooses, uniformly at random, among the steps N, E, S, W of robot i at
// (r, c) that stay on the grid, are not blocked, and have the highest
// positive preference; Stay if there is none.
func (a *Boxer) pick(i, r, c int, pref func(y, x int) int, blocked func(i, y, x int) bool) rectangle.Dir {
	best, n := rectangle.Stay, 0
	top := 0
	for d := rectangle.North; d < rectangle.Stay; d++ {
		y, x := r+dRow[d], c+dCol[d]
		if y < 0 || y >= a.v.N || x < 0 || x >= a.v.N || blocked(i, y, x) {
			continue
		}
		switch w := pref(y, x); {
		case w <= 0 || w < top:
		case w > top:
			best, n, top = d, 1, w
		default:
			n++
			if a.rng.U(n) == 0 {
				best = d
			}
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
