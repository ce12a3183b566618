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
	agents.RegisterHeldOut(bovine.Name, "warden_wanda",
		"held out: a fortress keeper; reads its region's articulation points and the rivals' reach, rejoins cut-off cows, guards exposed cut points, fills cells a rival could take next, claims the contested boundary thick",
		func() agents.Agent { return &WardenWanda{} })
	agents.RegisterHeldOut(bovine.Name, "fence_fiona",
		"held out: an enclosure planner; captures the rival cows whose loss cuts the most of their region off its barn, and the ones that threaten to cut hers, grows thick; never raids",
		func() agents.Agent { return &FenceFiona{} })
	agents.RegisterHeldOut(bovine.Name, "lookahead_lena",
		"held out: a one-step simulator; plays each of its moves on a copy of the game with the engine and keeps the best position (own and connected cows, rivals' cows, eliminations, barn safety)",
		func() agents.Agent { return &LookaheadLena{} })
}
