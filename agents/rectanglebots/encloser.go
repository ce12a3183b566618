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
	agents.Register(rectangle.Name, "mason",
		"lays a square of side 8 out in a corner at the placement (its robots' cells are painted before anyone moves, R7) and closes it, then always closes the best rectangle of side ≤ 8 near its robots and walls (ring_rule=mason: the rule a network's ring planes can show)",
		func() agents.Agent { return NewMason() })
	// The strongest scripted bots (reports/rectangle/mason: mason 88.0, encloser 78.9 cells a game).
	agents.RegisterReference(rectangle.Name, "mason", "encloser")
	// The field: no sample bots were published; issue 54's first table seated these.
	agents.RegisterField(rectangle.Name, "encloser", "boxer")
}

// NewMason returns the mason: an encloser that opens with a square laid out
// at the placement (Opening, MasonOpening) and encloses by the mason ring
// rule (rectangle.RuleOf("mason")): a ring whenever there is one (Alpha 0:
// planner's squares only while none is found), sides up to
// rectangle.MasonMaxSide, a quicker stall and cool-down. Measured against
// the project's bots in reports/rectangle/mason.
func NewMason() *Encloser {
	e := encloserOf(rectangle.RuleOf("mason"))
	e.Opening = MasonOpening
	return e
}

// MasonOpening is the side of the mason's opening square (NewMason).
const MasonOpening = 8

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
	// Opening, when 3 or more, is the side of a square in a corner drawn at
	// random round which the robots are placed (rectangle.OpeningCells; R7:
	// placed robots paint their cells, so the square's first cells cost no
	// move); it is the enclosure from move 1.
	Opening int

	box     Boxer // placement and step choice
	plans   [rectangle.MaxRobots]rectangle.Plan
	cur     rectangle.Rect // the enclosure (R2 < 0: none)
	bestPot int            // the enclosure's lowest potential so far (enclose)
	since   int            // moves since bestPot fell
	cool    int            // moves left of playing squares after a stall
	prev    [rules.MaxSeats][rectangle.MaxRobots]rectangle.Pos
	still   [rules.MaxSeats][rectangle.MaxRobots]int
	moving  [rules.MaxSeats][rectangle.MaxRobots]bool // still < Still
	ring    rectangle.Rings                           // the tables, rates and arcs
	arcsSet bool                                      // ring's arcs are cur's
	decided bool                                      // Once: the decision is made
	dirs    []rectangle.Dir
}

// NewEncloser returns an encloser with the tuned defaults: the encloser
// ring rule's constants (rectangle.RuleOf("encloser"), tuned on 200-game
// tables against three boxers, against planner + boxer + random, and
// against boxer + random + pass: reports/rectangle/encloser).
func NewEncloser() *Encloser { return encloserOf(rectangle.RuleOf("encloser")) }

// encloserOf returns an encloser with the constants of ring rule r, which
// the ring planes of a game with that ring_rule show (rectangle.RingKeptBy).
func encloserOf(r rectangle.RingRule) *Encloser {
	return &Encloser{Alpha: r.Alpha, Hazard: r.Hazard, Still: r.Still, Stall: r.Stall, Cool: r.Cool, MaxSide: r.MaxSide}
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
		if a.Opening >= 3 {
			return a.open(s)
		}
		return a.box.Act(st)
	}
	// The boxer's view: its steps (toward, pick) read the board's side from
	// it, also after a Reset in mid-game, when the boxer has not moved yet.
	v := &a.box.v
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
			a.moving[k][j] = a.still[k][j] < a.Still
			if !a.moving[k][j] {
				parked[p.R*n+p.C] = true
			}
		}
	}
	if a.Once && a.decided && a.cur.R2 < 0 {
		return a.box.Act(st) // nothing below is used until the next Reset
	}
	a.ring.Load(v, func(r, c int) bool {
		return v.Board[r][c] != 0 && (rivals[r*n+c] >= 2 || parked[r*n+c])
	})
	if a.cur.R2 >= 0 { // (cool is 0 while it encloses)
		if _, ok := a.ring.Valid(a.cur); ok {
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
		floor := a.Alpha * a.ring.SquaresRate(v, a.plans[:b])
		if q, rate := a.ring.Best(v, &a.moving, a.Hazard, a.MaxSide, floor); q.R2 >= 0 && rate >= floor {
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

// enclose returns the robots' steps toward a.cur's unpainted boundary
// (Encloser's doc, "Enclosing").
func (a *Encloser) enclose(rivals []uint8) rules.Move {
	v := &a.box.v
	b, q := v.Robots, a.cur
	me := &v.Pos[0]
	U, _ := a.ring.Needs(v, q, rivals)
	if !a.arcsSet && U > 0 {
		a.ring.Assign(v)
		a.arcsSet = true
	}
	var dest [rectangle.MaxRobots]rectangle.Pos
	blocked := rectangle.OwnBlocked(me, &dest, b)
	a.dirs = a.dirs[:0]
	pot := U // the potential: cells to paint + the robots' distances to their targets
	for i := 0; i < b; i++ {
		r, c := me[i].R, me[i].C
		tr, tc, td := a.ring.Target(v, q, i)
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

// Ring returns the enclosure the encloser is closing, ok false for none (the
// encoder's ring planes show the one a fresh encloser would take: tests
// compare them).
func (a *Encloser) Ring() (q rectangle.Rect, ok bool) { return a.cur, a.cur.R2 >= 0 }

// open places the robots round the opening square (rectangle.OpeningCells,
// side Opening, the corner and offset drawn by the boxer's generator) and
// takes the square as the enclosure.
func (a *Encloser) open(s *rectangle.State) rules.Move {
	v := &a.box.v
	s.View(a.box.seat, v)
	n, k := v.N, min(a.Opening, v.N)
	var u [rules.OpeningDraws]float64
	for i := range u {
		u[i] = a.box.rng.Float64()
	}
	a.box.pos = rectangle.OpeningCells(n, v.Robots, k, u, a.box.pos[:0])
	a.cur, a.bestPot, a.since, a.arcsSet = rectangle.OpeningSquare(n, k, u), 1<<30, 0, false
	return rectangle.PlaceMove(n, a.box.pos)
}
