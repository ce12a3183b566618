package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/eval"
	gridgames "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
)

// heldoutGames is --games' default: issue 54's tables are at least 400
// games, rounded up to whole rounds of the seating orders.
const heldoutGames = 400

func newHeldoutCmd() *cobra.Command {
	var (
		gf      gameFlags
		bot     string
		with    string
		against string
		games   int
		workers int
		report  string
		quiet   bool
	)
	c := &cobra.Command{
		Use:   "heldout",
		Short: "Measure a bot against the game's held-out bots, which no training sees",
		Long: `Play one table per held-out bot of the game (the test set: hand-written bots
that no training pool, teacher or baseline may contain; 'gridgym games' lists
them) and say whether the bot beats each one:

  {BOT, the held-out bot, the game's reference bots}

seated in every order, --games games each (default: the smallest number of
whole rounds of the seatings that is at least 400). The reference bots are the
project's strongest scripted bots (--with names others), so each table is
issue 54's acceptance table: the bot beats a held-out bot when its per-game
margin over it (its score less the held-out bot's in each game, averaged,
with a 95% interval) has the whole interval above 0; "level" when the
interval holds 0. The exit status is 0 either way; the last line says
whether the bot beat every held-out bot.

A network is entered as for 'gridgym tournament' (a weights file plays the
settings it stores); a held-out bot given as BOT is refused (it cannot be
measured against itself).`,
		Example: `  gridgym heldout --game nuggets --bot models/nuggets/final.safetensors
  gridgym heldout --game rectangle --bot runs/rectangle --games 96 --report results/heldout
  gridgym heldout --game bovine-borders --bot net=runs/bb --with greedy,defensive_dan_heng --against lookahead_lena`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) (err error) {
			ctx, done := hostingInterruptible(c.ErrOrStderr(), "no new game starts; the tables played so far are reported", nil)
			defer func() { err = done(err) }()
			cfg, err := gf.config()
			if err != nil {
				return err
			}
			game := cfg.Game().Name
			if strings.TrimSpace(bot) == "" {
				return usagef("--bot: which bot to measure (a weights file, run folder or bot name), e.g. --bot models/%s/final.safetensors", game)
			}
			held := agents.HeldOut(game)
			if against != "" {
				var pick []string
				for _, h := range strings.Split(against, ",") {
					h = strings.TrimSpace(h)
					if !slices.Contains(held, h) {
						return usagef("--against %s: not a held-out bot of %s (they are: %s)", h, game, strings.Join(held, ", "))
					}
					pick = append(pick, h)
				}
				held = pick
			}
			if len(held) == 0 {
				return usagef("%s has no held-out bots to measure against", game)
			}
			company := agents.Reference(game)
			if with != "" {
				company = nil
				for _, w := range strings.Split(with, ",") {
					company = append(company, strings.TrimSpace(w))
				}
			}
			if _, b := agents.SplitLabel(bot); slices.Contains(agents.HeldOut(game), b) {
				return usagef("--bot %s is a held-out bot of %s: it is what the bot is measured against", bot, game)
			}
			if games < 0 || games > eval.MaxGames {
				return usagef("--games %d: want 1..%d (0 = the smallest number of whole rounds of the seatings ≥ %d)", games, eval.MaxGames, heldoutGames)
			}
			if workers < 0 || workers > eval.MaxWorkers {
				return usagef("--workers %d: want 0 (all cores) to %d games in parallel", workers, eval.MaxWorkers)
			}
			if kept := seatCompany(cfg, company); len(kept) < len(company) {
				fmt.Fprintf(c.ErrOrStderr(), "note: %s seats %d: the tables keep the first %d of %s\n", game, cfg.Game().New(cfg).Spec().Seats, len(kept), strings.Join(company, ", "))
				company = kept
			}
			// One resolution of every bot: the game carries the parameters a
			// network was trained with (the same in every table).
			all := append(append([]string{bot}, held...), company...)
			if cfg, _, err = gf.configAndBots(strings.Join(all, ",")); err != nil {
				return err
			}
			p := heldoutPlan{cfg: cfg, bot: bot, held: held, company: company, games: games, seed: gf.seed, workers: workers, report: report}
			if !quiet {
				p.progress = c.ErrOrStderr()
			}
			return p.run(ctx, c.OutOrStdout())
		},
	}
	gf.add(c, gridgames.DefaultPlayGame)
	c.Flags().StringVarP(&bot, "bot", "b", "", "the bot to measure: a weights file, run folder, registered name, or LABEL=SPEC")
	c.Flags().StringVar(&with, "with", "", "comma-separated bots that fill the other seats of every table (default: the game's reference bots, its strongest scripted ones)")
	c.Flags().StringVar(&against, "against", "", "comma-separated held-out bots to play (default: all of the game's)")
	c.Flags().IntVarP(&games, "games", "n", 0, "games per table (0 = the smallest number of whole rounds of the seating orders ≥ 400)")
	c.Flags().IntVar(&workers, "workers", 0, "games played in parallel (0 = one per core)")
	c.Flags().StringVar(&report, "report", "", "also write each table's report (ratings, plots, games.jsonl) into DIR/HELD-OUT-BOT")
	c.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress lines")
	return c
}

