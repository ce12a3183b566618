package risingtide

import (
	"strconv"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
)

// SeatView is exactly what the competition passes a seat's bot (R20, R21): the
// board rotated with rot90(T, k=seat), so the seat's own settlement is at (5, 5),
// and the 0-based round number.
type SeatView struct {
	Terrain [Size][Size]int8 // Terrain[i][j]: −1 flooded, else the height 0..8
	Round   int              // round_num
}

// ViewToReal maps view cell (i, j) of seat to the real cell (R20's table, k = seat mod 4).
func ViewToReal(seat, i, j int) (int, int) { return rules.D4(seat&3).Inverse().Point(Size, i, j) }

// RealToView maps real cell (a, b) to seat's view cell (R20's table, k = seat
// mod 4): NumPy's rot90 with k = seat, rules.D4(k).
func RealToView(seat, a, b int) (int, int) { return rules.D4(seat&3).Point(Size, a, b) }

// View returns seat's view of st (R20, R21), without allocating.
func View(st *State, seat int) SeatView {
	var v SeatView
	v.Round = st.round
	for i := 0; i < Size; i++ {
		for j := 0; j < Size; j++ {
			a, b := ViewToReal(seat, i, j)
			v.Terrain[i][j] = st.h[a*Size+b]
		}
	}
	return v
}

// MoveFromView returns the real move of seat's view answer ((i1, j1), (i2, j2)),
// or Pass if a coordinate is out of bounds. Legality is not checked.
func MoveFromView(seat, i1, j1, i2, j2 int) rules.Move {
	if uint(i1) >= Size || uint(j1) >= Size || uint(i2) >= Size || uint(j2) >= Size {
		return rules.Move{}
	}
	a1, b1 := ViewToReal(seat, i1, j1)
	a2, b2 := ViewToReal(seat, i2, j2)
	return MakeMove(a1, b1, a2, b2)
}

// MoveToView returns seat's view coordinates of a well-formed real move; ok is
// false for Pass or a malformed move.
func MoveToView(seat int, m rules.Move) (i1, j1, i2, j2 int, ok bool) {
	src, dst, ok := cells(m)
	if !ok {
		return 0, 0, 0, 0, false
	}
	i1, j1 = RealToView(seat, src/Size, src%Size)
	i2, j2 = RealToView(seat, dst/Size, dst%Size)
	return i1, j1, i2, j2, true
}

// IsSettlement reports whether (i, j) is one of the four settlement cells; the
// set is the same in every seat's view (R4, R20).
func IsSettlement(i, j int) bool {
	return uint(i) < Size && uint(j) < Size && isSettle[i*Size+j]
}

// Legal is R10 with the neighbour rule R10b on the view: the check the sample
// bots' util.allowed_moves makes. Out-of-bounds cells are illegal (R10a).
func (v *SeatView) Legal(i1, j1, i2, j2 int) bool {
	if uint(i1) >= Size || uint(j1) >= Size || uint(i2) >= Size || uint(j2) >= Size {
		return false
	}
	di, dj := i1-i2, j1-j2
	return max(di, -di, dj, -dj) == 1 && // R10b
		v.Terrain[i1][j1] >= 1 && v.Terrain[i2][j2] >= 0 && v.Terrain[i2][j2] < MaxHeight && // R10c, d
		!IsSettlement(i1, j1) && !IsSettlement(i2, j2) // R10e
}

// codec is Rising Tide's competition protocol (R18–R22).
type codec struct{}

// AppendRequest appends the JSON array of my_bot_fn's arguments,
// [terrain, round_num], for seat (R20, R21).
func (codec) AppendRequest(dst []byte, st rules.State, seat int) []byte {
	v := View(st.(*State), seat)
	dst = append(dst, '[')
	dst = pyval.AppendGrid(dst, Size, Size, func(i, j int) int { return int(v.Terrain[i][j]) })
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, int64(v.Round), 10)
	return append(dst, ']')
}

// ParseAnswer maps a bot's answer (tagged JSON, package pyval) to the real
// move per R22; anything else is a pass (R9, R23: invalid JSON is a bot error).
func (codec) ParseAnswer(st rules.State, seat int, answer []byte) rules.Move {
	s, ok := st.(*State)
	if !ok {
		return rules.Move{}
	}
	v, err := pyval.Parse(answer)
	if err != nil {
		return rules.Move{}
	}
	return AnswerMove(s, seat, v)
}

// AnswerMove is R22 on a parsed answer of seat: None is a pass; otherwise the
// value must unpack as (i1, j1), (i2, j2), tuples or lists, with four Python
// ints (a bool reads as 0/1; NumPy scalars, floats and strings are passes). A
// bool that the controller would keep as a real index — seat 3's view rows i1
// and i2, which become real columns unconverted — crashes the official
// controller; it is a pass here. The move must then pass R10 on the view (with
// R10b unless nonadjacent_moves) and is mapped to real coordinates.
func AnswerMove(s *State, seat int, v pyval.Value) rules.Move {
	if seat < 0 || seat >= Seats || v.Kind == pyval.None {
		return rules.Move{}
	}
	pair, err := v.Unpack(2)
	if err != nil {
		return rules.Move{}
	}
	var c [4]pyval.Value
	for k := range pair {
		p, err := pair[k].Unpack(2)
		if err != nil {
			return rules.Move{}
		}
		c[2*k], c[2*k+1] = p[0], p[1]
	}
	var n [4]int
	for k, x := range c {
		if !x.IsPyInt() {
			return rules.Move{}
		}
		if x.Big || x.Int < 0 || x.Int >= Size { // R10a (in the view)
			return rules.Move{}
		}
		n[k] = int(x.Int)
	}
	if seat == 3 && (c[0].Kind == pyval.Bool || c[2].Kind == pyval.Bool) {
		return rules.Move{} // the controller's crash case (R22)
	}
	// R10 is rotation invariant (I7), so checking the mapped move on the real
	// board is checking the answer on the view.
	m := MoveFromView(seat, n[0], n[1], n[2], n[3])
	if !s.LegalMove(m) {
		return rules.Move{}
	}
	return m
}
