// Command gridgym trains, exports and evaluates bots for grid territory
// competitions. It is thin: flags in, library calls out.
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents/host"
	"github.com/gridgym/gridgym/agents/neural"
	_ "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/internal/inputfile"
)

// usageError marks errors in the user's input: exit status 2.
type usageError struct{ error }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func main() {
	root := newRoot()
	err := root.Execute()
	stopProfile()  // --cpuprofile
	host.KillAll() // hosted bots (py:, cmd:) run in their own process groups
	removeTemps()  // downloaded inputs, staged outputs
	if err != nil {
		fmt.Fprintf(os.Stderr, "gridgym: %v\n", err)
		os.Exit(exitStatus(err))
	}
}

// exitStatus is the status gridgym exits with after err, the same from
// every command: 2 for bad input (a usage error, a flag or argument cobra
// refused, a file that does not exist, a weights file that is truncated or
// corrupt, an input that is not a regular file or is too large, wherever
// it was read), 1 for any other failure.
func exitStatus(err error) int {
	var ue usageError
	var ce *neural.CorruptError
	if errors.As(err, &ue) || isFlagError(err) || errors.Is(err, fs.ErrNotExist) || errors.As(err, &ce) || inputfile.Is(err) {
		return 2
	}
	return 1
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "gridgym",
		Short: "Train, export and evaluate bots for grid territory competitions",
		Long: `gridgym plays five grid territory games exactly as their competitions do
(Nuggets, Rising Tide, Rectangle, Bovine Borders, Slime), runs the official
sample bots, and measures bots against each other.

Start with 'gridgym games' to see the games, their parameters and bots.`,
		Example: `  gridgym games
  gridgym play --game slime --bots simplebot,random --render
  gridgym pipeline --game slime --minutes 4
  gridgym export --checkpoint runs/pipeline-slime-20261123-120000/run --out bots/slime`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	addBotLimitFlags(root)
	addProfileFlag(root)
	root.AddCommand(newGamesCmd(), newPlayCmd(), newTournamentCmd(), newReplayCmd(), newBenchCmd(), newSelfplayCmd(), newDatasetsCmd(), newTrainCmd(), newExportCmd(), newPipelineCmd(), newNewBotCmd(), newRateCmd(), newExploitCmd(), newLeagueCmd(), newWeightsCmd(), newHeldoutCmd())
	addBotSpecsHelp(root)
	return root
}

func isFlagError(err error) bool {
	// cobra reports unknown commands and bad arguments as plain errors.
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "invalid argument", "accepts ", "requires "} {
		if strings.Contains(err.Error(), p) {
			return true
		}
	}
	return false
}
