package rectangle

import (
	"math/bits"
	"strconv"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
)

// View is what a competition bot of one seat receives (R18, R19): the board,
// robots and scores relabelled so that the seat is player 0 and player
// (seat + k) mod p is k. There is no rotation: view cells are real cells.
type View struct {
	N, Players, Robots int
	MoveNum            int                      // 0 for the placement, t ≥ 1 for moves
	Board              [MaxN][MaxN]int8         // Board[r][c]: −2 unpaintable, −1 unpainted, k painted by k
	Pos                [maxSeats][MaxRobots]Pos // Pos[k][i]: robot i of player k (MoveNum ≥ 1 only)
	Scores             [maxSeats]int
}

// relabel maps real player i to its label in seat's view (R19).
func (s *State) relabel(seat, i int) int { return (i - seat + s.p) % s.p }

// View fills v with seat's view of the current position (R19), allocating
// nothing.
func (s *State) View(seat int, v *View) {
	v.N, v.Players, v.Robots, v.MoveNum = s.n, s.p, s.b, int(s.steps)
	for r := 0; r < s.n; r++ {
		row := &v.Board[r]
		for c := 0; c < s.n; c++ {
			row[c] = Unpainted
		}
		for w := s.unp[r]; w != 0; w &= w - 1 {
			row[bits.TrailingZeros64(w)] = Unpaintable
		}
		for i := 0; i < s.p; i++ {
			k := int8(s.relabel(seat, i))
			for w := s.paint[i][r]; w != 0; w &= w - 1 {
				row[bits.TrailingZeros64(w)] = k
			}
		}
	}
	for i := 0; i < s.p; i++ {
		k := s.relabel(seat, i)
		v.Scores[k] = int(s.score[i])
		for j := 0; j < s.b; j++ {
			v.Pos[k][j] = Pos{int(s.rr[i][j]), int(s.rc[i][j])}
		}
	}
}

// Codec is Rectangle's competition protocol (R18–R20).
type Codec struct{}

// AppendRequest implements rules.Codec: the JSON array of bot's arguments
// [board, robots, scores, move_num] for seat (R19). Robot cells are written
// as two-element JSON arrays; the Python host turns them into (r, c) tuples.
// At the placement every robot list is empty.
func (Codec) AppendRequest(dst []byte, st rules.State, seat int) []byte {
	s := st.(*State)
	dst = append(dst, '[')
	dst = pyval.AppendGrid(dst, s.n, s.n, func(r, c int) int {
		v := s.Cell(r, c)
		if v >= 0 {
			v = s.relabel(seat, v)
		}
		return v
	})
	dst = append(dst, ",["...)
	for k := 0; k < s.p; k++ {
		if k > 0 {
			dst = append(dst, ',')
		}
		i := (seat + k) % s.p
		dst = append(dst, '[')
		for j := 0; j < s.b && s.steps > 0; j++ {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '[')
			dst = strconv.AppendInt(dst, int64(s.rr[i][j]), 10)
			dst = append(dst, ',')
			dst = strconv.AppendInt(dst, int64(s.rc[i][j]), 10)
			dst = append(dst, ']')
		}
		dst = append(dst, ']')
	}
	dst = append(dst, "],["...)
	for k := 0; k < s.p; k++ {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(s.score[(seat+k)%s.p]), 10)
	}
	dst = append(dst, "],"...)
	dst = strconv.AppendInt(dst, int64(s.steps), 10)
	return append(dst, ']')
}

// ParseAnswer implements rules.Codec (R20): the tagged-JSON answer becomes the
// real move; invalid JSON (a bot error) and every malformed answer give Pass,
// which Step treats as R9's default.
func (Codec) ParseAnswer(st rules.State, seat int, answer []byte) rules.Move {
	s, ok := st.(*State)
	if !ok {
		return rules.Move{}
	}
	v, err := pyval.Parse(answer)
	if err != nil {
		return rules.Move{}
	}
	return s.DecodeAnswer(v)
}

// DecodeAnswer maps a bot's answer for the next step to the real move (R20),
// or Pass (R9's default) if it is malformed. Pinned where R20 is terse:
//   - placement: a list or tuple of exactly b pairs; a pair is a list or tuple
//     of exactly two Python ints (int or bool; NumPy integers, floats and
//     strings are not ints), each in 0..n−1;
//   - move: a str of exactly b characters, or a list or tuple of exactly b
//     str items of one character each, every character one of N E S W X
//     (upper case).
func (s *State) DecodeAnswer(v pyval.Value) rules.Move {
	if s.steps == 0 {
		return s.decodePlacement(v)
	}
	return s.decodeDirs(v)
}

func (s *State) decodePlacement(v pyval.Value) rules.Move {
	if (v.Kind != pyval.List && v.Kind != pyval.Tuple) || len(v.Items) != s.b {
		return rules.Move{}
	}
	m := rules.Move{Kind: KindPlace, N: uint8(s.b)}
	for k, it := range v.Items {
		if (it.Kind != pyval.List && it.Kind != pyval.Tuple) || len(it.Items) != 2 {
			return rules.Move{}
		}
		r, c := it.Items[0], it.Items[1]
		if !r.IsPyInt() || !c.IsPyInt() || r.Big || c.Big ||
			r.Int < 0 || r.Int >= int64(s.n) || c.Int < 0 || c.Int >= int64(s.n) {
			return rules.Move{}
		}
		m.Arg[k] = int16(r.Int)*int16(s.n) + int16(c.Int)
	}
	return m
}

func (s *State) decodeDirs(v pyval.Value) rules.Move {
	m := rules.Move{Kind: KindMove, N: uint8(s.b)}
	switch v.Kind {
	case pyval.Str:
		if len(v.Str) != s.b {
			return rules.Move{}
		}
		for k := 0; k < s.b; k++ {
			d, ok := DirOf(v.Str[k])
			if !ok {
				return rules.Move{}
			}
			m.Arg[k] = d
		}
	case pyval.List, pyval.Tuple:
		if len(v.Items) != s.b {
			return rules.Move{}
		}
		for k, it := range v.Items {
			if it.Kind != pyval.Str || len(it.Str) != 1 {
				return rules.Move{}
			}
			d, ok := DirOf(it.Str[0])
			if !ok {
				return rules.Move{}
			}
			m.Arg[k] = d
		}
	default:
		return rules.Move{}
	}
	return m
}
