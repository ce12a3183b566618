package rectangle_test

import (
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
	enc, err := agents.Lookup(rectangle.Name, "encloser")
	if err != nil {
		t.Fatal(err)
	}
	var v rectangle.View
	var plans [rectangle.MaxRobots]rectangle.Plan
	checked, rings, steps := 0, 0, 0
	ringPositions(t, []string{"encloser", "boxer", "encloser", "planner"}, 3, func(s *rectangle.State) {
		if s.MoveNum()%5 != 0 {
			return
		}
		for seat := 0; seat < 4; seat++ {
			s.View(seat, &v)
			rectangle.Plans(&v, plans[:v.Robots])
			var x rectangle.Rings
			q, ok := rectangle.RingOf(&x, &v, plans[:v.Robots])
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
