package rectangle

import "github.com/gridgym/gridgym/rules"

// # Rings (the encloser's enclosures and the encoder's ring planes)
//
// R11 lets any rectangle whose boundary is all one colour claim, and R13
// gives it every paintable cell inside; claimed interiors never touch the
// border ring (I1). A ring is a large rectangle that all of a seat's robots
// close together. Rings holds the procedure that finds the best one and
// sends each robot to its part of it, from the bot's view alone: the
// encloser bot (agents/rectanglebots) adds its memory of rival robots that
// stand still, and the encoder's ring planes use it with none.
//
//   - Load: the prefix tables of the unpaintable cells, the cells painted 0,
//     and the blocked cells (the caller's test; a boundary through one is
//     ruled out, R10).
//   - Valid: a rectangle with no unpaintable or blocked boundary cell and a
//     paintable interior cell; its gain is its paintable interior cells.
//   - SquaresRate: the rate of the planner's plans, Σ gain/(cost + 1).
//   - Best: the rectangle of sides 3..maxSide of the highest rate
//     gain/(t + 1), the first in scan order among equals: t = the farthest
//     robot's distance to its boundary + ⌈unpainted boundary cells /
//     robots⌉ + ⌊hazard × Σ over moving rival robots of t/(1 + their
//     distance to the boundary)⌋.
//   - Needs, Assign, Target: the boundary cells to paint (not painted 0, no
//     rival robot on them); one arc of them per robot (the assignment whose
//     slowest robot is fastest); each robot's target, the nearest cell to
//     paint in its arc, else anywhere, or its own cell if it stands on a
//     boundary cell not painted 0 (it must step off and back on: a robot
//     that stays never paints, R10).

// The ring procedure's defaults (the encloser bot's, tuned on 200-game
// tables, reports/rectangle/encloser).
const (
	RingAlpha   = 1.5 // a ring is taken when its rate ≥ RingAlpha × the squares' rate
	RingHazard  = 1.0 // moves added per expected crossing by a moving rival robot
	RingMaxSide = 20  // the longest side of a ring: the default board's
	RingStill   = 3   // a rival robot that stood still this many moves is parked
	RingStall   = 10  // a kept ring is dropped after this many moves without progress
	RingCool    = 20  // then no ring is taken for this many moves
	// RingGuard: with ring_guard=true, a rival's kept ring of whose boundary
	// the rival has painted at least this share is guarded (RingKept).
	RingGuard = 0.5
)

// RingRule is a set of the ring procedure's constants (RingKeptBy): the
// game parameter ring_rule names one (RuleOf).
type RingRule struct {
	Alpha   float64 // a ring is taken when its rate ≥ Alpha × the squares' rate (0: whenever there is one)
	Hazard  float64 // moves added per expected crossing by a moving rival robot
	MaxSide int     // the longest side of a ring
	Still   int     // a rival robot that stood still this many moves is parked
	Stall   int     // a kept ring is dropped after this many moves without progress
	Cool    int     // then no ring is taken for this many moves
}

// RingRules names the rules of the parameter ring_rule, the default first.
var RingRules = []string{"encloser", "mason"}

// RuleOf returns the ring rule named name (RingRules): "encloser", the
// encloser bot's constants above, which a ring round the open board pays
// against planner's squares; "mason", the mason bot's (agents/rectanglebots,
// reports/rectangle/mason): a ring whenever there is one (Alpha 0, never
// planner's squares), rings of side at most MasonMaxSide near the robots and
// the own walls, and a quicker stall. An unknown name is the encloser's.
func RuleOf(name string) RingRule {
	if name == "mason" {
		return RingRule{Alpha: 0, Hazard: MasonHazard, MaxSide: MasonMaxSide, Still: RingStill, Stall: MasonStall, Cool: MasonCool}
	}
	return RingRule{Alpha: RingAlpha, Hazard: RingHazard, MaxSide: RingMaxSide, Still: RingStill, Stall: RingStall, Cool: RingCool}
}

// The mason rule's constants (RuleOf). They are the held-out blitz's
// (agents/rectangleheldout), taken over when the mason was first probed; a
// search over them in 408-game tables against the project's bots alone found
// none better beyond the tables' noise (reports/rectangle/mason).
const (
	MasonHazard  = 1.5
	MasonMaxSide = 8
	MasonStall   = 6
	MasonCool    = 4
)

// Rings is the scratch of the ring procedure (above) for one view. The zero
// value is ready to use; it allocates nothing.
type Rings struct {
	n                int
	unp, mine, bad   Prefix        // unpaintable cells; cells painted 0; blocked cells
	per              [4 * MaxN]Pos // the ring's boundary, clockwise from the top-left corner (Needs)
	need             [4 * MaxN]int // per indices of the cells to paint (Needs)
	nPer, nNeed      int
	ArcStart, ArcLen [MaxRobots]int // each robot's arc (Assign): per indices
}

