package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/store"
)

func newRateCmd() *cobra.Command {
	var (
		gf        gameFlags
		report    string
		resamples int
	)
	c := &cobra.Command{
		Use:   "rate FILE|URL...",
		Short: "Rate the games of tournaments again, pooled: standings, Plackett–Luce ratings and their gaps",
		Long: `Read the games.jsonl files that 'gridgym tournament --report DIR' wrote and rate
their games together: the standings, the Plackett–Luce ratings with bootstrap
intervals and, for every pair of bots, the gap between their ratings with its
own bootstrap interval (the two bots' own intervals cannot say how sure the
gap is: their resampling errors are correlated). Bots are matched by the names in
the files' lineups (a tournament's labels), so the same lineup played with
other seeds pools into one table. --game names the files' game; --report DIR
writes the full report there (report.md, report.html, plots, games.jsonl of
the pooled games). A file may be a URL (file://, s3://…: downloaded first).`,
		Example: `  gridgym rate --game bovine-borders t1/games.jsonl t2/games.jsonl
  gridgym rate --game slime --report pooled seed1/games.jsonl seed2/games.jsonl seed3/games.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) (err error) {
			// Ctrl-C and SIGTERM stop at once, removing downloaded inputs.
			_, done := hostingInterruptible(c.ErrOrStderr(), "", nil)
			defer func() { err = done(err) }()
			cfg, err := gf.config()
			if err != nil {
				return err
			}
			if resamples < 1 || resamples > eval.MaxResamples {
				return usagef("--resamples %d: want 1..%d (each resample refits every rating; the intervals settle long before)", resamples, eval.MaxResamples)
			}
			var recs []eval.GameRecord
			for _, a := range args {
				path, cleanup, err := localInput(a, "")
				if err != nil {
					return err
				}
				f, err := os.Open(path)
				if err != nil {
					cleanup()
					return fmt.Errorf("%s: %w", store.Redact(a), err)
				}
				rs, err := eval.ReadJSONL(f)
				f.Close()
				cleanup()
				if err != nil {
					return fmt.Errorf("%s: %w", store.Redact(a), err)
				}
				recs = append(recs, rs...)
			}
			if len(recs) == 0 {
				return usagef("no games in %d file(s)", len(args))
			}
			res, err := eval.FromRecords(cfg, recs)
			if err != nil {
				return err
			}
			opt := eval.ReportOptions{Analyze: eval.AnalyzeOptions{Ratings: eval.RatingOptions{Seed: gf.seed, Resamples: resamples}}, PrintRatings: true}
			var out *output
			if report != "" {
				if out, err = openOutput(report); err != nil {
					return err
				}
				opt.Dir = out.dir
				opt.Saved = func() error { return out.finish(c.Context()) }
			}
			paths, err := eval.Report(c.OutOrStdout(), res, opt) // the report, then the table and the ratings
			if err != nil {
				return err
			}
			for i := range paths {
				paths[i] = out.show(paths[i])
			}
			if len(paths) > 0 {
				fmt.Fprintf(c.OutOrStdout(), "\nreport:\n")
				for _, p := range paths {
					fmt.Fprintf(c.OutOrStdout(), "  %s\n", p)
				}
			}
			return nil
		},
	}
	gf.add(c, "")
	c.Flags().StringVar(&report, "report", "", "also write the pooled report into this folder (or URL: file://, s3://…)")
	c.Flags().IntVar(&resamples, "resamples", eval.DefaultResamples, "bootstrap resamples of the games behind the intervals")
	return c
}
