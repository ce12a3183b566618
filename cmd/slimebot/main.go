// Command slimebot is the runner of exported Slime bots: `gridgym export`
// builds it small (no training or plotting code, so it starts in a few
// milliseconds — R16 counts start-up in the 0.1 s per turn) and appends the
// network's weights. Run with the competition's single argument
// `P,row0,...`, it prints `r1 c1 r2 c2`. It links Slime's rules (the
// game's registration declares this package as its runner,
// rules.Export.Runner) and Slime's scripted bots, the priors and rollout
// policies of a search baked in with `gridgym export --search`.
package main

import (
	"fmt"
	"os"

	// The one game this runner answers for: its scripted bots (a baked-in
	// search's prior and rollouts, greedy …), which link its rules.
	_ "github.com/gridgym/gridgym/agents/slimebots"
	"github.com/gridgym/gridgym/export"
)

func main() {
	if !export.RunEmbedded(os.Args[1:], os.Stdout, os.Stderr) {
		fmt.Fprintln(os.Stderr, "slimebot: no weights appended; make a bot with `gridgym export --checkpoint RUN --out DIR`")
		os.Exit(2)
	}
}
