package slimeheldout

import (
	"math/bits"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

func init() {
	agents.RegisterHeldOut(slime.Name, "hunter",
		"held out: an aggressor that targets the leader; fixes the rival with the most cells before it moves and maximises own cells less that leader's, guarding against the single largest capture any rival has next and, lightly, every exposed cell; ties at random",
		func() agents.Agent { return &Hunter{} })
}

// Hunter's weights, in eighths of a cell.
const (
	hunterOwn     = 8
	hunterLeader  = 4
	hunterGuard   = 3
	hunterExposed = 3
)

// Hunter is an aggressor. Before it moves it fixes the leader, the rival
// with the most cells (ties to the one that moves soonest after it), and it
// scores the pass and each valid move by the position right after it:
//
//	8 · own cells − 4 · the leader's cells − 3 · guard − 3 · exposed
//
// guard is the most of its cells one rival converts with its next spread or
// jump, the maximum over the rivals (not their sum), and exposed its cells
// in the block of an empty cell within distance 2 of a rival (pos.exposed). So it spends its moves
// converting the leader's slime, jumping into it when a spread cannot reach.
// Ties are drawn uniformly from its generator.
type Hunter struct{ core }

// Reset implements agents.Agent.
func (b *Hunter) Reset(_ rules.State, seat int, rng *rules.RNG) { b.reset(seat, rng) }

// Act implements agents.Agent.
func (b *Hunter) Act(st rules.State) rules.Move {
	s := st.(*slime.State)
	p, me := b.read(s)
	leader, most := (me+1)&3, -1
	for k := 1; k < 4; k++ {
		r := (me + k) & 3
		if n := bits.OnesCount64(p.c[r]); n > most {
			leader, most = r, n
		}
	}
	return b.decide(s, p, me, func(q *pos, _, _ uint, _ bool) int {
		guard := 0
		for r := range q.c {
			if r != me && q.c[r] != 0 {
				guard = max(guard, q.capture(r, me))
			}
		}
		return hunterOwn*pop(q.c[me]) - hunterLeader*pop(q.c[leader]) - hunterGuard*guard - hunterExposed*q.exposed(me)
	})
}
