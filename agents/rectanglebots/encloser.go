package rectanglebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

func init() {
	agents.Register(rectangle.Name, "encloser",
		"planner's squares, but whenever one large rectangle pays more, all robots close it together: a ring round the open board claims every paintable cell inside (R11, R13)",
		func() agents.Agent { return NewEncloser() })
	agents.Register(rectangle.Name, "encloser_once",
		"the encloser deciding once after each reset, then following that enclosure, else boxer's squares: a cheap rollout policy that closes rings (search:encloser:roll=encloser_once)",
		func() agents.Agent { e := NewEncloser(); e.Once = true; return e })
}

// Encloser's defaults, tuned on 200-game tables against three boxers,
// against planner + boxer + random, and against boxer + random + pass
// (reports/rectangle/encloser).
const (
	encloserAlpha  = 1.5 // enclose when its rate ≥ Alpha × the squares' rate
	encloserHazard = 1.0 // moves added per expected crossing by a moving rival robot
	encloserStill  = 3   // a rival robot that stayed this many moves is parked
	encloserStall  = 10  // give up an enclosure after this many moves without progress
	encloserCool   = 20  // then play squares for this many moves
	encloserSide   = 20  // the longest side it encloses: the default board's
)

// Encloser plays Rectangle by what neither boxer nor planner sees: R11 lets
// any rectangle whose boundary is all one colour claim every paintable cell
// inside it (R13, earlier claims inside add nothing, E4), and claimed
// interiors never touch the grid's border ring (I1), so a ring round the
// whole open board is always paintable. With 4 robots its 76 cells take
// about 19 moves; planner's 6×6 squares claim 16 cells for 20 painted.
// Measured (reports/rectangle/encloser): against three boxers it claims
// about 120 cells a game where planner claims 70.
//
// In view coordinates (own colour 0):
//
//   - Placement: boxer's (a side-6 square uniformly at random per robot).
//   - Each move it keeps its enclosure while the enclosure is valid (no
//     boundary cell unpaintable or blocked, some interior cell paintable) and
//     progressing: when its potential (boundary cells left to paint + the
//     robots' distances to their targets) has not reached a new low for
//     Stall moves, it drops the enclosure and plays planner's moves for Cool
//     moves.
//   - Without one, it compares every rectangle of the grid (sides 3 to
//     MaxSide) with planner's plans. A rectangle's rate is gain/(t+1): gain = its paintable
//     interior cells; t = the farthest robot's distance to its boundary +
//     ⌈unpainted boundary cells / robots⌉, plus Hazard × Σ over rival robots
//     that moved within Still moves of t/(1 + their distance to the
//     boundary) (a moving robot near the ring repaints it). Blocked boundary
//     cells — not painted 0 and holding two rival robots, or a parked one —
//     rule a rectangle out: a robot arriving there makes two, which R10
//     leaves unpainted. The squares' rate is Σ over planner's plans of
//     gain/(unpainted boundary + distance + 1). It encloses the best
//     rectangle (the first in scan order among equals) when its rate ≥
//     Alpha × the squares' rate, else it takes planner's steps
//     (rectangle.Plans).
//   - Enclosing: when it takes an enclosure, the boundary cells to paint
//     (not painted 0, no rival robot on them), clockwise from the top-left
//     corner, are cut into one run per robot of ⌈U/b⌉ or ⌊U/b⌋ cells; over a
//     few rotations of the cuts and every assignment of runs to robots (b ≤
//     6; robot order above) it keeps the one whose slowest robot (distance to
//     its run's nearer end + run length) is fastest. Each robot owns the arc
//     from its run's first cell to the next run's. Each move a robot heads
//     for the nearest cell to paint in its arc, else the nearest anywhere,
//     stepping as boxer does (a uniform draw among the steps that bring it
//     closer, preferring the boundary; never onto a cell of its own robots);
//     a robot standing on a boundary cell not painted 0 steps off first, as
//     a robot that stays never paints (R10).
type Encloser struct {
	Alpha, Hazard      float64
	Still, Stall, Cool int
	// MaxSide caps an enclosure's sides. Uncapped on a 64×64 board it chose
	// rings it could not close before rivals broke them (343 cells a game
	// against boxer's 1,323, 4 games); capped at 20, 919–1,111 (16 games,
	// planner and boxer 723–858). It changes nothing on boards up to 20.
	MaxSide int
	// Once makes it decide (compare the rectangles with the squares) only at
	// its first move after Reset; afterwards it follows that enclosure while
	// it is valid and progressing, and boxer's squares otherwise. A search's
	// rollout bots are reset once per search and called at every step of
	// every rollout, where the full decision (a scan of every rectangle and
	// planner's plans, ~0.4 ms) would cost more than the search's budget.
	Once bool

	box     Boxer // placement and step choice
	v       rectangle.View
	plans   [rectangle.MaxRobots]rectangle.Plan
	cur     rectangle.Rect // the enclosure (R2 < 0: none)
	bestPot int            // the enclosure's lowest potential so far (enclose)
	since   int            // moves since bestPot fell
	cool    int            // moves left of playing squares after a stall
	prev    [rules.MaxSeats][rectangle.MaxRobots]rectangle.Pos
	still   [rules.MaxSeats][rectangle.MaxRobots]int
	unp     rectangle.Prefix // unpaintable cells
	mine    rectangle.Prefix // cells painted 0
	bad     rectangle.Prefix // blocked cells
	per     []rectangle.Pos
	needs   []int // perimeter indices of the boundary cells to paint
	// arcStart, arcLen: each robot's part of the boundary (assign)
	arcStart, arcLen [rectangle.MaxRobots]int
	arcsSet          bool
	decided          bool // Once: the decision is made
	dirs             []rectangle.Dir
}

