// Package bovineheldout holds held-out Bovine Borders bots (issue 54): a test
// set of hand-written opponents, registered with agents.RegisterHeldOut, that
// no training may ever see. Each reads its seat's view as a competition bot
// does (bovine.View), answers full side-adjacent moves only (valid under both
// rule sets, R7) and draws its ties from its own seeded generator.
package bovineheldout

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules/bovine"
)

func init() {
	agents.RegisterHeldOut(bovine.Name, "raider_rhea",
		"held out: a barn hunter; takes the first step of the cheapest corridor (own 0, empty 1, rival 2) to a rival barn, farms near its barn when none is cheap",
		func() agents.Agent { return &RaiderRhea{} })
	agents.RegisterHeldOut(bovine.Name, "fence_fiona",
		"held out: an enclosure planner; captures the rival cows whose loss cuts the most of their region off its barn, and the ones that threaten to cut hers, grows thick; never raids",
		func() agents.Agent { return &FenceFiona{} })
	agents.RegisterHeldOut(bovine.Name, "lookahead_lena",
		"held out: a one-step simulator; plays each of its moves on a copy of the game with the engine and keeps the best position (own and connected cows, rivals' cows, eliminations, barn safety)",
		func() agents.Agent { return &LookaheadLena{} })
}
