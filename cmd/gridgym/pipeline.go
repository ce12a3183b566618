package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/eval/heldout"
	"github.com/gridgym/gridgym/export"
	gridgames "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train"
)

func newPipelineCmd() *cobra.Command {
	var (
		game         string
		minutes      float64
		games        int
		out          string
		runner       string
		quiet        bool
		heldoutGames int
	)
	c := &cobra.Command{
		Use:   "pipeline",
		Short: "Train, export and evaluate a bot in one go (the quick start)",
		Long: `Run the whole job for one game on its embedded default config:

  1. train    gridgym train for --minutes (behaviour cloning of the game's
              strongest scripted bot, then PPO self-play), into OUT/run
  2. export   gridgym export of the result into OUT/bot (the competition's
              Python file; for Slime also the executable)
  3. held-out gridgym heldout of the trained network: --heldout-games games
              against each of the game's held-out bots (which no training
              sees) beside its reference bots and beside its field (the
              sample bots), every seating order, the margins and their
              intervals, reports in OUT/heldout
  4. evaluate gridgym tournament of the trained network against the config's
              baseline bots, seats rotated, --games games, with a report
              (ratings, win rates, plots) in OUT/report

The defaults finish in a few minutes on two cores; the full training runs of
the configs take 20–30 minutes (gridgym train --game G).

--out may be a URL (file:///…, s3://bucket/prefix?endpoint=…): everything is
written into a local staging folder and uploaded there, the run at every
checkpoint, the rest at the end.`,
		Example: `  gridgym pipeline
  gridgym pipeline --game bovine-borders --minutes 10 --games 200`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) (err error) {
			cfg, err := train.DefaultConfig(game)
			if err != nil {
				return usageError{err}
			}
			if minutes <= 0 || minutes > 10000 {
				return usagef("--minutes %v: want (0, 10000]", minutes)
			}
			if games < 1 {
				return usagef("--games %d: want at least 1", games)
			}
			if games > eval.MaxGames {
				return tooManyGames(games)
			}
			if heldoutGames < 0 || heldoutGames > eval.MaxGames {
				return usagef("--heldout-games %d: want 0 (skip the held-out tables) to %d", heldoutGames, eval.MaxGames)
			}
			cfg.Minutes = minutes
			if out == "" {
				out = filepath.Join("runs", fmt.Sprintf("pipeline-%s-%s", game, time.Now().Format("20060102-150405")))
			}
			var runDir string
			ctx, done := hostingInterruptible(c.ErrOrStderr(), "stopping after this step; the policy so far is exported, the evaluation skipped",
				func() string { return savedCheckpoint(runDir) })
			defer func() { err = done(err) }()
			o, err := openRun(ctx, out, "run", false)
			if err != nil {
				return err
			}
			w := c.OutOrStdout()
			botDir, reportDir := filepath.Join(o.dir, "bot"), filepath.Join(o.dir, "report")
			runDir = filepath.Join(o.dir, "run")
			steps := 4
			if heldoutGames == 0 {
				steps = 3
			}
			fmt.Fprintf(w, "== 1/%d train %s for %g minutes → %s\n", steps, game, minutes, o.show(runDir))
			res, err := runTraining(ctx, c, cfg, o, "run", train.Options{Log: func(f string, a ...any) { fmt.Fprintf(c.ErrOrStderr(), "warning: "+f+"\n", a...) }}, quiet)
			if err != nil {
				return err
			}
			// The best evaluated policy (the clone is a candidate) is the
			// bot; without evaluations, the latest checkpoint.
			policy := res.Best
			if policy == "" {
				policy = res.Checkpoint
			}
			if policy == "" {
				return fmt.Errorf("training saved no policy in %s", o.show(runDir))
			}
			fmt.Fprintf(w, "== 2/%d export %s → %s\n", steps, o.show(policy), o.show(botDir))
			rep, err := export.Export(policy, botDir, export.Options{Python: timingPython("python3"), Runner: runner})
			if err != nil {
				return err
			}
			for _, f := range rep.Files {
				fmt.Fprintf(w, "  %s\n", o.show(f))
			}
			for _, m := range rep.Warnings {
				fmt.Fprintf(c.ErrOrStderr(), "warning: %s\n", m)
			}
			// skipped ends a run stopped before its evaluation: the run
			// saved (and uploaded), the bot to submit named.
			skipped := func() error {
				if err := o.finish(context.Background()); err != nil {
					return err
				}
				fmt.Fprintf(w, "interrupted: evaluation skipped; the bot is in %s\n%s", o.show(botDir), submitLine(o.show(rep.Submit), rep.SubmitNote))
				return nil
			}
			if res.Interrupted {
				return skipped()
			}
			rcfg, err := cfg.RulesConfig()
			if err != nil {
				return err
			}
			seats := rcfg.Game().New(rcfg).Spec().Seats
			bots := []string{"trained=" + policy}
			base := cfg.Baselines()
			for len(bots) < seats {
				bots = append(bots, base[(len(bots)-1)%len(base)])
			}
			if heldoutGames > 0 {
				curve := "" // the command that draws the run's learning curve: a local run folder only
				if !o.remote() {
					curve = fmt.Sprintf("gridgym heldout --game %s --bot %s --curve 5 --report %s", rcfg.Game().Name, shellWord(runDir), shellWord(filepath.Join(o.dir, "heldout-curve")))
				}
				if err := pipelineHeldout(ctx, w, rcfg, bots[0], heldoutGames, cfg.Seed, filepath.Join(o.dir, "heldout"), curve); err != nil {
					return err
				}
				if ctx.Err() != nil {
					return skipped()
				}
			}
			fmt.Fprintf(w, "== %d/%d evaluate: %d games against %v, seats rotated\n", steps, steps, games, bots[1:])
			notePlaySettings(w, bots[:1]) // the config's play: section, stored in the weights (issue 54)
			tr, err := eval.Run(ctx, eval.Config{Game: rcfg, Bots: bots, Games: games, Seed: cfg.Seed})
			if err != nil && (tr == nil || len(tr.Games) == 0) {
				return err
			}
			// The report first (and the whole run uploaded), then the table.
			paths, err := eval.Report(w, tr, eval.ReportOptions{
				Dir:     reportDir,
				Analyze: eval.AnalyzeOptions{Ratings: eval.RatingOptions{Seed: cfg.Seed}},
				Saved:   func() error { return o.finish(ctx) },
			})
			if err != nil {
				return err
			}
			report := reportDir
			for _, p := range paths {
				if filepath.Base(p) == "report.html" {
					report = p
				}
			}
			fmt.Fprintf(w, "\nthe trained network (%s) plays as \"trained\" in the table above\nits bot: %s\nthe report (ratings with intervals, win rates, plots): %s\n%s", o.show(policy), o.show(botDir), o.show(report), submitLine(o.show(rep.Submit), rep.SubmitNote))
			return nil
		},
	}
	c.Flags().StringVarP(&game, "game", "g", gridgames.DefaultTrainGame, "game (its embedded default config)")
	c.Flags().Float64Var(&minutes, "minutes", 4, "training time")
	c.Flags().IntVarP(&games, "games", "n", 100, "evaluation games")
	c.Flags().StringVarP(&out, "out", "o", "", "output folder, or URL (file://, s3://…: staged locally, uploaded) (default runs/pipeline-<game>-<time>, git-ignored)")
	c.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress bars")
	c.Flags().IntVar(&heldoutGames, "heldout-games", 96, "games against each held-out bot (gridgym heldout; 0 skips them)")
	c.Flags().StringVar(&runner, "runner", "", "prebuilt cmd/slimebot binary for a game's executable bot (default: go build it, as export does)")
	return c
}