// NewEncloser returns an encloser with the tuned defaults.
func NewEncloser() *Encloser {
	return &Encloser{Alpha: encloserAlpha, Hazard: encloserHazard, Still: encloserStill,
		Stall: encloserStall, Cool: encloserCool, MaxSide: encloserSide}
}

// Reset implements agents.Agent.
func (a *Encloser) Reset(st rules.State, seat int, rng *rules.RNG) {
	a.box.Reset(st, seat, rng)
	a.cur, a.cool, a.decided = rectangle.Rect{R2: -1}, 0, false
	a.still = [rules.MaxSeats][rectangle.MaxRobots]int{}
}

// Act implements agents.Agent.
func (a *Encloser) Act(st rules.State) rules.Move {
	s := st.(*rectangle.State)
	if s.MoveNum() == 0 {
		return a.box.Act(st)
	}
	v := &a.v
	s.View(a.box.seat, v)
	n, b := v.N, v.Robots
	var rivals [rectangle.MaxN * rectangle.MaxN]uint8
	var parked [rectangle.MaxN * rectangle.MaxN]bool
	for k := 1; k < v.Players; k++ {
		for j := 0; j < b; j++ {
			p := v.Pos[k][j]
			if v.MoveNum > 1 && p == a.prev[k][j] {
				a.still[k][j]++
			} else {
				a.still[k][j] = 0
			}
			a.prev[k][j] = p
			rivals[p.R*n+p.C]++
			if a.still[k][j] >= a.Still {
				parked[p.R*n+p.C] = true
			}
		}
	}
	if a.Once && a.decided && a.cur.R2 < 0 {
		return a.box.Act(st) // nothing below is used until the next Reset
	}
	a.unp.Build(n, func(r, c int) bool { return v.Board[r][c] == rectangle.Unpaintable })
	a.mine.Build(n, func(r, c int) bool { return v.Board[r][c] == 0 })
	a.bad.Build(n, func(r, c int) bool {
		return v.Board[r][c] != 0 && (rivals[r*n+c] >= 2 || parked[r*n+c])
	})
	if a.cur.R2 >= 0 { // (cool is 0 while it encloses)
		if _, ok := a.valid(a.cur); ok {
			return a.enclose(rivals[:])
		}
		a.cur.R2 = -1
	}
	if a.Once && a.decided {
		return a.box.Act(st)
	}
	a.decided = true
	if a.cool > 0 {
		a.cool--
	}
	rectangle.Plans(v, a.plans[:b]) // only without an enclosure: the squares' rate and steps
	if a.cool == 0 {
		floor := a.Alpha * a.squaresRate()
		if q, rate := a.best(floor); q.R2 >= 0 && rate >= floor {
			a.cur, a.bestPot, a.since, a.arcsSet = q, 1<<30, 0, false
		}
	}
	if a.cur.R2 < 0 {
		a.dirs = a.dirs[:0]
		for _, p := range a.plans[:b] {
			a.dirs = append(a.dirs, p.Step)
		}
		return rectangle.DirsMove(a.dirs)
	}
	return a.enclose(rivals[:])
}

