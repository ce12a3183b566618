package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/eval/heldout"
	gridgames "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
)

func newHeldoutCmd() *cobra.Command {
	var (
		gf      gameFlags
		bot     string
		with    []string
		against string
		games   int
		workers int
		report  string
		quiet   bool
		curve   int
		iters   []int
	)
	c := &cobra.Command{
		Use:   "heldout",
		Short: "Measure a bot against the game's held-out bots, which no training sees",
		Long: `Play one table per held-out bot of the game (the test set: hand-written bots
that no training pool, teacher or baseline may contain; 'gridgym games' lists
them) and say whether the bot beats each one:

  {BOT, the held-out bot, a company of two}

seated in every order, --games games each (default: the smallest number of
whole rounds of the seatings that is at least 400), in two companies: the
game's reference bots (the project's strongest scripted bots: issue 54's
acceptance table) and its field (the sample bots its competition's own runs
seat; for Nuggets and Rectangle, which published none, the project's bots
the first measurements seated). A bot that beats a held-out bot beside the
strong can lose to it beside the weak, which leave the held-out bot other
prey (reports/heldout-forms), so a robust bot wins in both. --with names the
company instead: bots, or the words reference and field; repeat it for
several. The bot beats a held-out bot when its per-game margin over it (its
score less the held-out bot's in each game, averaged, with a 95% interval)
has the whole interval above 0; "level" when the interval holds 0. The exit
status is 0 either way; the last lines say whether the bot beat every
held-out bot in every company, and name the tables where it did not.

A network is entered as for 'gridgym tournament' (a weights file plays the
settings it stores); a held-out bot given as BOT is refused (it cannot be
measured against itself).

The learning curve: with --curve N and BOT a training run folder, the same
tables are played for N of the run's checkpoints evenly spaced from the
first to the last (--iterations names them instead), --games 96 each unless
given, in one company (the reference bots unless --with names another), and
printed as a table of margins by iteration; --report DIR also
writes DIR/curve.png (the margins with their intervals), DIR/curve.csv and
each table's report under DIR/iter-N. The run never saw the held-out bots, so
the curve shows what training did for strategies it never met.`,
		Example: `  gridgym heldout --game nuggets --bot models/nuggets/final.safetensors
  gridgym heldout --game rectangle --bot runs/rectangle --games 96 --report results/heldout
  gridgym heldout --game bovine-borders --bot net=runs/bb --with greedy,defensive_dan_heng --against lookahead_lena
  gridgym heldout --game rising-tide --bot models/rising-tide/final.safetensors --with field    # beside the sample bots only
  gridgym heldout --game rectangle --bot runs/rectangle --curve 5 --report results/curve    # the learning curve: 5 checkpoints
  gridgym heldout --game nuggets --bot runs/nuggets --iterations 0,50,100 --games 192`,
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
			if _, b := agents.SplitLabel(bot); slices.Contains(agents.HeldOut(game), b) {
				return usagef("--bot %s is a held-out bot of %s: it is what the bot is measured against", bot, game)
			}
			if games < 0 || games > eval.MaxGames {
				return usagef("--games %d: want 1..%d (0 = the smallest number of whole rounds of the seatings ≥ %d, %d with --curve)", games, eval.MaxGames, heldout.MinGames, heldout.CurveGames)
			}
			if curve < 0 {
				return usagef("--curve %d: want the number of checkpoints (0 = off)", curve)
			}
			for _, it := range iters {
				if it < 0 {
					return usagef("--iterations %d: want checkpoint iterations, comma-separated (e.g. 0,60,120)", it)
				}
			}
			if workers < 0 || workers > eval.MaxWorkers {
				return usagef("--workers %d: want 0 (all cores) to %d games in parallel", workers, eval.MaxWorkers)
			}
			wantCurve := curve > 0 || len(iters) > 0
			companies, err := heldoutCompanies(c, cfg, with, wantCurve)
			if err != nil {
				return err
			}
			// One resolution of every bot: the game carries the parameters a
			// network was trained with (the same in every table).
			all := append([]string{bot}, held...)
			for _, co := range companies {
				all = append(all, co.Bots...)
			}
			if cfg, _, err = gf.configAndBots(strings.Join(all, ",")); err != nil {
				return err
			}
			p := heldout.Plan{Config: cfg, Bot: bot, Held: held, Company: companies[0].Bots, Games: games, Seed: gf.seed, Workers: workers, Report: report}
			if !quiet {
				p.Progress = c.ErrOrStderr()
			}
			if wantCurve {
				cv, err := heldout.NewCurve(p, curve, iters)
				if err != nil {
					return usagef("--curve: %v", err)
				}
				return cv.Run(ctx, c.OutOrStdout())
			}
			notePlaySettings(c.OutOrStdout(), []string{bot})
			return p.RunCompanies(ctx, c.OutOrStdout(), companies)
		},
	}
	gf.add(c, gridgames.DefaultPlayGame)
	c.Flags().StringVarP(&bot, "bot", "b", "", "the bot to measure: a weights file, run folder, registered name, or LABEL=SPEC")
	c.Flags().StringArrayVar(&with, "with", nil, "the company of every table: comma-separated bots that fill its other seats, or 'reference' (the game's strongest scripted bots) or 'field' (its sample bots); repeat it for tables in several companies (default: reference and field; reference with --curve)")
	c.Flags().StringVar(&against, "against", "", "comma-separated held-out bots to play (default: all of the game's)")
	c.Flags().IntVarP(&games, "games", "n", 0, "games per table (0 = the smallest number of whole rounds of the seating orders ≥ 400)")
	c.Flags().IntVar(&workers, "workers", 0, "games played in parallel (0 = one per core)")
	c.Flags().StringVar(&report, "report", "", "also write each table's report (ratings, plots, games.jsonl) into DIR/HELD-OUT-BOT")
	c.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress lines")
	c.Flags().IntVar(&curve, "curve", 0, "the learning curve of a run folder (--bot): N checkpoints evenly spaced from the first to the last (0 = off)")
	c.Flags().IntSliceVar(&iters, "iterations", nil, "the learning curve at these checkpoints' iterations, comma-separated (e.g. 0,60,120)")
	return c
}

