package foursquare

import (
	"strconv"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
)

// Codec is the competition's protocol (R6).
type Codec struct{}

// view returns the value of cell in seat's view: 0 empty, 1 own, 2 other.
func view(s *State, seat, cell int) int {
	v := s.at(cell)
	if v == 0 {
		return 0
	}
	if v-1 == seat {
		return 1
	}
	return 2
}

// AppendRequest appends the JSON arguments of bot(board) for seat.
func (Codec) AppendRequest(dst []byte, st rules.State, seat int) []byte {
	s := st.(*State)
	dst = append(dst, '[', '[')
	for r := range Size {
		if r > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		for c := range Size {
			if c > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(dst, int64(view(s, seat, r*Size+c)), 10)
		}
		dst = append(dst, ']')
	}
	return append(dst, ']', ']')
}

// ParseAnswer reads (r, c) of two ints in 0..3 as a placement; anything
// else, and a placement on an occupied cell, is a pass (R3).
func (Codec) ParseAnswer(st rules.State, seat int, answer []byte) rules.Move {
	v, err := pyval.Parse(answer)
	if err != nil {
		return rules.Move{}
	}
	rc, err := v.Unpack(2)
	if err != nil || v.Kind == pyval.Str {
		return rules.Move{}
	}
	var x [2]int
	for i, it := range rc {
		if (it.Kind != pyval.Int && it.Kind != pyval.NumpyInt) || it.Big || it.Int < 0 || it.Int >= Size {
			return rules.Move{}
		}
		x[i] = int(it.Int)
	}
	m := Place(x[0]*Size + x[1])
	if !st.Legal(seat, m) {
		return rules.Move{}
	}
	return m
}
