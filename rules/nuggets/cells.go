package nuggets

import (
	"fmt"

	"github.com/gridgym/gridgym/rules"
)

// Cells implements rules.Viewer: every coloured square in its seat's colour,
// with Render's glyphs (the seat digit, '.' for an empty square). Row y of
// the view is the board's row y, column x its column x.
func (s *State) Cells(dst []rules.CellView) []rules.CellView {
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			cv := rules.CellView{Fill: -1, Piece: -1, Num: -1, Glyph: '.'}
			if o := s.Owner(x, y); o >= 0 {
				cv.Fill, cv.Glyph = int8(o), byte('0'+o)
			}
			dst = append(dst, cv)
		}
	}
	return dst
}

// MoveText implements rules.Viewer: the queried square "(x,y)" (R20), or
// "pass".
func (s *State) MoveText(seat int, m rules.Move) string {
	if m.Kind != KindQuery {
		return "pass"
	}
	a := int(m.Arg[0])
	return fmt.Sprintf("(%d,%d)", a%Size, a/Size)
}
