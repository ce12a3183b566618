package bovineheldout

import (
	"slices"
	"testing"

	"github.com/gridgym/gridgym/agents"
	_ "github.com/gridgym/gridgym/agents/bovinebots" // the sample bots and greedy as opponents
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

var heldOut = []string{"fence_fiona", "lookahead_lena", "warden_wanda"}

func newBot(t testing.TB, name string) agents.Agent {
	t.Helper()
	e, err := agents.Lookup(bovine.Name, name)
	if err != nil {
		t.Fatal(err)
	}
	if !e.HeldOut {
		t.Fatalf("%s is not registered as held out", name)
	}
	return e.New()
}

// play plays names (seat s gets names[s]) for at most rounds rounds, checks
// every answer is Pass or a Legal full move, and returns the answers of
// seat watch and the final state.
func play(t *testing.T, names [4]string, seed uint64, rounds, watch int) ([]rules.Move, *bovine.State) {
	t.Helper()
	st := bovine.New(bovine.Config(false))
	bots := make([]agents.Agent, bovine.Seats)
	for s := range bots {
		bots[s] = newBot0(t, names[s])
		bots[s].Reset(st, s, rules.Derive(seed, uint64(s)))
	}
	rng := rules.NewRNG(seed)
	moves := make([]rules.Move, bovine.Seats)
	var seen []rules.Move
	for r := 0; r < rounds && !st.Done(); r++ {
		for s, b := range bots {
			moves[s] = rules.Move{}
			if st.Active(s) {
				moves[s] = b.Act(st)
				if !st.Legal(s, moves[s]) {
					t.Fatalf("round %d: %s (seat %d) answered illegal %+v", r, names[s], s, moves[s])
				}
				if slices.Contains(heldOut, names[s]) && moves[s].Kind != rules.Pass && moves[s].Kind != bovine.Full {
					t.Fatalf("%s answered kind %d, want full moves", names[s], moves[s].Kind)
				}
				if s == watch {
					seen = append(seen, moves[s])
				}
			}
		}
		st.Step(moves, rng)
	}
	return seen, st
}

// newBot0 looks up any bot of the game (held out or not).
func newBot0(t testing.TB, name string) agents.Agent {
	t.Helper()
	e, err := agents.Lookup(bovine.Name, name)
	if err != nil {
		t.Fatal(err)
	}
	return e.New()
}

// TestRegisteredHeldOut: the three bots are the game's held-out bots.
func TestRegisteredHeldOut(t *testing.T) {
	got := agents.HeldOut(bovine.Name)
	for _, name := range heldOut {
		if !slices.Contains(got, name) {
			t.Fatalf("HeldOut(%s) = %v, missing %s", bovine.Name, got, name)
		}
		newBot(t, name)
	}
}

// TestLegal: over seeded games in every seat, against each other, the
// sample bots and greedy, every answer is a legal full move or a pass.
func TestLegal(t *testing.T) {
	lineups := [][4]string{
		{"warden_wanda", "fence_fiona", "lookahead_lena", "greedy"},
		{"random_raven", "warden_wanda", "adjacent_asta", "fence_fiona"},
		{"lookahead_lena", "random_raven", "defensive_dan_heng", "warden_wanda"},
		{"fence_fiona", "lookahead_lena", "random_raven", "adjacent_asta"},
	}
	for k, l := range lineups {
		for rot := 0; rot < 4; rot++ {
			var names [4]string
			for s := range names {
				names[s] = l[(s+rot)%4]
			}
			play(t, names, uint64(10*k+rot), 400, 0)
		}
	}
}

// TestDeterministic: the same seed gives the same answers, another seed
// other answers.
func TestDeterministic(t *testing.T) {
	for _, name := range heldOut {
		names := [4]string{name, "random_raven", "greedy", "adjacent_asta"}
		a, _ := play(t, names, 7, 300, 0)
		b, _ := play(t, names, 7, 300, 0)
		if !slices.Equal(a, b) {
			t.Fatalf("%s: same seed, different games", name)
		}
		c, _ := play(t, names, 8, 300, 0)
		if slices.Equal(a, c) {
			t.Fatalf("%s: different seeds, same game", name)
		}
	}
}

// TestBeatsRandom: in 20 seeded games (5 per seat) against three
// random_raven, stopped after 500 rounds and ranked as the rules rank a
// finished game (R15), each bot averages at least 2.4 of the 3 points a
// first place is worth (random_raven's share would be 1.5).
func TestBeatsRandom(t *testing.T) {
	o := rules.NewOutcome(bovine.Seats)
	for _, name := range heldOut {
		pts := 0.0
		for g := 0; g < 20; g++ {
			seat := g % 4
			names := [4]string{"random_raven", "random_raven", "random_raven", "random_raven"}
			names[seat] = name
			_, st := play(t, names, uint64(100+g), 500, seat)
			st.Outcome(o)
			pts += o.Points[seat]
		}
		if pts/20 < 2.4 {
			t.Errorf("%s: %.2f points a game against random_raven, want ≥ 2.4", name, pts/20)
		}
		t.Logf("%s: %.2f points a game against three random_raven", name, pts/20)
	}
}