// seatCompany is the first of company that fit a table of cfg's game
// beside the bot and a held-out bot: its seats − 2.
func seatCompany(cfg rules.Config, company []string) []string {
	return company[:min(len(company), max(cfg.Game().New(cfg).Spec().Seats-2, 0))]
}

// heldoutPlan is a run of held-out tables: bot against each of held, every
// table seating company beside them (at most the game's seats − 2 bots).
type heldoutPlan struct {
	cfg           rules.Config
	bot           string
	held, company []string
	games         int    // per table; 0: the smallest number of whole rounds of the seatings ≥ heldoutGames
	seed          uint64 // every table's
	workers       int
	report        string    // each table's report into report/<held-out bot>; "" none
	progress      io.Writer // a line per table as it starts; nil none
}

// run plays the tables one after another and prints them (writeHeldout);
// stopped (ctx), it prints the tables finished.
func (p heldoutPlan) run(ctx context.Context, w io.Writer) error {
	spec := p.cfg.Game().New(p.cfg).Spec()
	notePlaySettings(w, []string{p.bot})
	beside := "alone"
	if len(p.company) > 0 {
		beside = "beside " + strings.Join(p.company, ", ")
	}
	fmt.Fprintf(w, "%s against %s's held-out bots, each %s, every seating order, seed %d:\n", p.bot, spec.Game, beside, p.seed)
	var ms []eval.Margin
	for _, h := range p.held {
		lineup := append([]string{p.bot, h}, p.company...)
		n := p.games
		if n == 0 {
			k := len(eval.Seatings(eval.Config{Bots: lineup, AllOrders: true}, spec.Seats))
			n = (heldoutGames + k - 1) / k * k
		}
		if p.progress != nil {
			fmt.Fprintf(p.progress, "%s: %d games…\n", h, n)
		}
		m, err := heldoutTable(ctx, p.cfg, lineup, n, p.seed, p.workers, p.report, h)
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			break
		}
		ms = append(ms, m)
	}
	return writeHeldout(w, ms, len(p.held), p.report)
}

// heldoutTable plays one table (lineup: the bot, the held-out bot, the
// company) in every seating order and returns the bot's margin over the
// held-out bot; with report set, the table's report goes to report/held.
func heldoutTable(ctx context.Context, cfg rules.Config, lineup []string, games int, seed uint64, workers int, report, held string) (eval.Margin, error) {
	labels, err := agents.Labels(lineup)
	if err != nil {
		return eval.Margin{}, usageError{err}
	}
	res, err := eval.Run(ctx, eval.Config{Game: cfg, Bots: lineup, Games: games, Seed: seed, Workers: workers, AllOrders: true})
	if err != nil && (res == nil || len(res.Games) == 0) {
		return eval.Margin{}, fmt.Errorf("held-out table %s: %w", held, err)
	}
	if report != "" {
		opt := eval.ReportOptions{Dir: filepath.Join(report, held), Analyze: eval.AnalyzeOptions{Ratings: eval.RatingOptions{Seed: seed}}}
		if _, err := eval.Report(io.Discard, res, opt); err != nil {
			return eval.Margin{}, fmt.Errorf("held-out table %s: report: %w", held, err)
		}
	}
	m, err := eval.PairMargin(res, labels[0], labels[1])
	if err != nil && ctx.Err() == nil {
		return eval.Margin{}, fmt.Errorf("held-out table %s: %w", held, err)
	}
	return m, nil
}

// writeHeldout prints the margins as a table, a verdict per held-out bot,
// and whether the bot beat all of the want tables (fewer margins than want:
// stopped early).
func writeHeldout(w io.Writer, ms []eval.Margin, want int, report string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "held-out bot\tgames\tbot\theld-out\tmargin a game [95%%]\tverdict\t\n")
	beat := 0
	for _, m := range ms {
		verdict := "level"
		switch {
		case m.Lo > 0:
			verdict, beat = "above", beat+1
		case m.Hi < 0:
			verdict = "below"
		}
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%+.2f [%+.2f, %+.2f]\t%s\t\n", m.B, m.Games, m.MeanA, m.MeanB, m.Mean, m.Lo, m.Hi, verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(ms) > 0 {
		fmt.Fprintf(w, "(%s a game)\n", ms[0].Score)
	}
	switch {
	case len(ms) < want:
		fmt.Fprintf(w, "stopped early: %d of %d tables played\n", len(ms), want)
	case beat == want:
		fmt.Fprintf(w, "beats every held-out bot (%d of %d, each interval above 0)\n", beat, want)
	default:
		fmt.Fprintf(w, "beats %d of %d held-out bots (a bot beaten has its whole interval above 0)\n", beat, want)
	}
	if report != "" {
		fmt.Fprintf(w, "reports: %s\n", filepath.Join(report, "<held-out bot>", "report.md"))
	}
	return nil
}
