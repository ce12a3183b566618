package rectangleheldout

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

func init() {
	agents.RegisterHeldOut(rectangle.Name, "raider",
		"held out (issue 54): finds the large rectangle each rival is about to close from its paint and parks a robot on its boundary (R10 keeps the cell unpainted), its other robots closing rectangles of their own from an edge",
		func() agents.Agent { return NewRaider() })
}

// Raider's defaults.
const (
	raiderMaxRaiders = 1   // robots that may raid at once
	raiderMinGain    = 40  // a rival rectangle worth breaking claims at least this
	raiderShare      = 0.7 // … and the rival has painted at least this share of its boundary
	raiderSlack      = 1   // a raider goes if it arrives within the rival's time + Slack
	raiderNear       = 2   // … and a moving robot of the rival is this close to its boundary
	raiderHazard     = 1.5
	raiderStall      = 6
	raiderCool       = 4
	raiderMaxSide    = 8
	raiderSide       = 8 // the opening square's side
)

// Raider wrecks what its rivals build. R11 claims a rectangle only when its
// whole boundary is one colour, and R10 unpaints a cell holding two robots,
// so a robot that arrives on a rival's boundary and stays there breaks it
// for as long as it stays: a rival robot that comes to repaint the cell
// only unpaints it. In view coordinates:
//
//   - Threats: for every rival and every rectangle of the board with no
//     unpaintable boundary cell and a gain (paintable interior cells) of at
//     least MinGain, whose boundary the rival has painted to at least Share:
//     the rival's time to close it, ⌈cells left / b⌉, if a moving robot of
//     the rival is within Near of its boundary (the rival is building it,
//     not leaving old walls about). A threat is worth its gain if a robot of
//     ours reaches the boundary (Manhattan distance) within that time +
//     Slack; a raider keeps its threat while the threat is one.
//   - Raids: up to MaxRaiders robots, the most valuable threat first, each
//     taken by the nearest robot not raiding yet (a robot already standing
//     on a threat's boundary keeps it). A raider heads for the threat's
//     nearest boundary cell not painted 0, and stays once it stands on one
//     that is not the rival's colour.
//   - Placement: its robots spread evenly round a square of side 8 against
//     a drawn edge of the board, at a drawn place along it, which they close
//     first.
//   - The other robots form one team and close rectangles as blitz's do
//     (rectangle.Rings' Best, Hazard, sides up to MaxSide), planner's squares
//     without one (rectangle.Plans) or for Cool moves after a stall.
type Raider struct {
	MaxRaiders, MinGain int
	Share               float64
	Slack, Near         int
	Hazard              float64
	Stall, Cool         int
	MaxSide             int

	core
	t       team
	unp     rectangle.Prefix
	paint   rectangle.Prefix
	raiding [rectangle.MaxRobots]bool
	target  [rectangle.MaxRobots]rectangle.Rect
	threats []threat
	per     [4 * rectangle.MaxN]rectangle.Pos
}

type threat struct {
	q     rectangle.Rect
	k     int // the rival's label
	gain  int
	time  int // the rival's moves to close it
	taken bool
}

// NewRaider returns a raider with its defaults.
func NewRaider() *Raider {
	return &Raider{MaxRaiders: raiderMaxRaiders, MinGain: raiderMinGain, Share: raiderShare,
		Slack: raiderSlack, Near: raiderNear, Hazard: raiderHazard, Stall: raiderStall, Cool: raiderCool,
		MaxSide: raiderMaxSide}
}

// Reset implements agents.Agent.
func (a *Raider) Reset(_ rules.State, seat int, rng *rules.RNG) {
	a.reset(seat, rng)
	a.t.drop()
	a.t.cool = 0
	a.raiding = [rectangle.MaxRobots]bool{}
}

