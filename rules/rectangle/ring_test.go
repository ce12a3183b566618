package rectangle_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/gridgym/gridgym/agents"
	_ "github.com/gridgym/gridgym/agents/rectanglebots" // the bots that play the positions
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

// ringPositions plays seeded default games of lineup and calls f with every
// position after the placement.
func ringPositions(t *testing.T, lineup []string, games int, f func(s *rectangle.State)) {
	t.Helper()
	g, _ := rules.Lookup(rectangle.Name)
	cfg := g.Default()
	for k := 0; k < games; k++ {
		st := g.New(cfg).(*rectangle.State)
		bots := make([]agents.Agent, len(lineup))
		for i, name := range lineup {
			e, err := agents.Lookup(rectangle.Name, name)
			if err != nil {
				t.Fatal(err)
			}
			bots[i] = e.New()
			bots[i].Reset(st, i, rules.Derive(uint64(40+k), uint64(i)))
		}
		moves := make([]rules.Move, len(lineup))
		for !st.Done() {
			if st.MoveNum() > 0 {
				f(st)
			}
			for i, b := range bots {
				moves[i] = b.Act(st)
			}
			st.Step(moves, nil)
		}
	}
}

// TestRingOfIsTheEnclosersChoice: RingOf, the ring planes' choice, is the
// ring a fresh encloser takes at its first move in the same position (it has
// no memory of rival robots standing still yet, R10's parked robots aside),
// and RingSteps holds the step the encloser draws for each robot, unless one
// of the set's cells is taken by the seat's own robots (the encloser steps
// round them). Checked in games of enclosers and boxers for every seat at
// every fifth move.
func TestRingOfIsTheEnclosersChoice(t *testing.T) {
	for _, bot := range []string{"encloser", "mason"} {
		t.Run(bot, func(t *testing.T) { checkRingOfIsTheBots(t, bot, rectangle.RuleOf(bot)) })
	}
}

// checkRingOfIsTheBots is TestRingOfIsTheEnclosersChoice for the bot named
// bot, whose constants are those of ring rule r (RingOfBy).
func checkRingOfIsTheBots(t *testing.T, bot string, r rectangle.RingRule) {
	enc, err := agents.Lookup(rectangle.Name, bot)
	if err != nil {
		t.Fatal(err)
	}
	var v rectangle.View
	var plans [rectangle.MaxRobots]rectangle.Plan
	checked, rings, steps := 0, 0, 0
	ringPositions(t, []string{bot, "boxer", "encloser", "planner"}, 3, func(s *rectangle.State) {
		if s.MoveNum()%5 != 0 {
			return
		}
		for seat := 0; seat < 4; seat++ {
			s.View(seat, &v)
			rectangle.Plans(&v, plans[:v.Robots])
			var x rectangle.Rings
			q, ok := rectangle.RingOfBy(&x, &v, plans[:v.Robots], r)
			a := enc.New()
			a.Reset(s, seat, rules.Derive(7, uint64(seat)))
			m := a.Act(s)
			took, isRing := a.(interface{ Ring() (rectangle.Rect, bool) }).Ring()
			if ok != isRing || (ok && q != took) {
				t.Fatalf("move %d seat %d: RingOf %+v (%v), the encloser %+v (%v)", s.MoveNum(), seat, q, ok, took, isRing)
			}
			checked++
			if !ok {
				continue
			}
			rings++
			me := v.Pos[0]
			var dest [rectangle.MaxRobots]rectangle.Pos
			for i := 0; i < v.Robots; i++ {
				d := rectangle.Dir(m.Arg[i])
				dest[i] = rectangle.Pos{R: me[i].R + rowStep[d], C: me[i].C + colStep[d]}
			}
			for i := 0; i < v.Robots; i++ {
				set := rectangle.RingSteps(&x, &v, q, i)
				if set&(1<<m.Arg[i]) != 0 {
					steps++
					continue
				}
				for d := rectangle.North; d < rectangle.Stay; d++ {
					y, z := me[i].R+rowStep[d], me[i].C+colStep[d]
					for j := 0; j < v.Robots; j++ {
						if set&(1<<d) != 0 && ((j < i && dest[j] == rectangle.Pos{R: y, C: z}) || (j > i && me[j] == rectangle.Pos{R: y, C: z})) {
							set &^= 1 << d // taken by its own robots: not a choice
						}
					}
				}
				if set&^(1<<rectangle.Stay) != 0 {
					t.Fatalf("move %d seat %d robot %d at %+v: the encloser steps %d, RingSteps %05b (ring %+v)", s.MoveNum(), seat, i, me[i], m.Arg[i], set, q)
				}
			}
		}
	})
	if rings < 20 || steps < 4*rings/2 {
		t.Fatalf("%d positions checked, %d with a ring, %d steps in the set: too few to prove much", checked, rings, steps)
	}
	t.Logf("%d positions, %d with a ring, %d robots' steps in RingSteps", checked, rings, steps)
}

