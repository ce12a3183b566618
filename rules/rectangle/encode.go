// # Learner interface (Encoder)
//
// Encoder (registered as the game's rules.Encoder) is what the env and the
// trainers see of a Rectangle game with n, p = players and b = robots.
//
// Canonical frame: the seat's bot view (R19). There is no rotation (the game
// has no seat positions), so planes and actions use real cells; players are
// relabelled so that the seat is 0 and player (seat + k) mod p is k.
//
// Observation: C = 2p + 3b + 6 byte planes of n×n, cell (r, c) at r·n + c:
//
//	plane 0                    unpaintable      1 where the cell is unpaintable (R3, R13)
//	plane 1                    unpainted        1 where the cell is paintable and unpainted
//	planes 2 .. p+1            paint_k          1 where the cell carries player k's paint
//	                                            (k = 0 is the seat's own colour)
//	planes p+2 .. p+b+1        own_robot_i      1 on the cell of the seat's robot i
//	                                            (action head i steers it)
//	planes p+b+2 .. 2p+b       robots_k         number (0..b) of player k's robots on
//	                                            the cell, k = 1..p−1
//	planes 2p+b+1 .. 2p+2b     plan_i           robot i's plan (Plans, plan.go): 1 on
//	                                            the boundary of its square, 2 on its
//	                                            target; all 0 without a plan
//	planes 2p+2b+1 .. 2p+3b    step_i           1 on the cell the plan sends robot i
//	                                            to: its square's top-left corner at
//	                                            the placement, the cell its step
//	                                            reaches at a move (its own for X)
//	planes 2p+3b+1 .. 2p+3b+5  go_d             at a move, the number of the seat's
//	                                            robots on the cell whose plan step is
//	                                            d = N, E, S, W, X (robots without a
//	                                            plan: X); all 0 at the placement
//
// With the parameter rings=true (off by default; the rules ignore it), six
// more planes follow, C = 2p + 3b + 12:
//
//	plane 2p+3b+6              ring             at a move, the ring (RingOf, ring.go):
//	                                            the large rectangle the encloser bot
//	                                            would close now, with no memory; 1 on
//	                                            its boundary cells painted 0, 2 on the
//	                                            others; all 0 without a ring
//	planes 2p+3b+7 .. 2p+3b+11 ring_go_d        the number of the seat's robots on the
//	                                            cell for which step d = N, E, S, W, X is
//	                                            one of the encloser's choices toward
//	                                            its part of the ring (RingSteps)
//
// The planner's squares claim at most 16 cells at once; a ring round the
// open board claims every paintable cell inside (R11, R13), which the
// encloser bot exploits (reports/rectangle/encloser). A network sees no ring
// in the plan planes and cannot find one with a few convolutions; with the
// ring planes it can learn when closing one pays.
//
// With ring_memory=true as well (a parameter the state carries,
// rules.Param.Carried), the ring is the one the seat keeps from move to
// move as the encloser does (RingKept: a kept ring taken again while valid,
// parked rivals, a stall and a cool-down), which the state remembers for
// every seat; the exported bot keeps the same memory in its globals. The
// ring_go planes then count, on each robot's cell, the one step it takes
// (RingMoves: the first candidate its own robots leave free, else X), which
// the ringer bot plays. With ring_guard=true too (also carried), a seat's
// ring keeps off the rings its rivals kept before the move once a rival
// has painted half of its own (RingKept's guard), so two copies of a
// network stop breaking each other's rings; the exported bot then keeps
// every seat's memory, as the state does. With ring_rule=mason (also
// carried) the ring is chosen by the mason's constants (ring.go RuleOf: a
// ring whenever there is one, sides up to 8) instead of the encloser's.
//
// Planes 0 and 1 and the p paint planes partition the board: every cell is 1
// in exactly one of them. Before the placement (move_num 0) no robot is on the
// board, and the robot planes are all 0, as the bot's robot lists are empty.
// The plan, step and go planes are the planner bot's intentions, computed
// from the same request: they let a small network imitate and improve on a
// plan that a few convolutions cannot find themselves (see plan.go). The go
// planes put each robot's step on its own cell, where its action head reads
// the trunk (agents/neural's unit features): the step_i planes alone, a
// neighbour away, left the clone at 98.2% agreement with its teacher.
//
// Scalars (float32), 2 + p:
//
//	0        placement  1 before the placement (move_num 0), else 0
//	1        move_num   move_num / M (0 at the placement, t/M before move t)
//	2 .. p+1 score_k    player k's score / n² (R16)
//
// Everything is a function of the bot's request (R18: board, robots, scores,
// move_num), so an exported bot sees exactly what the learner saw; the idle
// counter (R14) is not in the request, hence not in the observation.
//
// Action space: multi-discrete, one head per robot (Heads = b), each with
// Actions = n² + 5 choices; action a of head i is mask bit i·(n² + 5) + a:
//
//	a = r·n + c    (0 ≤ a < n²)   placement: robot i goes on cell (r, c)
//	                              legal at the placement (move_num 0) only
//	a = n² + d     (0 ≤ d < 5)    move: robot i goes d = 0 N, 1 E, 2 S, 3 W, 4 X
//	                              legal at moves (t ≥ 1) only
//
// At the placement every cell of every head is legal (repeats are allowed,
// R7); at a move all five directions of every head are legal, including a
// direction into the edge, which is a valid answer that leaves the robot in
// place (R8). The b heads together form one Kind 1 (placement) or Kind 2
// (move) Move. The rules have no pass (Pass is R9's default, not an answer),
// so there is no pass action: a seat that is not Active (the game is over)
// gets an empty mask, and its actions are ignored. Decode maps any action that
// is not legal for the phase, or out of range, to Pass, which Step treats as
// R9 says for an invalid answer: all the player's robots go to (0,0) at the
// placement, and all stay at a move.
//
// The cells and the directions have separate indices, not one shared range of
// max(n², 5) with the directions at 0..4: TransformAction is not told the
// phase, and indices 0..4, the cells (0,0)..(0,4) at the placement, would need
// one map that moves them as cells and permutes them as directions, which no
// map does (X would need a cell that every symmetry fixes). With separate
// indices each symmetry is one bijection of [0, n² + 5) that is right in both
// phases.
//
// Symmetries: all 8 elements of D4. The rules are invariant under them with
// N, E, S, W mapped accordingly (I7); the one exception is R12's tie-break
// among interacting candidates of equal gain (there a transformed position may
// claim a different one of the tied rectangles).
// No player or robot plane is relabelled: a symmetry moves cells, not
// players or robots. The
// plan and step planes move with the board; Plans' tie-breaks (scan order,
// N E S W) are not symmetric, so a moved plan is a valid plan of the moved
// position but not always the one Plans would choose there.
// TransformAction moves the cell of a placement action and maps the direction
// of a move action (X is fixed).
//
// Potential: the seat's own score / n², in [0, 1).
//
// ScoreScale is (n−2)²/p, the claimable interior shared evenly: 81 at the
// defaults.
package rectangle

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/gridgym/gridgym/rules"
)

