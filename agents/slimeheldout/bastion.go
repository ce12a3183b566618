package slimeheldout

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

func init() {
	agents.RegisterHeldOut(slime.Name, "bastion",
		"held out: a compact-territory builder; maximises own cells less the own cells lying in the block of an empty cell some rival can reach (all of them, not one rival's best capture) and less its open frontier, so it fills its holes and grows in lumps; ties at random",
		func() agents.Agent { return &Bastion{} })
}

// Bastion's weights, in eighths of a cell.
const (
	bastionOwn      = 8
	bastionExposed  = 5
	bastionFrontier = 1
	bastionTop      = 2
)

// Bastion is a compact-territory builder. It scores the pass and each valid
// move by the position right after it:
//
//	8 · own cells − 3 · exposed − 1 · frontier − 2 · the largest rival's
//
// exposed counts its cells in the block of any empty cell within distance 2
// of any rival (every cell some spread or jump could convert, R9–R10);
// frontier counts the empty cells next to its slime. So it prefers the
// spread into its own holes and the merge that fills them, and a capture
// only when what it gains outweighs the wall it opens. Ties are drawn
// uniformly from its generator.
type Bastion struct{ core }

// Reset implements agents.Agent.
func (b *Bastion) Reset(_ rules.State, seat int, rng *rules.RNG) { b.reset(seat, rng) }

// Act implements agents.Agent.
func (b *Bastion) Act(st rules.State) rules.Move {
	s := st.(*slime.State)
	p, me := b.read(s)
	return b.decide(s, p, me, func(q *pos, _, _ uint, _ bool) int {
		own := q.c[me]
		empty := q.empty()
		reach := uint64(0)
		for r := range q.c {
			if r != me {
				reach |= dilate(dilate(q.c[r]))
			}
		}
		exposed := pop(own & dilate(reach&empty))
		frontier := pop(dilate(own) & empty)
		return bastionOwn*pop(own) - bastionExposed*exposed - bastionFrontier*frontier - bastionTop*q.top(me)
	})
}
