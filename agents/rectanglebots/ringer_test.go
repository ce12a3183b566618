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
// step RingMoves takes, which the same rule reads back).
func TestRingerFollowsThePlanes(t *testing.T) {
	for _, params := range []map[string]string{
		{"rings": "true"},
		{"rings": "true", "ring_memory": "true"},
	} {
		name := "rings"
		if params["ring_memory"] != "" {
			name = "ring_memory"
		}
		t.Run(name, func(t *testing.T) { ringerFollowsThePlanes(t, params) })
	}
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