// Encoder is Rectangle's learner interface (see the package doc): canonical
// observations, masks and the multi-discrete action space of one configured
// game. It holds no per-game state and is safe for concurrent use. *Encoder
// implements rules.Encoder, rules.Potential and rules.Symmetric.
type Encoder struct {
	n, p, b int
	rings   bool // the ring planes (the rings parameter)
	memory  bool // the ring planes keep the seat's ring (ring_memory)
	nn      int  // n², the first direction action
	space   rules.Space
	perm    [8][]int // TransformObs' plane permutation of each symmetry (the go planes)
}

// NewEncoder returns the learner interface of a validated Rectangle config
// (the game's registered Game.Encoder).
func NewEncoder(cfg rules.Config) rules.Encoder {
	e := newEncoder(cfg.Int("n"), cfg.Int("players"), cfg.Int("robots"), cfg.Bool("rings"))
	e.memory = cfg.Bool("ring_memory")
	return e
}

// newEncoder returns the encoder of games with side n, p players and b robots
// each (R1; the values must be in range), with the ring planes if rings.
func newEncoder(n, p, b int, rings bool) *Encoder {
	e := &Encoder{n: n, p: p, b: b, rings: rings, nn: n * n}
	var planes, scalars []string
	planes = append(planes, "unpaintable", "unpainted")
	for k := 0; k < p; k++ {
		planes = append(planes, "paint_"+strconv.Itoa(k))
	}
	for i := 0; i < b; i++ {
		planes = append(planes, "own_robot_"+strconv.Itoa(i))
	}
	for k := 1; k < p; k++ {
		planes = append(planes, "robots_"+strconv.Itoa(k))
	}
	for i := 0; i < b; i++ {
		planes = append(planes, "plan_"+strconv.Itoa(i))
	}
	for i := 0; i < b; i++ {
		planes = append(planes, "step_"+strconv.Itoa(i))
	}
	goBase := len(planes)
	for d := 0; d < 5; d++ {
		planes = append(planes, "go_"+DirLetters[d:d+1])
	}
	ringGo := -1
	if rings {
		planes = append(planes, "ring")
		ringGo = len(planes)
		for d := 0; d < 5; d++ {
			planes = append(planes, "ring_go_"+DirLetters[d:d+1])
		}
	}
	for g := range e.perm {
		e.perm[g] = make([]int, len(planes))
		for i := range e.perm[g] {
			e.perm[g][i] = i
		}
		for d := 0; d < 5; d++ {
			e.perm[g][goBase+int(dirD4[g][d])] = goBase + d
			if rings {
				e.perm[g][ringGo+int(dirD4[g][d])] = ringGo + d
			}
		}
	}
	scalars = append(scalars, "placement", "move_num")
	for k := 0; k < p; k++ {
		scalars = append(scalars, "score_"+strconv.Itoa(k))
	}
	e.space = rules.Space{
		Planes:      len(planes),
		Height:      n,
		Width:       n,
		PlaneNames:  planes,
		Scalars:     len(scalars),
		ScalarNames: scalars,
		Heads:       b, ActionPlanes: 1,
		UnitPlane: p + 2,
		Actions:   n*n + 5,
		ActionDoc: fmt.Sprintf("%d heads (one per robot) of %d actions: a = r·%d+c < %d places the robot on (r, c) "+
			"(placement, move_num 0, only); a = %d+d moves it d = 0 N, 1 E, 2 S, 3 W, 4 X (moves only). "+
			"Canonical frame = real board (R19: no rotation). No pass action.", b, n*n+5, n, n*n, n*n),
		ScoreScale: float64((n-2)*(n-2)) / float64(p),
	}
	return e
}

