package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/selfplay"
)

func newSelfplayCmd() *cobra.Command {
	var (
		gf         gameFlags
		agentsSpec string
		envs       int
		steps      int64
		out        string
		shardRows  int
		maxEpisode int
		reward     string
		shaping    float64
		potential  string
		workers    int
		compress   string
		quiet      bool
		af         actorFlags
	)
	c := &cobra.Command{
		Use:   "selfplay",
		Short: "Play many games with a mix of agents and write Arrow trajectory shards",
		Long: `Play --envs games at once, all seats, with the given agents (seats rotate
through every lineup episode by episode), for --steps env steps in all, and
write one row per (env step, seat) to zstd-compressed Arrow IPC shards under
--out: the compact state, the seat's legal-action mask, its action, the real
move, the reward and the agent (schema: gridgym datasets inspect).

Shards hold whole episodes and roll over by row count. Episodes still in
progress at the end, or when interrupted (Ctrl-C, SIGTERM), are discarded and
the open shard is finished cleanly: a shard under a final name is always
complete. Read them with 'gridgym datasets' or any Arrow implementation
(tested: Arrow JS, and DuckDB on the Parquet export).

--out may be a URL: file:///folder, or s3://bucket/prefix?endpoint=…
(any S3-compatible store; credentials from AWS_ACCESS_KEY_ID and
AWS_SECRET_ACCESS_KEY). Shards are then written locally and uploaded when
complete.

Actor mode (--weights URL): play with the newest policy a learner published
there (weights/LATEST, picked up between rounds of --round-steps), sampling on
every seat, with the --agents given explicitly as scripted opponents sharing
the seats, and upload each round's complete shards to --out under
vNNNNNN/ (the policy version). --steps 0 plays until stopped. See
'gridgym train --from-shards' and deploy/README.md.`,
		Example: `  gridgym selfplay --game slime --agents simplebot,random --envs 64 --steps 200000
  gridgym selfplay --game rising-tide --agents nearby_new_orleans,trench_tunis --out runs/rt
  gridgym selfplay --game slime --weights s3://gridgym/run1?endpoint=http://minio:9000&use_path_style=true \
      --out s3://gridgym/run1/shards?endpoint=http://minio:9000&use_path_style=true --steps 0`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if af.weights != "" {
				return runActor(c, &gf, &af, agentsSpec, envs, steps, out, maxEpisode, reward, workers)
			}
			cfg, names, err := gf.configAndBots(agentsSpec)
			if err != nil {
				return err
			}
			g := cfg.Game()
			if envs < 1 || envs > 1<<16 {
				return usagef("--envs %d: want 1..65536", envs)
			}
			if steps < 1 {
				return usagef("--steps %d: want at least 1", steps)
			}
			if shardRows < 0 || maxEpisode < 0 || workers < 0 {
				return usagef("--shard-rows, --max-episode and --workers must not be negative")
			}
			if !(shaping >= 0 && shaping <= 100) {
				return usagef("--shaping %v: want 0..100", shaping)
			}
			if potential != "" && shaping == 0 {
				return usagef("--potential %s needs --shaping above 0", potential)
			}
			mode, err := env.ParseRewardMode(reward)
			if err != nil {
				return usageError{err}
			}
			if out == "" {
				out = filepath.Join("datasets", "out", fmt.Sprintf("%s-%s", g.Name, time.Now().Format("20060102-150405")))
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			// A remote --out: play into a local folder, upload when done.
			o, err := openOutput(out)
			if err != nil {
				return err
			}
			spec := selfplay.Config{
				Game: cfg, Agents: names, Envs: envs, Steps: steps, Seed: gf.seed, Workers: workers,
				Reward: mode, Shaping: shaping, Potential: potential, Out: o.dir, RowsPerShard: shardRows, MaxEpisode: maxEpisode, Compression: compress,
			}
			if compress != "zstd" && compress != "lz4" {
				return usagef("--compression %q: want zstd or lz4", compress)
			}
			budget := spec.Budget()
			var bar *progressbar.ProgressBar
			if !quiet && isTerminal(os.Stderr) {
				bar = progressbar.NewOptions64(budget, progressbar.OptionSetWriter(os.Stderr),
					progressbar.OptionSetDescription("selfplay "+g.Name), progressbar.OptionShowCount(),
					progressbar.OptionSetItsString("steps"), progressbar.OptionShowIts(),
					progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
			}
			spec.Progress = func(s selfplay.Stats) {
				if bar != nil {
					bar.Describe(fmt.Sprintf("selfplay %s: %d rows, %d episodes", g.Name, s.Rows, s.Episodes))
					bar.Set64(min(s.Steps, budget))
				}
			}
			st, err := selfplay.Run(ctx, spec)
			if bar != nil {
				bar.Finish()
			}
			if err != nil {
				return err
			}
			if ctx.Err() != nil {
				fmt.Fprintln(c.ErrOrStderr(), "interrupted: finished episodes kept, the rest discarded")
			}
			if st.Episodes == 0 && ctx.Err() == nil {
				return noEpisodeError(g.New(cfg).Spec(), envs, steps, maxEpisode)
			}
			if err := o.finish(ctx); err != nil {
				return err
			}
			sec := st.Elapsed.Seconds()
			fmt.Fprintf(c.OutOrStdout(), "%s: %d env steps in %.1fs (%.0f steps/s), %d episodes, %d rows (%.0f rows/s), %d shards, %.1f MB (%.1f bytes/row) in %s\n",
				g.Name, st.Steps, sec, float64(st.Steps)/sec, st.Episodes, st.Rows, float64(st.Rows)/sec, st.Shards,
				float64(st.Bytes)/1e6, float64(st.Bytes)/float64(max(st.Rows, 1)), o.show(o.dir))
			return nil
		},
	}
	gf.add(c, games.DefaultTrainGame)
	c.Flags().StringVarP(&agentsSpec, "agents", "a", "random", "comma-separated agents (names, weights files or run folders, or their URLs: file://, s3://…); seats rotate through every lineup")
	c.Flags().IntVar(&envs, "envs", 64, "games played at once")
	c.Flags().Int64Var(&steps, "steps", 100000, "env steps to play in all (each env plays ⌈steps/envs⌉)")
	c.Flags().StringVarP(&out, "out", "o", "", "output folder or URL (file://, s3://…: written locally, uploaded when complete) (default datasets/out/<game>-<time>, git-ignored)")
	c.Flags().IntVar(&shardRows, "shard-rows", 0, "rows per shard before rolling over (0 = 1048576)")
	c.Flags().IntVar(&maxEpisode, "max-episode", 0, "truncate episodes after this many steps (0 = the game's own end)")
	c.Flags().StringVar(&reward, "reward", "rank", "terminal reward: rank (placement points, zero-sum), score (own score minus the table's mean, scaled) or none")
	c.Flags().StringVar(&potential, "potential", "", "the shaping potential by name where the game has more than one (bovine-borders: territory, the default, or frontier: territory plus the empty cells the seat reaches before its rivals)")
	c.Flags().Float64Var(&shaping, "shaping", 0, "add this weight times the change of each seat's own scaled score to every row's reward (0 = off; with --reward none the rewards sum to the final scaled score)")
	c.Flags().IntVar(&workers, "workers", 0, "goroutines playing (0 = one per core)")
	c.Flags().StringVar(&compress, "compression", "zstd", "shard compression: zstd (smaller) or lz4 (faster to write)")
	c.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress bar")
	af.add(c)
	return c
}

// noEpisodeError explains a self-play run that finished no episode (only
// whole episodes are written, so it wrote nothing) and how to get one.
func noEpisodeError(spec *rules.Spec, envs int, steps int64, maxEpisode int) error {
	per := (steps + int64(envs) - 1) / int64(envs)
	longest := spec.MaxSteps
	if maxEpisode > 0 {
		longest = min(longest, maxEpisode)
	}
	return fmt.Errorf("no episode finished, so no shard was written: each of the %d envs played ⌈%d/%d⌉ = %d steps, "+
		"and a %s game lasts up to %d steps; raise --steps to at least %d, play fewer --envs, or cut episodes with --max-episode N",
		envs, steps, envs, per, spec.Game, longest, int64(envs)*int64(longest+1))
}
