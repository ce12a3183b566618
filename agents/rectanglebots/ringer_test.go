package rectanglebots

import (
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

// TestRingerFollowsThePlanes: the ringer's move is what the encoder's planes
// (rings=true) show for its seat: where the ring plane is set, each robot
// takes the first step of the ring_go planes on its cell that no robot of
// its own holds or steps onto (X if none is free); elsewhere the step of
// the go planes (planner's). Its moves are legal (R8) and games of it
// finish; checked at every move of games against boxer, planner and
// random, a mirror of itself and boxers, and bots that never move; with
// the ring planes alone (RingOf: the planes show each robot's candidate
// steps) and with their memory (ring_memory=true, RingKept: they show the
// step RingMoves takes, which the same rule reads back), also guarded
// against the rivals' rings (ring_guard=true). The board is 14×14: the
// rule is the same on any board, every lineup still takes rings (and the
// guard changes the games), and a move costs a fifth of a 20×20 one (the
// rings' search grows as n⁴); the games together take about 3,600 moves,
// 1,200 of them with a ring (issue 52: 4,600 moves on 20×20, 10.9 s at load
// 14; now 1.6 s at load 6).
func TestRingerFollowsThePlanes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params map[string]string
	}{
		{"rings", map[string]string{"n": "14", "rings": "true"}},
		{"ring_memory", map[string]string{"n": "14", "rings": "true", "ring_memory": "true"}},
		{"ring_guard", map[string]string{"n": "14", "rings": "true", "ring_memory": "true", "ring_guard": "true"}},
	} {
		t.Run(tc.name, func(t *testing.T) { ringerFollowsThePlanes(t, tc.params) })
	}
}

// TestRingGuardKeepsRingsApart: two ringers at one table (with planner and
// boxer) take crossing rings, and each repaints the other's boundary where
// they cross (reports/rectangle/rings). With ring_guard=true a ring keeps
// off a rival's ring that is half painted, so the moves at which the two
// ringers' rings share a boundary cell while one of them is at least half
// painted almost vanish: at most a fifth of those without the guard, which
// has hundreds (eight games each). On a 14×14 board, where the rings cross
// as on 20×20 at a fifth of the cost a move (about 245 such moves against 17
// guarded; 351 against 45 on 20×20: 37 s at load 14, now 5–7 s at load 6–8;
// issue 52).
func TestRingGuardKeepsRingsApart(t *testing.T) {
	clashes := func(params map[string]string) int {
		params["n"] = "14"
		cfg := config(t, params)
		n := 0
		for g := 0; g < 8; g++ { // ~4,000 moves
			bots := []agents.Agent{&Ringer{}, &Ringer{}, &Planner{}, &Boxer{}}
			a, b := g%4, (g+1)%4 // the ringers' seats: bots rotated by g
			bots = append(bots[4-a:], bots[:4-a]...)
			play(t, cfg, uint64(400+g), bots, func(s *rectangle.State, _ []rules.Move) {
				if s.MoveNum() == 0 {
					return
				}
				qa, oa, pa := ringOf(s, a)
				qb, ob, pb := ringOf(s, b)
				if oa && ob && (pa || pb) && crosses(qa, qb) {
					n++
				}
			})
		}
		return n
	}
	free := clashes(map[string]string{"rings": "true", "ring_memory": "true"})
	guarded := clashes(map[string]string{"rings": "true", "ring_memory": "true", "ring_guard": "true"})
	if free < 100 || guarded*5 > free {
		t.Fatalf("moves with crossing rings, one half painted: %d guarded, %d without the guard", guarded, free)
	}
	t.Logf("moves with crossing rings, one half painted: %d guarded, %d without the guard", guarded, free)
}