var (
	rowStep = [5]int{-1, 0, 1, 0, 0}
	colStep = [5]int{0, 1, 0, -1, 0}
)

// TestRingPlanes: with rings=true the observation has 6 more planes (ring,
// ring_go_N..X), the planes before them are those of the default encoder,
// and at a move with a ring the ring plane marks exactly its boundary (1
// painted 0, 2 else) and every robot counts once or more in the ring_go
// planes at its cell; without a ring all six are 0.
func TestRingPlanes(t *testing.T) {
	g, _ := rules.Lookup(rectangle.Name)
	cfg, err := g.Configure(map[string]string{"rings": "true"})
	if err != nil {
		t.Fatal(err)
	}
	plain, ring := g.Encoder(g.Default()), g.Encoder(cfg)
	ps, rs := plain.Space(), ring.Space()
	if rs.Planes != ps.Planes+6 || rs.PlaneNames[ps.Planes] != "ring" || rs.PlaneNames[ps.Planes+1] != "ring_go_N" || rs.PlaneNames[rs.Planes-1] != "ring_go_X" {
		t.Fatalf("planes %d → %d: %v", ps.Planes, rs.Planes, rs.PlaneNames[ps.Planes:])
	}
	nn := rs.Height * rs.Width
	a, b := make([]uint8, ps.ObsSize()), make([]uint8, rs.ObsSize())
	sa, sb := make([]float32, ps.Scalars), make([]float32, rs.Scalars)
	var v rectangle.View
	var plans [rectangle.MaxRobots]rectangle.Plan
	with, without := 0, 0
	ringPositions(t, []string{"boxer", "planner", "encloser", "random"}, 2, func(s *rectangle.State) {
		if s.MoveNum()%3 != 0 {
			return
		}
		seat := s.MoveNum() % 4
		plain.Observe(s, seat, a, sa)
		ring.Observe(s, seat, b, sb)
		for k := range a[:ps.Planes*nn] {
			if a[k] != b[k] {
				t.Fatalf("move %d: plane byte %d is %d with rings, %d without", s.MoveNum(), k, b[k], a[k])
			}
		}
		s.View(seat, &v)
		rectangle.Plans(&v, plans[:v.Robots])
		var x rectangle.Rings
		q, ok := rectangle.RingOf(&x, &v, plans[:v.Robots])
		extra := b[ps.Planes*nn:]
		if !ok {
			without++
			for k, x := range extra {
				if x != 0 {
					t.Fatalf("move %d: no ring, but ring plane byte %d is %d", s.MoveNum(), k, x)
				}
			}
			return
		}
		with++
		for r := 0; r < 20; r++ {
			for c := 0; c < 20; c++ {
				want := uint8(0)
				if q.OnBoundary(r, c) {
					want = 2
					if v.Board[r][c] == 0 {
						want = 1
					}
				}
				if got := extra[r*20+c]; got != want {
					t.Fatalf("move %d ring %+v: ring plane (%d,%d) = %d, want %d", s.MoveNum(), q, r, c, got, want)
				}
			}
		}
		for i := 0; i < v.Robots; i++ {
			cell := v.Pos[0][i].R*20 + v.Pos[0][i].C
			sum := 0
			for d := 1; d <= 5; d++ {
				sum += int(extra[d*nn+cell])
			}
			if sum == 0 {
				t.Fatalf("move %d: robot %d at %+v has no ring step", s.MoveNum(), i, v.Pos[0][i])
			}
		}
	})
	if with < 10 || without < 10 {
		t.Fatalf("%d positions with a ring, %d without: want both", with, without)
	}
}

