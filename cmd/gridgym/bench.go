package main

import (
	"fmt"
	"os"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/internal/sgemm"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train"
)

func newBenchCmd() *cobra.Command {
	var (
		gf      gameFlags
		per     time.Duration
		batches []int
		quiet   bool
		learner bool
		weights string
		torchF  string
	)
	c := &cobra.Command{
		Use:   "bench",
		Short: "Measure rules and environment throughput for a game",
		Long: `Measure how fast a game runs on this machine: the raw rules (Step alone,
replaying recorded random games, one core) and the batched environment
(Step with observations, masks and rewards for every seat, random legal
actions drawn from the masks) for each batch size, on one core and on all,
and the ceiling that memory puts on that work: the step rate at which merely
storing each step's observation and mask bytes (a memclr of the batch
buffers) would take all the time.
The same figures as 'go test -bench' in rules/<game> and env.

With --learner it measures the learner instead: one PPO minibatch step of
256 (forward, masked log-softmax, losses, backward, gradient clipping, Adam)
in samples/s, and plain-Go inference at batch 64 and 1 in observations/s,
on one core and on all, for the game's default network (its training
config's) or the network of a weights file. --torch reads the saved output
of ../shared/anchors/torch_learner.py for the same network and prints its
figures and the ratios beside gridgym's.`,
		Example: `  gridgym bench --game rising-tide
  gridgym bench --game slime --batches 1,1024 --time 2s
  gridgym bench --learner --game rectangle
  /usr/bin/python3 torch_learner.py models/rectangle/final.safetensors > torch.txt
  gridgym bench --learner --weights models/rectangle/final.safetensors --torch torch.txt`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if learner {
				if per <= 0 {
					return usagef("--time %v: want a positive duration", per)
				}
				return benchLearner(c, gf.game, c.Flags().Changed("game"), weights, torchF, per)
			}
			if weights != "" || torchF != "" {
				return usagef("--weights and --torch go with --learner")
			}
			cfg, err := gf.config()
			if err != nil {
				return err
			}
			if per <= 0 {
				return usagef("--time %v: want a positive duration", per)
			}
			for _, n := range batches {
				if n < 1 || n > 1<<16 {
					return usagef("--batches: %d is not in 1..65536", n)
				}
			}
			cores := runtime.GOMAXPROCS(0)
			workers := []int{1}
			if cores > 1 {
				workers = append(workers, cores)
			}
			total := 1 + 4*len(batches)*len(workers)
			var bar *progressbar.ProgressBar
			if !quiet && isTerminal(os.Stderr) {
				bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(os.Stderr),
					progressbar.OptionSetDescription("bench "+cfg.Game().Name), progressbar.OptionShowCount(),
					progressbar.OptionClearOnFinish())
			}
			tick := func() {
				if bar != nil {
					bar.Add(1)
				}
			}
			rulesM := env.BenchRules(cfg, 4, per)
			tick()
			// The env itself, then the ceiling memory puts on the same work:
			// writing each step's bytes once at memclr speed, nothing else.
			envStep := func(n, w int, noObs bool) (env.Measurement, error) {
				return env.BenchVec(cfg, n, w, noObs, per)
			}
			stores := func(n, w int, noObs bool) (env.Measurement, error) {
				m := env.BenchStores(n, env.StepBytes(cfg, !noObs), w, per)
				if noObs {
					m.What += ", masks only"
				}
				return m, nil
			}
			var rows []env.Measurement
			for _, measure := range []func(n, w int, noObs bool) (env.Measurement, error){envStep, stores} {
				for _, noObs := range []bool{false, true} {
					for _, n := range batches {
						for _, w := range workers {
							if w > n {
								tick()
								continue
							}
							m, err := measure(n, w, noObs)
							if err != nil {
								return err
							}
							rows = append(rows, m)
							tick()
						}
					}
				}
			}
			if bar != nil {
				bar.Finish()
			}
			out := c.OutOrStdout()
			fmt.Fprintf(out, "%s (%s), %s per figure, %d cores\n", cfg.Game().Title, cfg, per, cores)
			tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "measure\tbatch\tworkers\tsteps/s\tvs rules\t")
			fmt.Fprintf(tw, "%s\t-\t1\t%s\t100%%\t\n", rulesM.What, human(rulesM.Rate))
			for _, m := range rows {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%.1f%%\t\n", m.What, m.N, m.Workers, human(m.Rate), 100*m.Rate/rulesM.Rate)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(out, "A step writes %d bytes (observations, scalars and masks of every seat; %d with masks only); the ceiling rows clear that many bytes per step at memory speed and do nothing else.\n",
				env.StepBytes(cfg, true), env.StepBytes(cfg, false))
			return nil
		},
	}
	gf.add(c, games.DefaultPlayGame)
	c.Flags().DurationVar(&per, "time", time.Second, "time spent on each figure")
	c.Flags().IntSliceVar(&batches, "batches", []int{1, 64, 1024}, "batch sizes to measure")
	c.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress bar")
	c.Flags().BoolVar(&learner, "learner", false, "measure the learner (train step, inference) instead of the game")
	c.Flags().StringVar(&weights, "weights", "", "with --learner: the network of this .safetensors file or training run folder instead of the game's default")
	c.Flags().StringVar(&torchF, "torch", "", "with --learner: torch_learner.py's saved output for the same network, printed beside")
	return c
}

