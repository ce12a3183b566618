package rectangle_test

import (
	"bytes"
	"testing"

	"github.com/gridgym/gridgym/agents"
	_ "github.com/gridgym/gridgym/agents/rectanglebots" // the scripted bots that play the positions
	"github.com/gridgym/gridgym/export/exporttest"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

// The exported bot's NumPy observe() (rectangle.py) equals Encoder.Observe
// plane for plane, the plan and step planes (rectangle.Plans, the part with
// real logic) included, in positions of games between the scripted bots,
// which draw and contest squares as trained bots do, and in synthetic ones
// that games rarely reach: random paint in blobs and robots on random
// cells, so that robots often stand on their own target (the wait rule)
// and robots of other players on targets (the last-resort targets).
// export's TestPlanesParity checks every game's planes in general. 200
// positions of games, every 21st move (the stretch of game that 600 at every
// 7th covered; 157 with a plan target, 481 of the 600), and 130 synthetic
// ones, not 400: the Python bot's observe() of each is most of the time
// (issue 52).
func TestPlanesParitySynthetic(t *testing.T) {
	exporttest.NeedPython(t, rectangle.Name)
	g, _ := rules.Lookup(rectangle.Name)
	cfg := g.Default()
	enc := g.Encoder(cfg)
	ps, planned := exporttest.ScriptedPlanes(t, g, []string{"planner", "boxer", "random", "planner"}, 200, 21, func(planes []uint8) bool {
		return bytes.IndexByte(planes[(2*4+4+1)*400:], 2) >= 0 // a plan with a target
	})
	ps = append(ps, synthetic(g, enc, 130)...)
	if planned < 100 { // half the game positions
		t.Fatalf("only %d of %d positions have a plan target: the test would prove little", planned, len(ps))
	}
	if n := exporttest.ComparePlanes(t, rectangle.Name, ps); n != len(ps) {
		t.Fatalf("the bot asked its network in %d of %d positions", n, len(ps))
	}
	t.Logf("%d positions equal (%d with a plan target)", len(ps), planned)
}

// synthetic returns k positions of g's default shape that games rarely
// reach, observed by enc for a random seat: random paint in blobs of one
// colour, unpaintable cells, and robots on random cells, all of a player's
// robots on one cell a third of the time (as R9 parks a failed bot's).
func synthetic(g *rules.Game, enc rules.Encoder, k int) []exporttest.Planes {
	var ps []exporttest.Planes
	rng := rules.NewRNG(5)
	cfg := g.Default()
	for k0 := 0; k0 < k; k0++ {
		st := g.New(cfg).(*rectangle.State)
		for r := 0; r < 20; r++ {
			for c := 0; c < 20; c++ {
				v := rectangle.Unpainted
				switch x := rng.U(100); {
				case x < 4:
					v = rectangle.Unpaintable
				case x < 40:
					v = (r/4 + c/5 + k0) % 4 // blobs of one colour
				}
				st.SetCell(r, c, v)
			}
		}
		for seat := 0; seat < 4; seat++ {
			r, c := rng.U(20), rng.U(20)
			stack := rng.U(3) == 0 // all on one cell, as R9 parks a failed bot's
			for i := 0; i < 4; i++ {
				if !stack {
					r, c = rng.U(20), rng.U(20)
				}
				st.SetRobot(seat, i, r, c)
			}
		}
		st.SetClock(1+rng.U(1999), 0)
		ps = append(ps, exporttest.Observe(g, enc, st, rng.U(4)))
	}
	return ps
}

// TestRingPlanesParity: with rings=true, the exported bot's observe()
// equals Encoder.Observe plane for plane, the ring and ring_go planes
// (RingOf and RingSteps, repeated in NumPy) included, in positions of games
// between enclosers, boxers and planners, many of them with a ring, and
// in synthetic ones (synthetic).
func TestRingPlanesParity(t *testing.T) {
	exporttest.NeedPython(t, rectangle.Name)
	g, _ := rules.Lookup(rectangle.Name)
	params := map[string]string{"rings": "true"}
	ring := (2*4 + 3*4 + 6) * 400 // the ring plane
	hasRing := func(planes []uint8) bool { return bytes.IndexByte(planes[ring:ring+400], 2) >= 0 }
	ps, ringed := exporttest.ScriptedPlanesParams(t, g, params, []string{"encloser", "boxer", "planner", "encloser"}, 400, 11, hasRing)
	cfg, _ := g.Configure(params)
	for _, p := range synthetic(g, g.Encoder(cfg), 120) {
		if hasRing(p.Planes) {
			ringed++
		}
		ps = append(ps, p)
	}
	if ringed < 100 {
		t.Fatalf("only %d of %d positions have a ring: the test would prove little", ringed, len(ps))
	}
	if n := exporttest.ComparePlanesParams(t, rectangle.Name, params, ps); n != len(ps) {
		t.Fatalf("the bot asked its network in %d of %d positions", n, len(ps))
	}
	t.Logf("%d positions equal (%d with a ring)", len(ps), ringed)
}

// TestRingMemoryParity: with ring_memory=true the exported bot remembers
// its ring between calls as the Go state does for its seat (RingKept:
// a kept ring, parked rivals, stalls), so its observe() equals
// Encoder.Observe at every move of whole games, one seat's moves in order
// (the bot is called once a move), in games between ringers (which follow
// the kept ring), enclosers and boxers. With ring_guard=true as well it
// keeps every seat's memory to guard against the rivals' rings, in games
// where two ringers meet, and with ring_rule=mason the mason rule's
// constants (ring.go RuleOf), and with ring_step=free the ringer's free
// steps (RingMoves) in the ring_go planes. Each case also counts the moves
// at which what it adds changes the seat's ring (the kept ring against
// RingOf's memoryless choice; the guarded ring against the same game's
// unguarded memory) or, for ring_step, the seat's ringer steps: it must
// matter in the games it checks.
func TestRingMemoryParity(t *testing.T) {
	exporttest.NeedPython(t, rectangle.Name)
	g, _ := rules.Lookup(rectangle.Name)
	// 14×14: the ring rules are the same on any board, and a move there
	// costs the Python bot about a fifth of a 20×20 one.
	memory := map[string]string{"n": "14", "rings": "true", "ring_memory": "true"}
	guard := map[string]string{"n": "14", "rings": "true", "ring_memory": "true", "ring_guard": "true"}
	mason := map[string]string{"n": "14", "rings": "true", "ring_memory": "true", "ring_guard": "true", "ring_rule": "mason"}
	free := map[string]string{"n": "14", "rings": "true", "ring_memory": "true", "ring_guard": "true", "ring_rule": "mason", "ring_step": "free"}
	for _, tc := range []struct {
		name   string
		params map[string]string
		names  []string
		games  int
		// shadow: the parameters of the same game played without what the
		// case adds, whose ring the seat's is compared with; nil: RingOf's
		// memoryless choice.
		shadow map[string]string
		// steps: the case changes the ringer's steps, not the ring; the
		// moves counted are those where RingMoves free and first differ.
		steps bool
	}{
		{"memory", memory, []string{"ringer", "encloser", "boxer", "ringer"}, 4, nil, false}, // ~1,300 moves
		{"guard", guard, []string{"ringer", "ringer", "boxer", "planner"}, 4, memory, false}, // ~1,400 moves
		{"mason", mason, []string{"ringer", "mason", "boxer", "ringer"}, 4, guard, false},
		{"free", free, []string{"ringer", "mason", "boxer", "ringer"}, 8, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := g.Configure(tc.params)
			if err != nil {
				t.Fatal(err)
			}
			enc := g.Encoder(cfg)
			var ps []exporttest.Planes
			ringed, differ := 0, 0
			for game := 0; game < tc.games; game++ {
				st := g.New(cfg).(*rectangle.State)
				var shadow *rectangle.State
				if tc.shadow != nil {
					sc, err := g.Configure(tc.shadow)
					if err != nil {
						t.Fatal(err)
					}
					shadow = g.New(sc).(*rectangle.State)
				}
				seat := game % 4
				bots := make([]agents.Agent, 4)
				for i := range bots {
					e, err := agents.Lookup(g.Name, tc.names[(i+game)%4])
					if err != nil {
						t.Fatal(err)
					}
					bots[i] = e.New()
					bots[i].Reset(st, i, rules.Derive(uint64(game), uint64(i)))
				}
				moves := make([]rules.Move, 4)
				for !st.Done() {
					p := exporttest.Observe(g, enc, st, seat)
					ps = append(ps, p)
					if st.Steps() > 0 {
						var v rectangle.View
						var plans [rectangle.MaxRobots]rectangle.Plan
						var x rectangle.Rings
						st.View(seat, &v)
						rectangle.Plans(&v, plans[:4])
						kq, kok := st.Ring(seat, &x, &v, plans[:4])
						if kok {
							ringed++
						}
						var q rectangle.Rect
						var ok bool
						switch {
						case tc.steps:
							var a, b [rectangle.MaxRobots]rectangle.Dir
							if kok {
								rectangle.RingMoves(&x, &v, kq, true, a[:4])
								rectangle.RingMoves(&x, &v, kq, false, b[:4])
							}
							if a != b {
								differ++
							}
							q, ok = kq, kok // the ring is the same
						case shadow != nil:
							q, ok = shadow.Ring(seat, &x, &v, plans[:4])
						default:
							q, ok = rectangle.RingOf(&x, &v, plans[:4])
						}
						if kok != ok || ok && kq != q {
							differ++
						}
					}
					for i, b := range bots {
						moves[i] = b.Act(st)
					}
					st.Step(moves, nil)
					if shadow != nil {
						shadow.Step(moves, nil)
					}
				}
			}
			least := 100
			if tc.steps { // a robot's best steps are taken by its own robots at ~1 move in 20
				least = 50
			}
			if ringed < 200 || differ < least {
				t.Fatalf("%d of %d moves with a ring, %d where the case changes the ring (or steps): the test would prove little", ringed, len(ps), differ)
			}
			if n := exporttest.ComparePlanesParams(t, rectangle.Name, tc.params, ps); n != len(ps) {
				t.Fatalf("the bot asked its network in %d of %d positions", n, len(ps))
			}
			t.Logf("%d positions equal (%d with a ring, %d where the case changes the ring or steps)", len(ps), ringed, differ)
		})
	}
}
