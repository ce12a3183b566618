// Package nuggetsbots holds scripted bots for Nuggets (rules/nuggets). No
// official sample bots were published; the generic random bot exists for
// every game. Each bot reads only its seat's competition view
// (nuggets.ViewOf) and answers in view coordinates, mapped back with
// State.Answer.
package nuggetsbots

import (
	"math"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/nuggets"
)

func init() {
	agents.Register("nuggets", "greedy",
		"one-ply greedy on nugget values: grows and repairs 3-square nuggets, splits rivals' nuggets when nothing better is open",
		func() agents.Agent { return NewGreedy() })
	agents.Register("nuggets", "greedy_tuned",
		"greedy with re-tuned weights (lighter singletons and compactness, little attack): a stronger teacher for behaviour cloning",
		func() agents.Agent { return NewGreedyTuned() })
	agents.Register("nuggets", "fortress",
		"greedy_tuned after an opening that grows one compact nugget at a time (own side-neighbours weighed 0.2) while more than 160 moves are left: +1.3 log-score a game against three greedy_tuned",
		func() agents.Agent { return NewFortress() })
	agents.Register("nuggets", "harvester",
		"fortress until 80 moves are left, then lighter compactness (0.045) and heavier singletons (0.25): new small nuggets instead of thicker ones for the rest of the game",
		func() agents.Agent { return NewHarvester() })
	// The strongest scripted bots (reports/nuggets/harvest), the acceptance tables' company.
	agents.RegisterReference("nuggets", "harvester", "fortress")
	// The field: no sample bots were published; issue 54's first table seated these.
	agents.RegisterField("nuggets", "fortress", "greedy_tuned")
}

// Greedy is the `greedy` bot. It values a nugget of size n at V(n) = ln n
// for n ≥ 2 and V(1) = Singleton (a singleton is worth something because it
// can become a pair), except on the last move, where V(1) = 0, its real
// log-score. Each square it may query (setup: the empty squares; build: the
// empty and the rivals' squares; never its own, which a query can only empty)
// scores:
//
//   - gain = V(1 + Σ a) − Σ V(a), a over the sizes of its own nuggets that
//     side-touch the square: what owning the square adds;
//   - an empty square: gain + Compact·(own side-neighbours) + Room·(empty
//     side-neighbours): compact shapes decay less (R12), and room to grow;
//   - a rival's square (build phase): 0.4·(gain + Compact·(own
//     side-neighbours) + Attack·(V(m) − Σ V(p))), its chance to recolour it
//     alone (R10) times its gain plus a share of the rival's loss, where m is
//     the size of the rival nugget holding the square and p the sizes of the
//     pieces left without it (so it attacks where it splits a nugget).
//
// It plays uniformly at random among the squares of maximal score (equal
// within 1e-9), and (0,0) if no square is a candidate. With the default weights a new singleton scores 0.25 (+room),
// singleton → pair 0.54, pair → triple 0.51, and growing a nugget of n squares
// by a square touching two of them ln(1+1/n) + 0.2, so it builds compact
// nuggets of up to about 20 squares, starts new ones when only thin growth is
// left, and first repairs nuggets that decay or a rival split (two singletons
// rejoined: 0.8).
type Greedy struct {
	nuggets.Weights // Singleton, Compact, Room, Attack (the evaluation: nuggets.Evaluate)

	// At, if set, replaces Weights: the weights for the moves left
	// (fortress: nuggets.FortressAt).
	At func(movesLeft int) nuggets.Weights

	seat int
	rng  *rules.RNG
}

// NewGreedy returns the greedy bot with its documented weights.
func NewGreedy() *Greedy {
	return &Greedy{Weights: nuggets.GreedyWeights}
}

// NewGreedyTuned returns `greedy_tuned`: Greedy with the weights that won a
// sweep over Singleton, Compact, Room and Attack, each variant playing
// greedy, random and pass (3000 games, seats rotated: 25.33 against
// greedy's 24.96, +0.36 ± 0.11). It is the teacher of Nuggets' warm start.
func NewGreedyTuned() *Greedy {
	return &Greedy{Weights: nuggets.TunedWeights}
}

// NewFortress returns `fortress`: greedy_tuned after an opening of compact
// growth (nuggets.FortressWeights' doc explains why it wins).
func NewFortress() *Greedy {
	return &Greedy{Weights: nuggets.TunedWeights, At: nuggets.FortressAt}
}

// NewHarvester returns `harvester`: fortress, then, in the last
// nuggets.HarvestLeft moves, nuggets.HarvestWeights (their doc explains
// why).
func NewHarvester() *Greedy {
	return &Greedy{Weights: nuggets.TunedWeights, At: nuggets.HarvestAt}
}

