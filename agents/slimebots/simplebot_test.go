package slimebots

import (
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

func newGame(t testing.TB, kv ...string) *slime.State {
	t.Helper()
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		vals[kv[i]] = kv[i+1]
	}
	cfg, err := g.Configure(vals)
	if err != nil {
		t.Fatal(err)
	}
	return slime.New(cfg)
}

func newBot(t *testing.T, st rules.State, seat int, seed uint64) agents.Agent {
	t.Helper()
	e, err := agents.Lookup("slime", "simplebot")
	if err != nil {
		t.Fatal(err)
	}
	a := e.New()
	a.Reset(st, seat, rules.NewRNG(seed))
	return a
}

// moveInfo returns the Chebyshev distance of a move and whether its target is empty.
func moveInfo(s *slime.State, m rules.Move) (d int, emptyTarget bool) {
	r1, c1, r2, c2, _ := slime.Coords(s.N(), m)
	return max(abs(r1-r2), abs(c1-c2)), s.Cell(r2, c2) == 0
}

// hasTarget reports whether seat has an empty cell at distance d of a slime.
func hasTarget(s *slime.State, seat, d int) bool {
	n := s.N()
	for r1 := 0; r1 < n; r1++ {
		for c1 := 0; c1 < n; c1++ {
			if s.Cell(r1, c1) != seat+1 {
				continue
			}
			for r2 := 0; r2 < n; r2++ {
				for c2 := 0; c2 < n; c2++ {
					if s.Cell(r2, c2) == 0 && max(abs(r1-r2), abs(c1-c2)) == d {
						return true
					}
				}
			}
		}
	}
	return false
}

// TestSimplebotPlays: over whole games, four simplebots play only legal
// moves; a spread whenever one exists, else a jump, else a pass; never a merge.
func TestSimplebotPlays(t *testing.T) {
	kinds := map[string]int{}
	for game := 0; game < 20; game++ {
		size := []string{"8", "4", "6"}[game%3]
		s := newGame(t, "board_size", size)
		bots := make([]agents.Agent, 4)
		for seat := range bots {
			bots[seat] = newBot(t, s, seat, uint64(game*4+seat))
		}
		moves := make([]rules.Move, 4)
		for !s.Done() {
			seat := s.ToMove()
			m := bots[seat].Act(s)
			if !s.Legal(seat, m) {
				t.Fatalf("illegal move %+v", m)
			}
			spread, jump := hasTarget(s, seat, 1), hasTarget(s, seat, 2)
			kind := "pass"
			if m != (rules.Move{}) {
				d, empty := moveInfo(s, m)
				if !empty {
					t.Fatalf("simplebot merged: %+v", m)
				}
				kind = map[int]string{1: "spread", 2: "jump"}[d]
			}
			want := "pass"
			if spread {
				want = "spread"
			} else if jump {
				want = "jump"
			}
			if kind != want {
				t.Fatalf("played a %s, want a %s", kind, want)
			}
			kinds[kind]++
			moves[seat] = m
			s.Step(moves, nil)
		}
	}
	for _, k := range []string{"spread", "jump", "pass"} {
		if kinds[k] == 0 {
			t.Errorf("no %s in any game (%v): the test checked too little", k, kinds)
		}
	}
}

// TestSimplebotDistribution: the spread is uniform over (slime, target)
// pairs, so an empty cell next to two slimes is twice as likely.
func TestSimplebotDistribution(t *testing.T) {
	s := newGame(t)
	// Player 1 at (0,0) and (0,2); the only empties near them are (0,1),
	// next to both, and (1,3), next to (0,2) only. Jumps exist too: ignored.
	if err := s.SetRows("1.12", "222.", "2222"); err != nil {
		t.Fatal(err)
	}
	bot := newBot(t, s, 0, 1)
	count := map[[4]int]int{}
	const draws = 30000
	for i := 0; i < draws; i++ {
		m := bot.Act(s)
		r1, c1, r2, c2, ok := slime.Coords(8, m)
		if !ok {
			t.Fatalf("pass with spreads available")
		}
		count[[4]int{r1, c1, r2, c2}]++
	}
	want := [][4]int{{0, 0, 0, 1}, {0, 2, 0, 1}, {0, 2, 1, 3}}
	if len(count) != len(want) {
		t.Fatalf("moves %v, want the pairs %v", count, want)
	}
	for _, p := range want {
		if c := float64(count[p]); c < 0.9*draws/3 || c > 1.1*draws/3 {
			t.Errorf("%v chosen %v times of %d, want about a third", p, c, draws)
		}
	}
}

// TestSimplebotJumpsWhenBoxedIn: with no empty neighbour it jumps, uniformly
// over (slime, target) pairs at distance 2.
func TestSimplebotJumpsWhenBoxedIn(t *testing.T) {
	s := newGame(t, "board_size", "4")
	if err := s.SetRows("122.", "22..", "....", "...."); err != nil {
		t.Fatal(err)
	}
	bot := newBot(t, s, 0, 2)
	seen := map[[4]int]bool{}
	for i := 0; i < 2000; i++ {
		r1, c1, r2, c2, ok := slime.Coords(4, bot.Act(s))
		if !ok || r1 != 0 || c1 != 0 || max(r2, c2) != 2 {
			t.Fatalf("want a jump from (0,0), got %d %d %d %d %v", r1, c1, r2, c2, ok)
		}
		seen[[4]int{r1, c1, r2, c2}] = true
	}
	if len(seen) != 4 { // (1,2), (2,0), (2,1), (2,2); (0,2) is taken
		t.Fatalf("jumps seen %v, want the 4 empty cells at distance 2", seen)
	}
	if err := s.SetRows("12..", "22..", "....", "...."); err != nil {
		t.Fatal(err)
	}
	s.SetTurn(2) // player 3 has no slime: pass
	if m := newBot(t, s, 2, 3).Act(s); m != (rules.Move{}) {
		t.Fatalf("a player without slime must pass, got %+v", m)
	}
}
