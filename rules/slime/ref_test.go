package slime

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// grid is a reference board, one int per cell: 0 empty, 1..4 a player (R2).
type grid [8][8]int

func refBoard(s *State) grid {
	var g grid
	for r := 0; r < s.n; r++ {
		for c := 0; c < s.n; c++ {
			g[r][c] = s.Cell(r, c)
		}
	}
	return g
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// refApply is R8–R11 written cell by cell, as the rules file says them, with
// no bitboards: it returns the board after player's move and whether the move
// was valid (an invalid one returns b unchanged, R7).
func refApply(b grid, n, player, r1, c1, r2, c2 int) (grid, bool) {
	in := func(r, c int) bool { return r >= 0 && r < n && c >= 0 && c < n }
	if !in(r1, c1) || !in(r2, c2) || b[r1][c1] != player {
		return b, false
	}
	tgt := b[r2][c2]
	if tgt != 0 && tgt != player {
		return b, false
	}
	d := max(absInt(r1-r2), absInt(c1-c2))
	if d < 1 || d > 2 || (tgt == player && d != 1) {
		return b, false
	}
	if tgt == 0 { // R9, R10
		b[r2][c2] = player
		for r := r2 - 1; r <= r2+1; r++ {
			for c := c2 - 1; c <= c2+1; c++ {
				if in(r, c) && b[r][c] != 0 {
					b[r][c] = player
				}
			}
		}
		if d == 2 {
			b[r1][c1] = 0
		}
		return b, true
	}
	for r := r2 - 1; r <= r2+1; r++ { // R11
		for c := c2 - 1; c <= c2+1; c++ {
			if in(r, c) && b[r][c] == 0 {
				b[r][c] = player
			}
		}
	}
	b[r1][c1] = 0
	return b, true
}

// randomState returns an n×n game with a random board that is not full, a
// random density, and a random turn; some players may have no cells.
func randomState(t testing.TB, rng *rules.RNG, n int) *State {
	t.Helper()
	s := newState(n, 2000)
	empty := rng.U(101)
	players := 1 + rng.U(4)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			p := 0
			if rng.U(100) >= empty {
				p = 1 + rng.U(players)
			}
			s.SetCell(r, c, p)
		}
	}
	if s.Done() {
		s.SetCell(rng.U(n), rng.U(n), 0)
	}
	s.SetTurn(rng.U(1996))
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	return s
}

// randomCoords returns a move for the seat to move: a legal one half the
// time, otherwise coordinates in −1..n, often off the board or invalid.
func randomCoords(rng *rules.RNG, s *State) (r1, c1, r2, c2 int) {
	n := s.n
	if rng.U(2) == 0 {
		if m := s.RandomMove(s.ToMove(), rng); m.Kind == KindMove {
			r1, c1, r2, c2, _ = Coords(n, m)
			return
		}
	}
	if own := s.Slime(s.ToMove()); own != 0 && rng.U(2) == 0 { // own source, random target
		k := rng.U(popcount(own))
		for ; k > 0; k-- {
			own &= own - 1
		}
		b := 0
		for own&1 == 0 {
			own >>= 1
			b++
		}
		r1, c1 = b/8, b%8
	} else {
		r1, c1 = rng.U(n+2)-1, rng.U(n+2)-1
	}
	return r1, c1, r1 + rng.U(7) - 3, c1 + rng.U(7) - 3
}
