package rectangle

import (
	"fmt"
	"strings"

	"github.com/gridgym/gridgym/rules"
)

// Cells implements rules.Viewer: unpaintable cells as Blocked, paint in its
// player's colour, robots as pieces (of several players: Piece −2), with
// Render's glyphs ('#', '.', the painter's digit, the robot's letter or '*').
func (s *State) Cells(dst []rules.CellView) []rules.CellView {
	base := len(dst)
	for r := 0; r < s.n; r++ {
		for c := 0; c < s.n; c++ {
			cv := rules.CellView{Fill: -1, Piece: -1, Num: -1, Glyph: '.'}
			switch v := s.Cell(r, c); {
			case v == Unpaintable:
				cv.Terrain, cv.Glyph = rules.Blocked, '#'
			case v >= 0:
				cv.Fill, cv.Glyph = int8(v), byte('0'+v)
			}
			dst = append(dst, cv)
		}
	}
	if s.steps == 0 {
		return dst // the robots are not on the board before the placement
	}
	for i := 0; i < s.p; i++ {
		for k := 0; k < s.b; k++ {
			cv := &dst[base+int(s.rr[i][k])*s.n+int(s.rc[i][k])]
			if cv.Piece == -1 {
				cv.Piece, cv.Shape, cv.Glyph = int8(i), 'r', byte('A'+i)
			} else { // Render: a second robot, of any player, makes the cell '*'
				if cv.Piece != int8(i) {
					cv.Piece = -2
				}
				cv.Glyph = '*'
			}
		}
	}
	return dst
}

// MoveText implements rules.Viewer: the placement "(r,c) (r,c) …" or the
// robots' directions "N E X …" (R20), or "pass".
func (s *State) MoveText(seat int, m rules.Move) string {
	parts := make([]string, 0, m.N)
	switch m.Kind {
	case KindPlace:
		for i := 0; i < int(m.N) && i < len(m.Arg); i++ {
			a := int(m.Arg[i])
			if s.n > 0 {
				parts = append(parts, fmt.Sprintf("(%d,%d)", a/s.n, a%s.n))
			}
		}
	case KindMove:
		for i := 0; i < int(m.N) && i < len(m.Arg); i++ {
			if d := m.Arg[i]; d >= 0 && int(d) < len(DirLetters) {
				parts = append(parts, DirLetters[d:d+1])
			} else {
				parts = append(parts, "?")
			}
		}
	default:
		return "pass"
	}
	return strings.Join(parts, " ")
}
