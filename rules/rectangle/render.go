package rectangle

import (
	"io"
	"strconv"
)

// seatColor is the ANSI colour code of each seat's paint and robots.
var (
	seatColor = [maxSeats]string{"31", "32", "33", "34", "35", "36", "91", "94"}
	seatBG    = [maxSeats]string{"41", "42", "43", "44", "45", "46", "101", "104"}
)

// Render implements rules.State. One character per cell: '#' unpaintable, '.'
// unpainted, a digit the painting player; a cell with robots shows the robot's
// player as a letter (A = player 0), or '*' if it holds two or more robots.
// With color, paint is the seat's background colour and robots are bold in
// their seat's colour. A status line follows.
func (s *State) Render(w io.Writer, color bool) {
	var who [MaxN][MaxN]int8 // robots: 0 none, 1+i one robot of player i, -1 several
	for i := 0; i < s.p; i++ {
		for k := 0; k < s.b && s.steps > 0; k++ {
			r, c := s.rr[i][k], s.rc[i][k]
			if who[r][c] == 0 {
				who[r][c] = int8(i + 1)
			} else {
				who[r][c] = -1
			}
		}
	}
	buf := make([]byte, 0, (s.n+1)*s.n*12+128)
	for r := 0; r < s.n; r++ {
		for c := 0; c < s.n; c++ {
			v := s.Cell(r, c)
			ch := byte('.')
			switch {
			case v == Unpaintable:
				ch = '#'
			case v >= 0:
				ch = byte('0' + v)
			}
			rob := who[r][c]
			switch {
			case rob > 0:
				ch = byte('A' + rob - 1)
			case rob < 0:
				ch = '*'
			}
			if !color || (v < 0 && rob == 0) {
				buf = append(buf, ch)
				continue
			}
			buf = append(buf, "\x1b["...)
			switch {
			case v >= 0:
				buf = append(buf, "30;"...)
				buf = append(buf, seatBG[v]...)
			default:
				buf = append(buf, '0')
			}
			if rob > 0 {
				buf = append(buf, ";1;"...)
				if v < 0 {
					buf = append(buf, seatColor[rob-1]...)
				} else {
					buf = append(buf, "97"...)
				}
			}
			buf = append(buf, 'm', ch)
			buf = append(buf, "\x1b[0m"...)
		}
		buf = append(buf, '\n')
	}
	if s.steps == 0 {
		buf = append(buf, "before placement"...)
	} else if s.steps == 1 {
		buf = append(buf, "placed"...)
	} else {
		buf = append(buf, "move "...)
		buf = strconv.AppendInt(buf, int64(s.steps-1), 10)
		buf = append(buf, '/')
		buf = strconv.AppendInt(buf, int64(s.maxMoves), 10)
	}
	buf = append(buf, " idle "...)
	buf = strconv.AppendInt(buf, int64(s.idle), 10)
	buf = append(buf, '/')
	buf = strconv.AppendInt(buf, int64(s.idleK), 10)
	buf = append(buf, " scores"...)
	for i := 0; i < s.p; i++ {
		buf = append(buf, ' ')
		buf = append(buf, byte('A'+i))
		buf = append(buf, '=')
		buf = strconv.AppendInt(buf, int64(s.score[i]), 10)
	}
	if s.done {
		buf = append(buf, " (game over)"...)
	}
	buf = append(buf, '\n')
	w.Write(buf)
}
