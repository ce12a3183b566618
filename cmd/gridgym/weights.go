package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/store"
	"github.com/gridgym/gridgym/train"
)

// newWeightsCmd is `gridgym weights`: what a weights file stores beside
// its tensors and how it plays. play reads and writes the network's
// recommended play settings (neural.PlayKey, issue 54); symmetry measures
// how far from equivariant it plays (train.MeasureSymmetry).
func newWeightsCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "weights",
		Short: "Show or set a weights file's play settings; measure its symmetry; average networks",
		Long: `Show or set what a weights file stores beside its tensors: 'weights play'
reads and writes the play settings (temperature, steps) that every command
plays and exports the network with by default. 'weights symmetry' measures
how differently the network plays in the frames of its game's symmetries
(what augmented training assumes away). 'weights average' writes the
parameter-wise mean of networks of one architecture.`,
		Example: `  gridgym weights play models/rectangle/final.safetensors
  gridgym weights play models/rectangle/final.safetensors --temperature 6 --temp-steps 1
  gridgym weights symmetry models/bovine-borders/final.safetensors
  gridgym weights average runs/ft/checkpoints/iter-000050 runs/ft/checkpoints/iter-000060 --out soup.safetensors`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	c.AddCommand(newWeightsPlayCmd(), newWeightsSymmetryCmd(), newWeightsAverageCmd())
	return c
}

func newWeightsSymmetryCmd() *cobra.Command {
	var decisions int
	var seed uint64
	c := &cobra.Command{
		Use:   "symmetry FILE",
		Short: "Measure how differently a network plays in the frames of its game's symmetries",
		Long: `Play the network against itself (greedy, 8 games at once) and, for seat 0's
first --decisions decisions, compare its policy in every other frame of the
game's symmetries (the frames ppo.augment acts in) with the real frame's:
the share of decisions whose greedy move is the same, and the mean
total-variation distance of the two policies (0: equivariant).

A network far from equivariant plays another policy in a random frame, so
an augmented PPO run (ppo.augment: true, the default) fine-tuning it learns
from play that is not the policy it is evaluated as; measured, such runs
made the shipped Nuggets and Bovine Borders networks worse where the same
runs without augmentation did not (reports/nuggets/finetune,
reports/exploit). gridgym train --init warns when it augments such a
network.`,
		Example: `  gridgym weights symmetry models/bovine-borders/final.safetensors
  gridgym weights symmetry runs/nug-ft/best.safetensors --decisions 2000`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if decisions < 1 || decisions > 1_000_000 {
				return usagef("--decisions %d: want 1..1000000", decisions)
			}
			path, err := weightsFileOf(c, args[0])
			if err != nil {
				return err
			}
			net, meta, err := neural.Load(path)
			if err != nil {
				return usageError{err}
			}
			cfg, err := neural.TrainedConfig(net, meta)
			if err != nil {
				return usageError{fmt.Errorf("%s: %w", path, err)}
			}
			frames, err := train.MeasureSymmetry(net, cfg, decisions, seed)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if len(frames) == 0 {
				fmt.Fprintf(out, "%s: %s has no symmetries (ppo.augment changes nothing)\n", path, cfg.Game().Name)
				return nil
			}
			fmt.Fprintf(out, "%s (%s), %d decisions of its own greedy play:\n", path, cfg.Game().Name, decisions)
			fmt.Fprintf(out, "%8s  %12s  %12s\n", "frame", "same greedy", "TV distance")
			for _, f := range frames {
				fmt.Fprintf(out, "%8d  %11.1f%%  %12.3f\n", f.Frame, 100*f.Greedy, f.TV)
			}
			return nil
		},
	}
	c.Flags().IntVar(&decisions, "decisions", 1000, "seat 0's decisions to compare")
	c.Flags().Uint64Var(&seed, "seed", 1, "the games' seed")
	return c
}

