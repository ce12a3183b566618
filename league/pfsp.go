package league

import (
	"fmt"
	"math"
	"slices"

	"github.com/gridgym/gridgym/rules"
)

// Record is one learner's results against one opponent in the payoff
// table: Wins counts the games it finished ahead (a level finish counts
// ½; in a game of more than two seats, the share of its seat comparisons
// with the opponent's seats that it won), Games the games counted. Both
// decay (Payoff.Add), so they are reals.
type Record struct {
	Wins  float64 `json:"wins"`
	Games float64 `json:"games"`
}

// Rate is the win share the record says: Wins/Games, ½ before any game
// (an opponent never met is assumed even).
func (r Record) Rate() float64 {
	if r.Games <= 0 {
		return 0.5
	}
	return r.Wins / r.Games
}

// Payoff is the league's payoff table: Payoff[learner][opponent] is the
// learner's record against a pool member or another learner, measured in
// the league's own payoff matches. Only learners have rows: frozen members
// never change, so their results are read from the learners' side.
type Payoff map[string]map[string]Record

// Rate is learner's win share against opponent (½ if never measured).
func (p Payoff) Rate(learner, opponent string) float64 { return p[learner][opponent].Rate() }

// Add counts a payoff match of games games, wins of them won by learner,
// after weighing the earlier record by decay (0..1): a learner changes
// every round, so its older results count less (decay 1 keeps them all,
// decay 0 keeps only the newest match).
func (p Payoff) Add(learner, opponent string, wins, games, decay float64) {
	row := p[learner]
	if row == nil {
		row = map[string]Record{}
		p[learner] = row
	}
	r := row[opponent]
	row[opponent] = Record{Wins: decay*r.Wins + wins, Games: decay*r.Games + games}
}

// Forget drops a learner's row and every record against it: after a
// reset it is a new player, and its old results say nothing about it.
func (p Payoff) Forget(name string) {
	delete(p, name)
	for _, row := range p {
		delete(row, name)
	}
}

// The weightings of prioritised fictitious self-play (AlphaStar): an
// opponent the learner beats with probability x is drawn with weight f(x).
const (
	// Hard, f(x) = (1−x)^p: the opponents the learner loses to, the main
	// agents' and league exploiters' weighting over the whole pool.
	Hard = "hard"
	// Variance, f(x) = x(1−x): the opponents at its own level, neither
	// beaten nor lost to.
	Variance = "variance"
	// Uniform, f(x) = 1: fictitious self-play.
	Uniform = "uniform"
)

// hardPower is p of Hard's (1−x)^p, AlphaStar's 2.
const hardPower = 2

// pfspFloor is added to every weight so that an opponent the learner
// always beats is still drawn now and then (and its record stays
// current), as train's PFSP does.
const pfspFloor = 0.05

// Weight is PFSP's weight of an opponent the learner beats with
// probability x under weighting (Hard, Variance or Uniform), floor
// included.
func Weight(weighting string, x float64) (float64, error) {
	switch weighting {
	case Hard:
		return math.Pow(1-x, hardPower) + pfspFloor, nil
	case Variance:
		return x*(1-x) + pfspFloor, nil
	case Uniform:
		return 1, nil
	}
	return 0, fmt.Errorf("PFSP weighting %q: want %s, %s or %s", weighting, Hard, Variance, Uniform)
}

// Probabilities are PFSP's drawing probabilities of opponents for learner
// under weighting, from the payoff table; they sum to 1.
func (p Payoff) Probabilities(learner string, opponents []string, weighting string) ([]float64, error) {
	w := make([]float64, len(opponents))
	total := 0.0
	for i, o := range opponents {
		x, err := Weight(weighting, p.Rate(learner, o))
		if err != nil {
			return nil, err
		}
		w[i] = x
		total += x
	}
	for i := range w {
		w[i] /= total
	}
	return w, nil
}

// Draw draws n opponents for learner (with replacement, so an opponent may
// come several times: its share of the round's games) by PFSP's
// probabilities, and returns them sorted by name — the round's mixture.
func (p Payoff) Draw(rng *rules.RNG, learner string, opponents []string, weighting string, n int) ([]string, error) {
	if len(opponents) == 0 {
		return nil, fmt.Errorf("learner %s: no opponent to draw from", learner)
	}
	prob, err := p.Probabilities(learner, opponents, weighting)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, n)
	for range n {
		u := rng.Float64()
		k := len(opponents) - 1
		for i, q := range prob {
			if u -= q; u < 0 {
				k = i
				break
			}
		}
		out = append(out, opponents[k])
	}
	slices.Sort(out)
	return out, nil
}
