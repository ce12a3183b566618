package nuggets

import (
	"math/bits"
	"strconv"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
)

// View is what a competition bot of one seat receives (R17–R19), plus the
// phase lengths, which a bot knows as constants of the game.
type View struct {
	// Board[y][x] is −1 for an empty square, otherwise (owner − seat) mod 4:
	// 0 own, 1 seat+1, 2 seat+2, 3 seat+3 (R18). No rotation.
	Board [Size][Size]int8
	// MoveNum is the 0-based move index t (R19).
	MoveNum int
	// SetupMoves and TotalMoves are the game's lengths (60 and 260 by default):
	// the build phase is MoveNum ≥ SetupMoves, moves left = TotalMoves − MoveNum.
	SetupMoves, TotalMoves int
}

// ViewOf returns seat's view of s (R18, R19).
func ViewOf(s *State, seat int) View {
	v := View{MoveNum: s.t, SetupMoves: s.cfg.setup, TotalMoves: s.cfg.total}
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			v.Board[y][x] = -1
		}
		for o := range s.own {
			label := int8((o - seat + Seats) % Seats)
			for w := s.own[o][y]; w != 0; w &= w - 1 {
				v.Board[y][bits.TrailingZeros64(w)] = label
			}
		}
	}
	return v
}

// Codec is the competition protocol of R17–R21: the request is the JSON array
// [board, move_num] of bot(board, move_num), the answer a tagged Python value.
type Codec struct{}

// AppendRequest implements rules.Codec: [board, move_num] with board[y][x] as
// in View (R18) and move_num = t (R19). st must be a *State.
func (Codec) AppendRequest(dst []byte, st rules.State, seat int) []byte {
	v := ViewOf(st.(*State), seat)
	dst = append(dst, '[')
	dst = pyval.AppendGrid(dst, Size, Size, func(y, x int) int { return int(v.Board[y][x]) })
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, int64(v.MoveNum), 10)
	return append(dst, ']')
}

// ParseAnswer implements rules.Codec (R20): a valid (x, y) becomes its query;
// anything else, invalid JSON included, gets R6's treatment (State.Invalid:
// the explicit query (0,0), or Pass under invalid_query=pass). A state of
// another game gives Pass.
func (Codec) ParseAnswer(st rules.State, seat int, answer []byte) rules.Move {
	s, ok := st.(*State)
	if !ok {
		return rules.Move{}
	}
	v, err := pyval.Parse(answer)
	if err != nil {
		return s.Invalid()
	}
	x, y, ok := AnswerXY(v)
	if !ok {
		return s.Invalid()
	}
	return Query(x, y)
}

// AnswerXY reads a bot's answer per R20: a tuple or list of exactly two
// integers (Python int or NumPy integer; bool, float, str and big ints are
// rejected), x first, each in 0..19. ok=false means R6's treatment.
func AnswerXY(v pyval.Value) (x, y int, ok bool) {
	if v.Kind != pyval.List && v.Kind != pyval.Tuple || len(v.Items) != 2 {
		return 0, 0, false
	}
	var c [2]int
	for i, it := range v.Items {
		if it.Kind != pyval.Int && it.Kind != pyval.NumpyInt || it.Big || it.Int < 0 || it.Int >= Size {
			return 0, 0, false
		}
		c[i] = int(it.Int)
	}
	return c[0], c[1], true
}
