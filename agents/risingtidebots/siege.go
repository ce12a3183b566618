package risingtidebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

func init() {
	agents.Register(game, "siege_sofia", "defender then attacker: wall_warsaw's two rings of 8s and their repairs first; once both stand, sapper_seoul's digs at the rival that would flood first",
		func() agents.Agent { return &SiegeSofia{} })
}

// SiegeSofia composes the project's two Rising Tide bots in order of
// need: each round wall_warsaw's move if it has one (the settlement's 8
// neighbours and the 16 cells round them raised to 8, anything dug
// repaired), else sapper_seoul's (the bottleneck of the water's quickest
// way into the rival settlement that would flood first, dug). A seat that
// only defends is safe only while the attackers at the table find another
// seat more exposed; one that only attacks leaves its own wall to them.
// The first is wall_warsaw, the second sapper_seoul; SiegeSofia does the
// first and spends what it leaves over on the second. It reads only its
// view and allocates nothing after its first move.
type SiegeSofia struct {
	sapper SapperSeoul // its wall is the defence; its seat and view are siege_sofia's
}

// Reset implements agents.Agent.
func (b *SiegeSofia) Reset(st rules.State, seat int, rng *rules.RNG) { b.sapper.Reset(st, seat, rng) }

// Act implements agents.Agent.
func (b *SiegeSofia) Act(st rules.State) rules.Move {
	return actOn(st, b.sapper.seat, &b.sapper.view, b.Decide)
}

// Decide returns siege_sofia's move on view v, or ok = false to pass.
func (b *SiegeSofia) Decide(v *risingtide.SeatView) (Move, bool) {
	if m, ok := b.sapper.wall.Decide(v); ok {
		return m, true
	}
	return b.sapper.Decide(v)
}
