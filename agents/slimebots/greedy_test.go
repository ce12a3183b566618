package slimebots

import (
	"slices"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

func newGreedy(t testing.TB, st rules.State, seat int, seed uint64) agents.Agent {
	t.Helper()
	e, err := agents.Lookup("slime", "greedy")
	if err != nil {
		t.Fatal(err)
	}
	a := e.New()
	a.Reset(st, seat, rules.NewRNG(seed))
	return a
}

// playGreedy plays one game of greedy at seat greedySeat against simplebots
// and returns every move played, checking that greedy's are all legal.
func playGreedy(t *testing.T, s *slime.State, greedySeat int, seed uint64) []rules.Move {
	bots := make([]agents.Agent, 4)
	for seat := range bots {
		if seat == greedySeat {
			bots[seat] = newGreedy(t, s, seat, seed)
		} else {
			bots[seat] = newBot(t, s, seat, seed*4+uint64(seat))
		}
	}
	var played []rules.Move
	moves := make([]rules.Move, 4)
	for !s.Done() {
		seat := s.ToMove()
		m := bots[seat].Act(s)
		if !s.Legal(seat, m) {
			t.Fatalf("seat %d (%T) played illegal %+v", seat, bots[seat], m)
		}
		played = append(played, m)
		moves[seat] = m
		s.Step(moves, nil)
	}
	return played
}

// TestGreedyLegal: over whole games on every board size, in every seat,
// greedy only plays legal moves (R8), and it plays a move (not a pass)
// whenever a spread exists, since a spread always gains a cell.
func TestGreedyLegal(t *testing.T) {
	for game := 0; game < 24; game++ {
		size := []string{"8", "4", "5", "6", "7"}[game%5]
		s := newGame(t, "board_size", size)
		g := newGreedy(t, s, game%4, uint64(game))
		bots := make([]agents.Agent, 4)
		for seat := range bots {
			bots[seat] = newBot(t, s, seat, uint64(game*4+seat))
		}
		bots[game%4] = g
		moves := make([]rules.Move, 4)
		for !s.Done() {
			seat := s.ToMove()
			m := bots[seat].Act(s)
			if !s.Legal(seat, m) {
				t.Fatalf("game %d: illegal move %+v", game, m)
			}
			if bots[seat] == g && m == (rules.Move{}) && hasTarget(s, seat, 1) {
				t.Fatalf("game %d: greedy passed with a spread available", game)
			}
			moves[seat] = m
			s.Step(moves, nil)
		}
	}
}

// TestGreedyDeterministic: the same seed gives the same game, and the games
// of different seeds differ (the ties are drawn from the generator).
func TestGreedyDeterministic(t *testing.T) {
	a := playGreedy(t, newGame(t), 1, 7)
	b := playGreedy(t, newGame(t), 1, 7)
	if !slices.Equal(a, b) {
		t.Fatal("same seed, different games")
	}
	if c := playGreedy(t, newGame(t), 1, 8); slices.Equal(a, c) {
		t.Fatal("different seeds, same game: are ties drawn at random?")
	}
}

// TestGreedyGolden: player 1 at (0,0) next to a block of player 2. The
// spread to (1,1) converts the three 2s of its block (R9) and is the only
// best move; every alternative converts at most two.
func TestGreedyGolden(t *testing.T) {
	s := newGame(t)
	if err := s.SetRows("1.......", "..22....", ".222....", "........"); err != nil {
		t.Fatal(err)
	}
	for seed := uint64(0); seed < 20; seed++ {
		r1, c1, r2, c2, ok := slime.Coords(8, newGreedy(t, s, 0, seed).Act(s))
		if got := [4]int{r1, c1, r2, c2}; !ok || got != [4]int{0, 0, 1, 1} {
			t.Fatalf("seed %d: played %v (ok %v), want 0 0 1 1", seed, got, ok)
		}
	}
	// The same position mirrored top to bottom, for player 3 (R3: bottom
	// left): the answer mirrors with it.
	s = newGame(t)
	if err := s.SetRows("........", "........", "........", "........", "........", ".222....", "..22....", "3......."); err != nil {
		t.Fatal(err)
	}
	s.SetTurn(2)
	r1, c1, r2, c2, ok := slime.Coords(8, newGreedy(t, s, 2, 1).Act(s))
	if got := [4]int{r1, c1, r2, c2}; !ok || got != [4]int{7, 0, 6, 1} {
		t.Fatalf("player 3 played %v (ok %v), want 7 0 6 1", got, ok)
	}
}

// TestGreedyAllocs: Act allocates nothing.
func TestGreedyAllocs(t *testing.T) {
	s := newGame(t)
	if err := s.SetRows("11.2....", "1..22...", "..3.2...", "3333....", "....4...", "....44..", "........", "........"); err != nil {
		t.Fatal(err)
	}
	g := newGreedy(t, s, 0, 1)
	if n := testing.AllocsPerRun(100, func() { g.Act(s) }); n != 0 {
		t.Fatalf("Act allocates %v times, want 0", n)
	}
}

// BenchmarkGreedyAct measures one decision on positions from a real game
// (greedy at seat 0 against simplebots).
func BenchmarkGreedyAct(b *testing.B) {
	var positions []*slime.State
	s := newGame(b)
	bots := []agents.Agent{newGreedy(b, s, 0, 1), nil, nil, nil}
	for seat := 1; seat < 4; seat++ {
		bots[seat] = &Simplebot{}
		bots[seat].Reset(s, seat, rules.NewRNG(uint64(seat)))
	}
	moves := make([]rules.Move, 4)
	for !s.Done() {
		seat := s.ToMove()
		if seat == 0 {
			positions = append(positions, s.Clone().(*slime.State))
		}
		moves[seat] = bots[seat].Act(s)
		s.Step(moves, nil)
	}
	g := bots[0]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Act(positions[i%len(positions)])
	}
}
