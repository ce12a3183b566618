package eval

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gridgym/gridgym/rules"
)

var aggregateNames = map[rules.Aggregate]string{rules.MeanScore: "mean", rules.SumScore: "sum", rules.MeanPoints: "mean"}

// WriteTable prints the tournament table: bots ordered by the game's
// tournament score, with mean score and points (± 95% interval), win share and
// the rank distribution.
func WriteTable(w io.Writer, r *Result) error {
	fmt.Fprintf(w, "%s: %d games, %d seats, %s; tournament score = %s of %s\n",
		r.Spec.Game, len(r.Games), r.Spec.Seats, seatingWords(r.Config), aggregateNames[r.Spec.Tournament], scoreOrPoints(r))
	if err := writeTextTable(w, standingsTable(r, "")); err != nil {
		return err
	}
	for _, line := range searchLines(r) {
		fmt.Fprintln(w, line)
	}
	if n := len(Seatings(r.Config, r.Spec.Seats)); !r.Config.Recorded && len(r.Games)%n != 0 {
		fmt.Fprintf(w, "note: %d games is not a multiple of the %d seatings, so bots played unequal numbers of games; use --games %d for a balanced schedule\n",
			len(r.Games), n, (len(r.Games)/n+1)*n)
	}
	return nil
}

// WriteRatings prints the Plackett–Luce ratings with their bootstrap
// intervals, highest first, and the rating gap of every bot over every bot
// rated below it with the gap's own interval (Ratings.GapLo, GapHi).
func WriteRatings(w io.Writer, rt Ratings) error {
	fmt.Fprintf(w, "\nPlackett–Luce ratings (%d bootstrap resamples):\n", rt.Resamples)
	t, _ := ratingsTable(rt)
	if err := writeTextTable(w, t); err != nil {
		return err
	}
	if rt.GapLo == nil {
		return nil
	}
	fmt.Fprintf(w, "\nrating gaps, row bot minus column bot (%.0f%% bootstrap interval of the difference):\n", 100*rt.Level)
	g, _ := gapTable(rt)
	return writeTextTable(w, g)
}

// writeTextTable prints t aligned in columns.
func writeTextTable(w io.Writer, t table) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	for _, row := range append([][]string{t.Head}, t.Rows...) {
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}

// scoreOrPoints is ScoreName for the report's headings, with the
// placement points' scale spelled out.
func scoreOrPoints(r *Result) string {
	if r.Spec.Tournament == rules.MeanPoints {
		return ScoreName(r.Spec) + " (3/2/1/0, ties share)"
	}
	return ScoreName(r.Spec)
}

func ordinal(k int) string {
	switch k {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", k)
}

// searchLines says, for every search bot, how often it played a move other
// than its prior bot's and how much it searched: a search that departs
// from its prior in none of its moves plays the prior, whatever its
// settings.
func searchLines(r *Result) []string {
	var out []string
	for _, b := range r.Bots {
		c := b.Search
		if c.Searched == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("search %s: %d moves searched, %d (%.1f%%) not its prior's move, %.0f simulations a move",
			b.Name, c.Searched, c.Departed, 100*float64(c.Departed)/float64(c.Searched), float64(c.Simulations)/float64(c.Searched)))
	}
	return out
}
