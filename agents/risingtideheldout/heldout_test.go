package risingtideheldout

import (
	"slices"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/agentstest"
	_ "github.com/gridgym/gridgym/agents/risingtidebots" // the rivals
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

var heldOut = []string{"breach_berlin", "levee_lima", "sniper_santiago"}

func TestRegisteredHeldOut(t *testing.T) {
	if got := agents.HeldOut(game); !slices.Equal(got, heldOut) {
		t.Fatalf("HeldOut(%s) = %v, want %v", game, got, heldOut)
	}
	agentstest.CheckHeldOut(t, game, heldOut)
}

// play runs one game of bots in seats 0..3 from seed and returns the final
// state; check (if not nil) sees every answer with its round-start state.
func play(t *testing.T, bots [4]string, seed uint64, check func(s *risingtide.State, seat int, m rules.Move)) *risingtide.State {
	t.Helper()
	s := risingtide.New(agentstest.Config(t, game, nil))
	ag := make([]agents.Agent, len(bots))
	for seat, name := range bots {
		ag[seat] = agentstest.Fresh(t, game, name)
	}
	var hook func(int, rules.Move)
	if check != nil {
		hook = func(seat int, m rules.Move) { check(s, seat, m) }
	}
	agentstest.Play(s, seed, rules.NewRNG(seed), ag, hook)
	return s
}

// TestLegalAndDeterministic: in games against each other and the sample
// bots, every answer of a held-out bot is legal or a pass; the same seed
// plays the same game.
func TestLegalAndDeterministic(t *testing.T) {
	lineups := [][4]string{
		{"levee_lima", "breach_berlin", "sniper_santiago", "wall_warsaw"},
		{"random_rizhao", "levee_lima", "trench_tunis", "breach_berlin"},
		{"sniper_santiago", "border_barcelona", "random", "level_los_angeles"},
		{"breach_berlin", "sniper_santiago", "nearby_new_orleans", "levee_lima"},
	}
	for k, bots := range lineups {
		for seed := uint64(0); seed < 3; seed++ {
			var got []rules.Move
			final := play(t, bots, seed+uint64(10*k), func(s *risingtide.State, seat int, m rules.Move) {
				if !slices.Contains(heldOut, bots[seat]) {
					return
				}
				if m != (rules.Move{}) && !s.Legal(seat, m) {
					t.Fatalf("%s (seat %d) answered illegal %+v in round %d", bots[seat], seat, m, s.Round())
				}
				got = append(got, m)
			})
			if seed == 0 {
				var again []rules.Move
				play(t, bots, uint64(10*k), func(_ *risingtide.State, seat int, m rules.Move) {
					if slices.Contains(heldOut, bots[seat]) {
						again = append(again, m)
					}
				})
				if !slices.Equal(got, again) {
					t.Fatalf("%v: same seed, different games", bots)
				}
			}
			_ = final
		}
	}
}

// TestStrength: over 20 seeded games each held-out bot, seated in turn at
// every seat against pass, random and random_rizhao, survives the 800 rounds
// every game and outscores each of them on average.
func TestStrength(t *testing.T) {
	rivals := []string{"pass", "random", "random_rizhao"}
	for _, name := range heldOut {
		var mine, theirs float64
		for g := 0; g < 20; g++ {
			var bots [4]string
			seat := g % 4
			for s := range bots {
				bots[s] = rivals[(s+g)%3]
			}
			bots[seat] = name
			s := play(t, bots, uint64(100+g), nil)
			var sc [4]float64
			for k := range sc {
				sc[k] = float64(s.Score(k))
			}
			if sc[seat] != 800 {
				t.Errorf("%s, seed %d, seat %d: scored %v, want 800", name, 100+g, seat, sc[seat])
			}
			for k := range bots {
				if k == seat {
					mine += sc[k]
				} else {
					theirs += sc[k] / 3
				}
			}
		}
		if mine <= theirs {
			t.Errorf("%s: mean %.1f, its rivals %.1f", name, mine/20, theirs/20)
		}
	}
}

// The flood map agrees with the rules on the start board: border cells
// flood at 101 (E6), the settlements at 502 when nobody moves.
func TestFloodMapStartBoard(t *testing.T) {
	g, _ := rules.Lookup(game)
	s := risingtide.New(g.Default())
	v := risingtide.View(s, 0)
	var f floodMap
	f.compute(&v)
	if f.t[0][0] != 101 || f.t[1][1] != 201 || f.t[4][4] != 501 {
		t.Fatalf("flood times %d %d %d, want 101 201 501", f.t[0][0], f.t[1][1], f.t[4][4])
	}
	for s := 0; s < 4; s++ {
		if got := f.settleTime(s); got != 502 {
			t.Errorf("settlement %d floods at %d, want 502 (E6)", s, got)
		}
	}
	var h floodMap
	f.lowered(&h, &v, 4, 4)
	// (4,4) at 4 floods after its ring-3 neighbours (401): 402
	if h.t[4][4] != 402 || h.settleTime(0) != 403 || h.settleTime(1) != 502 {
		t.Errorf("(4,4) lowered: %d, settlements %d %d; want 402, 403, 502", h.t[4][4], h.settleTime(0), h.settleTime(1))
	}
}
