package slimeheldout

import (
	"hash/fnv"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/agentstest"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

var names = []string{"bastion", "hunter", "prophet", "surveyor"}

func newGame(t testing.TB, kv map[string]string) *slime.State {
	return slime.New(agentstest.Config(t, slime.Name, kv))
}

func fresh(t testing.TB, name string) agents.Agent { return agentstest.Fresh(t, slime.Name, name) }

// play plays one game (nil bots: random) and returns the scores; check sees
// every move before it is played.
func play(s *slime.State, seed uint64, bots []agents.Agent, check func(seat int, m rules.Move)) [4]int {
	agentstest.Play(s, seed, nil, bots, check)
	var out [4]int
	for i := range out {
		out[i] = s.Count(i)
	}
	return out
}

// TestHeldOutRegistered: the four bots are Slime's held-out bots, with a
// doc, and no list of every bot (agents.Names) takes them in.
func TestHeldOutRegistered(t *testing.T) { agentstest.CheckHeldOut(t, slime.Name, names) }

// TestLegal: over seeded games on every board size (R1), in every seat,
// against each other and random bots, every move of every held-out bot is
// valid (R8) or the pass, and a bot passes only when it has no spread (a
// spread always gains a cell, R9).
func TestLegal(t *testing.T) {
	for g := 0; g < 10; g++ {
		s := newGame(t, map[string]string{"board_size": []string{"8", "4", "5", "6", "7"}[g%5], "max_turns": "400"})
		bots := make([]agents.Agent, 4)
		for i := range bots {
			if (i+g)%4 != 3 {
				bots[i] = fresh(t, names[(i+g)%len(names)])
			}
		}
		moves := 0
		play(s, uint64(100+g), bots, func(seat int, m rules.Move) {
			moves++
			if !s.Legal(seat, m) {
				t.Fatalf("game %d turn %d seat %d (%T): illegal %+v", g, s.Turn(), seat, bots[seat], m)
			}
			if _, ok := bots[seat].(*agents.Random); !ok && m == (rules.Move{}) {
				if own := s.Slime(seat); dilate(own)&s.EmptyCells() != 0 {
					t.Fatalf("game %d turn %d seat %d (%T): passed with a spread", g, s.Turn(), seat, bots[seat])
				}
			}
		})
		if moves < 8 {
			t.Fatalf("game %d: only %d moves", g, moves)
		}
	}
}

// TestDeterministic: the same seed gives the same game, also with used
// bots; another seed gives another game. Every held-out bot plays in one of
// the two line-ups.
func TestDeterministic(t *testing.T) {
	for _, lineup := range [][]string{{"prophet", "bastion", "hunter", ""}, {"surveyor", "", "bastion", "surveyor"}} {
		bots := make([]agents.Agent, 4)
		for i, n := range lineup {
			if n != "" {
				bots[i] = fresh(t, n)
			}
		}
		run := func(seed uint64) uint64 {
			h := fnv.New64a()
			play(newGame(t, nil), seed, bots, func(_ int, m rules.Move) {
				h.Write([]byte{byte(m.Kind), byte(m.Arg[0]), byte(m.Arg[1])})
			})
			return h.Sum64()
		}
		a, b := run(7), run(7)
		if a != b {
			t.Fatalf("%v: seed 7 played twice: %x, %x", lineup, a, b)
		}
		if c := run(8); c == a {
			t.Fatalf("%v: seeds 7 and 8 played the same game", lineup)
		}
	}
}

// TestSurveyTerms: Surveyor's score counts each of its terms as its doc
// says, on hand-counted positions.
func TestSurveyTerms(t *testing.T) {
	s := newGame(t, nil)
	score := func(rows ...string) int {
		t.Helper()
		if err := s.SetRows(rows...); err != nil {
			t.Fatal(err)
		}
		b := &Surveyor{}
		b.Reset(s, 0, rules.NewRNG(1))
		p, me := b.read(s)
		return survey(p, me)
	}
	// Alone in the corner, the rival far away: 1 cell, frontier 3 (all
	// private), reach 8, one rival cell.
	if got, want := score("1.......", "........", "........", "........", "........", "........", "........", ".......2"), 8-3-2+2*3+8; got != want {
		t.Errorf("corner: %d, want %d", got, want)
	}
	// A rival at distance 2 of (1,1): (0,0) and (0,1) lie in the block of
	// the empty (1,1), which the rival reaches (exposed 2, and its jump or
	// spread there converts both: guard 2); frontier (0,2), (1,0), (1,1),
	// (1,2), of which only (1,0) is private (column 0 is beyond the
	// rival's reach); reach 9 empty cells of rows 0–2, columns 0–3.
	if got, want := score("11......", "........", "...2....", "........", "........", "........", "........", "........"), 16-5*2-4-2*2-2+2*1+9; got != want {
		t.Errorf("exposed: %d, want %d", got, want)
	}
}

// TestBeatsRandom: each held-out bot, against three random bots in 4 seeded
// games (seats rotated), finishes first every game with far more cells.
func TestBeatsRandom(t *testing.T) {
	for _, n := range names {
		const games = 4
		own, rnd, wins := 0, 0, 0
		for g := 0; g < games; g++ {
			bots := make([]agents.Agent, 4)
			bots[g] = fresh(t, n)
			sc := play(newGame(t, nil), uint64(300+g), bots, nil)
			won := true
			for i, v := range sc {
				if i != g {
					rnd += v
					won = won && sc[g] > v
				}
			}
			own += sc[g]
			if won {
				wins++
			}
		}
		t.Logf("%s: %.1f cells a game, random %.1f, %d wins of %d", n, float64(own)/games, float64(rnd)/3/games, wins, games)
		if wins < games || own < 40*games || 3*own < 10*rnd {
			t.Errorf("%s: %d cells against random's %d (a seat), %d wins of %d", n, own, rnd/3, wins, games)
		}
	}
}

// TestActAllocatesNothing: no held-out bot allocates in Act.
func TestActAllocatesNothing(t *testing.T) {
	s := newGame(t, nil)
	if err := s.SetRows("11.2....", "1..22...", "..3.2...", "3333....", "....4...", "....44..", "........", "........"); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b := fresh(t, n)
		b.Reset(s, 0, rules.NewRNG(1))
		if a := testing.AllocsPerRun(20, func() { b.Act(s) }); a != 0 {
			t.Errorf("%s: %.1f allocations a move", n, a)
		}
	}
}
