package slime

import (
	"fmt"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// playouts runs random games with garbage moves on several variants, calling
// check with the states before and after every step.
func playouts(t *testing.T, games int, check func(before, after *State) error) {
	t.Helper()
	for _, kv := range [][]string{nil, {"board_size", "4"}, {"board_size", "6", "max_turns", "0"}, {"board_size", "5", "max_turns", "33"}} {
		cfg := config(t, kv...)
		for i := 0; i < games; i++ {
			s := New(cfg)
			before := s.Clone().(*State)
			rng := rules.NewRNG(uint64(i))
			_, err := rulestest.Playout(s, rng, 40, func(st rules.State) error {
				after := st.(*State)
				if err := after.Check(); err != nil {
					return err
				}
				err := check(before, after)
				before.CopyFrom(after)
				return err
			})
			if err != nil {
				t.Fatalf("%s game %d: %v", cfg, i, err)
			}
		}
	}
}

// TestI1CellsTotal: empty plus the four counts is always N² (I1).
func TestI1CellsTotal(t *testing.T) {
	playouts(t, 20, func(_, s *State) error {
		total := popcount(s.EmptyCells())
		for p := 0; p < Seats; p++ {
			total += s.Count(p)
		}
		if total != s.n*s.n {
			return fmt.Errorf("I1: %d cells on a %d×%d board", total, s.n, s.n)
		}
		return s.Check()
	})
}

// TestI3ZeroStaysZero: a player with no cells never gets any back (I3).
func TestI3ZeroStaysZero(t *testing.T) {
	eliminated := 0
	playouts(t, 20, func(before, after *State) error {
		for p := 0; p < Seats; p++ {
			if before.Count(p) == 0 {
				eliminated++
				if after.Count(p) != 0 {
					return fmt.Errorf("I3: player %d came back with %d cells", p+1, after.Count(p))
				}
			}
		}
		return nil
	})
	if eliminated == 0 {
		t.Fatalf("no player was ever eliminated: the test checked nothing")
	}
}

// TestI4End: a game ends within max_turns turns, and before the cap only on a
// full board (I4, R5).
func TestI4End(t *testing.T) {
	for _, kv := range [][]string{nil, {"board_size", "4"}, {"max_turns", "0", "board_size", "5"}, {"max_turns", "50"}} {
		cfg := config(t, kv...)
		early := 0
		for i := 0; i < 30; i++ {
			s := New(cfg)
			n, err := rulestest.Playout(s, rules.NewRNG(uint64(i)), 20, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s.maxTurns > 0 && n > s.maxTurns {
				t.Fatalf("%s: %d turns", cfg, n)
			}
			if s.maxTurns == 0 || n < s.maxTurns {
				early++
				if s.EmptyCells() != 0 {
					t.Fatalf("%s: ended after %d turns with an empty cell", cfg, n)
				}
			}
		}
		if cfg.Int("max_turns") == 0 && early != 30 {
			t.Fatalf("games without a cap must all end on a full board")
		}
	}
}

// stepCases runs f on many random custom states and moves (valid and not).
func stepCases(t *testing.T, cases int, f func(s *State, r1, c1, r2, c2 int)) {
	t.Helper()
	rng := rules.NewRNG(99)
	for i := 0; i < cases; i++ {
		s := randomState(t, rng, 4+rng.U(5))
		r1, c1, r2, c2 := randomCoords(rng, s)
		f(s, r1, c1, r2, c2)
	}
}

// TestI2I3I6StepAgainstReference: Step equals the cell-by-cell rules (I6),
// invalid moves change nothing (I3), and the counts move as I2 says.
func TestI2I3I6StepAgainstReference(t *testing.T) {
	kinds := map[string]int{}
	stepCases(t, 30000, func(s *State, r1, c1, r2, c2 int) {
		n, seat := s.n, s.ToMove()
		player := seat + 1
		before := refBoard(s)
		want, valid := refApply(before, n, player, r1, c1, r2, c2)
		var cnt [5]int // cnt[0] empty, cnt[p] player p, in the target's block
		if valid {
			for r := r2 - 1; r <= r2+1; r++ {
				for c := c2 - 1; c <= c2+1; c++ {
					if r >= 0 && r < n && c >= 0 && c < n {
						cnt[before[r][c]]++
					}
				}
			}
		}
		var cb [5]int
		for p := 0; p < Seats; p++ {
			cb[p+1] = s.Count(p)
		}
		cb[0] = popcount(s.EmptyCells())
		turn := s.Turn()
		play(s, r1, c1, r2, c2)
		if got := refBoard(s); got != want {
			t.Fatalf("I6: %d %d %d %d by %d:\n%v\nwant\n%v", r1, c1, r2, c2, player, got, want)
		}
		if s.Turn() != turn+1 {
			t.Fatalf("turn not used up")
		}
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		var ca [5]int
		for p := 0; p < Seats; p++ {
			ca[p+1] = s.Count(p)
		}
		ca[0] = popcount(s.EmptyCells())
		d := max(absInt(r1-r2), absInt(c1-c2))
		enemies := 0
		for p := 1; p <= Seats; p++ {
			if p != player {
				enemies += cnt[p]
			}
		}
		var wantDelta [5]int
		kind := "invalid"
		switch {
		case !valid: // I3: nothing changes
		case before[r2][c2] == player:
			kind = "merge"
			f := cnt[0]
			wantDelta[player], wantDelta[0] = f-1, -f+1
		case d == 1:
			kind = "spread"
			wantDelta[player], wantDelta[0] = 1+enemies, -1
		default:
			kind = "jump"
			wantDelta[player] = enemies
		}
		if valid && kind != "merge" {
			for p := 1; p <= Seats; p++ {
				if p != player {
					wantDelta[p] = -cnt[p] // each enemy loses exactly its cells in the block
				}
			}
		}
		kinds[kind]++
		for p := range ca {
			if ca[p]-cb[p] != wantDelta[p] {
				t.Fatalf("I2 %s %d %d %d %d by %d: deltas %v → %v, want change %v", kind, r1, c1, r2, c2, player, cb, ca, wantDelta)
			}
		}
	})
	for _, k := range []string{"invalid", "spread", "jump", "merge"} {
		if kinds[k] < 100 {
			t.Fatalf("only %d %s cases: %v", kinds[k], k, kinds)
		}
	}
}

// TestI5Symmetry: g(m) on g(board) gives g(result) for all 8 symmetries (I5).
func TestI5Symmetry(t *testing.T) {
	stepCases(t, 5000, func(s *State, r1, c1, r2, c2 int) {
		n := s.n
		m := NewMove(n, r1, c1, r2, c2)
		after := s.Clone().(*State)
		moves := make([]rules.Move, Seats)
		moves[s.ToMove()] = m
		after.Step(moves, nil)
		for g := rules.D4(0); g < 8; g++ {
			var gs, want State
			gs.Transform(s, g)
			moves[s.ToMove()] = SymMove(n, g, m)
			gs.Step(moves, nil)
			want.Transform(after, g)
			if gs.slime != want.slime || gs.turn != want.turn {
				t.Fatalf("I5: symmetry %d of %d %d %d %d:\n%v\nwant\n%v", g, r1, c1, r2, c2, rowsOf(&gs), rowsOf(&want))
			}
		}
	})
}
