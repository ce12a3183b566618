package slime

import (
	"math/bits"

	"github.com/gridgym/gridgym/rules"
)

// The 8 symmetries of the square (the dihedral group D4) are rules.D4,
// g = 0..7: first a transpose (r, c) → (c, r) if g&4 is set, then g&3
// quarter turns counterclockwise as NumPy's rot90 with k = g&3 (R18): k=1
// (a, b) → (N−1−b, a), k=2 → (N−1−a, N−1−b), k=3 → (b, N−1−a). The rules are
// invariant under all of them (I5); the env uses them for its canonical view
// and for augmentation.

// canonK is R18's rot90 k for players 1..4: each start corner to the top-left.
var canonK = [Seats]rules.D4{0, 1, 3, 2}

// CanonicalSym returns the symmetry (a rotation, g = k) that R18 applies to
// seat's board so that its start corner is at the top-left.
func CanonicalSym(seat int) rules.D4 { return canonK[seat&3] }

// SymBoard maps a bitboard (bit r*8+c, inside the n×n corner) by symmetry g
// with word operations.
func SymBoard(n int, g rules.D4, b uint64) uint64 {
	if g&4 != 0 {
		b = transpose(b)
	}
	switch g & 3 {
	case 1: // (a, b) → (N−1−b, a): transpose, then flip the rows
		return flipRows(n, transpose(b))
	case 2:
		return flipRows(n, flipCols(n, b))
	case 3: // (a, b) → (b, N−1−a): transpose, then flip the columns
		return flipCols(n, transpose(b))
	}
	return b
}

// flipRows maps row r to row n−1−r.
func flipRows(n int, b uint64) uint64 { return bits.ReverseBytes64(b) >> uint(8*(8-n)) }

// flipCols maps column c to column n−1−c (each byte's bits reversed, then
// moved down to the n×n corner; no bit crosses into the row below).
func flipCols(n int, b uint64) uint64 {
	return bits.ReverseBytes64(bits.Reverse64(b)) >> uint(8-n)
}

// transpose maps (r, c) to (c, r) on the 8×8 grid (three delta swaps along
// the main diagonal); the n×n corner maps onto itself.
func transpose(b uint64) uint64 {
	const (
		k1 = 0x5500550055005500
		k2 = 0x3333000033330000
		k4 = 0x0f0f0f0f00000000
	)
	t := k4 & (b ^ b<<28)
	b ^= t ^ t>>28
	t = k2 & (b ^ b<<14)
	b ^= t ^ t>>14
	t = k1 & (b ^ b<<7)
	b ^= t ^ t>>7
	return b
}

// ToCanonical maps a real cell r*N+c to seat's canonical view (R18: the board
// turned by rot90 with k = 0, 1, 3, 2 for players 1..4, so that the seat's
// start corner is at the top-left). Cells outside the board are returned as
// they are.
func (s *State) ToCanonical(seat, cell int) int {
	if cell < 0 || cell >= s.n*s.n {
		return cell
	}
	return canonK[seat&3].Cell(s.n, cell)
}

// FromCanonical maps a cell of seat's canonical view back to the real board
// (the inverse of ToCanonical), so that the rules see the real move.
func (s *State) FromCanonical(seat, cell int) int {
	if cell < 0 || cell >= s.n*s.n {
		return cell
	}
	return canonK[seat&3].Inverse().Cell(s.n, cell)
}

// SymMove maps a move by symmetry g on an n×n board: the source and target
// cells of a KindMove; every other move is returned unchanged.
func SymMove(n int, g rules.D4, m rules.Move) rules.Move {
	if m.Kind != KindMove || m.N != 2 {
		return m
	}
	for i := 0; i < 2; i++ {
		if a := int(m.Arg[i]); a >= 0 && a < n*n {
			m.Arg[i] = int16(g.Cell(n, a))
		}
	}
	return m
}

// Transform makes s the image of src by symmetry g: every player's cells
// mapped, the turn count kept (turn order is by player, I5).
func (s *State) Transform(src *State, g rules.D4) {
	*s = *src
	for p := range s.slime {
		s.slime[p] = SymBoard(s.n, g, src.slime[p])
	}
}