// pipelineHeldout is the pipeline's held-out step: the trained network
// (bot, labelled) against each of the game's held-out bots beside its
// reference bots and its field (heldout.Companies), games games a table, reports into dir, then the command
// curve that draws the run's learning curve against them (none if "").
// A game without held-out bots says so and goes on.
func pipelineHeldout(ctx context.Context, w io.Writer, cfg rules.Config, bot string, games int, seed uint64, dir, curve string) error {
	g := cfg.Game()
	held := agents.HeldOut(g.Name)
	companies, word := heldout.Companies(cfg), "companies"
	if len(companies) == 1 {
		word = "company"
	}
	fmt.Fprintf(w, "== 3/4 held-out: %d games against each of %d held-out bots (never trained against), in %d %s\n", games, len(held), len(companies), word)
	if len(held) == 0 {
		fmt.Fprintf(w, "%s has no held-out bots\n", g.Name)
		return nil
	}
	p := heldout.Plan{Config: cfg, Bot: bot, Held: held, Games: games, Seed: seed, Report: dir}
	notePlaySettings(w, []string{bot})
	if err := p.RunCompanies(ctx, w, companies); err != nil || ctx.Err() != nil || curve == "" {
		return err
	}
	fmt.Fprintf(w, "the run's learning curve against them: %s\n", curve)
	return nil
}

// submitLine is the pipeline's last line: the one file to hand in to the
// competition, and when the other one applies.
func submitLine(file, note string) string {
	if note != "" {
		return fmt.Sprintf("submit: %s (%s)\n", file, note)
	}
	return fmt.Sprintf("submit: %s\n", file)
}
