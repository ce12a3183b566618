package bovine

import "github.com/gridgym/gridgym/rules"

// guardWindow is every view cell one or two steps from the seat's barn at
// view (0, 0), row-major: the cells the guard watches (Guard).
var guardWindow = [...][2]int{{0, 1}, {0, 2}, {1, 0}, {1, 1}, {2, 0}}

// barnSides are the barn's neighbours in the view, in the order the guard
// fills them.
var barnSides = [...][2]int{{0, 1}, {1, 0}}

// viewSides are the sources of a move relative to its destination, in the
// order of the encoder's action planes and the exported bot's _DIRS: above,
// left, right, below.
var viewSides = [...][2]int{{-1, 0}, {0, -1}, {0, 1}, {1, 0}}

// Guard implements rules.Guarder: the barn guard a network may play in front
// of its policy (neural.Play.Guard). Sessions 90–91 found the networks
// eliminated when a rival's cows, cut off from their own barn, walk to
// theirs: a rival cow beside the barn captures it with even odds whatever
// the seat answers in that round (R6's random order, R12). So, when a rival
// cow stands one or two steps from seat's barn (guardWindow), the guard
// answers:
//  1. capture such a cow: one beside the barn before one two steps away,
//     from a connected cow (R11: a capture) before a cut-off one (both
//     die: the threat goes too), never from the barn itself (R12b would
//     eliminate the seat); ties in view order (guardWindow, viewSides);
//  2. else place a cow from the barn on an empty neighbour of it, view
//     (0, 1) before (1, 0), so that a rival must take that cow first;
//  3. else decline (the network plays).
//
// With no rival cow in the window, or seat not active, it declines. It reads
// the position in seat's view (R19), so the exported bot (bovine.py,
// guard_move) answers the same move from the board it is given.
func (s *State) Guard(seat int) (rules.Move, bool) {
	if seat < 0 || seat >= Seats || !s.Active(seat) {
		return rules.Move{}, false
	}
	own := &s.own[seat]
	var conn board
	connDone, threat := false, false
	var best rules.Move
	bestV := 0
	for _, w := range guardWindow {
		r, c := ViewToReal(seat, w[0], w[1])
		if o := s.owner(r, c); o == Empty || o == seat {
			continue
		}
		threat = true
		v0 := 10
		if w[0]+w[1] == 1 {
			v0 = 20
		}
		for _, d := range viewSides {
			i, j := w[0]+d[0], w[1]+d[1]
			if i < 0 || j < 0 || i == 0 && j == 0 {
				continue // off the board, or the barn (R12b)
			}
			sr, sc := ViewToReal(seat, i, j)
			if own[sr]>>uint(sc)&1 == 0 {
				continue
			}
			if !connDone {
				conn, connDone = s.Connected(seat), true
			}
			v := v0
			if conn[sr]>>uint(sc)&1 != 0 {
				v += 5
			}
			if v > bestV {
				best, bestV = FullMove(sr*Size+sc, r*Size+c), v
			}
		}
	}
	if !threat {
		return rules.Move{}, false
	}
	if bestV > 0 {
		return best, true
	}
	br, bc := Barn(seat)
	for _, w := range barnSides {
		r, c := ViewToReal(seat, w[0], w[1])
		if s.owner(r, c) == Empty {
			return FullMove(br*Size+bc, r*Size+c), true
		}
	}
	return rules.Move{}, false
}