// Space implements rules.Encoder.
func (e *Encoder) Space() rules.Space { return e.space }

// state returns st as a Rectangle state of this encoder's shape.
func (e *Encoder) state(st rules.State) *State {
	s := st.(*State)
	if s.n != e.n || s.p != e.p || s.b != e.b {
		panic(fmt.Sprintf("rectangle: encoder for n=%d players=%d robots=%d used on n=%d players=%d robots=%d", e.n, e.p, e.b, s.n, s.p, s.b))
	}
	return s
}

// byteBits[x] has byte j = bit j of x: one row byte of a bitboard expanded
// to 8 plane bytes of 0 or 1 (little-endian).
var byteBits = func() (t [256]uint64) {
	for x := range t {
		for j := 0; j < 8; j++ {
			t[x] |= uint64(x>>j&1) << (8 * j)
		}
	}
	return t
}()

// expandPlane writes the n row words rows (bit c = column c < n ≤ 64, no
// bits beyond) into dst as n·n bytes of 0 or 1. The rows are consecutive in
// dst, so the cells are one stream of n² bits, written 8 at a time through
// byteBits. The last group may run up to 7 bytes past the plane (zeros): dst
// must have them, and the caller writes planes in increasing order and the
// bytes after the last one afterwards.
func expandPlane(dst []byte, n int, rows []uint64) {
	var acc uint64 // cells not written yet, low bit first
	k, o := 0, 0   // len(acc) < 8 between rows; o the next byte
	for _, w := range rows[:n] {
		lo, hi := acc|w<<uint(k), w>>uint(64-k) // hi: what did not fit (0 if k = 0)
		k += n
		for ; k >= 8; k -= 8 {
			binary.LittleEndian.PutUint64(dst[o:o+8], byteBits[byte(lo)])
			o += 8
			lo = lo>>8 | hi<<56
			hi >>= 8
		}
		acc = lo
	}
	if k > 0 {
		binary.LittleEndian.PutUint64(dst[o:o+8], byteBits[byte(acc)])
	}
}

// Observe implements rules.Encoder (layout in the package doc). It allocates
// nothing.
func (e *Encoder) Observe(st rules.State, seat int, planes []uint8, scalars []float32) {
	s := e.state(st)
	n, p, nn := e.n, e.p, e.nn
	planes = planes[:e.space.Planes*nn]
	scalars = scalars[:e.space.Scalars]
	// The cell planes 0 .. p+1, in order; the robot planes after them absorb
	// the last plane's overrun and are cleared below.
	expandPlane(planes, n, s.unp[:n])
	var free [MaxN]uint64 // paintable and unpainted
	for r := 0; r < n; r++ {
		w := s.unp[r]
		for i := 0; i < p; i++ {
			w |= s.paint[i][r]
		}
		free[r] = s.full &^ w
	}
	expandPlane(planes[nn:], n, free[:n])
	for k := 0; k < p; k++ {
		expandPlane(planes[(2+k)*nn:], n, s.paint[(seat+k)%p][:n])
	}
	robots := planes[(2+p)*nn:]
	clear(robots)
	e.planPlanes(s, seat, planes[(2*p+e.b+1)*nn:])
	if s.steps > 0 {
		for i := 0; i < e.b; i++ {
			robots[i*nn+int(s.rr[seat][i])*n+int(s.rc[seat][i])] = 1
		}
		for k := 1; k < p; k++ {
			j := (seat + k) % p
			pl := robots[(e.b+k-1)*nn : (e.b+k)*nn]
			for i := 0; i < e.b; i++ {
				pl[int(s.rr[j][i])*n+int(s.rc[j][i])]++
			}
		}
	}
	scalars[0] = 0
	if s.steps == 0 {
		scalars[0] = 1
	}
	scalars[1] = float32(s.steps) / float32(s.maxMoves)
	for k := 0; k < p; k++ {
		scalars[2+k] = float32(s.score[(seat+k)%p]) / float32(nn)
	}
}

