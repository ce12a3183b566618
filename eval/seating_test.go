package eval

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// seatedGames is a four-seat tournament of bots a, b, c, d in every
// seating order where d scores 0 in the seat just after a's and 10
// elsewhere, the others 5; plus one game seating a twice.
func seatedGames() *Result {
	r := &Result{
		Spec:   rules.Spec{Game: "synthetic", Seats: 4, ScoreName: "rounds", Tournament: rules.MeanScore},
		Config: Config{Bots: []string{"a", "b", "c", "d"}},
	}
	add := func(lineup []int) {
		score := make([]float64, len(lineup))
		for s, k := range lineup {
			score[s] = 5
			if k == 3 {
				score[s] = 10
				if lineup[(s+3)%4] == 0 {
					score[s] = 0
				}
			}
		}
		r.Games = append(r.Games, GameResult{Index: len(r.Games), Lineup: lineup, Outcome: &rules.Outcome{Score: score, Points: make([]float64, 4), Win: make([]float64, 4)}, Errors: make([]int, 4)})
	}
	for p := range 256 {
		l := []int{p & 3, p >> 2 & 3, p >> 4 & 3, p >> 6}
		if slices.Contains(l[1:], l[0]) || slices.Contains(l[2:], l[1]) || l[2] == l[3] {
			continue // not a permutation
		}
		add(l)
	}
	add([]int{0, 0, 1, 2})
	r.Config.Games = len(r.Games)
	return r
}

// ComputeSeating splits each bot's score by its seat's place after each
// other bot's: d's 0 just after a shows in that cell alone; a game that
// seats a twice counts only for the pairs it seats once; the report shows
// the table, and a two-seat tournament has none.
func TestSeating(t *testing.T) {
	r := seatedGames()
	s := ComputeSeating(r)
	if s == nil || !slices.Equal(s.Names, []string{"a", "b", "c", "d"}) {
		t.Fatalf("seating %+v", s)
	}
	if got := s.Mean[3][0]; !slices.Equal(got, []float64{0, 10, 10}) || !slices.Equal(s.Games[3][0], []int{8, 8, 8}) {
		t.Errorf("d after a: means %v over %v games, want 0 / 10 / 10 over 8 each", got, s.Games[3][0])
	}
	if got := s.Mean[0][3]; !slices.Equal(got, []float64{5, 5, 5}) {
		t.Errorf("a after d: %v, want 5 each", got)
	}
	if got := s.Games[2][1]; got[0]+got[1]+got[2] != 25 {
		t.Errorf("c after b: %v games, want the 24 orders and the game seating a twice", got)
	}
	if got := s.Games[1][0]; got[0]+got[1]+got[2] != 24 {
		t.Errorf("b after a: %v games, want the 24 orders only", got)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r, Ratings{}, ComputePairwise(r)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "## Score by seating") || !strings.Contains(md.String(), "| d | 0 / 10 / 10 | 10 / 5 / 5 | 10 / 5 / 5 | – |") {
		t.Errorf("the report's seating table:\n%s", md.String())
	}
	r.Spec.Seats = 2
	if ComputeSeating(r) != nil {
		t.Error("a two-seat tournament has a seating table")
	}
}
