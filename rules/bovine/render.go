package bovine

import (
	"bufio"
	"fmt"
	"io"
)

// seatColor is each seat's ANSI background colour (the controller's defaults:
// red, yellow, green, blue).
var seatColor = [Seats]string{"\x1b[41;30m", "\x1b[43;30m", "\x1b[42;30m", "\x1b[44;37m"}

// Render implements rules.State: one line per row, '.' for an empty cell, the
// seat digit for a cow and its letter A–D for a barn, then a status line with
// the round and each seat's territory or elimination round.
func (s *State) Render(w io.Writer, color bool) {
	bw := bufio.NewWriter(w)
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			if c > 0 && !color {
				bw.WriteByte(' ')
			}
			o := s.owner(r, c)
			ch := byte('.')
			if o != Empty {
				ch = byte('0' + o)
				if r == barnRow[o] && c == barnCol[o] {
					ch = byte('A' + o)
				}
			}
			switch {
			case !color:
				bw.WriteByte(ch)
			case o == Empty:
				bw.WriteString(". ")
			default: // a two-character coloured block per cell
				bw.WriteString(seatColor[o])
				bw.WriteByte(ch)
				bw.WriteString(" \x1b[0m")
			}
		}
		bw.WriteByte('\n')
	}
	fmt.Fprintf(bw, "round %d/%d", s.round, MaxRounds)
	for seat := 0; seat < Seats; seat++ {
		if s.Alive(seat) {
			fmt.Fprintf(bw, "  %d:%d", seat, s.Territory(seat))
		} else {
			fmt.Fprintf(bw, "  %d:out(R%d)", seat, s.elim[seat])
		}
	}
	if s.Done() {
		bw.WriteString("  done")
	}
	bw.WriteByte('\n')
	bw.Flush()
}