// Load builds the tables of view v: blocked reports the cells that no
// boundary may use.
func (x *Rings) Load(v *View, blocked func(r, c int) bool) {
	n := v.N
	x.n = n
	x.unp.Build(n, func(r, c int) bool { return v.Board[r][c] == Unpaintable })
	x.mine.Build(n, func(r, c int) bool { return v.Board[r][c] == 0 })
	x.bad.Build(n, blocked)
}

// Valid returns q's gain and whether it can still be claimed: no boundary
// cell unpaintable or blocked, a paintable interior cell.
func (x *Rings) Valid(q Rect) (int, bool) {
	n := x.n
	if x.unp.Boundary(n, q) != 0 || x.bad.Boundary(n, q) != 0 {
		return 0, false
	}
	h, w := q.R2-q.R1-1, q.C2-q.C1-1 // the interior, at least 1×1
	g := h*w - int(x.unp.Sum(n, q.R1+1, q.C1+1, h, w))
	return g, g > 0
}

// SquaresRate is the rate of the plans of v's robots: Σ gain/(cost+1), cost
// = the square's boundary cells not painted 0 + the robot's distance to it.
func (x *Rings) SquaresRate(v *View, plans []Plan) float64 {
	rate := 0.0
	for i, p := range plans[:v.Robots] {
		if p.K == 0 {
			continue
		}
		q := p.Rect()
		if g, ok := x.Valid(q); ok {
			u := q.Length() - int(x.mine.Boundary(x.n, q))
			rate += float64(g) / float64(u+q.Dist(v.Pos[0][i].R, v.Pos[0][i].C)+1)
		}
	}
	return rate
}

// Best returns the rectangle of the highest rate (the first in scan order
// among equals) and its rate if that rate is at least floor; R2 < 0: none.
// moving[k][j] says whether rival robot j of player k adds to the hazard.
// Only a ring that beats floor is wanted, so a rectangle whose rate is
// surely below floor, or no better than the best so far, is ruled out by
// upper bounds on its rate before its prefix sums: in the opening, where
// the squares pay more, almost every one.
func (x *Rings) Best(v *View, moving *[maxSeats][MaxRobots]bool, hazard float64, maxSide int, floor float64) (Rect, float64) {
	n, b := v.N, v.Robots
	best, bq := -1.0, Rect{R2: -1}
	// The bounds hold only while the hazard adds time (hazard ≥ 0).
	bound := hazard >= 0
	var wide [MaxN]bool // wide[w]: interior width w passes the band's bound
	for r1 := 0; r1 < n; r1++ {
		for r2 := r1 + 2; r2 < min(n, r1+maxSide); r2++ {
			// A bound per band of rows r1..r2 and interior width w, before
			// any rectangle: gain ≤ the interior (r2−r1−1)·w; time ≥ the
			// robots' row distance to the band + the boundary cells left
			// to paint (at most band of them, the cells painted 0 in
			// these rows, need none) over the robots.
			band := int(x.mine.Sum(n, r1, 0, r2-r1+1, n))
			rowFar := 0
			for i := 0; i < b; i++ {
				rowFar = max(rowFar, r1-v.Pos[0][i].R, v.Pos[0][i].R-r2)
			}
			some := false
			for w := 1; w <= min(n, maxSide)-2; w++ {
				paint := (max(0, 2*(r2-r1)+2*(w+1)-band) + b - 1) / b
				wide[w] = !bound || !beaten(float64((r2-r1-1)*w)/float64(rowFar+paint+1), best, floor)
				some = some || wide[w]
			}
			if !some {
				continue
			}
			for c1 := 0; c1 < n; c1++ {
			rects:
				for c2 := c1 + 2; c2 < min(n, c1+maxSide); c2++ {
					if !wide[c2-c1-1] {
						continue
					}
					q := Rect{R1: r1, C1: c1, R2: r2, C2: c2}
					g, ok := x.Valid(q)
					if !ok {
						continue
					}
					far := 0
					for i := 0; i < b; i++ {
						far = max(far, q.Dist(v.Pos[0][i].R, v.Pos[0][i].C))
					}
					u := q.Length() - int(x.mine.Boundary(n, q))
					t := far + (u+b-1)/b
					if bound && beaten(float64(g)/float64(t+1), best, floor) { // the hazard only adds time
						continue
					}
					h := 0.0
					for k := 1; k < v.Players; k++ {
						for j := 0; j < b; j++ {
							if moving[k][j] {
								p := v.Pos[k][j]
								h += float64(t) / float64(1+q.Dist(p.R, p.C))
							}
						}
						// The sum only grows: beaten already, q is out.
						if bound && beaten(float64(g)/float64(t+int(hazard*h)+1), best, floor) {
							continue rects
						}
					}
					t += int(hazard * h)
					if rate := float64(g) / float64(t+1); rate > best {
						best, bq = rate, q
					}
				}
			}
		}
	}
	if best < floor {
		return Rect{R2: -1}, best
	}
	return bq, best
}

