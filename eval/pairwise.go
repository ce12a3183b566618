package eval

import (
	"math"

	"github.com/gridgym/gridgym/stats"
)

// Pair is one agent's head-to-head record against another.
type Pair struct {
	// Games counts the games in which both agents played.
	Games int
	// Score counts the games the first agent finished ahead of the second
	// (more placement points), ties counting ½. When an agent held several
	// seats of a game, the game counts the mean over the seat pairs, so Score
	// may be fractional beyond halves.
	Score float64
	// Rate is Score/Games (NaN without games).
	Rate float64
	// Lo and Hi bound the 95% Wilson interval of Rate.
	Lo, Hi float64
}

// Pairwise holds the head-to-head records of every pair of agents: a
// model-free check of the ratings, and the direct answer to "does A finish
// ahead of B more often than not".
type Pairwise struct {
	Names []string // the agents, in the order of Result.Bots
	// Pairs[a][b] is a's record against b; the diagonal is empty.
	Pairs [][]Pair
}

// ComputePairwise tallies, for every ordered pair of distinct agents, the
// share of their common games in which the first finished ahead of the second,
// with Wilson 95% intervals.
func ComputePairwise(r *Result) Pairwise {
	names, of := agentsOf(r)
	n := len(names)
	pw := Pairwise{Names: names, Pairs: make([][]Pair, n)}
	for a := range pw.Pairs {
		pw.Pairs[a] = make([]Pair, n)
	}
	ahead := make([]float64, n*n) // this game's seat-pair comparisons a ahead of b
	cmp := make([]float64, n*n)   // this game's seat-pair comparisons between a and b
	for _, g := range r.Games {
		if g.Outcome == nil {
			continue
		}
		clear(ahead)
		clear(cmp)
		for s, bs := range g.Lineup {
			for t, bt := range g.Lineup {
				a, b := of[bs], of[bt]
				if a == b {
					continue
				}
				cmp[a*n+b]++
				switch ps, pt := g.Outcome.Points[s], g.Outcome.Points[t]; {
				case ps > pt:
					ahead[a*n+b]++
				case ps == pt:
					ahead[a*n+b] += 0.5
				}
			}
		}
		for k, c := range cmp {
			if c > 0 {
				p := &pw.Pairs[k/n][k%n]
				p.Games++
				p.Score += ahead[k] / c
			}
		}
	}
	for a := range pw.Pairs {
		for b := range pw.Pairs[a] {
			p := &pw.Pairs[a][b]
			p.Rate = math.NaN()
			if p.Games > 0 {
				p.Rate = p.Score / float64(p.Games)
			}
			p.Lo, p.Hi = stats.Wilson(p.Score, float64(p.Games))
		}
	}
	return pw
}