func newWeightsPlayCmd() *cobra.Command {
	var temperature float64
	var tempSteps, opening int
	var guard bool
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
first K steps (0 = every step); --opening K plays the game's scripted
opening of size K at the placement instead of the network (Rectangle: the
robots round a K×K square in a corner drawn by the play-time seed; 0
removes it); --guard puts the game's scripted guard in front of the network
(Bovine Borders: with a rival cow one or two steps from the barn, capture it
or fill a barn neighbour; --guard=false removes it). No seed is stored: each seat, game and
exported process draws its own, so that copies of the network differ. The
file is rewritten atomically and its tensors stay byte-identical. A run
folder means the file it plays (its best.safetensors, else its latest
checkpoint); a URL is read, never written.`,
		Example: `  gridgym weights play models/rectangle/final.safetensors
  gridgym weights play models/rectangle/final.safetensors --temperature 6 --temp-steps 1
  gridgym weights play runs/rect-rings/best.safetensors --temperature 0
  gridgym weights play models/rectangle/final.safetensors --opening 8
  gridgym weights play models/bovine-borders/final.safetensors --guard`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			spec := args[0]
			set := c.Flags().Changed("temperature") || c.Flags().Changed("temp-steps") || c.Flags().Changed("opening") || c.Flags().Changed("guard")
			if set && store.IsURL(spec) {
				return usagef("%s: a URL is read, not written: set the play settings of a local file, then upload it", store.Redact(spec))
			}
			path, err := weightsFileOf(c, spec)
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
			p := neural.Play{Temperature: temperature, Steps: tempSteps, Opening: opening, Guard: guard}
			if !c.Flags().Changed("temperature") {
				if !has && c.Flags().Changed("temp-steps") {
					return usagef("%s stores no play settings: --temp-steps goes with --temperature", spec)
				}
				p.Temperature = old.Temperature
				if !c.Flags().Changed("temp-steps") {
					p.Steps = old.Steps
				}
			}
			if !c.Flags().Changed("opening") {
				p.Opening = old.Opening
			}
			if !c.Flags().Changed("guard") {
				p.Guard = old.Guard
			}
			if p.Guard {
				if err := checkGuarder(path); err != nil {
					return err
				}
			}
			if p.Opening < 0 || p.Opening > neural.MaxOpening {
				return usagef("--opening %d: want 0..%d (0 = the network places)", p.Opening, neural.MaxOpening)
			}
			if p.Opening > 0 {
				if err := checkOpener(path, p.Opening); err != nil {
					return err
				}
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
	c.Flags().IntVar(&opening, "opening", 0, "store the game's scripted opening of size K at the placement (0 = the network places; Rectangle)")
	c.Flags().BoolVar(&guard, "guard", false, "store the game's scripted guard in front of the network (--guard=false removes it; Bovine Borders)")
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

// weightsFileOf is the local weights file a weights subcommand's argument
// names (weightsOf), or a usage error where it names none.
func weightsFileOf(c *cobra.Command, spec string) (string, error) {
	path, ok, err := weightsOf(c.ErrOrStderr(), spec)
	if err == nil && !ok {
		err = usagef("%s: not a .safetensors file or training run folder", spec)
	}
	return path, err
}

// checkGuarder refuses the guard for the network in path whose game has
// none (rules.Guarder): every command would refuse to play the file.
func checkGuarder(path string) error {
	cfg, game, err := trainedConfigOf(path)
	if err != nil {
		return err
	}
	if !rules.Guards(cfg) {
		return usagef("--guard: %s has no scripted guard (rules.Guarder); only the network plays", game)
	}
	return nil
}

// trainedConfigOf is the game config the network in path was trained with,
// and its game's name.
func trainedConfigOf(path string) (rules.Config, string, error) {
	net, meta, err := neural.Load(path)
	if err != nil {
		return rules.Config{}, "", err
	}
	cfg, err := neural.TrainedConfig(net, meta)
	return cfg, net.Arch.Game, err
}

// checkOpener refuses an opening for the network in path whose game has
// none (rules.Opener): every command would refuse to play the file.
func checkOpener(path string, size int) error {
	cfg, game, err := trainedConfigOf(path)
	if err != nil {
		return err
	}
	if !rules.Opens(cfg) {
		return usagef("--opening %d: %s has no scripted opening (rules.Opener); only the network places", size, game)
	}
	return nil
}
