package rectangle

import "github.com/gridgym/gridgym/rules"

// Opening implements rules.Opener: at the placement (R7), seat's robots
// spread evenly round a size×size square in a corner of the board
// (OpeningCells), false elsewhere or for a size that is not 3..n. Placed
// robots paint their cells (R7, R10), so the square's first cells cost no
// move, and b robots close it in about 4(size−1)/b moves: the mason bot's
// opening (agents/rectanglebots), which a network plays through its play
// settings (neural.Play.Opening), since its heads, one per robot and each
// drawn on its own, cannot choose one square together.
func (s *State) Opening(seat, size int, u [rules.OpeningDraws]float64) (rules.Move, bool) {
	if s.steps != 0 || size < 3 || size > s.n || seat < 0 || seat >= s.p {
		return rules.Move{}, false
	}
	var buf [MaxRobots]Pos
	return PlaceMove(s.n, OpeningCells(s.n, s.b, size, u, buf[:0])), true
}

// OpeningCells appends to dst the b cells of the opening square of side k
// (3 ≤ k ≤ n) on an n×n board: the square in the corner that u[0] (< ½:
// top) and u[1] (< ½: left) draw, its boundary listed clockwise from its
// top-left corner (Rect.Perimeter), robot i on boundary cell
// (off + i·L/b) mod L, L = 4(k−1), off = ⌊u[2]·max(1, ⌊L/b⌋)⌋. The
// exported bot repeats it (rectangle.py, _opening_cells).
func OpeningCells(n, b, k int, u [rules.OpeningDraws]float64, dst []Pos) []Pos {
	var buf [4 * MaxN]Pos
	per := OpeningSquare(n, k, u).Perimeter(buf[:0])
	L := len(per)
	off := int(u[2] * float64(max(1, L/b)))
	for i := 0; i < b; i++ {
		dst = append(dst, per[(off+i*L/b)%L])
	}
	return dst
}

// OpeningSquare is OpeningCells' square: side k in the corner that u[0]
// and u[1] draw.
func OpeningSquare(n, k int, u [rules.OpeningDraws]float64) Rect {
	r0, c0 := 0, 0
	if u[0] >= 0.5 {
		r0 = n - k
	}
	if u[1] >= 0.5 {
		c0 = n - k
	}
	return Rect{R1: r0, C1: c0, R2: r0 + k - 1, C2: c0 + k - 1}
}