// valid returns q's gain and whether it can still be claimed: no boundary
// cell unpaintable or blocked, a paintable interior cell.
func (a *Encloser) valid(q rectangle.Rect) (int, bool) {
	n := a.v.N
	if a.unp.Boundary(n, q) != 0 || a.bad.Boundary(n, q) != 0 {
		return 0, false
	}
	h, w := q.R2-q.R1-1, q.C2-q.C1-1 // the interior, at least 1×1
	g := h*w - int(a.unp.Sum(n, q.R1+1, q.C1+1, h, w))
	return g, g > 0
}

// squaresRate is the rate of planner's plans: Σ gain/(cost+1).
func (a *Encloser) squaresRate() float64 {
	v := &a.v
	rate := 0.0
	for i, p := range a.plans[:v.Robots] {
		if p.K == 0 {
			continue
		}
		q := p.Rect()
		if g, ok := a.valid(q); ok {
			u := q.Length() - int(a.mine.Boundary(a.v.N, q))
			rate += float64(g) / float64(u+q.Dist(v.Pos[0][i].R, v.Pos[0][i].C)+1)
		}
	}
	return rate
}

// best returns the rectangle of the highest rate (the first in scan order
// among equals) and its rate if that rate is at least floor; R2 < 0: none.
// Only an enclosure that beats the squares (floor) is wanted, so a rectangle
// whose rate is surely below floor, or no better than the best so far, is
// ruled out by upper bounds on its rate before its prefix sums: in the
// opening, where the squares pay more, almost every one.
func (a *Encloser) best(floor float64) (rectangle.Rect, float64) {
	v := &a.v
	n, b := v.N, v.Robots
	best, bq := -1.0, rectangle.Rect{R2: -1}
	// The bounds hold only while the hazard adds time (Hazard ≥ 0).
	bound := a.Hazard >= 0
	var wide [rectangle.MaxN]bool // wide[w]: interior width w passes the band's bound
	for r1 := 0; r1 < n; r1++ {
		for r2 := r1 + 2; r2 < min(n, r1+a.MaxSide); r2++ {
			// A bound per band of rows r1..r2 and interior width w, before
			// any rectangle: gain ≤ the interior (r2−r1−1)·w; time ≥ the
			// robots' row distance to the band + the boundary cells left
			// to paint (at most band of them, the cells painted 0 in
			// these rows, need none) over the robots.
			band := int(a.mine.Sum(n, r1, 0, r2-r1+1, n))
			rowFar := 0
			for i := 0; i < b; i++ {
				rowFar = max(rowFar, r1-v.Pos[0][i].R, v.Pos[0][i].R-r2)
			}
			some := false
			for w := 1; w <= min(n, a.MaxSide)-2; w++ {
				paint := (max(0, 2*(r2-r1)+2*(w+1)-band) + b - 1) / b
				wide[w] = !bound || !beaten(float64((r2-r1-1)*w)/float64(rowFar+paint+1), best, floor)
				some = some || wide[w]
			}
			if !some {
				continue
			}
			for c1 := 0; c1 < n; c1++ {
			rects:
				for c2 := c1 + 2; c2 < min(n, c1+a.MaxSide); c2++ {
					if !wide[c2-c1-1] {
						continue
					}
					q := rectangle.Rect{R1: r1, C1: c1, R2: r2, C2: c2}
					g, ok := a.valid(q)
					if !ok {
						continue
					}
					far := 0
					for i := 0; i < b; i++ {
						far = max(far, q.Dist(v.Pos[0][i].R, v.Pos[0][i].C))
					}
					u := q.Length() - int(a.mine.Boundary(a.v.N, q))
					t := far + (u+b-1)/b
					if bound && beaten(float64(g)/float64(t+1), best, floor) { // the hazard only adds time
						continue
					}
					h := 0.0
					for k := 1; k < v.Players; k++ {
						for j := 0; j < b; j++ {
							if a.still[k][j] < a.Still {
								p := v.Pos[k][j]
								h += float64(t) / float64(1+q.Dist(p.R, p.C))
							}
						}
						// The sum only grows: beaten already, q is out.
						if bound && beaten(float64(g)/float64(t+int(a.Hazard*h)+1), best, floor) {
							continue rects
						}
					}
					t += int(a.Hazard * h)
					if rate := float64(g) / float64(t+1); rate > best {
						best, bq = rate, q
					}
				}
			}
		}
	}
	if best < floor {
		return rectangle.Rect{R2: -1}, best
	}
	return bq, best
}

// beaten reports whether a rectangle whose rate is at most ub cannot be
// best's answer: not above the best so far (the first among equals wins), or
// below floor.
func beaten(ub, best, floor float64) bool { return ub <= best || ub < floor }