// weights returns the weights for a position with movesLeft moves left.
func (g *Greedy) weights(movesLeft int) nuggets.Weights {
	if g.At != nil {
		return g.At(movesLeft)
	}
	return g.Weights
}

// Reset implements agents.Agent.
func (g *Greedy) Reset(_ rules.State, seat int, rng *rules.RNG) { g.seat, g.rng = seat, rng }

// Act implements agents.Agent.
func (g *Greedy) Act(st rules.State) rules.Move {
	s, ok := st.(*nuggets.State)
	if !ok {
		return rules.Move{}
	}
	v := nuggets.ViewOf(s, g.seat)
	x, y := g.Decide(&v, g.rng)
	return s.Answer(x, y)
}

// Decide returns the square (x, y) the bot queries in view v (view
// coordinates, which for Nuggets are the real ones), drawing ties from rng:
// nuggets.Evaluate's scores, visited in square order, where a score more
// than Tie above the best so far starts a new set of ties.
func (g *Greedy) Decide(v *nuggets.View, rng *rules.RNG) (x, y int) {
	var scores [nuggets.Cells]float64
	nuggets.Evaluate(v, g.weights(v.TotalMoves-v.MoveNum), &scores)
	c := decide(&scores, rng)
	return c % nuggets.Size, c / nuggets.Size
}

// decide returns the square (index y·Size + x) of highest score, drawing
// ties from rng (Decide), and 0, the square (0,0), if none may be queried.
func decide(scores *[nuggets.Cells]float64, rng *rules.RNG) int {
	best, ties, pick := math.Inf(-1), 0, 0
	for c, score := range scores {
		if math.IsInf(score, -1) {
			continue
		}
		switch {
		case score > best+nuggets.Tie:
			best, ties, pick = score, 1, c
		case score >= best-nuggets.Tie:
			ties++
			if rng.U(ties) == 0 {
				pick = c
			}
		}
	}
	return pick
}

// Rank implements agents.Ranker, so that a search can take the bot's best
// squares as its candidates (search:greedy_tuned:top=K): the square Act
// would query (the same draw from the bot's generator), then the squares of
// the next highest scores, at most k in all. Among equal scores each next
// square is drawn uniformly from the bot's generator, as Act draws its own:
// taking them in square order instead biases a search's departures towards
// the board's top rows, which alone costs 0.33 log-score a game against three
// greedy_tuned (reports/search/nuggets-ties). It allocates only when dst is
// too short.
func (g *Greedy) Rank(st rules.State, k int, dst []rules.Move) []rules.Move {
	s, ok := st.(*nuggets.State)
	if !ok || k < 1 {
		return dst
	}
	v := nuggets.ViewOf(s, g.seat)
	var scores [nuggets.Cells]float64
	nuggets.Evaluate(&v, g.weights(v.TotalMoves-v.MoveNum), &scores)
	c := decide(&scores, g.rng)
	dst = append(dst, s.Answer(c%nuggets.Size, c/nuggets.Size))
	if math.IsInf(scores[c], -1) {
		return dst // no square may be queried: (0,0) alone
	}
	scores[c] = math.Inf(-1)
	for len(dst) < k {
		// the next best: drawn like Act's square, uniformly among the
		// remaining squares within Tie of the highest remaining score
		at := decide(&scores, g.rng)
		if math.IsInf(scores[at], -1) {
			break
		}
		dst = append(dst, s.Answer(at%nuggets.Size, at/nuggets.Size))
		scores[at] = math.Inf(-1)
	}
	return dst
}

// EvalScale is the standing margin, in log-score units, that Evaluate maps
// to tanh(1) ≈ 0.76.
const EvalScale = 4

// Evaluate implements agents.Evaluator, so that a search can score the
// leaves of short rollouts with the bot's own evaluation
// (search:…:value=greedy_tuned): tanh((S(seat) − mean S(others)) /
// EvalScale), where S is a seat's standing under the bot's weights
// (nuggets.State.Standing: the log-score with a singleton worth Singleton
// before the last move, plus the Compact and Room terms summed over the
// board). Nuggets ranks bots by their own log-scores (R16), so the margin
// is over the others' mean, not over the best of them. A state of another
// game scores 0.
func (g *Greedy) Evaluate(st rules.State, seat int) float64 {
	s, ok := st.(*nuggets.State)
	if !ok {
		return 0
	}
	own, others := 0.0, 0.0
	w := g.weights(s.TotalMoves() - s.MoveNum())
	for o := 0; o < nuggets.Seats; o++ {
		if h := s.Standing(o, w); o == seat {
			own = h
		} else {
			others += h
		}
	}
	return math.Tanh((own - others/(nuggets.Seats-1)) / EvalScale)
}
