package risingtide

import (
	"fmt"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// TestInvariantsAgainstReference plays random games with mixed garbage moves
// and checks every round against the naive model of the rules and I1–I6.
func TestInvariantsAgainstReference(t *testing.T) {
	games := 16
	if testing.Short() {
		games = 4
	}
	for g := 0; g < games; g++ {
		nonadj := g%2 == 1
		s := newGame(t, nonadj)
		rng := rules.NewRNG(uint64(100 + g))
		moves := make([]rules.Move, Seats)
		r := refOf(s)
		if s.TotalHeight() != 1060 {
			t.Fatalf("I2: start total %d", s.TotalHeight())
		}
		for !s.Done() {
			randomMoves(s, rng, moves)
			before := s.Clone().(*State)
			order := shuffledOrder(s, rng)
			afterMoves, executed := r.step(moves, order)
			s.Step(moves, rng)
			if err := checkRound(before, s, afterMoves, executed, r); err != nil {
				t.Fatalf("game %d (nonadjacent=%v) round %d: %v", g, nonadj, before.Round(), err)
			}
		}
		if s.Steps() > MaxRounds {
			t.Fatalf("I6: %d rounds", s.Steps())
		}
		for seat := range Seats {
			sc := s.Score(seat)
			if s.Alive(seat) && sc != MaxRounds || !s.Alive(seat) && (sc < 1 || sc > MaxRounds-1) {
				t.Fatalf("I6: seat %d alive=%v scores %d", seat, s.Alive(seat), sc)
			}
		}
	}
}

// checkRound compares the engine's round with the reference model and checks
// I1–I5 between the round-start state before and the result after.
func checkRound(before, after *State, afterMoves [Size][Size]int, executed int, r ref) error {
	if err := after.Check(); err != nil {
		return err
	}
	if got := refOf(after); got != r {
		return fmt.Errorf("engine and reference model differ:\n%+v\n%+v", got.h, r.h)
	}
	round := before.Round()
	bh, ah := before.Heights(), after.Heights()
	// I2: moves keep the total; the flood removes exactly the flooded heights.
	movedTotal, lost := 0, 0
	for i := 0; i < Size; i++ {
		for j := 0; j < Size; j++ {
			if afterMoves[i][j] > 0 {
				movedTotal += afterMoves[i][j]
			}
			if afterMoves[i][j] >= 0 && ah[i][j] == Flooded {
				lost += afterMoves[i][j]
			}
		}
	}
	if movedTotal != before.TotalHeight() || after.TotalHeight() != before.TotalHeight()-lost {
		return fmt.Errorf("I2: total %d → %d after moves → %d, lost %d", before.TotalHeight(), movedTotal, after.TotalHeight(), lost)
	}
	for i := 0; i < Size; i++ {
		for j := 0; j < Size; j++ {
			h := ah[i][j]
			if h < Flooded || h > MaxHeight || IsSettlement(i, j) && h != 0 && h != Flooded { // I1
				return fmt.Errorf("I1: (%d,%d) = %d", i, j, h)
			}
			if bh[i][j] == Flooded && h != Flooded { // I3
				return fmt.Errorf("I3: (%d,%d) unflooded", i, j)
			}
			if bh[i][j] == Flooded || h != Flooded {
				continue
			}
			hm := afterMoves[i][j]
			wet := i == 0 || j == 0 || i == Size-1 || j == Size-1
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					if before.Height(i+di, j+dj) == Flooded && uint(i+di) < Size && uint(j+dj) < Size {
						wet = true
					}
				}
			}
			if 100*hm >= round || !wet { // I3
				return fmt.Errorf("I3: (%d,%d) of height %d flooded in round %d (wet=%v)", i, j, hm, round, wet)
			}
			if round == 0 || round <= 100 && hm != 0 { // I4
				return fmt.Errorf("I4: (%d,%d) of height %d flooded in round %d", i, j, hm, round)
			}
		}
	}
	// I5: alive = settlement land; never grows; at most alive moves; scores fixed.
	alive := 0
	for seat, p := range settlements {
		if after.Alive(seat) != (ah[p[0]][p[1]] != Flooded) {
			return fmt.Errorf("I5: seat %d alive=%v", seat, after.Alive(seat))
		}
		if after.Alive(seat) && !before.Alive(seat) {
			return fmt.Errorf("I5: seat %d revived", seat)
		}
		if before.Alive(seat) {
			alive++
		} else if after.Score(seat) != before.Score(seat) {
			return fmt.Errorf("I5: seat %d's score changed from %d to %d", seat, before.Score(seat), after.Score(seat))
		}
	}
	if executed > alive {
		return fmt.Errorf("I5: %d moves executed with %d seats alive", executed, alive)
	}
	// I3 consequence: every flooded cell is connected to the border by water.
	fl := after.FloodedSet()
	var reach, next [Size]uint64
	for i := range reach {
		reach[i] = borderBB[i] & fl[i]
	}
	for {
		grid.Dilate8(next[:], reach[:])
		for i := range next {
			next[i] &= fl[i]
		}
		if next == reach {
			break
		}
		reach = next
	}
	if reach != fl {
		return fmt.Errorf("I3: flooded cells cut off from the border")
	}
	return nil
}

