package bovine

import (
	"fmt"

	"github.com/gridgym/gridgym/rules"
)

// Cells implements rules.Viewer: every cow as its seat's colour and a cow
// piece, each barn still held by its seat as a barn piece, with Render's
// glyphs (the seat digit for a cow, A–D for a barn, '.' for grass).
func (s *State) Cells(dst []rules.CellView) []rules.CellView {
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			o := s.owner(r, c)
			cv := rules.CellView{Fill: -1, Piece: -1, Num: -1, Glyph: '.'}
			if o != Empty {
				cv.Fill, cv.Piece, cv.Shape, cv.Glyph = int8(o), int8(o), 'c', byte('0'+o)
				if r == barnRow[o] && c == barnCol[o] {
					cv.Shape, cv.Glyph = 'b', byte('A'+o)
				}
			}
			dst = append(dst, cv)
		}
	}
	return dst
}

// MoveText implements rules.Viewer: "(r1,c1)→(r2,c2)" for a full move,
// "→(r,c)" for a destination alone (R8), or "pass".
func (s *State) MoveText(seat int, m rules.Move) string {
	switch m.Kind {
	case Full:
		a, b := int(m.Arg[0]), int(m.Arg[1])
		return fmt.Sprintf("(%d,%d)→(%d,%d)", a/Size, a%Size, b/Size, b%Size)
	case Dst:
		b := int(m.Arg[0])
		return fmt.Sprintf("→(%d,%d)", b/Size, b%Size)
	}
	return "pass"
}
