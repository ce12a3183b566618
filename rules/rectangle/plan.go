package rectangle

// # Plans (the encoder's plan and step planes)
//
// A plan is what a boxer-style robot draws: a square of its player's colour
// to close. Plans computes one per robot of the seat from the bot's view
// alone (R19), with no memory and no randomness, so that the learner, the Go
// bot and the exported Python bot (rectangle.py, beside this file, which repeats
// this procedure with NumPy) compute the same plans from the same request.
// The encoder shows them as planes: a network that follows them plays like
// the planner bot (agents/rectanglebots), and training is free to learn
// where to do better. Against boxer, random and pass the planner out-scores
// boxer (90.3 claimed cells against 87.7 in 400 games, seats rotated): it
// also encloses earlier claims and keeps clear of parked robots, which
// boxer does not.
//
// Candidates are the k×k squares, k = 3..6, inside the grid whose boundary
// has no unpaintable cell and whose interior has a paintable one (R11 could
// claim them; the interior may hold earlier claims, as in E4), and:
//
//   - at a move, whose boundary has no cell, not painted 0, that holds two
//     or more robots of other players (robots parked there, as R9 parks a
//     failed bot's on (0,0), would keep it unpainted for good, R10);
//   - at the placement, other than the one with top-left corner (0,0), where
//     R9 puts every robot of a bot that fails to place.
//
// A candidate's gain is its number of paintable interior cells (R13); its
// cost for a robot at (r, c) is the number of its boundary cells not
// painted 0 plus the Manhattan distance from (r, c) to its nearest boundary
// cell (0 at the placement, where robots have no cell yet); its value is
// gain/(cost+1) (float64 division: equal ratios give equal floats, unequal
// ones of these sizes differ by far more than rounding). A robot's best
// candidate is the one of highest value, the first in scan order among
// ties: k descending, then top row, then left column ascending.
//
//   - Assignment: b rounds; each gives the robot whose best candidate not
//     overlapping a plan already given has the highest value (the lowest
//     robot index among ties) that candidate as its plan. A robot with no
//     candidate left has none. (A global order, not robot 0 first: a robot
//     halfway round its square keeps it when another robot's best moves.)
//   - Target (moves only): the boundary cell of the plan not painted 0 with
//     no robot of another player on it that is nearest to the robot, then
//     the nearest one with such a robot; the first clockwise from the
//     top-left corner among equals. None when the boundary is complete.
//   - Step: at the placement, the robot goes on its plan's top-left corner.
//     At a move, robots 0..b−1 in turn: a robot on its target waits (X) when
//     a hash bit of the request says so (waits: robots of two players that
//     step off and back onto one cell in step would never paint it);
//     otherwise, among N, E, S, W onto the grid and onto no cell that
//     robots i+1.. of the seat hold or robots ..i−1 step onto, the first
//     with the highest positive preference: on the target every step has 1,
//     2 onto the plan's boundary; elsewhere a step that does not bring the
//     robot closer to the target has 0, another 1, 2 onto the boundary.
//     None, or no plan or target: X.

// Side range of the planned squares.
const (
	planMinSide = 3
	planMaxSide = 6
)

// Plan is one robot's plan: the K×K square with top-left corner (R, C) (K = 0:
// none), its target cell (TR < 0: none) and the step toward it.
type Plan struct {
	R, C, K int
	TR, TC  int
	// Step is the direction at a move; at the placement, the robot goes on
	// (R, C).
	Step Dir
}

// Rect is p's square.
func (p Plan) Rect() Rect { return Rect{p.R, p.C, p.R + p.K - 1, p.C + p.K - 1} }

func (p Plan) overlaps(q Plan) bool { return p.Rect().Overlaps(q.Rect()) }

// OnBoundary reports whether (r, c) is on the boundary of p's square.
func (p Plan) OnBoundary(r, c int) bool { return p.Rect().OnBoundary(r, c) }

// dist is the Manhattan distance from (r, c) to p's nearest boundary cell.
func (p Plan) dist(r, c int) int { return p.Rect().Dist(r, c) }

// Prefix is a 2-D prefix sum table of an n×n grid, (n+1)² entries: Plans
// counts the cells of a square's boundary and interior with it in O(1), and
// so can the bots that weigh rectangles.
type Prefix [(MaxN + 1) * (MaxN + 1)]int32