// benchLearner is bench --learner: train.MeasureLearner on one core and on
// all, beside the PyTorch anchor's figures when given.
func benchLearner(c *cobra.Command, game string, gameSet bool, weights, torchFile string, per time.Duration) error {
	var net *neural.Net
	what := ""
	if weights != "" {
		if gameSet {
			return usagef("--game and --weights: give one (the weights file names its game)")
		}
		path, ok, err := weightsOf(c.ErrOrStderr(), weights)
		if err == nil && !ok {
			err = usagef("--weights %s: not a .safetensors file or training run folder", weights)
		}
		if err != nil {
			return err
		}
		n, _, err := neural.Load(path)
		if err != nil {
			return err
		}
		net, what = n, path
	} else {
		cfg, err := train.DefaultConfig(game)
		if err != nil {
			return usageError{err}
		}
		arch, err := cfg.Arch()
		if err != nil {
			return err
		}
		if net, err = neural.NewInit(arch, rules.NewRNG(1)); err != nil {
			return err
		}
		what = game + "'s default network"
	}
	var torchRates []train.LearnerRates
	torchHeader := ""
	if torchFile != "" {
		f, err := os.Open(torchFile)
		if err != nil {
			return err
		}
		torchHeader, torchRates, err = train.ParseTorchLearner(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", torchFile, err)
		}
	}
	cores := runtime.GOMAXPROCS(0)
	var rows []train.LearnerRates
	for _, n := range []int{1, cores} {
		if len(rows) > 0 && rows[0].Cores == n {
			continue
		}
		r, err := train.MeasureLearner(net.Clone(), n, per)
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	a := net.Arch
	out := c.OutOrStdout()
	fmt.Fprintf(out, "%s: %s, filters %d, layers %d, hidden %d, input %d×%d×%d, %s per figure, kernel %s\n",
		what, a.Game, a.Filters, a.Layers, a.Hidden, a.Cin(), a.Height, a.Width, per, sgemm.Kernel())
	if torchHeader != "" {
		fmt.Fprintf(out, "anchor (%s): %s\n", torchFile, torchHeader)
	}
	tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "cores\ttrain samples/s\tforward b=64 obs/s\tforward b=1 obs/s\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%.0f\t%.0f\t%.0f\t\n", r.Cores, r.Train, r.Forward64, r.Forward1)
		for _, t := range torchRates {
			if t.Cores != r.Cores {
				continue
			}
			fmt.Fprintf(tw, "torch %d\t%.0f\t%.0f\t%.0f\t\n", t.Cores, t.Train, t.Forward64, t.Forward1)
			fmt.Fprintf(tw, "ratio\t%.2f×\t%.2f×\t%.2f×\t\n", r.Train/t.Train, r.Forward64/t.Forward64, r.Forward1/t.Forward1)
		}
	}
	if len(rows) == 2 {
		fmt.Fprintf(tw, "%d cores / 1\t%.2f×\t%.2f×\t%.2f×\t\n", rows[1].Cores,
			rows[1].Train/rows[0].Train, rows[1].Forward64/rows[0].Forward64, rows[1].Forward1/rows[0].Forward1)
	}
	return tw.Flush()
}

// human prints a rate with a k/M suffix.
func human(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.2f M", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1f k", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}
