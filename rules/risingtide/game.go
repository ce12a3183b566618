package risingtide

import (
	"bytes"
	"fmt"
	"io"
)

// ANSI colours of the seats' settlements (background), and of water.
var seatColor = [Seats]string{"\x1b[41;97m", "\x1b[42;97m", "\x1b[43;30m", "\x1b[45;97m"}

const (
	ansiWater = "\x1b[44;97m"
	ansiLow   = "\x1b[36m" // land below the water level: floods once wet
	ansiReset = "\x1b[0m"
)

// Render implements rules.State: one line per row, a digit per land cell, '~'
// for water, the letters A–D for the settlements of seats 0–3, then a status
// line with the round, the water level, the alive seats and the scores.
func (s *State) Render(w io.Writer, color bool) {
	var b bytes.Buffer
	level := 0 // heights ≤ level-1 are below water in the next round r: 100·h < r
	if s.round >= 1 {
		level = (s.round-1)/100 + 1
	}
	for i := 0; i < Size; i++ {
		for j := 0; j < Size; j++ {
			c := i*Size + j
			v := s.h[c]
			ch, col := byte('0'+v), ""
			switch {
			case v == Flooded:
				ch, col = '~', ansiWater
			case isSettle[c]:
				for seat, sc := range settleCell {
					if sc == c {
						ch, col = byte('A'+seat), seatColor[seat]
					}
				}
			case int(v) < level:
				col = ansiLow
			}
			if color && col != "" {
				b.WriteString(col)
				b.WriteByte(ch)
				b.WriteString(ansiReset)
			} else {
				b.WriteByte(ch)
			}
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "round %d water %d.%02d alive", s.round, s.round/100, s.round%100)
	for seat := range Seats {
		if s.Alive(seat) {
			fmt.Fprintf(&b, " %c", 'A'+seat)
		}
	}
	b.WriteString(" score")
	for seat := range Seats {
		fmt.Fprintf(&b, " %d", s.Score(seat))
	}
	if s.Done() {
		b.WriteString(" (game over)")
	}
	b.WriteByte('\n')
	w.Write(b.Bytes())
}