// beaten reports whether a rectangle whose rate is at most ub cannot be
// Best's answer: not above the best so far (the first among equals wins),
// or below floor.
func beaten(ub, best, floor float64) bool { return ub <= best || ub < floor }

// Needs lists q's boundary and which of its cells are to paint: not painted 0 and no rival robot on them (rivals[r·n+c], the
// number of rival robots on the cell). It returns their counts U and L.
func (x *Rings) Needs(v *View, q Rect, rivals []uint8) (U, L int) {
	n := v.N
	x.nPer, x.nNeed = len(q.Perimeter(x.per[:0])), 0
	for k, p := range x.per[:x.nPer] {
		if v.Board[p.R][p.C] != 0 && rivals[p.R*n+p.C] == 0 {
			x.need[x.nNeed] = k
			x.nNeed++
		}
	}
	return x.nNeed, x.nPer
}

// Boundary returns the ring's boundary listed by Needs, clockwise from the
// top-left corner (read only: the next Needs rewrites it).
func (x *Rings) Boundary() []Pos { return x.per[:x.nPer] }

// Assign gives each robot an arc of the boundary listed by Needs (boundary
// indices ArcStart[i], ArcLen[i]; U > 0): the cells to paint, clockwise, are
// cut into one run per robot of about U/b cells; over a few rotations of the
// cuts and every assignment of runs to robots (robot order when b > 6) it
// keeps the one whose slowest robot (distance to its run's nearer end + run
// length) is fastest. A run's arc reaches to the next run's first cell.
func (x *Rings) Assign(v *View) {
	b, U, L := v.Robots, x.nNeed, x.nPer
	me := &v.Pos[0]
	runs := min(b, U)
	bestCost := 1 << 30
	step := max(1, U/runs/3)
	var perm [MaxRobots]int
	for rot := 0; rot < max(1, U/runs); rot += step {
		var st, ln [MaxRobots]int
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
					p0, p1 := x.per[x.need[st[k]]], x.per[x.need[(st[k]+ln[k]-1)%U]]
					d := min(abs(p0.R-me[i].R)+abs(p0.C-me[i].C), abs(p1.R-me[i].R)+abs(p1.C-me[i].C))
					cost = max(cost, d+ln[k])
				}
			}
			if cost < bestCost {
				bestCost = cost
				for i := 0; i < b; i++ {
					x.ArcStart[i], x.ArcLen[i] = 0, 0
					if k := perm[i]; k < runs {
						from, to := x.need[st[k]], x.need[st[(k+1)%runs]]
						x.ArcStart[i], x.ArcLen[i] = from, (to-from+L)%L
						if runs == 1 {
							x.ArcLen[i] = L
						}
					}
				}
			}
			if b > 6 || !rules.NextPermutation(perm[:b]) {
				break
			}
		}
	}
}

// Target returns robot i's target on ring q and its distance (td < 0: none,
// nothing is left to paint): the robot's own cell if it stands on a
// boundary cell not painted 0, else the nearest cell to paint in its arc,
// else the nearest anywhere (the first clockwise among equals).
func (x *Rings) Target(v *View, q Rect, i int) (tr, tc, td int) {
	r, c := v.Pos[0][i].R, v.Pos[0][i].C
	tr, tc, td = -1, -1, -1
	if v.Board[r][c] != 0 && q.OnBoundary(r, c) {
		return r, c, 0
	}
	L := x.nPer
	for pass := 0; pass < 2 && td < 0; pass++ { // own arc first, then anywhere
		for _, k := range x.need[:x.nNeed] {
			if pass == 0 && (k-x.ArcStart[i]+L)%L >= x.ArcLen[i] {
				continue
			}
			p := x.per[k]
			if d := abs(p.R-r) + abs(p.C-c); td < 0 || d < td {
				tr, tc, td = p.R, p.C, d
			}
		}
	}
	return tr, tc, td
}

