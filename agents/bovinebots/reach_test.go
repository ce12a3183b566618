package bovinebots

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

// bestRosa returns the largest rosaValue over seat's full moves in st that
// are not a barn suicide (R12b), each played on a copy with the rivals
// passing, and how many moves reach it: the same search as ReachRosa.Act,
// written out here from the engine's own pieces.
func bestRosa(st *bovine.State, seat int) (best, n int) {
	br, bc := bovine.Barn(seat)
	moves := make([]rules.Move, bovine.Seats)
	first := true
	for _, m := range st.LegalMoves(seat, nil) {
		if m.Kind != bovine.Full {
			continue
		}
		dst := int(m.Arg[1])
		if int(m.Arg[0]) == br*bovine.Size+bc && st.Cell(dst/bovine.Size, dst%bovine.Size) >= 0 {
			continue
		}
		sim := st.Clone().(*bovine.State)
		clear(moves)
		moves[seat] = m
		sim.Step(moves, rules.NewRNG(0))
		switch v := rosaValue(sim, seat); {
		case first || v > best:
			best, n, first = v, 1, false
		case v == best:
			n++
		}
	}
	return best, n
}

// TestReachRosa: in every seat of games against greedy, centre_cleo and
// voronoi_vera, reach_rosa answers legal full moves (botGame's check) and
// each one scores, played on a copy, the best rosaValue of all its moves;
// the same seed plays the same game.
func TestReachRosa(t *testing.T) {
	checked := 0
	for gs := 0; gs < bovine.Seats; gs++ {
		seatGame(t, "reach_rosa", gs, []string{"greedy", "centre_cleo", "voronoi_vera"}, uint64(gs), 300, func(st *bovine.State, m rules.Move) {
			if m.Kind != bovine.Full {
				t.Fatalf("round %d seat %d: %+v is not a full move", st.Round(), gs, m)
			}
			if st.Round()%7 != 0 {
				return
			}
			sim := st.Clone().(*bovine.State)
			one := make([]rules.Move, bovine.Seats)
			one[gs] = m
			sim.Step(one, rules.NewRNG(0))
			if best, _ := bestRosa(st, gs); rosaValue(sim, gs) != best {
				t.Fatalf("round %d seat %d: played %+v worth %d; the best move is worth %d", st.Round(), gs, m, rosaValue(sim, gs), best)
			}
			checked++
		})
	}
	if checked < 100 {
		t.Fatalf("only %d moves checked", checked)
	}
	a, b := botGame(t, "reach_rosa", 2, 9, 200), botGame(t, "reach_rosa", 2, 9, 200)
	if len(a) != len(b) {
		t.Fatalf("same seed: %d and %d moves", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, move %d: %+v then %+v", i, a[i], b[i])
		}
	}
}

// TestReachRosaGolden: positions where the engine's answer decides.
func TestReachRosaGolden(t *testing.T) {
	play := func(st *bovine.State, seat int) (src, dst int) {
		a := newBot(t, "reach_rosa")
		a.Reset(st, seat, rules.NewRNG(1))
		m := a.Act(st)
		return int(m.Arg[0]), int(m.Arg[1])
	}
	cell := func(r, c int) int { return r*bovine.Size + c }

	// Seat 0 holds row 0 and column 19 down to (17,19), beside seat 2's
	// barn (19,19) after seat 1 is gone: it takes the barn (R12a).
	st := bovine.New(bovine.Config(false))
	st.SetEliminated(1, 5)
	for c := 1; c < bovine.Size; c++ {
		st.SetCell(0, c, 0)
	}
	for r := 1; r < bovine.Size-1; r++ {
		st.SetCell(r, 19, 0)
	}
	if src, dst := play(st, 0); dst != cell(19, 19) || src != cell(18, 19) {
		t.Fatalf("played %d→%d, want (18,19)→(19,19), seat 2's barn", src, dst)
	}

	// A seat-1 cow beside seat 0's barn takes the barn next round (R12):
	// seat 0 captures it from (1,1), never from the barn itself (R12b).
	st = bovine.New(bovine.Config(false))
	st.SetCell(1, 0, 0)
	st.SetCell(1, 1, 0)
	st.SetCell(0, 1, 1)
	st.SetCell(0, 2, 1)
	if src, dst := play(st, 0); dst != cell(0, 1) || src != cell(1, 1) {
		t.Fatalf("played %d→%d, want (1,1)→(0,1)", src, dst)
	}

	// A seat-1 cow two steps from seat 0's barn, cut off from its own, can
	// reach the barn's neighbour next round and the barn the round after,
	// whatever seat 0 answers in between, if the random order (R6, R9)
	// runs it first: seat 0 captures it now, from either neighbour of the
	// barn, rather than place.
	st = bovine.New(bovine.Config(false))
	st.SetCell(1, 0, 0)
	st.SetCell(0, 1, 0)
	st.SetCell(1, 1, 1)
	if src, dst := play(st, 0); dst != cell(1, 1) || (src != cell(1, 0) && src != cell(0, 1)) {
		t.Fatalf("played %d→%d, want (1,0) or (0,1) → (1,1)", src, dst)
	}

	// Seat 1's block (rows 2–3, columns 5–19) reaches its barn (0,19) only
	// through (1,18) and (0,18); seat 0 holds row 1 up to (1,17).
	// Capturing the neck (1,18) from (1,17) cuts 30 rival cows off their
	// barn (R4: they can no longer place, R11). The capture gains seat 0 no
	// cow (R11) and leaves its new cow cut off; the engine shows what it
	// does to the rival, which no place is worth.
	// Seat 0 also holds (0,1), (0,2) and (2,0), so every cell within two
	// steps of its barn is its own already.
	st = bovine.New(bovine.Config(false))
	for c := 0; c < 18; c++ {
		st.SetCell(1, c, 0)
	}
	st.SetCell(0, 1, 0)
	st.SetCell(0, 2, 0)
	st.SetCell(2, 0, 0)
	st.SetCell(0, 18, 1)
	st.SetCell(1, 18, 1)
	for r := 2; r < 4; r++ {
		for c := 5; c < bovine.Size; c++ {
			st.SetCell(r, c, 1)
		}
	}
	if src, dst := play(st, 0); dst != cell(1, 18) || src != cell(1, 17) {
		t.Fatalf("played %d→%d, want the cut (1,17)→(1,18)", src, dst)
	}
}

// TestReachRosaAllocs: once its move list has grown, a decision allocates
// nothing.
func TestReachRosaAllocs(t *testing.T) { checkNoAllocs(t, "reach_rosa") }