// Build fills t with the cells (r, c) of the n×n grid where f holds.
func (t *Prefix) Build(n int, f func(r, c int) bool) {
	w1 := n + 1
	for r := 0; r < n; r++ {
		var run int32
		for c := 0; c < n; c++ {
			if f(r, c) {
				run++
			}
			t[(r+1)*w1+c+1] = t[r*w1+c+1] + run
		}
	}
}

// Sum returns the count over rows r..r+h−1 and columns c..c+w−1.
func (t *Prefix) Sum(n, r, c, h, w int) int32 {
	w1 := n + 1
	return t[(r+h)*w1+c+w] - t[r*w1+c+w] - t[(r+h)*w1+c] + t[r*w1+c]
}

// planner is the scratch of one Plans call.
type planner struct {
	unp, own Prefix             // unpaintable cells; cells painted 0
	stuck    Prefix             // cells not painted 0 holding two or more robots of other players
	foreign  [MaxN]uint64       // foreign[r] bit c: another player's robot on (r, c)
	plans    [MaxRobots]Plan    // assigned plans
	given    [MaxRobots]bool    // plans[i] is assigned
	best     [MaxRobots]Plan    // best candidate of each robot not given yet
	bestV    [MaxRobots]float64 // its value (−1: none)
}

// Plans fills plans[:v.Robots] with the seat's plans in view v (see above).
// It allocates nothing.
func Plans(v *View, plans []Plan) {
	var pl planner
	pl.plan(v, plans[:v.Robots])
}

func (pl *planner) plan(v *View, plans []Plan) {
	n, b := v.N, v.Robots
	placing := v.MoveNum == 0
	w1 := n + 1
	var count [MaxN * MaxN]uint8 // robots of other players on each cell (moves only)
	if !placing {
		for k := 1; k < v.Players; k++ {
			for j := 0; j < b; j++ {
				y, x := v.Pos[k][j].R, v.Pos[k][j].C
				pl.foreign[y] |= 1 << uint(x)
				count[y*n+x]++
			}
		}
	}
	for r := 0; r < n; r++ {
		var ru, ro, rs int32
		for c := 0; c < n; c++ {
			switch v.Board[r][c] {
			case Unpaintable:
				ru++
			case 0:
				ro++
			}
			if count[r*n+c] >= 2 && v.Board[r][c] != 0 {
				rs++
			}
			pl.unp[(r+1)*w1+c+1] = pl.unp[r*w1+c+1] + ru
			pl.own[(r+1)*w1+c+1] = pl.own[r*w1+c+1] + ro
			pl.stuck[(r+1)*w1+c+1] = pl.stuck[r*w1+c+1] + rs
		}
	}
	for i := 0; i < b; i++ {
		pl.best[i], pl.bestV[i] = pl.candidate(v, i, placing)
	}
	for round := 0; round < b; round++ {
		bi := -1
		for i := 0; i < b; i++ {
			if !pl.given[i] && (bi < 0 || pl.bestV[i] > pl.bestV[bi]) {
				bi = i
			}
		}
		p := pl.best[bi]
		pl.given[bi], pl.plans[bi] = true, p
		if p.K == 0 {
			continue
		}
		// Only robots whose best candidate overlaps p need another: removing
		// candidates that are not the first best does not change the first
		// best.
		for i := 0; i < b; i++ {
			if !pl.given[i] && pl.best[i].K > 0 && pl.best[i].overlaps(p) {
				pl.best[i], pl.bestV[i] = pl.candidate(v, i, placing)
			}
		}
	}
	for i := range plans {
		plans[i] = pl.plans[i]
		plans[i].TR, plans[i].TC, plans[i].Step = -1, -1, Stay
	}
	if placing {
		return
	}
	for i := range plans {
		if plans[i].K > 0 {
			pl.target(v, &plans[i], v.Pos[0][i].R, v.Pos[0][i].C)
			plans[i].Step = pl.step(v, plans, i)
		}
	}
}