// ringAt returns the first position of a seeded game of enclosers and
// boxers at which RingOf finds a ring for seat 0, with that seat's view and
// plans.
func ringAt(t *testing.T) (v rectangle.View, plans [rectangle.MaxRobots]rectangle.Plan, q rectangle.Rect) {
	t.Helper()
	found := false
	ringPositions(t, []string{"encloser", "boxer", "encloser", "boxer"}, 1, func(s *rectangle.State) {
		if found {
			return
		}
		var x rectangle.Rings
		s.View(0, &v)
		rectangle.Plans(&v, plans[:v.Robots])
		q, found = rectangle.RingOf(&x, &v, plans[:v.Robots])
	})
	if !found {
		t.Fatal("no position with a ring")
	}
	return v, plans, q
}

// TestRingKept: the ring planes' memory (ring_memory=true) in one position
// with a ring, rule by rule (RingKept's doc): a kept ring that is still
// valid is taken again, though RingOf would take another; one made invalid
// gives way to RingOf's; a rival robot parked on its boundary (still for
// RingStill moves) blocks it where a moving one does not; and a kept ring
// whose potential stops falling is dropped after RingStall moves, after
// which no ring is taken for RingCool moves and then RingOf's is taken
// afresh.
func TestRingKept(t *testing.T) {
	v, plans, q := ringAt(t)
	b := v.Robots
	var x rectangle.Rings
	var still [rules.MaxSeats][rectangle.MaxRobots]int32
	kept := func(v *rectangle.View, m *rectangle.RingMemory) (rectangle.Rect, bool) {
		return rectangle.RingKept(&x, v, plans[:b], &still, m, nil)
	}
	if got, ok := kept(&v, &rectangle.RingMemory{}); !ok || got != q {
		t.Fatalf("no memory: RingKept = %v %v, RingOf = %v", got, ok, q)
	}
	// Another valid rectangle, the first in scan order (blocked as RingKept
	// blocks: two rival robots on a cell not painted 0).
	rivals := func(r, c int) int {
		k := 0
		for p := 1; p < v.Players; p++ {
			for j := 0; j < b; j++ {
				if v.Pos[p][j] == (rectangle.Pos{R: r, C: c}) {
					k++
				}
			}
		}
		return k
	}
	x.Load(&v, func(r, c int) bool { return v.Board[r][c] != 0 && rivals(r, c) >= 2 })
	q2 := rectangle.Rect{R2: -1}
	for r1 := 0; r1 < v.N && q2.R2 < 0; r1++ {
		for c1 := 0; c1 < v.N && q2.R2 < 0; c1++ {
			if r := (rectangle.Rect{R1: r1, C1: c1, R2: r1 + 3, C2: c1 + 3}); r.R2 < v.N && r.C2 < v.N && r != q {
				if _, ok := x.Valid(r); ok {
					q2 = r
				}
			}
		}
	}
	if q2.R2 < 0 {
		t.Fatal("no other valid rectangle")
	}
	m := rectangle.RingMemory{Kept: q2, Low: 1 << 30}
	if got, ok := kept(&v, &m); !ok || got != q2 || m.Kept != q2 {
		t.Fatalf("kept %v: RingKept = %v %v, memory %v", q2, got, ok, m.Kept)
	}
	// An unpaintable cell on its boundary rules the kept ring out (R10).
	w := v
	w.Board[q2.R2][q2.C1+1] = rectangle.Unpaintable
	m = rectangle.RingMemory{Kept: q2, Low: 1 << 30}
	if got, ok := kept(&w, &m); ok && got == q2 {
		t.Fatalf("invalid kept ring %v taken again", q2)
	}
	// A rival robot on a boundary cell not painted 0 and free of rivals:
	// moving, the kept ring stays; parked, it blocks the ring.
	w = v
	cell := rectangle.Pos{R: -1}
	for _, p := range q2.Perimeter(nil) {
		if w.Board[p.R][p.C] != 0 && rivals(p.R, p.C) == 0 {
			cell = p
			break
		}
	}
	if cell.R < 0 {
		t.Fatalf("no free boundary cell to paint on %v", q2)
	}
	w.Pos[1][0] = cell
	m = rectangle.RingMemory{Kept: q2, Low: 1 << 30}
	if got, ok := kept(&w, &m); !ok || got != q2 {
		t.Fatalf("a moving rival on %v: RingKept = %v %v, want the kept %v", cell, got, ok, q2)
	}
	still[1][0] = rectangle.RingStill
	m = rectangle.RingMemory{Kept: q2, Low: 1 << 30}
	if got, ok := kept(&w, &m); ok && got == q2 {
		t.Fatalf("a parked rival on %v: the kept ring %v taken again", cell, q2)
	}
	still[1][0] = 0
	// Stall: the same position again and again, so the potential never
	// falls below the first move's.
	m = rectangle.RingMemory{}
	for k := 0; k <= rectangle.RingStall; k++ {
		if got, ok := kept(&v, &m); !ok || got != q {
			t.Fatalf("move %d of the stall: RingKept = %v %v, want %v", k, got, ok, q)
		}
	}
	if m.Kept.R2 > 0 || m.Off != rectangle.RingCool {
		t.Fatalf("after %d moves without progress: memory %+v, want the ring dropped and %d moves off", rectangle.RingStall, m, rectangle.RingCool)
	}
	for k := 0; k < rectangle.RingCool; k++ {
		if got, ok := kept(&v, &m); ok {
			t.Fatalf("move %d of the cool-down: ring %v", k, got)
		}
	}
	if got, ok := kept(&v, &m); !ok || got != q {
		t.Fatalf("after the cool-down: RingKept = %v %v, want RingOf's %v", got, ok, q)
	}
}

