package main

import (
	"fmt"
	"os"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/env"
)

func newBenchCmd() *cobra.Command {
	var (
		gf      gameFlags
		per     time.Duration
		batches []int
		quiet   bool
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
The same figures as 'go test -bench' in rules/<game> and env.`,
		Example: `  gridgym bench --game rising-tide
  gridgym bench --game slime --batches 1,1024 --time 2s`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
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
	gf.add(c, "rising-tide")
	c.Flags().DurationVar(&per, "time", time.Second, "time spent on each figure")
	c.Flags().IntSliceVar(&batches, "batches", []int{1, 64, 1024}, "batch sizes to measure")
	c.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress bar")
	return c
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