// enclose returns the robots' steps toward a.cur's unpainted boundary
// (Encloser's doc, "Enclosing").
func (a *Encloser) enclose(rivals []uint8) rules.Move {
	v := &a.v
	n, b, q := v.N, v.Robots, a.cur
	me := &v.Pos[0]
	a.per = q.Perimeter(a.per[:0])
	a.needs = a.needs[:0] // perimeter indices of the cells to paint
	for k, p := range a.per {
		if v.Board[p.R][p.C] != 0 && rivals[p.R*n+p.C] == 0 {
			a.needs = append(a.needs, k)
		}
	}
	U, L := len(a.needs), len(a.per)
	if !a.arcsSet && U > 0 {
		a.assign()
	}
	var dest [rectangle.MaxRobots]rectangle.Pos
	blocked := ownBlocked(me, &dest, b)
	a.dirs = a.dirs[:0]
	pot := U // the potential: cells to paint + the robots' distances to their targets
	for i := 0; i < b; i++ {
		r, c := me[i].R, me[i].C
		tr, tc, td := -1, -1, -1
		if v.Board[r][c] != 0 && q.OnBoundary(r, c) {
			tr, tc, td = r, c, 0
		}
		for pass := 0; pass < 2 && td < 0; pass++ { // own arc first, then anywhere
			for _, k := range a.needs {
				if pass == 0 && (k-a.arcStart[i]+L)%L >= a.arcLen[i] {
					continue
				}
				p := a.per[k]
				if d := abs(p.R-r) + abs(p.C-c); td < 0 || d < td {
					tr, tc, td = p.R, p.C, d
				}
			}
		}
		pot += max(td, 0)
		// On a boundary cell not painted 0 it steps off, then back on: a
		// robot that stays never paints (R10).
		d := a.box.toward(i, r, c, tr, tc, td, q.OnBoundary, blocked)
		a.dirs = append(a.dirs, d)
		dest[i] = rectangle.Pos{R: r + dRow[d], C: c + dCol[d]}
	}
	if pot < a.bestPot {
		a.bestPot, a.since = pot, 0
	} else if a.since++; a.since >= a.Stall {
		a.cur.R2, a.cool = -1, a.Cool+1 // played from the next move on
	}
	return rectangle.DirsMove(a.dirs)
}

// assign gives each robot an arc of a.cur's boundary (perimeter indices
// arcStart[i], arcLen[i]): the cells to paint, clockwise, are cut into one
// run per robot of about U/b cells; over a few rotations of the cuts and
// every assignment of runs to robots (robot order when b > 6) it keeps the
// one whose slowest robot (distance to its run's nearer end + run length)
// is fastest. A run's arc reaches to the next run's first cell.
func (a *Encloser) assign() {
	v := &a.v
	b, U, L := v.Robots, len(a.needs), len(a.per)
	me := &v.Pos[0]
	runs := min(b, U)
	bestCost := 1 << 30
	step := max(1, U/runs/3)
	var perm [rectangle.MaxRobots]int
	for rot := 0; rot < max(1, U/runs); rot += step {
		var st, ln [rectangle.MaxRobots]int
		for k := 0; k < runs; k++ {
			st[k] = (rot + k*U/runs) % U
			ln[k] = (k+1)*U/runs - k*U/runs
		}
		for k := range b {
			perm[k] = k // robot i takes run perm[i]; ≥ runs: none
		}
		for {
			cost := 0
			for i := 0; i < b && cost < bestCost; i++ {
				if k := perm[i]; k < runs {
					p0, p1 := a.per[a.needs[st[k]]], a.per[a.needs[(st[k]+ln[k]-1)%U]]
					d := min(abs(p0.R-me[i].R)+abs(p0.C-me[i].C), abs(p1.R-me[i].R)+abs(p1.C-me[i].C))
					cost = max(cost, d+ln[k])
				}
			}
			if cost < bestCost {
				bestCost = cost
				for i := 0; i < b; i++ {
					a.arcStart[i], a.arcLen[i] = 0, 0
					if k := perm[i]; k < runs {
						from, to := a.needs[st[k]], a.needs[st[(k+1)%runs]]
						a.arcStart[i], a.arcLen[i] = from, (to-from+L)%L
						if runs == 1 {
							a.arcLen[i] = L
						}
					}
				}
			}
			if b > 6 || !agents.NextPermutation(perm[:b]) {
				break
			}
		}
	}
	a.arcsSet = true
}