// TestInvariantsPlayout runs I1–I6 through the shared driver with garbage moves.
func TestInvariantsPlayout(t *testing.T) {
	for _, nonadj := range []bool{false, true} {
		s := newGame(t, nonadj)
		var prev *State
		n, err := rulestest.Playout(s, rules.NewRNG(77), 64, func(st rules.State) error {
			cur := st.(*State)
			if prev != nil {
				for seat := range Seats {
					if cur.Alive(seat) && !prev.Alive(seat) {
						return fmt.Errorf("I5: seat %d revived", seat)
					}
				}
				pf, cf := prev.FloodedSet(), cur.FloodedSet()
				for i := range pf {
					if pf[i]&^cf[i] != 0 {
						return fmt.Errorf("I3: flooded set shrank")
					}
				}
			}
			prev = cur.Clone().(*State)
			return cur.Check()
		})
		if err != nil || n > MaxRounds {
			t.Fatalf("nonadjacent=%v: %d rounds: %v", nonadj, n, err)
		}
	}
}

// rho is I8's clockwise quarter turn ρ(i, j) = (j, 17−i).
func rho(i, j int) (int, int) { return j, Size - 1 - i }

func rotated(s *State) *State {
	t := *s
	for c, v := range s.h {
		a, b := rho(c/Size, c%Size)
		t.h[a*Size+b] = v
	}
	for seat := range Seats {
		t.elim[(seat+1)%Seats] = s.elim[seat]
	}
	t.rebuild()
	return &t
}

func rhoMove(m rules.Move) rules.Move {
	src, dst, ok := cells(m)
	if !ok {
		return m
	}
	a1, b1 := rho(src/Size, src%Size)
	a2, b2 := rho(dst/Size, dst%Size)
	return MakeMove(a1, b1, a2, b2)
}

func TestI8Symmetry(t *testing.T) {
	for _, nonadj := range []bool{false, true} {
		s := newGame(t, nonadj)
		rng := rules.NewRNG(8)
		moves := make([]rules.Move, Seats)
		for !s.Done() {
			randomMoves(s, rng, moves)
			rs := rotated(s)
			if err := rs.Check(); err != nil {
				t.Fatal(err)
			}
			for seat := range Seats {
				if View(rs, (seat+1)%Seats) != View(s, seat) {
					t.Fatalf("I8: seat %d's view of ρ(T) differs from seat %d's view of T", seat+1, seat)
				}
			}
			order := shuffledOrder(s, rng)
			var rmoves [Seats]rules.Move
			rorder := make([]int, len(order))
			for seat := range Seats {
				rmoves[(seat+1)%Seats] = rhoMove(moves[seat])
			}
			for k, seat := range order {
				rorder[k] = (seat + 1) % Seats
			}
			rs.Step(rmoves[:], rules.Scripted(drawsFor(rorder...)...))
			s.Step(moves, rng)
			if got, want := rs.AppendWords(nil), rotated(s).AppendWords(nil); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("I8: round %d: step(ρ(T)) ≠ ρ(step(T))", s.Round()-1)
			}
		}
	}
}
