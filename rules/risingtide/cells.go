package risingtide

import (
	"fmt"

	"github.com/gridgym/gridgym/rules"
)

// Cells implements rules.Viewer: the height of every cell (Land, or Low where
// the next rise of the water covers it), flooded cells as Water, the four
// settlements as pieces of their seats, with Render's glyphs.
func (s *State) Cells(dst []rules.CellView) []rules.CellView {
	level := 0 // as in Render: heights below level go under in the next round
	if s.round >= 1 {
		level = (s.round-1)/100 + 1
	}
	for c := 0; c < Cells; c++ {
		v := s.h[c]
		cv := rules.CellView{Terrain: rules.Land, Fill: -1, Piece: -1, Num: v, Glyph: byte('0' + v)}
		switch {
		case v == Flooded:
			cv.Terrain, cv.Num, cv.Glyph = rules.Water, -1, '~'
		case isSettle[c]:
			for seat, sc := range settleCell {
				if sc == c {
					cv.Piece, cv.Shape, cv.Glyph = int8(seat), 's', byte('A'+seat)
				}
			}
		case int(v) < level:
			cv.Terrain = rules.Low
		}
		dst = append(dst, cv)
	}
	return dst
}

// MoveText implements rules.Viewer: "(i1,j1)→(i2,j2)", the earth moved from
// the first cell to the second (R10), or "pass".
func (s *State) MoveText(seat int, m rules.Move) string {
	if m.Kind != KindMove {
		return "pass"
	}
	a, b := int(m.Arg[0]), int(m.Arg[1])
	return fmt.Sprintf("(%d,%d)→(%d,%d)", a/Size, a%Size, b/Size, b%Size)
}