// TestRingGuard: with a guard (ring_guard=true), a rival's kept ring whose
// boundary the rival has painted at least RingGuard of blocks its boundary
// cells. The position of TestRingKept, with rival 1 keeping a ring that
// shares boundary cells with the seat's ring q: painted below the share, nothing changes (the
// same ring as without a guard); at the share, q is neither taken afresh
// nor kept, and the ring taken instead keeps off the rival's boundary;
// another rival's label does not make it rival 1's.
func TestRingGuard(t *testing.T) {
	v, plans, q := ringAt(t)
	b := v.Robots
	var x rectangle.Rings
	var still [rules.MaxSeats][rectangle.MaxRobots]int32
	kept := func(v *rectangle.View, m *rectangle.RingMemory, guard *[rules.MaxSeats]rectangle.Rect) (rectangle.Rect, bool) {
		return rectangle.RingKept(&x, v, plans[:b], &still, m, guard)
	}
	// Rival 1's ring: q's top-right quadrant, which shares half of q's top
	// side and half of its right side.
	g := rectangle.Rect{R1: q.R1, C1: (q.C1 + q.C2) / 2, R2: (q.R1 + q.R2) / 2, C2: q.C2}
	if g.R2-g.R1 < 2 || g.C2-g.C1 < 2 {
		t.Fatalf("ring %v is too small to share a quadrant", q)
	}
	onQ := map[rectangle.Pos]bool{}
	for _, p := range q.Perimeter(nil) {
		onQ[p] = true
	}
	// Paint share f of g's boundary in colour 1, cells off q first (so the
	// seat's own paint on q is touched last), skipping unpaintable cells.
	paint := func(f float64, colour int8) rectangle.View {
		w := v
		per := g.Perimeter(nil)
		want := int(f*float64(len(per)) + 0.999)
		for pass := 0; pass < 2 && want > 0; pass++ {
			for _, p := range per {
				if want > 0 && onQ[p] == (pass == 1) && w.Board[p.R][p.C] != rectangle.Unpaintable {
					w.Board[p.R][p.C] = colour
					want--
				}
			}
		}
		return w
	}
	guard := [rules.MaxSeats]rectangle.Rect{1: g}
	low := paint(rectangle.RingGuard-0.2, 1)
	want, wok := kept(&low, &rectangle.RingMemory{}, nil)
	if got, ok := kept(&low, &rectangle.RingMemory{}, &guard); ok != wok || got != want {
		t.Fatalf("rival ring %v painted below the share: RingKept = %v %v, want %v %v as without a guard", g, got, ok, want, wok)
	}
	for _, tc := range []struct {
		name   string
		colour int8
		guards bool
	}{{"rival 1's paint", 1, true}, {"rival 2's paint", 2, false}} {
		w := paint(rectangle.RingGuard, tc.colour)
		free, _ := kept(&w, &rectangle.RingMemory{}, nil)
		got, ok := kept(&w, &rectangle.RingMemory{}, &guard)
		if !tc.guards {
			if got != free {
				t.Errorf("%s: RingKept = %v, want %v as without a guard", tc.name, got, free)
			}
			continue
		}
		if free != q {
			t.Fatalf("%s: unguarded the seat takes %v, not %v (the test needs q)", tc.name, free, q)
		}
		if ok && got == q {
			t.Fatalf("%s: the guarded crossing ring %v taken", tc.name, q)
		}
		if ok {
			for _, p := range got.Perimeter(nil) {
				if g.OnBoundary(p.R, p.C) {
					t.Fatalf("%s: ring %v crosses the guarded %v at %v", tc.name, got, g, p)
				}
			}
		}
		m := rectangle.RingMemory{Kept: q, Low: 1 << 30}
		if got, ok := kept(&w, &m, &guard); ok && got == q {
			t.Fatalf("%s: the kept ring %v taken again across the guarded %v", tc.name, q, g)
		}
	}
}

