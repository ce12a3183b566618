package rectanglebots

import (
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

// TestPlannerFollowsPlans: planner is registered, and every move it makes
// is the one rectangle.Plans (the encoder's step planes) shows: the plans'
// corners at the placement (R7), their steps after it (R8).
func TestPlannerFollowsPlans(t *testing.T) {
	e, err := agents.Lookup(rectangle.Name, "planner")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.New().(*Planner); !ok {
		t.Fatalf("planner factory makes %T", e.New())
	}
	cfg := config(t, nil)
	var v rectangle.View
	plans := make([]rectangle.Plan, 4)
	checked := 0
	play(t, cfg, 9, []agents.Agent{&Planner{}, &Boxer{}, nil, &Planner{}}, func(s *rectangle.State, moves []rules.Move) {
		for _, seat := range []int{0, 3} {
			s.View(seat, &v)
			rectangle.Plans(&v, plans)
			m := moves[seat]
			if !s.Legal(seat, m) {
				t.Fatalf("move %d seat %d: illegal %+v", s.MoveNum(), seat, m)
			}
			for i, p := range plans {
				want := p.Step
				if s.Placement() {
					want = int16(p.R*v.N + p.C)
				}
				if m.Arg[i] != want {
					t.Fatalf("move %d seat %d robot %d: %d, plan %+v", s.MoveNum(), seat, i, m.Arg[i], p)
				}
				checked++
			}
		}
	})
	if checked < 400 {
		t.Fatalf("only %d robot moves checked", checked)
	}
}

// TestPlannerBeatsRandom: planner out-scores three random bots, seats
// rotated (R16, R17).
func TestPlannerBeatsRandom(t *testing.T) {
	cfg := config(t, nil)
	const games = 8
	var own, rnd float64
	for g := 0; g < games; g++ {
		bots := make([]agents.Agent, 4)
		bots[g%4] = &Planner{}
		for i, sc := range play(t, cfg, uint64(50+g), bots, nil) {
			if i == g%4 {
				own += float64(sc)
			} else {
				rnd += float64(sc) / 3
			}
		}
	}
	if own <= 5*rnd {
		t.Fatalf("planner mean %.1f, random mean %.1f", own/games, rnd/games)
	}
	t.Logf("mean scores: planner %.1f, random %.1f", own/games, rnd/games)
}