// Act implements agents.Agent.
func (a *Raider) Act(st rules.State) rules.Move {
	s := st.(*rectangle.State)
	a.observe(s)
	v := &a.v
	b := v.Robots
	if v.MoveNum == 0 {
		return a.place()
	}
	a.scan()
	a.assignRaids()
	// The team: every robot not raiding.
	size := 0
	for i := range b {
		if !a.raiding[i] {
			a.t.idx[size] = i
			size++
		}
	}
	if size != a.t.size {
		a.t.lastU = -1 // reassign the arcs
	}
	a.t.size = size
	rectangle.Plans(v, a.plans[:b])
	for i := range b {
		if a.raiding[i] {
			a.raid(i)
		}
	}
	if size > 0 {
		a.t.load(v, a.blocked)
		if !a.t.valid() {
			a.t.drop()
		}
		if a.t.cur.R2 < 0 {
			if a.t.cool > 0 {
				a.t.cool--
			} else if q, _ := a.t.ring.Best(&a.t.sub, &a.moving, a.Hazard, a.MaxSide, 0); q.R2 >= 0 {
				a.t.take(q)
			}
		}
		if !a.t.steps(&a.core, a.Stall, a.Cool) {
			for j := 0; j < size; j++ {
				i := a.t.idx[j]
				a.setDir(i, a.plans[i].Step)
			}
		}
	}
	// Steps were set team and raiders apart; recheck own collisions in
	// robot order (a robot stepping onto another's destination stays).
	for i := range b {
		a.fix(i)
	}
	return rectangle.DirsMove(a.dirs[:b])
}

// fix makes robot i stay when its step lands where an earlier robot of ours
// goes (the team and the raiders chose apart).
func (a *Raider) fix(i int) {
	d := a.dirs[i]
	p := a.v.Pos[0][i]
	to := rectangle.Pos{R: p.R + dRow[d], C: p.C + dCol[d]}
	for j := 0; j < i; j++ {
		if a.dest[j] == to {
			d = rectangle.Stay
			to = p
			break
		}
	}
	a.dirs[i], a.dest[i] = d, to
}

// place spreads the robots round the opening square: side Side, against
// a drawn edge of the board, at a drawn place along it.
func (a *Raider) place() rules.Move {
	v := &a.v
	n, b := v.N, v.Robots
	k := min(raiderSide, n)
	along := a.rng.U(n - k + 1)
	var q rectangle.Rect
	switch a.rng.U(4) {
	case 0:
		q = rectangle.Rect{R1: 0, C1: along, R2: k - 1, C2: along + k - 1}
	case 1:
		q = rectangle.Rect{R1: n - k, C1: along, R2: n - 1, C2: along + k - 1}
	case 2:
		q = rectangle.Rect{R1: along, C1: 0, R2: along + k - 1, C2: k - 1}
	default:
		q = rectangle.Rect{R1: along, C1: n - k, R2: along + k - 1, C2: n - 1}
	}
	per := q.Perimeter(a.per[:0])
	L := len(per)
	off := a.rng.U(max(1, L/b))
	for i := range b {
		a.pos[i] = per[(off+i*L/b)%L]
	}
	a.t.size = b
	a.t.take(q)
	return rectangle.PlaceMove(n, a.pos[:b])
}

