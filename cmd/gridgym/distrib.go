package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/distrib"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/store"
	"github.com/gridgym/gridgym/train"
)

// actorFlags are selfplay's actor-mode flags.
type actorFlags struct {
	weights    string
	id         string
	roundSteps int64
}

func (f *actorFlags) add(c *cobra.Command) {
	c.Flags().StringVar(&f.weights, "weights", "", "actor mode: play the newest policy published at this location (URL or folder)")
	c.Flags().StringVar(&f.id, "actor-id", "", "actor mode: id in shard keys (default a$JOB_COMPLETION_INDEX, else a0)")
	c.Flags().Int64Var(&f.roundSteps, "round-steps", 20000, "actor mode: env steps per round (shards are uploaded and the policy refreshed between rounds)")
}

func logTo(c *cobra.Command) func(string, ...any) {
	w := c.ErrOrStderr()
	return func(format string, a ...any) {
		fmt.Fprintf(w, "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, a...))
	}
}

func runActor(c *cobra.Command, gf *gameFlags, af *actorFlags, agentsSpec string, envs int, steps int64, out string,
	maxEpisode int, reward string, workers int) error {
	cfg, err := gf.config()
	if err != nil {
		return err
	}
	var opponents []string
	if c.Flags().Changed("agents") && strings.TrimSpace(agentsSpec) != "" {
		var entries []agents.Entry
		if opponents, entries, err = botList(cfg.Game().Name, agentsSpec); err != nil {
			return err
		}
		if cfg, err = gf.carry(cfg, opponents, entries); err != nil {
			return err
		}
	}
	if out == "" {
		return usagef("actor mode (--weights) needs --out LOCATION for the shards")
	}
	if envs < 1 || steps < 0 || af.roundSteps < 1 {
		return usagef("--envs ≥ 1, --steps ≥ 0 and --round-steps ≥ 1 in actor mode")
	}
	mode, err := env.ParseRewardMode(reward)
	if err != nil {
		return usageError{err}
	}
	id := af.id
	if id == "" {
		id = "a0"
		if i := os.Getenv("JOB_COMPLETION_INDEX"); i != "" {
			id = "a" + i
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	seed := gf.seed
	if !c.Flags().Changed("seed") {
		seed = uint64(time.Now().UnixNano())
	}
	st, err := distrib.RunActor(ctx, distrib.ActorConfig{
		Weights: af.weights, Out: out, ID: id, Game: cfg, Opponents: opponents, Envs: envs,
		RoundSteps: af.roundSteps, Steps: steps, Seed: seed, Workers: workers, MaxEpisode: maxEpisode,
		Reward: mode, Log: logTo(c),
	})
	if err != nil {
		return err
	}
	sec := st.Elapsed.Seconds()
	fmt.Fprintf(c.OutOrStdout(), "actor %s: %d rounds, %d env steps (%.0f steps/s overall, %.0f while playing), %d rows, %d shards (%.1f MB) uploaded in %.1fs; policy versions %v\n",
		id, st.Rounds, st.Steps, float64(st.Steps)/max(sec, 1e-9), float64(st.Steps)/max(st.PlaySeconds, 1e-9), st.Rows, st.Shards,
		float64(st.Bytes)/1e6, st.UploadSeconds, st.Versions)
	return nil
}

// learnerFlags are train's distributed-learner flags.
type learnerFlags struct {
	from, publish string
	maxStale      int
	minShards     int
	versions      int
	maxWait       time.Duration
}

func (f *learnerFlags) add(c *cobra.Command) {
	c.Flags().StringVar(&f.from, "from-shards", "", "learner mode: learn from shards that actors upload to this location (URL or folder)")
	c.Flags().StringVar(&f.publish, "publish", "", "learner mode: publish weights here (weights/vNNNNNN.safetensors + weights/LATEST)")
	c.Flags().IntVar(&f.maxStale, "max-stale", 2, "learner mode: drop shards played by a policy more than this many versions old (0 = current only)")
	c.Flags().IntVar(&f.minShards, "min-shards", 2, "learner mode: new shards per update")
	c.Flags().IntVar(&f.versions, "versions", 0, "learner mode: stop after publishing this many new versions (0 = --minutes or until stopped)")
	c.Flags().DurationVar(&f.maxWait, "max-wait", 30*time.Second, "learner mode: update with fewer than --min-shards after waiting this long")
}

func runLearner(ctx context.Context, c *cobra.Command, cfg train.Config, lf *learnerFlags, minutes float64) error {
	if lf.publish == "" {
		return usagef("--from-shards needs --publish LOCATION for the weights")
	}
	maxStale := lf.maxStale
	if maxStale == 0 {
		maxStale = -1 // distrib: < 0 means current version only
	}
	if lf.maxStale < 0 {
		return usagef("--max-stale %d: want ≥ 0", lf.maxStale)
	}
	st, err := distrib.RunLearner(ctx, distrib.LearnerConfig{
		Train: cfg, Shards: lf.from, Publish: lf.publish, MaxStale: maxStale, MinShards: lf.minShards,
		MaxWait: lf.maxWait, Versions: lf.versions, Minutes: minutes, Log: logTo(c),
	})
	if err != nil {
		return err
	}
	sec := st.Elapsed.Seconds()
	fmt.Fprintf(c.OutOrStdout(), "learner: published up to v%06d (%d updates) in %.1fs; %d shards, %d rows, %d env steps (%.0f/s), %d decisions, %d samples learned (%.0f samples/s; %.1fs in updates); %d stale shards dropped; weights at %s\n",
		st.Version, st.Updates, sec, st.Shards, st.Rows, st.EnvSteps, float64(st.EnvSteps)/max(sec, 1e-9), st.Decisions,
		st.Samples, float64(st.Samples)/max(sec, 1e-9), st.LearnSecs, st.Dropped, store.Redact(lf.publish))
	return nil
}
