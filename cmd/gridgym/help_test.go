package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command's --help shows examples (issue 52, item 9); the bot specs
// are explained in the root help and in the help of the commands that take
// bots, and not in pipeline's, which takes none.
func TestHelpHasExamples(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Name() == "help" || c.Name() == "completion" || c.Hidden {
			return // cobra's own
		}
		path := strings.Fields(c.CommandPath())[1:]
		out, err := run(append(path, "--help")...)
		if err != nil {
			t.Errorf("%s --help: %v", c.CommandPath(), err)
		} else if !strings.Contains(out, "\nExamples:\n  gridgym ") {
			t.Errorf("%s --help has no Examples section:\n%s", c.CommandPath(), out)
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRoot())

	spec := "py:FILE[:ENTRY]"
	for _, args := range [][]string{{"--help"}, {"play", "--help"}, {"tournament", "--help"}, {"selfplay", "--help"}} {
		if out, _ := run(args...); !strings.Contains(out, spec) {
			t.Errorf("%v lacks the bot specs (%s)", args, spec)
		}
	}
	if out, _ := run("pipeline", "--help"); strings.Contains(out, spec) {
		t.Errorf("pipeline --help explains bot specs, but pipeline takes no bots:\n%s", out)
	}
}
