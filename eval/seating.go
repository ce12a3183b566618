package eval

import (
	"fmt"
	"strings"
)

// Seating is each bot's mean competition score (ScoreOf) by where its seat
// sits after another bot's: Mean[b][a][k-1] is bot b's mean over the games
// in which its seat is k places after bot a's in seat order (wrapping),
// Games[b][a][k-1] how many. In games of three or more seats whoever an
// attacker or a racer plays against often depends on the seating alone —
// the seat after it, the one across the board — and a bot level with
// another overall can be first in two seatings and last in the third; this
// shows which. Only games in which both bots hold one seat each count.
type Seating struct {
	Names []string
	Seats int
	Mean  [][][]float64
	Games [][][]int
}

// ComputeSeating tallies r's games into a Seating (nil for fewer than 3
// seats or 2 bots).
func ComputeSeating(r *Result) *Seating {
	names, _ := agentsOf(r)
	seats := r.Spec.Seats
	if seats < 3 || len(names) < 2 {
		return nil
	}
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	s := &Seating{Names: names, Seats: seats}
	s.Mean, s.Games = make([][][]float64, len(names)), make([][][]int, len(names))
	for b := range names {
		s.Mean[b], s.Games[b] = make([][]float64, len(names)), make([][]int, len(names))
		for a := range names {
			s.Mean[b][a], s.Games[b][a] = make([]float64, seats-1), make([]int, seats-1)
		}
	}
	held := make([]int, len(names))
	for _, g := range r.Games {
		if g.Outcome == nil || len(g.Lineup) != seats {
			continue
		}
		sc := ScoreOf(r.Spec, g.Outcome)
		clear(held)
		for _, k := range g.Lineup {
			held[index[r.Config.Bots[k]]]++
		}
		for sa, ka := range g.Lineup {
			a := index[r.Config.Bots[ka]]
			for sb, kb := range g.Lineup {
				b := index[r.Config.Bots[kb]]
				if a == b || held[a] != 1 || held[b] != 1 {
					continue
				}
				k := (sb - sa + seats) % seats
				s.Mean[b][a][k-1] += sc[sb] // a sum until the division below
				s.Games[b][a][k-1]++
			}
		}
	}
	for b := range names {
		for a := range names {
			for k, n := range s.Games[b][a] {
				if n > 0 {
					s.Mean[b][a][k] /= float64(n)
				}
			}
		}
	}
	return s
}

// seatingTable renders s: a row a bot, a column the bot its seat follows,
// each cell its mean score 1, 2, … places after that bot's seat.
func seatingTable(r *Result, s *Seating) (table, string) {
	if s == nil {
		return table{}, ""
	}
	t := table{Head: []string{"bot \\ seated after"}, Right: []bool{false}}
	for _, n := range s.Names {
		t.Head = append(t.Head, n)
		t.Right = append(t.Right, true)
	}
	for b, n := range s.Names {
		row := []string{n}
		for a := range s.Names {
			if a == b {
				row = append(row, "–")
				continue
			}
			cells := make([]string, s.Seats-1)
			for k, g := range s.Games[b][a] {
				cells[k] = "·"
				if g > 0 {
					cells[k] = fmt.Sprintf("%.4g", s.Mean[b][a][k])
				}
			}
			row = append(row, strings.Join(cells, " / "))
		}
		t.Rows = append(t.Rows, row)
	}
	note := fmt.Sprintf("The row bot's mean %s by where its seat sits after the column bot's, in seat order: 1 / 2 / … places after "+
		"(the last is the seat just before it); · no such game. Only games that seat each of the two once count. "+
		"Two bots level overall can be far apart here: who an attacker digs at or a racer cuts off often depends on the seating alone.",
		ScoreName(r.Spec))
	return t, note
}