// candidate returns robot i's best candidate not overlapping a plan given
// so far, and its value (K = 0 and −1: none).
func (pl *planner) candidate(v *View, i int, placing bool) (Plan, float64) {
	n := v.N
	r, c := v.Pos[0][i].R, v.Pos[0][i].C
	best, bestV := Plan{}, -1.0
	for k := planMaxSide; k >= planMinSide; k-- {
		inner := int32((k - 2) * (k - 2))
		ring := int32(4*k - 4)
		for pr := 0; pr+k <= n; pr++ {
			// A square's value is at most inner/(ring − the cells painted
			// 0 in its rows + its distance + 1): a square that cannot beat
			// the best so far is passed over before its prefix sums.
			paint := int(max(0, ring-pl.own.Sum(n, pr, 0, k, n)))
			if float64(inner)/float64(paint+1) <= bestV {
				continue
			}
		next:
			for pc := 0; pc+k <= n; pc++ {
				in := pl.unp.Sum(n, pr+1, pc+1, k-2, k-2)
				if pl.unp.Sum(n, pr, pc, k, k) != in || in == inner {
					continue // an unpaintable boundary cell, or no gain (R11)
				}
				if placing && pr == 0 && pc == 0 ||
					!placing && pl.stuck.Sum(n, pr, pc, k, k) != pl.stuck.Sum(n, pr+1, pc+1, k-2, k-2) {
					continue // (0,0) at the placement; parked robots at a move
				}
				p := Plan{R: pr, C: pc, K: k}
				d := 0
				if !placing {
					d = p.dist(r, c)
				}
				gain := float64(inner - in)
				if gain/float64(paint+d+1) <= bestV {
					continue
				}
				for j := range v.Robots {
					if pl.given[j] && pl.plans[j].K > 0 && pl.plans[j].overlaps(p) {
						continue next
					}
				}
				cost := ring - pl.own.Sum(n, pr, pc, k, k) + pl.own.Sum(n, pr+1, pc+1, k-2, k-2) + int32(d)
				if val := gain / float64(cost+1); val > bestV {
					best, bestV = p, val
				}
			}
		}
	}
	return best, bestV
}

// target sets p's target for a robot at (r, c).
func (pl *planner) target(v *View, p *Plan, r, c int) {
	y, x, td := p.R, p.C, -1
	off := 4 * v.N // more than any distance: cells with a foreign robot come last
	for e := 0; e < 4; e++ {
		for s := 0; s < p.K-1; s++ {
			if v.Board[y][x] != 0 {
				d := abs(y-r) + abs(x-c)
				if pl.foreign[y]>>uint(x)&1 != 0 {
					d += off
				}
				if td < 0 || d < td {
					p.TR, p.TC, td = y, x, d
				}
			}
			y, x = y+dRow[(e+1)&3], x+dCol[(e+1)&3] // E, S, W, N: clockwise
		}
	}
}

// waits reports whether robot i, on its target, waits this move: a hash
// bit of move_num, i, the own score and the own robots' cells, so that two
// robots (of two players, even two copies of this planner) that keep
// stepping off and back onto one cell at the same moves fall out of step.
func waits(v *View, i int) bool {
	x := uint32(v.MoveNum)*2654435761 + uint32(i)*40503 + uint32(v.Scores[0])*97
	for j := 0; j < v.Robots; j++ {
		x += uint32((v.Pos[0][j].R*64 + v.Pos[0][j].C) * (j + 1))
	}
	x ^= x >> 15
	x *= 0x2c1b3c6d
	x ^= x >> 12
	return x&1 == 1
}

// step returns robot i's step (plans[:i] have theirs).
func (pl *planner) step(v *View, plans []Plan, i int) Dir {
	p := plans[i]
	if p.TR < 0 {
		return Stay
	}
	me := &v.Pos[0]
	r, c := me[i].R, me[i].C
	td := abs(p.TR-r) + abs(p.TC-c)
	if td == 0 && waits(v, i) {
		return Stay
	}
	best, top := Stay, 0
	for d := North; d < Stay; d++ {
		y, x := r+dRow[d], c+dCol[d]
		if y < 0 || y >= v.N || x < 0 || x >= v.N {
			continue
		}
		blocked := false
		for j := 0; j < v.Robots && !blocked; j++ {
			switch {
			case j < i:
				s := plans[j].Step
				blocked = me[j].R+dRow[s] == y && me[j].C+dCol[s] == x
			case j > i:
				blocked = me[j].R == y && me[j].C == x
			}
		}
		if blocked {
			continue
		}
		w := 1
		if td > 0 && abs(p.TR-y)+abs(p.TC-x) >= td {
			w = 0
		} else if p.OnBoundary(y, x) {
			w = 2
		}
		if w > top {
			best, top = d, w
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