// TestRingMemoryFollowsTheMoves: the ring memory is a function of the moves
// played. A clone taken mid-game, a fresh game and a Reset game, given the
// same moves, observe exactly as the original at every move; and the
// memory does change the planes (they differ from rings alone somewhere).
func TestRingMemoryFollowsTheMoves(t *testing.T) {
	g, _ := rules.Lookup(rectangle.Name)
	cfgM, err := g.Configure(map[string]string{"rings": "true", "ring_memory": "true"})
	if err != nil {
		t.Fatal(err)
	}
	cfgR, _ := g.Configure(map[string]string{"rings": "true"})
	enc, encR := g.Encoder(cfgM), g.Encoder(cfgR)
	sp := enc.Space()
	obs := func(e rules.Encoder, s rules.State, seat int) []uint8 {
		planes := make([]uint8, sp.ObsSize())
		e.Observe(s, seat, planes, make([]float32, sp.Scalars))
		return planes
	}
	s := g.New(cfgM)
	plain := g.New(cfgR)
	var clone, fresh rules.State
	fresh = g.New(cfgM)
	bots := make([]agents.Agent, 4)
	for i := range bots {
		e, _ := agents.Lookup(rectangle.Name, []string{"ringer", "boxer"}[i%2])
		bots[i] = e.New()
		bots[i].Reset(s, i, rules.Derive(9, uint64(i)))
	}
	var played [][]rules.Move
	var seen [][]uint8 // seat step%4's observation at each move
	moves := make([]rules.Move, 4)
	differ := 0
	for step := 0; !s.Done(); step++ {
		if step == 80 {
			clone = s.Clone()
		}
		seen = append(seen, obs(enc, s, step%4))
		for seat := 0; seat < 4; seat++ {
			want := obs(enc, s, seat)
			for name, o := range map[string]rules.State{"clone": clone, "fresh": fresh} {
				if o != nil && !bytes.Equal(obs(enc, o, seat), want) {
					t.Fatalf("move %d, seat %d: the %s game observes otherwise", step, seat, name)
				}
			}
			if !bytes.Equal(obs(encR, plain, seat), want) {
				differ++
			}
		}
		for i, b := range bots {
			moves[i] = b.Act(s)
		}
		played = append(played, slices.Clone(moves))
		for _, o := range []rules.State{s, clone, fresh, plain} {
			if o != nil {
				o.Step(moves, nil)
			}
		}
	}
	if differ == 0 {
		t.Fatal("the memory never changed the planes: the test proves nothing")
	}
	s.Reset()
	for step, m := range played {
		if !bytes.Equal(obs(enc, s, step%4), seen[step]) {
			t.Fatalf("move %d: the Reset game replaying the moves observes otherwise", step)
		}
		s.Step(m, nil)
	}
	t.Logf("%d moves, %d seat-moves where the memory changes the planes", len(played), differ)
}

