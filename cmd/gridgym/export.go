package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents/host"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/export"
	"github.com/gridgym/gridgym/store"
)

func newExportCmd() *cobra.Command {
	var checkpoint, out, game, runner, searchSpec, python string
	var noBinary bool
	var temperature float64
	var tempSteps, opening int
	var guard bool
	var seed uint64
	c := &cobra.Command{
		Use:   "export",
		Short: "Write a trained network as the competition's own bot (Python file, Slime executable)",
		Long: `Write the bot of a trained network into --out, in the exact form its
competition accepts:

  weights.safetensors   the float32 tensors with their metadata (game,
                        parameters, architecture, encoding version, run)
  <game>_bot.py         one self-contained Python file (standard library and
                        NumPy only, weights embedded) with the competition's
                        entry point; the play settings the weights store
                        ('gridgym weights play FILE': Rectangle's shipped
                        network places at temperature 6) by default, else
                        greedy; SAMPLE = True samples;
                        --temperature T (0: greedy) overrides them, baking in
                        seeded sampling from
                        softmax(logits/T) (--temp-steps K: the first K steps
                        only), with the Go policy's draws (exact parity for
                        one seed); without --seed each process draws its own,
                        so two copies of the bot break each other's symmetry
                        (Rectangle's shared placements)
  slime-bot             Slime only: a stand-alone executable taking the
                        competition's single argument (cmd/slimebot, ~2 MB,
                        built with the Go toolchain at export time, with the
                        weights appended; it starts in milliseconds),
                        with the same play settings and draws as the
                        Python bot (the shipped Slime network samples at
                        temperature 0.3)
  README.txt            how to submit them, and which play settings came
                        from the weights

--search SPEC makes the executable (Slime's slime-bot) answer with the tree
search SPEC (a search bot spec, 'search:' optional: BOT[@N][:key=value…],
see 'gridgym tournament --help') instead of the network, seeded by --seed
(default 0) mixed with a hash of each request: the same request gets the
same move unless a limit ms=M, counted from the process's start (R16
counts start-up in the 0.1 s), cuts the search short. Games without an
executable refuse it.

--checkpoint is a weights file or a training run folder (its
best.safetensors, the policy of its best evaluation, where training wrote
one, else its latest checkpoint; the note says which), or the URL of either (file://…, s3://bucket/run?endpoint=…:
downloaded first). --out may be a URL too: the bot is written into a local
folder, then uploaded file by file. A network of another encoding version than this gridgym's is
refused: retrain it, or export with the gridgym that trained it.`,
		Example: `  gridgym export --checkpoint runs/slime-20261123-120000 --out bots/slime
  gridgym export --checkpoint models/slime/final.safetensors --out bots/slime-search \
      --search greedy@2000:trees=1:opp=prior:ms=50
  gridgym export --checkpoint runs/rt/checkpoints/iter-000040/weights.safetensors --out bots/rt
  gridgym export --checkpoint 's3://gridgym/runs/slime?endpoint=http://minio:9000&use_path_style=true' \
      --out 's3://gridgym/bots/slime?endpoint=http://minio:9000&use_path_style=true'`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if checkpoint == "" || out == "" {
				return usagef("export needs --checkpoint (weights file or run folder) and --out DIR")
			}
			cp, ok, err := weightsOf(c.ErrOrStderr(), checkpoint)
			if err == nil && !ok {
				err = usagef("--checkpoint %s: not a .safetensors file or training run folder", checkpoint)
			}
			if err != nil {
				return err
			}
			if _, err := os.Stat(cp); err != nil {
				return usagef("--checkpoint %s: %v", checkpoint, err)
			}
			o, err := openOutput(out)
			if err != nil {
				return err
			}
			play := export.Play{Temperature: temperature, Steps: tempSteps, Opening: opening, Guard: guard}
			if c.Flags().Changed("seed") {
				play.Seed = &seed
			}
			given := neural.PlayGiven{Temp: c.Flags().Changed("temperature"), Steps: c.Flags().Changed("temp-steps"), Opening: c.Flags().Changed("opening"), Guard: c.Flags().Changed("guard")}
			opt := export.Options{NoBinary: noBinary, Game: game, Runner: runner, Play: play, PlayGiven: given, Search: searchSpec, SearchSeed: seed}
			opt.Python = timingPython(python)
			rep, err := export.Export(cp, o.dir, opt)
			if err != nil {
				err = neural.InFile(cp, err) // FILE is truncated or corrupt: …, as every command says it
				if cp != checkpoint {
					return fmt.Errorf("%w (--checkpoint %s)", err, store.Redact(checkpoint))
				}
				return err
			}
			if err := o.finish(context.Background()); err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "exported the %s bot:\n", rep.Game)
			for _, f := range rep.Files {
				st, _ := os.Stat(f)
				fmt.Fprintf(c.OutOrStdout(), "  %-40s %8.1f KiB\n", o.show(f), float64(st.Size())/1024)
			}
			for _, w := range rep.Warnings {
				fmt.Fprintf(c.ErrOrStderr(), "warning: %s\n", w)
			}
			return nil
		},
	}
	c.Flags().StringVarP(&checkpoint, "checkpoint", "c", "", "weights file (.safetensors) or training run folder (its best.safetensors, else its latest checkpoint), or its URL (file://, s3://…)")
	c.Flags().StringVarP(&out, "out", "o", "", "output folder, or URL (file://, s3://…; written locally, then uploaded)")
	c.Flags().StringVarP(&game, "game", "g", "", "refuse a network of any other game")
	c.Flags().StringVar(&runner, "runner", "", "prebuilt cmd/slimebot binary for the Slime executable (default: go build it)")
	c.Flags().BoolVar(&noBinary, "no-binary", false, "skip the Slime executable")
	c.Flags().Float64Var(&temperature, "temperature", 0, "sample moves from softmax(logits/T) with seeded draws (0 = greedy; not for Slime); default: the weights' stored settings, else 0")
	c.Flags().IntVar(&tempSteps, "temp-steps", 0, "sample only in the game's first K steps, greedy after (0 = every step; Rectangle, Nuggets); default: the weights' stored steps")
	c.Flags().IntVar(&opening, "opening", 0, "play the game's scripted opening of size K at the placement instead of the network (0 = the network places; Rectangle); default: the weights' stored opening")
	c.Flags().BoolVar(&guard, "guard", false, "play the game's scripted guard in front of the network (Bovine Borders; --guard=false: the network alone); default: the weights' stored guard")
	c.Flags().Uint64Var(&seed, "seed", 0, "seed of the draws, baked into the bot (default: a random seed per process; with --search, 0)")
	c.Flags().StringVar(&python, "python", "python3", "interpreter that times the Python bot where the competition starts it every move (Slime): 5 runs, in README.txt; none: skip")
	c.Flags().StringVar(&searchSpec, "search", "", "the executable answers with this tree search instead of the network, e.g. greedy@2000:trees=1:opp=prior:ms=50")
	return c
}

// timingPython is the interpreter that export times the Python bot with
// (export.Options.Python): name found on PATH, or "" (not timed) for none
// or a name not found. A shim (pyenv) adds its own start-up, so it is the
// interpreter the shim runs.
func timingPython(name string) string {
	p, err := exec.LookPath(name)
	if name == "none" || err != nil {
		return ""
	}
	return cmp.Or(host.RealPython(p, name), p)
}