// RingOf is the ring the encloser bot would take in view v (a move) with no
// memory, and reports whether there is one: every rival robot counts as
// moving, cells not painted 0 that hold two or more rival robots are
// blocked, and the best rectangle (RingHazard, RingMaxSide) is taken when
// its rate is at least RingAlpha × the squares' rate of plans (Plans of v).
// It leaves x ready for RingSteps: the ring's cells to paint and, when
// there are some, the robots' arcs. It is RingKept with nothing remembered.
func RingOf(x *Rings, v *View, plans []Plan) (Rect, bool) {
	return RingOfBy(x, v, plans, RuleOf(""))
}

// RingOfBy is RingOf with the constants of rule r.
func RingOfBy(x *Rings, v *View, plans []Plan, r RingRule) (Rect, bool) {
	var still [maxSeats][MaxRobots]int32 // no robot has stood still
	var m RingMemory                     // no kept ring
	return RingKeptBy(x, v, plans, &still, &m, nil, r)
}

// RingMemory is what a seat remembers of its ring between moves (the
// encloser's memory, which the ring planes keep with ring_memory=true): the
// ring it keeps, its lowest potential so far (cells to paint + the robots'
// distances to their targets), the moves since that low, and the moves left
// of playing without a ring after a stall. The zero value is "no ring".
type RingMemory struct {
	Kept            Rect // R2 ≤ 0: none (a ring's R2 is at least 2)
	Low, Since, Off int32
}

// RingKept is the ring a seat with memory m takes in view v (a move), and
// whether it has one; it updates m. It is RingOf with the encloser's
// memory: rival robots that stood still RingStill moves (still, in view
// labels) are parked (they add no hazard and block their cell); a kept ring
// is taken again while it stays valid, else the best one is taken when it
// pays (RingOf); a kept ring whose potential has not reached a new low for
// RingStall moves is dropped after this move, and no ring is taken for the
// next RingCool moves. It leaves x ready for RingSteps.
//
// guard (nil: none; ring_guard=true) holds the rivals' kept rings in view
// labels (guard[k], k ≥ 1; R2 ≤ 0: none). The boundary of each one that
// rival k has painted at least RingGuard of is blocked: no ring is taken
// across it, and a kept ring that crosses it is dropped. Two ring-closers
// whose rings cross repaint each other's boundary where they meet, and
// neither closes (reports/rectangle/rings); guarded, a new ring keeps off a
// rival's ring that is half done, and of two crossing rings a ring less
// than half done yields.
func RingKept(x *Rings, v *View, plans []Plan, still *[maxSeats][MaxRobots]int32, m *RingMemory, guard *[maxSeats]Rect) (Rect, bool) {
	return RingKeptBy(x, v, plans, still, m, guard, RuleOf(""))
}

// RingKeptBy is RingKept with the constants of rule r (RingStill, RingStall,
// RingCool, RingHazard, RingMaxSide and RingAlpha are the encloser rule's).
func RingKeptBy(x *Rings, v *View, plans []Plan, still *[maxSeats][MaxRobots]int32, m *RingMemory, guard *[maxSeats]Rect, r RingRule) (Rect, bool) {
	none := Rect{R2: -1}
	if m.Off > 0 {
		m.Off--
		return none, false
	}
	n := v.N
	var rivals [MaxN * MaxN]uint8
	var parked [MaxN * MaxN]bool
	var moving [maxSeats][MaxRobots]bool
	for k := 1; k < v.Players; k++ {
		for j := 0; j < v.Robots; j++ {
			p := v.Pos[k][j].R*n + v.Pos[k][j].C
			rivals[p]++
			moving[k][j] = still[k][j] < int32(r.Still)
			parked[p] = parked[p] || !moving[k][j]
		}
	}
	var guarded [MaxN * MaxN]bool
	if guard != nil {
		markGuarded(v, guard, guarded[:n*n])
	}
	x.Load(v, func(r, c int) bool {
		return guarded[r*n+c] || v.Board[r][c] != 0 && (rivals[r*n+c] >= 2 || parked[r*n+c])
	})
	q := m.Kept
	keep := q.R2 > 0
	if keep {
		_, keep = x.Valid(q)
	}
	if !keep {
		var floor float64
		if r.Alpha > 0 {
			floor = r.Alpha * x.SquaresRate(v, plans)
		}
		var rate float64
		if q, rate = x.Best(v, &moving, r.Hazard, r.MaxSide, floor); q.R2 < 0 || rate < floor {
			m.Kept = none
			return none, false
		}
		m.Kept, m.Low, m.Since = q, 1<<30, 0
	}
	U, _ := x.Needs(v, q, rivals[:n*n])
	if U > 0 {
		x.Assign(v)
	}
	pot := U
	for i := 0; i < v.Robots; i++ {
		_, _, td := x.Target(v, q, i)
		pot += max(td, 0)
	}
	if int32(pot) < m.Low {
		m.Low, m.Since = int32(pot), 0
	} else if m.Since++; m.Since >= int32(r.Stall) {
		m.Kept, m.Off = none, int32(r.Cool)
	}
	return q, true
}

