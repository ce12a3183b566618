package slime

import (
	"fmt"

	"github.com/gridgym/gridgym/rules"
)

// Cells implements rules.Viewer: every slime cell in its player's colour, with
// Render's glyphs (the player digit 1–4, '.' for an empty cell).
func (s *State) Cells(dst []rules.CellView) []rules.CellView {
	for r := 0; r < s.n; r++ {
		for c := 0; c < s.n; c++ {
			cv := rules.CellView{Fill: -1, Piece: -1, Num: -1, Glyph: '.'}
			if p := s.Cell(r, c); p > 0 {
				cv.Fill, cv.Glyph = int8(p-1), byte('0'+p)
			}
			dst = append(dst, cv)
		}
	}
	return dst
}

// MoveText implements rules.Viewer: "(r1,c1)→(r2,c2)", the source and target
// cells, or "pass".
func (s *State) MoveText(seat int, m rules.Move) string {
	if m.Kind != KindMove || s.n == 0 {
		return "pass"
	}
	a, b := int(m.Arg[0]), int(m.Arg[1])
	return fmt.Sprintf("(%d,%d)→(%d,%d)", a/s.n, a%s.n, b/s.n, b%s.n)
}
