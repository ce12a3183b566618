package eval

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/stats"
)

// Margin is one bot's per-game margin over another: in every game that
// seats both, A's score less B's (each the mean over the seats it holds),
// averaged over those games with its 95% normal interval. It is the figure
// the strength acceptance asks for ("the interval of the per-game margin
// above 0"): the two bots' scores in one game share its seating, its draws
// and its other bots, so their difference is far less noisy than the
// difference of their mean scores.
type Margin struct {
	A, B   string  // the two bots' labels
	Score  string  // what is compared: the tournament score's name, or "placement points"
	Games  int     // games that seat both
	MeanA  float64 // A's mean score over those games
	MeanB  float64 // B's
	Mean   float64 // mean per-game margin A − B (MeanA − MeanB)
	Lo, Hi float64 // its 95% interval
}

// ScoreOf returns the scores of a finished game by seat as the game's
// tournament ranks bots: the competition score, or the placement points
// where the tournament is mean points (Bovine Borders'). Margins
// (PairMargin, exploit.Measure) compare bots by it.
func ScoreOf(spec rules.Spec, o *rules.Outcome) []float64 {
	if spec.Tournament == rules.MeanPoints {
		return o.Points
	}
	return o.Score
}

// ScoreName is the name of what ScoreOf returns: the game's score name, or
// "placement points".
func ScoreName(spec rules.Spec) string {
	if spec.Tournament == rules.MeanPoints {
		return "placement points"
	}
	return spec.ScoreName
}

// PairMargin computes bot a's Margin over bot b in r (a and b are labels,
// as the tables name bots). It is an error if either does not play in r or
// fewer than two games seat both.
func PairMargin(r *Result, a, b string) (Margin, error) {
	if a == b {
		return Margin{}, fmt.Errorf("margin %s − %s: two different bots, please", a, b)
	}
	names, _ := agentsOf(r)
	for _, n := range []string{a, b} {
		if !slices.Contains(names, n) {
			return Margin{}, fmt.Errorf("margin %s − %s: no bot %q in this tournament (its bots: %s)", a, b, n, strings.Join(names, ", "))
		}
	}
	m := Margin{A: a, B: b, Score: ScoreName(r.Spec)}
	var d []float64
	for _, g := range r.Games {
		if g.Outcome == nil {
			continue
		}
		sc := ScoreOf(r.Spec, g.Outcome)
		var sa, sb float64
		var na, nb int
		for s, k := range g.Lineup {
			switch r.Config.Bots[k] {
			case a:
				sa += sc[s]
				na++
			case b:
				sb += sc[s]
				nb++
			}
		}
		if na > 0 && nb > 0 {
			d = append(d, sa/float64(na)-sb/float64(nb))
			m.MeanA += sa / float64(na)
			m.MeanB += sb / float64(nb)
		}
	}
	if len(d) < 2 {
		return m, fmt.Errorf("margin %s − %s: %d games seat both, want at least 2", a, b, len(d))
	}
	m.Games = len(d)
	m.MeanA /= float64(len(d))
	m.MeanB /= float64(len(d))
	var half float64
	m.Mean, half = stats.MeanCI(d)
	m.Lo, m.Hi = m.Mean-half, m.Mean+half
	return m, nil
}

// String is the margin in one line, as the tables print it:
// "net − surveyor: +0.74 [+0.22, +1.27] cells a game over 1440 games".
func (m Margin) String() string {
	return fmt.Sprintf("%s − %s: %+.2f [%+.2f, %+.2f] %s a game over %d games", m.A, m.B, m.Mean, m.Lo, m.Hi, m.Score, m.Games)
}

// WriteMargins prints the margins of the pairs asked for (each {A, B})
// under a heading, one line each; a pair PairMargin cannot measure (a bot
// not in r, fewer than two games seating both, as in a tournament stopped
// early) gets its reason on its line instead, so that the tables before it
// stand.
func WriteMargins(w io.Writer, r *Result, pairs [][2]string) error {
	if len(pairs) == 0 {
		return nil
	}
	if _, err := fmt.Fprintf(w, "\nper-game margins (95%% intervals):\n"); err != nil {
		return err
	}
	for _, p := range pairs {
		m, err := PairMargin(r, p[0], p[1])
		line := m.String()
		if err != nil {
			line = err.Error()
		}
		if _, err := fmt.Fprintf(w, "  %s\n", line); err != nil {
			return err
		}
	}
	return nil
}