// planPlanes writes the plan, step and go planes (2b + 5 planes from
// dst[0], all 0 on entry) of seat's view.
func (e *Encoder) planPlanes(s *State, seat int, dst []uint8) {
	var v View
	var plans [MaxRobots]Plan
	s.View(seat, &v)
	Plans(&v, plans[:e.b])
	n, nn := e.n, e.nn
	for i, p := range plans[:e.b] {
		if p.K == 0 {
			continue
		}
		pl := dst[i*nn : (i+1)*nn]
		for d := 0; d < p.K; d++ {
			pl[p.R*n+p.C+d], pl[(p.R+p.K-1)*n+p.C+d] = 1, 1
			pl[(p.R+d)*n+p.C], pl[(p.R+d)*n+p.C+p.K-1] = 1, 1
		}
		if p.TR >= 0 {
			pl[p.TR*n+p.TC] = 2
		}
		st := dst[(e.b+i)*nn : (e.b+i+1)*nn]
		if s.steps == 0 {
			st[p.R*n+p.C] = 1
		} else {
			st[(v.Pos[0][i].R+dRow[p.Step])*n+v.Pos[0][i].C+dCol[p.Step]] = 1
		}
	}
	if s.steps > 0 {
		for i, p := range plans[:e.b] {
			dst[(2*e.b+int(p.Step))*nn+v.Pos[0][i].R*n+v.Pos[0][i].C]++
		}
		if e.rings {
			ringPlanes(s, seat, e.memory, &v, plans[:e.b], dst[(2*e.b+5)*nn:])
		}
	}
}

// ringPlanes writes the ring and ring_go planes (6 planes from dst[0], all 0
// on entry) of seat's view v at a move, given its plans: the ring is the one
// the encloser bot would take now, with no memory (RingOf) or, with memory,
// the one the state keeps for the seat (s.Ring: RingKept; RingOf if the
// state keeps none, a game not configured with ring_memory=true), the plane
// 1 on its boundary cells painted 0 and 2 on the others; ring_go_d counts
// the robots on each cell for which step d is one of the encloser's
// choices toward its target (RingSteps), or with memory the step the robot
// takes (State.RingMoves: the game's ring_step). Nothing without a ring.
func ringPlanes(s *State, seat int, memory bool, v *View, plans []Plan, dst []uint8) {
	var x Rings
	var q Rect
	var ok bool
	if memory {
		q, ok = s.Ring(seat, &x, v, plans)
	} else {
		q, ok = RingOfBy(&x, v, plans, s.rt.rule)
	}
	if !ok {
		return
	}
	n, nn := v.N, v.N*v.N
	for _, p := range x.Boundary() {
		if v.Board[p.R][p.C] == 0 {
			dst[p.R*n+p.C] = 1
		} else {
			dst[p.R*n+p.C] = 2
		}
	}
	var moves [MaxRobots]Dir
	if memory {
		s.RingMoves(&x, v, q, moves[:v.Robots])
	}
	for i := 0; i < v.Robots; i++ {
		var steps uint8
		if memory {
			steps = 1 << moves[i]
		} else {
			steps = RingSteps(&x, v, q, i)
		}
		r, c := v.Pos[0][i].R, v.Pos[0][i].C
		for d := North; d <= Stay; d++ {
			if steps&(1<<d) != 0 {
				dst[(1+int(d))*nn+r*n+c]++
			}
		}
	}
}

// setBits sets bits lo..hi−1 of mask, a word at a time.
func setBits(mask []uint64, lo, hi int) {
	for lo < hi {
		off := lo & 63
		cnt := min(64-off, hi-lo)
		w := ^uint64(0)
		if cnt < 64 {
			w = (uint64(1)<<uint(cnt) - 1) << uint(off)
		}
		mask[lo>>6] |= w
		lo += cnt
	}
}

