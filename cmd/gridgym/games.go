package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/configs"
	"github.com/gridgym/gridgym/rules"
)

func newGamesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "games",
		Short: "List the games with their parameters and bots",
		Long: `List every game: its seats, board and score, its parameters (--param
NAME=VALUE, with the default and the valid values), its bots (the names
play, tournament and selfplay take) and its training presets.`,
		Example: `  gridgym games
  gridgym play --game slime --bots simplebot,random --param max_turns=400
  gridgym train --game rectangle --preset rings`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			w := c.OutOrStdout()
			for i, g := range rules.Games() {
				if i > 0 {
					fmt.Fprintln(w)
				}
				sp := g.New(g.Default()).Spec()
				fmt.Fprintf(w, "%s — %s\n  %s\n", g.Name, g.Title, g.Summary)
				fmt.Fprintf(w, "  %d seats, %s, board %d×%d, at most %d steps; score: %s\n",
					sp.Seats, map[bool]string{true: "sequential", false: "simultaneous"}[sp.Sequential], sp.Rows, sp.Cols, sp.MaxSteps, sp.ScoreName)
				tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
				for _, p := range g.Params {
					fmt.Fprintf(tw, "  --param %s=%s\t%s\t%s\n", p.Name, p.Default, p.Valid(), p.Doc)
				}
				tw.Flush()
				fmt.Fprintf(w, "  bots: %s\n", strings.Join(agents.Names(g.Name), ", "))
				if h := agents.HeldOut(g.Name); len(h) > 0 {
					fmt.Fprintf(w, "  held-out bots (the test set: played when named, never in training): %s\n", strings.Join(h, ", "))
				}
				if r := agents.Reference(g.Name); len(r) > 0 {
					fmt.Fprintf(w, "  gridgym heldout's companies: reference %s (the strongest scripted bots)", strings.Join(r, ", "))
					if f := agents.Field(g.Name); len(f) > 0 {
						fmt.Fprintf(w, "; field %s (the company issue 54's first measurements seated)", strings.Join(f, ", "))
					}
					fmt.Fprintln(w)
				}
				if ps := configs.PresetsOf(g.Name); len(ps) > 0 {
					fmt.Fprintf(w, "  training presets (gridgym train --preset P): %s\n", strings.Join(ps, ", "))
					for _, p := range ps {
						if note := configs.PresetNote(g.Name, p); note != "" {
							fmt.Fprintf(w, "    %s, measured: %s\n", p, note)
						}
					}
				}
			}
			return nil
		},
	}
}