// TestRingMovesFree: RingMoves with free (ring_step=free) moves every robot
// as without it while the robots before it do, and where without it a robot
// stays because its own robots take its best steps, it takes the best of the
// steps they leave free: a step that brings it closer to its target (or off
// it, on its target), never onto a cell its own robots hold or enter. Checked
// for every seat at every move of games of enclosers, masons and boxers; the
// second rule must come up.
func TestRingMovesFree(t *testing.T) {
	var v rectangle.View
	var plans [rectangle.MaxRobots]rectangle.Plan
	var x rectangle.Rings
	dr := [5]int{-1, 0, 1, 0, 0}
	dc := [5]int{0, 1, 0, -1, 0}
	moved, checked := 0, 0
	ringPositions(t, []string{"encloser", "mason", "boxer", "mason"}, 2, func(s *rectangle.State) {
		for seat := 0; seat < 4; seat++ {
			s.View(seat, &v)
			b := v.Robots
			rectangle.Plans(&v, plans[:b])
			q, ok := rectangle.RingOfBy(&x, &v, plans[:b], rectangle.RuleOf("mason"))
			if !ok {
				continue
			}
			var first, free [rectangle.MaxRobots]rectangle.Dir
			rectangle.RingMoves(&x, &v, q, false, first[:b])
			rectangle.RingMoves(&x, &v, q, true, free[:b])
			me := v.Pos[0]
			for i := 0; i < b; i++ {
				checked++
				f := free[i]
				y, c := me[i].R+dr[f], me[i].C+dc[f]
				for j := 0; j < b && f != rectangle.Stay; j++ {
					dj := free[j]
					if j > i && me[j] == (rectangle.Pos{R: y, C: c}) || j < i && me[j].R+dr[dj] == y && me[j].C+dc[dj] == c {
						t.Fatalf("move %d seat %d: robot %d steps %v onto its robot %d's cell", s.MoveNum(), seat, i, f, j)
					}
				}
				if first[i] != rectangle.Stay {
					if f != first[i] {
						t.Fatalf("move %d seat %d: robot %d steps %v free, %v first", s.MoveNum(), seat, i, f, first[i])
					}
					continue
				}
				if f == rectangle.Stay {
					continue
				}
				moved++
				tr, tc, td := x.Target(&v, q, i)
				if d := max(y-tr, tr-y) + max(c-tc, tc-c); td > 0 && d >= td {
					t.Fatalf("move %d seat %d: robot %d's free step %v leads no closer to (%d,%d)", s.MoveNum(), seat, i, f, tr, tc)
				}
				break // the robots after it see another robot's step than without free
			}
		}
	})
	if moved < 10 {
		t.Fatalf("free moved a robot that stays without it %d times in %d robot moves: the test would prove little", moved, checked)
	}
	t.Logf("%d robot moves checked, %d where free moves a robot that stays without it", checked, moved)
}