// scan lists the threats (Raider's doc), most valuable first.
func (a *Raider) scan() {
	v := &a.v
	n, b := v.N, v.Robots
	a.threats = a.threats[:0]
	a.unp.Build(n, func(r, c int) bool { return v.Board[r][c] == rectangle.Unpaintable })
	for k := 1; k < v.Players; k++ {
		kk := int8(k)
		a.paint.Build(n, func(r, c int) bool { return v.Board[r][c] == kk })
		total := int(a.paint.Sum(n, 0, 0, n, n))
		if total < 8 {
			continue
		}
		var best threat
		bestV := 0
		for r1 := 0; r1+2 < n; r1++ {
			for r2 := r1 + 2; r2 < n; r2++ {
				for c1 := 0; c1+2 < n; c1++ {
					for c2 := c1 + 2; c2 < n; c2++ {
						h, w := r2-r1-1, c2-c1-1
						if h*w < a.MinGain {
							continue
						}
						q := rectangle.Rect{R1: r1, C1: c1, R2: r2, C2: c2}
						L := q.Length()
						P := int(a.paint.Boundary(n, q))
						if float64(P) < a.Share*float64(L) {
							continue
						}
						if a.unp.Boundary(n, q) != 0 {
							continue
						}
						g := h*w - int(a.unp.Sum(n, r1+1, c1+1, h, w))
						if g < a.MinGain {
							continue
						}
						time := (L - P + b - 1) / b
						if !a.worked(k, q) {
							continue
						}
						// worth: the gain, sooner threats first among near equals
						val := g * 8 / (time + 8)
						if val > bestV {
							bestV = val
							best = threat{q: q, k: k, gain: g, time: time}
						}
					}
				}
			}
		}
		if bestV > 0 {
			a.threats = append(a.threats, best)
		}
	}
	// most valuable first (at most p−1 entries: insertion sort)
	for i := 1; i < len(a.threats); i++ {
		for j := i; j > 0 && a.threats[j].gain*8/(a.threats[j].time+8) > a.threats[j-1].gain*8/(a.threats[j-1].time+8); j-- {
			a.threats[j], a.threats[j-1] = a.threats[j-1], a.threats[j]
		}
	}
}

// worked reports whether a moving robot of rival k is within Near of q's
// boundary: the rival is building q, not leaving old walls about.
func (a *Raider) worked(k int, q rectangle.Rect) bool {
	for j := 0; j < a.v.Robots; j++ {
		if p := a.v.Pos[k][j]; a.moving[k][j] && q.Dist(p.R, p.C) <= a.Near {
			return true
		}
	}
	return false
}

// assignRaids decides which robots raid which threat.
func (a *Raider) assignRaids() {
	v := &a.v
	b := v.Robots
	var keep [rectangle.MaxRobots]bool
	used := 0
	// a raider standing on a threat's boundary keeps it
	for ti := range a.threats {
		th := &a.threats[ti]
		for i := range b {
			p := v.Pos[0][i]
			if a.raiding[i] && !keep[i] && th.q.OnBoundary(p.R, p.C) && used < a.MaxRaiders {
				keep[i], th.taken = true, true
				a.target[i] = th.q
				used++
				break
			}
		}
	}
	for ti := range a.threats {
		th := &a.threats[ti]
		if th.taken || used >= a.MaxRaiders || b-used <= 1 {
			continue
		}
		bi, bd := -1, 1<<30
		for i := range b {
			if keep[i] {
				continue
			}
			p := v.Pos[0][i]
			d := th.q.Dist(p.R, p.C)
			if a.raiding[i] {
				d-- // a raider on its way keeps going
			}
			if d < bd {
				bi, bd = i, d
			}
		}
		if bi >= 0 && bd <= th.time+a.Slack {
			keep[bi], th.taken = true, true
			a.target[bi] = th.q
			used++
		}
	}
	a.raiding = keep
}

// raid sets raider i's step: to the nearest boundary cell of its target not
// painted 0, staying once it stands on one that is not the rival's colour.
func (a *Raider) raid(i int) {
	v := &a.v
	q := a.target[i]
	p := v.Pos[0][i]
	if q.OnBoundary(p.R, p.C) {
		if cell := v.Board[p.R][p.C]; cell == 0 || cell == rectangle.Unpainted {
			a.setDir(i, rectangle.Stay)
			return
		}
		// painted by a rival although we stand here: step off and back on
		a.setDir(i, a.toward(i, p.R, p.C, 0, q.OnBoundary))
		return
	}
	tr, tc, td := -1, -1, -1
	for r := q.R1; r <= q.R2; r++ {
		for c := q.C1; c <= q.C2; c++ {
			if !q.OnBoundary(r, c) || v.Board[r][c] == 0 {
				continue
			}
			if d := abs(r-p.R) + abs(c-p.C); td < 0 || d < td {
				tr, tc, td = r, c, d
			}
		}
	}
	a.setDir(i, a.toward(i, tr, tc, td, nil))
}