// Mask implements rules.Encoder: every cell of every head at the placement,
// the five directions of every head at a move, nothing once the game is over.
func (e *Encoder) Mask(st rules.State, seat int, mask []uint64) {
	s := e.state(st)
	mask = mask[:e.space.MaskWords()]
	clear(mask)
	if !s.Active(seat) {
		return
	}
	a := e.space.Actions
	for h := 0; h < e.b; h++ {
		if s.steps == 0 {
			setBits(mask, h*a, h*a+e.nn)
		} else {
			setBits(mask, h*a+e.nn, h*a+e.nn+5)
		}
	}
}

// Decode implements rules.Encoder: the b heads' actions become one placement
// (move_num 0) or one move. View cells and directions are real ones (R19), so
// no mapping is needed. If any head's action is not one of the phase's (or
// fewer than b actions are given), the result is Pass, R9's default.
func (e *Encoder) Decode(st rules.State, seat int, actions []int32) rules.Move {
	s := e.state(st)
	if len(actions) < e.b {
		return rules.Move{}
	}
	m := rules.Move{Kind: KindMove, N: uint8(e.b)}
	lo, hi := int32(e.nn), int32(e.nn+5)
	if s.steps == 0 {
		m.Kind, lo, hi = KindPlace, 0, int32(e.nn)
	}
	for i := 0; i < e.b; i++ {
		a := actions[i]
		if a < lo || a >= hi {
			return rules.Move{}
		}
		m.Arg[i] = int16(a - lo)
	}
	return m
}

// Encode implements rules.Encoder: a valid placement (at move_num 0) or a
// valid move (after it) gives its b actions; anything else, including a move
// of the wrong phase, reports false.
func (e *Encoder) Encode(st rules.State, seat int, m rules.Move, actions []int32) bool {
	s := e.state(st)
	if len(actions) < e.b {
		return false
	}
	off := int32(e.nn)
	if s.steps == 0 {
		if !s.validPlace(m) {
			return false
		}
		off = 0
	} else if !s.validDirs(m) {
		return false
	}
	for i := 0; i < e.b; i++ {
		actions[i] = off + int32(m.Arg[i])
	}
	return true
}

// Potential implements rules.Potential: the seat's score over the board's
// n² cells.
func (e *Encoder) Potential(st rules.State, seat int) float64 {
	s := e.state(st)
	return float64(s.score[seat]) / float64(e.nn)
}

// allD4 lists the 8 symmetries of the square.
var allD4 = []rules.D4{0, 1, 2, 3, 4, 5, 6, 7}

// dirD4[g][d] is direction d mapped by g: the step from a cell to its
// neighbour d becomes the step between their images (X stays X).
var dirD4 = func() (t [8][5]int32) {
	const n = 3
	for g := rules.D4(0); g < 8; g++ {
		r0, c0 := g.Point(n, 1, 1)
		for d := 0; d < 5; d++ {
			r1, c1 := g.Point(n, 1+dRow[d], 1+dCol[d])
			t[g][d] = int32(Stay)
			for x := 0; x < 4; x++ {
				if dRow[x] == r1-r0 && dCol[x] == c1-c0 {
					t[g][d] = int32(x)
				}
			}
		}
	}
	return t
}()

// Symmetries implements rules.Symmetric: all of D4 (I7). The slice is shared:
// do not modify it.
func (e *Encoder) Symmetries() []rules.D4 { return allD4 }

// TransformObs implements rules.Symmetric: every plane is moved by g and the
// go and ring_go planes are relabelled by g's direction map; the scalars do not change.
func (e *Encoder) TransformObs(g rules.D4, dstPlanes []uint8, dstScalars []float32, planes []uint8, scalars []float32) {
	size := e.space.ObsSize()
	rules.TransformPlanes(g, e.n, dstPlanes[:size], planes[:size], e.perm[g&7])
	copy(dstScalars[:e.space.Scalars], scalars[:e.space.Scalars])
}

// TransformAction implements rules.Symmetric: a placement action's cell moves
// by g, a move action's direction is mapped by g (X is fixed). Values outside
// [0, Actions) are returned unchanged.
func (e *Encoder) TransformAction(g rules.D4, head int, a int32) int32 {
	switch nn := int32(e.nn); {
	case a >= 0 && a < nn:
		r, c := g.Point(e.n, int(a)/e.n, int(a)%e.n)
		return int32(r*e.n + c)
	case a >= nn && a < nn+5:
		return nn + dirD4[g&7][a-nn]
	}
	return a
}
