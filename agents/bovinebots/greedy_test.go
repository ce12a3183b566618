package bovinebots

import (
	"slices"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

// greedyGame plays greedy at seat gs against the three moving sample bots
// for rounds rounds and returns greedy's answers, checking every answer of
// every bot is legal.
func greedyGame(t *testing.T, gs int, seed uint64, rounds int) []rules.Move {
	return botGame(t, "greedy", gs, seed, rounds)
}

// botGame is greedyGame for the bot called name.
func botGame(t *testing.T, name string, gs int, seed uint64, rounds int) []rules.Move {
	t.Helper()
	return seatGame(t, name, gs, []string{"random_raven", "defensive_dan_heng", "adjacent_asta"}, seed, rounds, nil)
}

// seatGame plays the bot called name at seat gs against others (in the
// seats after it, in order) for rounds rounds, checking every answer of
// every bot is legal; check (if not nil) sees each of gs's answers on the
// position it answered, before the round is stepped. It returns gs's
// answers.
func seatGame(t *testing.T, name string, gs int, others []string, seed uint64, rounds int, check func(st *bovine.State, m rules.Move)) []rules.Move {
	t.Helper()
	st := bovine.New(bovine.Config(false))
	bots := make([]agents.Agent, bovine.Seats)
	for seat := range bots {
		n := name
		if seat != gs {
			n = others[(seat-gs+3)%4]
		}
		bots[seat] = newBot(t, n)
		bots[seat].Reset(st, seat, rules.Derive(seed, uint64(seat)))
	}
	var played []rules.Move
	rng := rules.NewRNG(seed)
	moves := make([]rules.Move, bovine.Seats)
	for r := 0; r < rounds && !st.Done(); r++ {
		for seat, b := range bots {
			moves[seat] = rules.Move{}
			if st.Active(seat) {
				moves[seat] = b.Act(st)
				if !st.Legal(seat, moves[seat]) {
					t.Fatalf("round %d: %T (seat %d) answered illegal %+v", r, b, seat, moves[seat])
				}
				if seat == gs {
					played = append(played, moves[seat])
					if check != nil {
						check(st, moves[seat])
					}
				}
			}
		}
		st.Step(moves, rng)
	}
	return played
}

// TestGreedyLegal: in every seat, greedy answers only legal full moves, and
// the game is the same for the same seed and differs for another.
func TestGreedyLegal(t *testing.T) {
	for gs := 0; gs < bovine.Seats; gs++ {
		a := greedyGame(t, gs, uint64(gs), 1200)
		for _, m := range a {
			if m.Kind != bovine.Full && m.Kind != rules.Pass {
				t.Fatalf("greedy answered kind %d", m.Kind)
			}
		}
		if gs == 1 {
			if b := greedyGame(t, gs, uint64(gs), 1200); !slices.Equal(a, b) {
				t.Fatal("same seed, different games")
			}
			if c := greedyGame(t, gs, 99, 1200); slices.Equal(a, c) {
				t.Fatal("different seeds, same game")
			}
		}
	}
}

// centre_cleo answers only legal full moves in every seat; alone on the
// board (three pass_pompom) it first fills the cells within row+column 3 of
// its barn, then races to the centre: after 30 rounds it holds one of the
// four central cells, which greedy, filling outward from its barn, does not
// reach in those rounds.
func TestCentreCleo(t *testing.T) {
	for gs := 0; gs < bovine.Seats; gs++ {
		for _, m := range botGame(t, "centre_cleo", gs, uint64(gs), 1200) {
			if m.Kind != bovine.Full && m.Kind != rules.Pass {
				t.Fatalf("centre_cleo answered kind %d", m.Kind)
			}
		}
	}
	alone := func(name string, seat int) view {
		st := bovine.New(bovine.Config(false))
		bots := make([]agents.Agent, bovine.Seats)
		for s := range bots {
			n := "pass_pompom"
			if s == seat {
				n = name
			}
			bots[s] = newBot(t, n)
			bots[s].Reset(st, s, rules.Derive(7, uint64(s)))
		}
		rng := rules.NewRNG(7)
		moves := make([]rules.Move, bovine.Seats)
		for r := 0; r < 30; r++ {
			for s, b := range bots {
				moves[s] = b.Act(st)
			}
			st.Step(moves, rng)
		}
		return bovine.View(st, seat)
	}
	centre := func(b view) bool {
		return b[9][9] == 0 || b[9][10] == 0 || b[10][9] == 0 || b[10][10] == 0
	}
	for seat := 0; seat < bovine.Seats; seat++ {
		b := alone("centre_cleo", seat)
		for i := 0; i <= centreGuard; i++ {
			for j := 0; i+j <= centreGuard; j++ {
				if b[i][j] != 0 {
					t.Fatalf("seat %d: guard cell (%d, %d) not its own after 30 rounds", seat, i, j)
				}
			}
		}
		if !centre(b) {
			t.Fatalf("seat %d: centre_cleo holds no central cell after 30 rounds", seat)
		}
		if centre(alone("greedy", seat)) {
			t.Fatalf("seat %d: greedy holds a central cell after 30 rounds (the test does not separate them)", seat)
		}
	}
}

// viewMove is greedy's answer for seat on st, in view coordinates.
func viewMove(t *testing.T, st *bovine.State, seat int) (src, dst pos) {
	t.Helper()
	g := newBot(t, "greedy")
	g.Reset(st, seat, rules.NewRNG(1))
	m := g.Act(st)
	if m.Kind != bovine.Full {
		t.Fatalf("answered %+v, want a full move", m)
	}
	return viewCells(seat, m)
}

// TestGreedyGolden: hand-built positions where the right move is obvious.
func TestGreedyGolden(t *testing.T) {
	// Seat 0 owns column 19 down to (17,19), next to seat 2's barn at
	// (19,19): it takes the barn (R12a) rather than anything else.
	st := bovine.New(bovine.Config(false))
	st.SetEliminated(1, 5) // seat 1 is gone: its barn (0,19) is free
	for c := 1; c < bovine.Size; c++ {
		st.SetCell(0, c, 0)
	}
	for r := 1; r < bovine.Size-1; r++ {
		st.SetCell(r, 19, 0)
	}
	if src, dst := viewMove(t, st, 0); dst != (pos{19, 19}) || src != (pos{18, 19}) {
		t.Fatalf("played %v→%v, want (18,19)→(19,19), seat 2's barn", src, dst)
	}
	// Seat 3 (view: its barn at (0,0)) has a seat-1 cow next to its barn;
	// it removes it with the one non-barn source and never with the barn
	// (R12b).
	st = bovine.New(bovine.Config(false))
	// Seat 3's view (i, j) is real (19−j, i): view (0,1) is real (18,0),
	// view (1,1) is real (18,1), view (0,2) is real (17,0).
	st.SetCell(18, 0, 1)
	st.SetCell(18, 1, 3)
	st.SetCell(19, 1, 3)
	if src, dst := viewMove(t, st, 3); dst != (pos{0, 1}) || src != (pos{1, 1}) {
		t.Fatalf("played %v→%v, want (1,1)→(0,1)", src, dst)
	}
	// Nothing urgent: it fills the hole nearest its barn.
	st = bovine.New(bovine.Config(false))
	for _, c := range [][2]int{{0, 1}, {0, 2}, {1, 0}, {2, 0}, {2, 1}, {1, 2}} {
		st.SetCell(c[0], c[1], 0)
	}
	if _, dst := viewMove(t, st, 0); dst != (pos{1, 1}) {
		t.Fatalf("played to %v, want the hole (1,1)", dst)
	}
}

// TestGreedyAllocs: after its first answer, greedy allocates nothing.
func TestGreedyAllocs(t *testing.T) {
	st := bovine.New(bovine.Config(false))
	g := newBot(t, "greedy")
	g.Reset(st, 0, rules.NewRNG(1))
	for c := 0; c < 10; c++ {
		st.SetCell(1, c, 0)
		st.SetCell(2, c, 1)
	}
	g.Act(st)
	if n := testing.AllocsPerRun(50, func() { g.Act(st) }); n != 0 {
		t.Fatalf("Act allocates %v times, want 0", n)
	}
}

// BenchmarkGreedyAct: one decision in positions of a real game.
func BenchmarkGreedyAct(b *testing.B) {
	var positions []*bovine.State
	st := bovine.New(bovine.Config(false))
	bots := make([]agents.Agent, bovine.Seats)
	for seat, name := range []string{"greedy", "random_raven", "defensive_dan_heng", "adjacent_asta"} {
		bots[seat] = newBot(b, name)
		bots[seat].Reset(st, seat, rules.NewRNG(uint64(seat)))
	}
	rng := rules.NewRNG(1)
	moves := make([]rules.Move, bovine.Seats)
	for r := 0; r < 2000 && !st.Done(); r++ {
		if r%10 == 0 {
			positions = append(positions, st.Clone().(*bovine.State))
		}
		for seat, bot := range bots {
			moves[seat] = rules.Move{}
			if st.Active(seat) {
				moves[seat] = bot.Act(st)
			}
		}
		st.Step(moves, rng)
	}
	g := bots[0]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Act(positions[i%len(positions)])
	}
}
