package risingtidebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

func init() {
	agents.Register(game, "solo_stockholm", "siege_sofia that does not gang up: its wall first, then sapper_seoul's digs, but never at a rival settlement another seat is digging at (its flood time fell in the last 30 rounds without a dig of solo_stockholm's)",
		func() agents.Agent { return &SoloStockholm{} })
	// The strongest scripted bots (reports/rising-tide/siege: the two best means alone).
	agents.RegisterReference(game, "siege_sofia", "solo_stockholm")
	// The field: the sample bots beside which the official runs of issue 54 seated an entry.
	agents.RegisterField(game, "trench_tunis", "nearby_new_orleans")
}

// soloHold is how many rounds solo_stockholm leaves a rival alone after
// another seat dug at it.
const soloHold = 30

// SoloStockholm is siege_sofia (wall_warsaw's two rings and repairs
// first, then sapper_seoul's digs at the rival that would flood first)
// with one rule more: it does not join an attack in progress. A rival
// settlement whose flood time (the water's quickest way in, nobody
// moving) fell since the last round, when solo_stockholm did not dig at
// it, is being dug by another seat, and solo_stockholm does not attack it
// for the next 30 rounds. siege_sofia attacks whichever rival floods
// first, so copies of it pile onto any seat a third player starts digging
// at — one repair a round against three digs — and an exploiter trained
// against three copies learns exactly that (reports/rising-tide/siege,
// "Who the exploiter drowns"). It reads only its view and allocates
// nothing after its first move.
type SoloStockholm struct {
	sapper SapperSeoul // its wall is the defence; its seat and view are solo_stockholm's
	last   [3]int      // each rival settlement's flood time at the last decision (−1: none yet)
	dug    int         // the rival (index into rivalSettlements) it dug at in its last move, −1: none
	until  [3]int      // the round from which rival k may be attacked again
}

// Reset implements agents.Agent.
func (b *SoloStockholm) Reset(st rules.State, seat int, rng *rules.RNG) {
	b.sapper.Reset(st, seat, rng)
	b.last, b.dug, b.until = [3]int{-1, -1, -1}, -1, [3]int{}
}

// Act implements agents.Agent.
func (b *SoloStockholm) Act(st rules.State) rules.Move {
	return actOn(st, b.sapper.seat, &b.sapper.view, b.Decide)
}

// Decide returns solo_stockholm's move on view v, or ok = false to pass.
// It must see every round's view (it counts the flood times' changes).
func (b *SoloStockholm) Decide(v *risingtide.SeatView) (Move, bool) {
	f := &b.sapper.flood
	f.Compute(v)
	for k, s := range rivalSettlements {
		t := f.T[s[0]][s[1]]
		if b.last[k] >= 0 && t < b.last[k] && b.dug != k {
			b.until[k] = v.Round + soloHold
		}
		b.last[k] = t
	}
	b.dug = -1
	if m, ok := b.sapper.wall.Decide(v); ok {
		return m, true
	}
	k := firstToFlood(v, f, b.until)
	if k < 0 {
		return Move{}, false
	}
	s := rivalSettlements[k]
	m, ok := b.sapper.dig(v, s[0], s[1])
	if ok {
		b.dug = k
	}
	return m, ok
}