// ringOf returns seat's ring in s (State.Ring), whether it has one, and
// whether the seat has painted at least half of its boundary.
func ringOf(s *rectangle.State, seat int) (q rectangle.Rect, ok, half bool) {
	var v rectangle.View
	var x rectangle.Rings
	var plans [rectangle.MaxRobots]rectangle.Plan
	s.View(seat, &v)
	rectangle.Plans(&v, plans[:v.Robots])
	q, ok = s.Ring(seat, &x, &v, plans[:v.Robots])
	if !ok {
		return q, false, false
	}
	per := q.Perimeter(nil)
	painted := 0
	for _, p := range per {
		if v.Board[p.R][p.C] == 0 {
			painted++
		}
	}
	return q, true, 2*painted >= len(per)
}

// crosses reports whether rectangles p and q share a boundary cell.
func crosses(p, q rectangle.Rect) bool {
	for _, c := range p.Perimeter(nil) {
		if q.OnBoundary(c.R, c.C) {
			return true
		}
	}
	return false
}

func ringerFollowsThePlanes(t *testing.T, params map[string]string) {
	cfg := config(t, params)
	g, _ := rules.Lookup(rectangle.Name)
	enc := g.Encoder(cfg)
	sp := enc.Space()
	nn := sp.Height * sp.Width
	planes, scalars := make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars)
	goBase, ringBase := sp.Planes-11, sp.Planes-6 // go_N.., ring, ring_go_N..
	pass, err := agents.Lookup(rectangle.Name, "pass")
	if err != nil {
		t.Fatal(err)
	}
	rings, plain := 0, 0
	for game, lineup := range [][]agents.Agent{
		{&Ringer{}, &Boxer{}, &Planner{}, &agents.Random{}},
		{&Ringer{}, &Ringer{}, &Boxer{}, &Boxer{}},
		{&Ringer{}, pass.New(), pass.New(), &agents.Random{}}, // an open board: rings pay
	} {
		play(t, cfg, uint64(60+game), lineup, func(s *rectangle.State, moves []rules.Move) {
			if s.MoveNum() == 0 {
				return
			}
			var v rectangle.View
			s.View(0, &v)
			enc.Observe(s, 0, planes, scalars)
			ring := false
			for _, x := range planes[ringBase*nn : (ringBase+1)*nn] {
				ring = ring || x != 0
			}
			var dest [rectangle.MaxRobots]rectangle.Pos
			taken := rectangle.OwnBlocked(&v.Pos[0], &dest, v.Robots)
			for i := 0; i < v.Robots; i++ {
				cell := v.Pos[0][i].R*v.N + v.Pos[0][i].C
				d := rectangle.Dir(moves[0].Arg[i])
				want := rectangle.Stay
				if ring {
					for x := rectangle.North; x < rectangle.Stay; x++ {
						if planes[(ringBase+1+int(x))*nn+cell] != 0 && !taken(i, v.Pos[0][i].R+dRow[x], v.Pos[0][i].C+dCol[x]) {
							want = x
							break
						}
					}
				} else {
					for x := rectangle.North; x <= rectangle.Stay; x++ {
						if planes[(goBase+int(x))*nn+cell] != 0 {
							want = x // one robot per cell: its plan step
						}
					}
				}
				if d != want {
					t.Fatalf("game %d move %d robot %d (ring %v): steps %d, the planes show %d", game, s.MoveNum(), i, ring, d, want)
				}
				dest[i] = rectangle.Pos{R: v.Pos[0][i].R + dRow[d], C: v.Pos[0][i].C + dCol[d]}
			}
			if ring {
				rings++
			} else {
				plain++
			}
		})
	}
	if rings < 50 || plain < 50 {
		t.Fatalf("%d moves with a ring, %d without: want both", rings, plain)
	}
}

// TestRingerActAllocs: a move allocates nothing once the bot's buffers
// have grown.
func TestRingerActAllocs(t *testing.T) {
	bots := []agents.Agent{&Ringer{}, &Boxer{}, &Boxer{}, &Boxer{}}
	s := warmUp(t, bots)
	if n := testing.AllocsPerRun(20, func() { bots[0].Act(s) }); n != 0 {
		t.Fatalf("Act allocates %.1f times a move", n)
	}
}
