package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/store"
)

// newWeightsCmd is `gridgym weights`: what a weights file stores beside
// its tensors. Its one subcommand, play, reads and writes the network's
// recommended play settings (neural.PlayKey, issue 54).
func newWeightsCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "weights",
		Short: "Show or set what a weights file stores beside its tensors (its play settings)",
		Long: `Show or set what a weights file stores beside its tensors: 'weights play'
reads and writes the play settings (temperature, steps) that every command
plays and exports the network with by default.`,
		Example: `  gridgym weights play models/rectangle/final.safetensors
  gridgym weights play models/rectangle/final.safetensors --temperature 6 --temp-steps 1`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	c.AddCommand(newWeightsPlayCmd())
	return c
}

func newWeightsPlayCmd() *cobra.Command {
	var temperature float64
	var tempSteps int
	c := &cobra.Command{
		Use:   "play FILE",
		Short: "Show or set the play settings a network is played and exported with by default",
		Long: `Show the play settings stored in a weights file (its metadata "play"), or
with --temperature set them: what tournament, play, pipeline, selfplay and
export use for the file by default, so that what a user ships is what was
measured. A bot spec's own settings (FILE:temp=T[:steps=K][:seed=S]) and
export's --temperature/--temp-steps override them. No settings stored
means greedy.

--temperature T samples from softmax(logits/T) with seeded draws (0 removes
the settings: greedy); --temp-steps K limits the sampling to the game's
first K steps (0 = every step). No seed is stored: each seat, game and
exported process draws its own, so that copies of the network differ. The
file is rewritten atomically and its tensors stay byte-identical. A run
folder means the file it plays (its best.safetensors, else its latest
checkpoint); a URL is read, never written.`,
		Example: `  gridgym weights play models/rectangle/final.safetensors
  gridgym weights play models/rectangle/final.safetensors --temperature 6 --temp-steps 1
  gridgym weights play runs/rect-rings/best.safetensors --temperature 0`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			spec := args[0]
			set := c.Flags().Changed("temperature") || c.Flags().Changed("temp-steps")
			if set && store.IsURL(spec) {
				return usagef("%s: a URL is read, not written: set the play settings of a local file, then upload it", store.Redact(spec))
			}
			path, ok, err := weightsOf(c.ErrOrStderr(), spec)
			if err == nil && !ok {
				err = usagef("%s: not a .safetensors file or training run folder", spec)
			}
			if err != nil {
				return err
			}
			old, has, err := neural.ReadPlay(path)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if !set {
				if has {
					fmt.Fprintf(out, "%s: %s (stored: %s)\n", spec, old.Describe(), neural.EncodePlay(old))
				} else {
					fmt.Fprintf(out, "%s: greedy (no play settings stored)\n", spec)
				}
				return nil
			}
			p := neural.Play{Temperature: temperature, Steps: tempSteps}
			if !c.Flags().Changed("temperature") {
				if !has {
					return usagef("%s stores no play settings: --temp-steps goes with --temperature", spec)
				}
				p.Temperature = old.Temperature
			}
			if !(p.Temperature >= 0 && p.Temperature <= neural.MaxTemperature) || p.Steps < 0 {
				return usagef("--temperature %g --temp-steps %d: want a temperature in 0..%d (0 = greedy) and steps ≥ 0", p.Temperature, p.Steps, neural.MaxTemperature)
			}
			if err := neural.WritePlay(path, p); err != nil {
				return err
			}
			was := "greedy"
			if has {
				was = old.Describe()
			}
			fmt.Fprintf(out, "%s: %s (was %s)\n", path, p.Describe(), was)
			return nil
		},
	}
	c.Flags().Float64Var(&temperature, "temperature", 0, "store sampling at this temperature (0 = greedy: remove the settings)")
	c.Flags().IntVar(&tempSteps, "temp-steps", 0, "store sampling in the game's first K steps only, greedy after (0 = every step)")
	return c
}

// notePlaySettings writes, before a table of bots (tournament, play,
// pipeline), one line for each network bot that does not simply play
// greedy: the settings in force and where they came from (the weights'
// stored settings, the spec's, or the spec's over the stored ones;
// neural.Settings.Note), so that a table says what was measured (issue 54).
func notePlaySettings(w io.Writer, bots []string) {
	labels, err := agents.Labels(bots)
	if err != nil {
		return // botList accepted them: the labels are distinct
	}
	seen := map[string]bool{}
	for i, b := range bots {
		_, spec := agents.SplitLabel(b)
		if seen[labels[i]] {
			continue
		}
		seen[labels[i]] = true
		if base, _, err := neural.SplitPlaySpec(spec); err != nil || store.IsURL(base) {
			continue // a URL's copy was fetched under another name; its entry says the same
		}
		s, ok, err := neural.SpecSettings(spec)
		if !ok || err != nil || !s.Notable() {
			continue
		}
		line := fmt.Sprintf("%s plays %s", labels[i], s.Note())
		if s.FromWeights() {
			line += fmt.Sprintf(" (%s:temp=0 plays it greedy)", spec)
		}
		fmt.Fprintf(w, "play settings: %s\n", line)
	}
}
