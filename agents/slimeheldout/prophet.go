package slimeheldout

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

func init() {
	agents.RegisterHeldOut(slime.Name, "prophet",
		"held out: a round simulator; plays each of its moves on a copy, lets the three rivals answer in turn order with the move that gains each the most cells, and keeps the move best after that round (own cells, less half the largest rival's, less half its cells still exposed to a spread or jump); ties at random",
		func() agents.Agent { return &Prophet{} })
}

// Prophet's weights, in eighths of a cell.
const (
	prophetOwn     = 8
	prophetTop     = 4
	prophetExposed = 4
)

// Prophet is a round simulator. For the pass and each valid move it plays
// the move on a copy of its view, then lets each rival in turn order (R4)
// play the move that gains that rival the most cells (pos.reply; ties to
// the one taking the most of Prophet's), stopping when the board fills
// (R5), and scores the result
//
//	8 · own cells − 4 · the largest rival's − 4 · exposed
//
// exposed counts its cells in the block of an empty cell within distance 2
// of a rival (pos.exposed): what the next round could convert.
// Ties are drawn uniformly from its generator.
type Prophet struct{ core }

// Reset implements agents.Agent.
func (b *Prophet) Reset(_ rules.State, seat int, rng *rules.RNG) { b.reset(seat, rng) }

// Act implements agents.Agent.
func (b *Prophet) Act(st rules.State) rules.Move {
	s := st.(*slime.State)
	p, me := b.read(s)
	return b.decide(s, p, me, func(after *pos, _, _ uint, _ bool) int {
		q := *after
		for k := 1; k < 4; k++ {
			r := (me + k) & 3
			if q.empty() == 0 {
				break
			}
			if src, tgt, _, ok := q.reply(r, me); ok {
				q.play(r, src, tgt)
			}
		}
		return prophetOwn*pop(q.c[me]) - prophetTop*q.top(me) - prophetExposed*q.exposed(me)
	})
}
