package bovine

import (
	"errors"
	"math/bits"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
)

// Codec is Bovine Borders' competition protocol (§5): the bot gets
// `bot(board)` with its seat's rotated, relabelled board (R19) and answers a
// tagged Python value (R20).
type Codec struct{}

// ViewToReal maps cell (i, j) of seat's view to the real board (R19's table,
// k = seat): the inverse of rot90(B, k).
func ViewToReal(seat, i, j int) (r, c int) { return rules.D4(seat&3).Inverse().Point(Size, i, j) }

// RealToView maps real cell (r, c) to seat's view (R19's table, k = seat):
// NumPy's rot90 with k = seat, rules.D4(k).
func RealToView(seat, r, c int) (i, j int) { return rules.D4(seat&3).Point(Size, r, c) }

// Label is how seat sees a cell owned by owner (R19): −1 for Empty, otherwise
// (owner − seat) mod 4, so 0 is its own.
func Label(owner, seat int) int8 {
	if owner < 0 {
		return -1
	}
	return int8((owner - seat + Seats) % Seats)
}

// View returns the board exactly as the competition passes it to seat (R19):
// rot90(B, k=seat), relabelled, indexed [i][j] = row i, column j of the view.
func View(st *State, seat int) [Size][Size]int8 {
	var v [Size][Size]int8
	for i := range v {
		for j := range v[i] {
			v[i][j] = -1
		}
	}
	for o := 0; o < Seats; o++ {
		l := Label(o, seat)
		for r, w := range st.own[o] {
			for ; w != 0; w &= w - 1 {
				i, j := RealToView(seat, r, bits.TrailingZeros64(w))
				v[i][j] = l
			}
		}
	}
	return v
}

func inView(i, j int64) bool { return i >= 0 && i < Size && j >= 0 && j < Size }

// ViewFullMove maps seat's answer ((i1, j1), (i2, j2)) in view coordinates to
// the real full move (R20); out-of-bounds cells give Pass (R10). Validity (R7)
// is checked by Step.
func ViewFullMove(seat int, i1, j1, i2, j2 int64) rules.Move {
	if !inView(i1, j1) || !inView(i2, j2) {
		return rules.Move{}
	}
	sr, sc := ViewToReal(seat, int(i1), int(j1))
	dr, dc := ViewToReal(seat, int(i2), int(j2))
	return FullMove(sr*Size+sc, dr*Size+dc)
}

// ViewDstMove maps seat's destination-only answer (i, j) in view coordinates
// to the real destination-only move (R8, R20). An out-of-bounds destination
// gives Pass: it has at most one candidate source, so R8 draws nothing and
// R7 then fails.
func ViewDstMove(seat int, i, j int64) rules.Move {
	if !inView(i, j) {
		return rules.Move{}
	}
	r, c := ViewToReal(seat, int(i), int(j))
	return DstMove(r*Size + c)
}

// AppendRequest implements rules.Codec: the JSON array of bot(board)'s one
// argument, [board], board being View(st, seat) as a list of 20 rows of plain
// JSON integers.
func (Codec) AppendRequest(dst []byte, st rules.State, seat int) []byte {
	s, ok := st.(*State)
	if !ok {
		return append(dst, "[]"...)
	}
	v := View(s, seat)
	dst = append(dst, '[')
	dst = pyval.AppendGrid(dst, Size, Size, func(i, j int) int { return int(v[i][j]) })
	return append(dst, ']')
}

// ParseAnswer implements rules.Codec: the answer is tagged JSON (package
// pyval); invalid JSON is a bot error, hence a pass (R21). The value is read
// by ParseValue.
func (Codec) ParseAnswer(st rules.State, seat int, answer []byte) rules.Move {
	v, err := pyval.Parse(answer)
	if err != nil {
		return rules.Move{}
	}
	return ParseValue(seat, v)
}

// ParseValue reads a bot's Python answer as the controller does (R20):
// None is a pass; `(i1, j1), (i2, j2) = answer` gives a full move; if that
// unpacking raises TypeError the answer is the destination only, which must
// hold two integers (int, bool or NumPy integer; anything else → pass).
// Components of a full move go through int() (floats truncate, decimal
// strings parse). Shapes that raise ValueError, and int() failures, are
// passes (R10, R20).
func ParseValue(seat int, v pyval.Value) rules.Move {
	if v.Kind == pyval.None {
		return rules.Move{}
	}
	pair, err := v.Unpack(2)
	if err != nil {
		// TypeError: the fallback `i2, j2 = answer` raises it again → pass.
		// ValueError: crashes the controller → pass.
		return rules.Move{}
	}
	src, err := pair[0].Unpack(2)
	if err == nil {
		var dst []pyval.Value
		if dst, err = pair[1].Unpack(2); err == nil {
			return fullFromValues(seat, src[0], src[1], dst[0], dst[1])
		}
	}
	if !errors.Is(err, pyval.ErrType) {
		return rules.Move{} // ValueError
	}
	// Destination only: nearby() adds ±1 to the components and indexes the
	// board with them, which only int-like values survive.
	i, j := pair[0], pair[1]
	if !intLike(i) || !intLike(j) {
		return rules.Move{}
	}
	return ViewDstMove(seat, i.Int, j.Int)
}

// intLike reports whether v is a Python int, bool or NumPy integer that fits
// an int64 (larger ones are out of bounds, which is a pass as well).
func intLike(v pyval.Value) bool {
	return (v.Kind == pyval.Int || v.Kind == pyval.Bool || v.Kind == pyval.NumpyInt) && !v.Big
}

func fullFromValues(seat int, a, b, c, d pyval.Value) rules.Move {
	var n [4]int64
	for k, x := range [4]pyval.Value{a, b, c, d} {
		v, err := x.ToInt()
		if err != nil {
			return rules.Move{}
		}
		n[k] = v
	}
	return ViewFullMove(seat, n[0], n[1], n[2], n[3])
}
