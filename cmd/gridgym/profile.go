package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// cpuProfile is the file --cpuprofile names (empty: no profile), and
// stopProfile ends the profile main started, once the command is done.
var (
	cpuProfile  string
	stopProfile = func() {}
)

// addProfileFlag adds --cpuprofile to every command: a CPU profile of the
// whole command for `go tool pprof`, so a user who finds a run slow on
// their machine can see where its time goes (the learner's serial parts
// on many cores, issue 55) without building a test binary.
func addProfileFlag(root *cobra.Command) {
	root.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the command to this file (read it with 'go tool pprof FILE')")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if cpuProfile == "" {
			return nil
		}
		f, err := os.Create(cpuProfile)
		if err != nil {
			return usagef("--cpuprofile: %v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		stopProfile = func() {
			stopProfile = func() {}
			pprof.StopCPUProfile()
			if err := f.Close(); err != nil {
				fmt.Fprintf(os.Stderr, "gridgym: --cpuprofile: %v\n", err)
			}
		}
		return nil
	}
}