// markGuarded sets dst[r·n+c] on the boundary cells of the rings in guard
// (view labels, k ≥ 1) whose rival k has painted at least RingGuard of
// their boundary (RingKept).
func markGuarded(v *View, guard *[maxSeats]Rect, dst []bool) {
	var buf [4 * MaxN]Pos
	for k := 1; k < v.Players; k++ {
		q := guard[k]
		if q.R2 <= 0 {
			continue
		}
		per := q.Perimeter(buf[:0])
		painted := 0
		for _, p := range per {
			if int(v.Board[p.R][p.C]) == k {
				painted++
			}
		}
		if float64(painted) < RingGuard*float64(len(per)) {
			continue
		}
		for _, p := range per {
			dst[p.R*v.N+p.C] = true
		}
	}
}

// OwnBlocked returns the test that keeps a player's robots apart in the
// scripted bots' steps (boxer, encloser, ringer) and in RingMoves: whether
// (r, c) holds a later robot of the player (me[i+1:]) or is where an
// earlier one goes (dest[:i]).
func OwnBlocked(me, dest *[MaxRobots]Pos, b int) func(i, r, c int) bool {
	return func(i, r, c int) bool {
		for j := 0; j < b; j++ {
			switch {
			case j < i && dest[j] == (Pos{R: r, C: c}):
				return true
			case j > i && me[j] == (Pos{R: r, C: c}):
				return true
			}
		}
		return false
	}
}

// RingMoves writes the ringer bot's steps on ring q (x from Needs and
// Assign) into dirs[:v.Robots]: robot by robot, the first of its RingSteps
// (N, E, S, W order) that OwnBlocked allows, else X. With free (the game's
// ring_step=free) the robot's own robots are set aside first, as the
// encloser and mason bots do: the first of the best steps among those
// OwnBlocked allows, so a robot whose best steps are taken still moves
// toward its target (without free it stays; reports/rectangle/mason: +5.6
// cells a game for the ringer against the mason). With ring_memory=true the
// ring_go planes show these steps.
func RingMoves(x *Rings, v *View, q Rect, free bool, dirs []Dir) {
	me := &v.Pos[0]
	var dest [MaxRobots]Pos
	blocked := OwnBlocked(me, &dest, v.Robots)
	for i := 0; i < v.Robots; i++ {
		var set uint8
		if free {
			set = ringSteps(x, v, q, i, blocked)
		} else {
			set = RingSteps(x, v, q, i)
		}
		d := Stay
		for s := North; s < Stay; s++ {
			if set&(1<<s) != 0 && !blocked(i, me[i].R+dRow[s], me[i].C+dCol[s]) {
				d = s
				break
			}
		}
		dirs[i] = d
		dest[i] = Pos{R: me[i].R + dRow[d], C: me[i].C + dCol[d]}
	}
}

// RingSteps is the set (bit d for direction d) of the steps among which the
// encloser bot draws for robot i toward its target on ring q (Target; x
// from Needs and Assign), its own robots aside: Stay alone without a
// target; on its target (a boundary cell not painted 0) every step off the
// grid's edge, those onto the boundary if any; else the steps that bring it
// closer, those onto the boundary if any.
func RingSteps(x *Rings, v *View, q Rect, i int) uint8 { return ringSteps(x, v, q, i, nil) }

// ringSteps is RingSteps among the steps that blocked (nil: none) allows.
func ringSteps(x *Rings, v *View, q Rect, i int, blocked func(i, r, c int) bool) uint8 {
	tr, tc, td := x.Target(v, q, i)
	if td < 0 {
		return 1 << Stay
	}
	r, c := v.Pos[0][i].R, v.Pos[0][i].C
	var set uint8
	top := 0
	for d := North; d < Stay; d++ {
		y, z := r+dRow[d], c+dCol[d]
		if y < 0 || y >= v.N || z < 0 || z >= v.N || (td > 0 && abs(y-tr)+abs(z-tc) >= td) {
			continue
		}
		if blocked != nil && blocked(i, y, z) {
			continue
		}
		w := 1
		if q.OnBoundary(y, z) {
			w = 2
		}
		switch {
		case w > top:
			set, top = 1<<d, w
		case w == top:
			set |= 1 << d
		}
	}
	if set == 0 {
		return 1 << Stay
	}
	return set
}
