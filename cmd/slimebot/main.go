// Command slimebot is the runner of exported Slime bots: `gridgym export`
// builds it small (no training or plotting code, so it starts in a few
// milliseconds — R16 counts start-up in the 0.1 s per turn) and appends the
// network's weights. Run with the competition's single argument
// `P,row0,...`, it prints `r1 c1 r2 c2`. It links Slime's rules only (the
// game's registration declares this package as its runner,
// rules.Export.Runner).
package main

import (
	"fmt"
	"os"

	"github.com/gridgym/gridgym/export"
	_ "github.com/gridgym/gridgym/rules/slime" // the one game this runner answers for
)

func main() {
	if !export.RunEmbedded(os.Args[1:], os.Stdout, os.Stderr) {
		fmt.Fprintln(os.Stderr, "slimebot: no weights appended; make a bot with `gridgym export --checkpoint RUN --out DIR`")
		os.Exit(2)
	}
}
