package eval

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
)

var aggregateNames = map[rules.Aggregate]string{rules.MeanScore: "mean", rules.SumScore: "sum", rules.MeanPoints: "mean"}

// WriteTable prints the tournament table: bots ordered by the game's
// tournament score, with mean score and points (± 95% interval), win share and
// the rank distribution.
func WriteTable(w io.Writer, r *Result) error {
	order := make([]int, len(r.Bots))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return r.Bots[order[a]].Score > r.Bots[order[b]].Score })
	fmt.Fprintf(w, "%s: %d games, %d seats, seats rotated; tournament score = %s of %s\n",
		r.Spec.Game, len(r.Games), r.Spec.Seats, aggregateNames[r.Spec.Tournament], scoreOrPoints(r))
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	pointsOnly := r.Spec.Tournament == rules.MeanPoints
	head := []string{"#", "bot", "games", "tournament", "mean " + r.Spec.ScoreName, "mean points", "win share"}
	if pointsOnly {
		head = []string{"#", "bot", "games", "mean points", "win share"}
	}
	for k := 1; k <= r.Spec.Seats; k++ {
		head = append(head, ordinal(k))
	}
	if anyErrors(r) {
		head = append(head, "errors")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for rank, i := range order {
		b := r.Bots[i]
		row := []string{fmt.Sprint(rank + 1), b.Name, fmt.Sprint(b.Games)}
		if !pointsOnly {
			row = append(row, fmt.Sprintf("%.3f", b.Score), fmt.Sprintf("%.2f ± %.2f", b.MeanScore, b.ScoreCI))
		}
		row = append(row, fmt.Sprintf("%.3f ± %.3f", b.MeanPoints, b.PointsCI), fmt.Sprintf("%.3f", b.WinShare))
		for _, n := range b.Ranks {
			pct := 0.0
			if b.Games > 0 {
				pct = 100 * float64(n) / float64(b.Games)
			}
			row = append(row, fmt.Sprintf("%.0f%%", pct))
		}
		if anyErrors(r) {
			row = append(row, fmt.Sprint(b.Errors))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if n := len(agents.Lineups(len(r.Config.Bots), r.Spec.Seats)); len(r.Games)%n != 0 {
		fmt.Fprintf(w, "note: %d games is not a multiple of the %d seatings, so bots played unequal numbers of games; use --games %d for a balanced schedule\n",
			len(r.Games), n, (len(r.Games)/n+1)*n)
	}
	return nil
}

func scoreOrPoints(r *Result) string {
	if r.Spec.Tournament == rules.MeanPoints {
		return "placement points (3/2/1/0, ties share)"
	}
	return r.Spec.ScoreName
}

func anyErrors(r *Result) bool {
	for _, b := range r.Bots {
		if b.Errors > 0 {
			return true
		}
	}
	return false
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