// heldoutCompanies are the companies of gridgym heldout's tables: each
// --with (bots, or the words reference and field), else the game's
// defaults (heldout.Companies; its reference bots only for a learning
// curve, which plays one company), each cut to the game's seats.
func heldoutCompanies(c *cobra.Command, cfg rules.Config, with []string, curve bool) ([]heldout.Company, error) {
	game := cfg.Game().Name
	if len(with) == 0 {
		cs := heldout.Companies(cfg)
		if curve {
			cs = cs[:1]
		}
		return cs, nil
	}
	if curve && len(with) > 1 {
		return nil, usagef("--with given %d times: a learning curve plays its tables in one company", len(with))
	}
	var cs []heldout.Company
	for _, w := range with {
		co := heldout.Company{Name: strings.TrimSpace(w)}
		var word bool
		if co.Bots, word = agents.Company(game, co.Name); word && co.Bots == nil {
			return nil, usagef("--with %s: %s names none; name the bots", co.Name, game)
		} else if !word {
			for _, b := range strings.Split(w, ",") {
				co.Bots = append(co.Bots, strings.TrimSpace(b))
			}
			co.Name = "with-" + strings.NewReplacer("/", "_", ":", "_", "=", "_", " ", "_").Replace(strings.Join(co.Bots, "+"))
		}
		if kept := heldout.SeatCompany(cfg, co.Bots); len(kept) < len(co.Bots) {
			fmt.Fprintf(c.ErrOrStderr(), "note: %s seats %d: the tables keep the first %d of %s\n", game, cfg.Game().New(cfg).Spec().Seats, len(kept), strings.Join(co.Bots, ", "))
			co.Bots = kept
		}
		cs = append(cs, co)
	}
	return cs, nil
}
