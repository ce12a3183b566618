package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/host"
	"github.com/gridgym/gridgym/eval"
	gridgames "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/viewer"
)

func newTournamentCmd() *cobra.Command {
	var (
		gf        gameFlags
		bots      string
		games     int
		workers   int
		quiet     bool
		report    string
		replays   int
		replayDir string
		policy    bool
		allOrders bool
		margins   []string
	)
	c := &cobra.Command{
		Use:   "tournament",
		Short: "Run many games with seats rotated and rank the bots",
		Long: `Run --games games between the bots and print each bot's tournament score
(the game's own aggregate: mean rounds survived, mean cells, sum of
log-scores, mean placement points …) with 95% intervals, win share and its
rank distribution, then every bot's answer times in this process (mean,
median, 99th percentile and slowest move: what a search bot's budget costs
on this machine).

Seating: with at most as many bots as seats, game i seats bot (s+i) mod n at
seat s, so every bot plays every seat; with more bots than seats, every
combination of distinct bots is played in every rotation, cycled until
--games games are played. --all-orders seats them in every order instead
(every permutation of each seating): a rotation always seats a bot between
the same two, so with three or more different bots each keeps its
neighbours. Where neighbours matter (the turn order of a sequential game;
the nearest rivals on a board with a home corner per seat) that can decide
the result: in Bovine Borders a rotated table rated one network 2.03
points and the same network under another name 0.18; in Rising Tide the
bot listed first is always the seat after the last one's, which attackers
that break ties in seat order dig at first (the shipped network, listed
first with breach_berlin, wall_warsaw, sapper_seoul: 205 rounds to
breach_berlin's 800 rotated, 373 to 636 in every order). Compare bots of
different kinds with --all-orders. Without --bots, every bot of the game plays.
--report DIR adds ratings (Plackett–Luce, Elo-like scale) with 95% bootstrap
intervals, head-to-head win rates with Wilson intervals, each bot's score by
its seat's place after every other bot's (games of 3+ seats) and plots. A bot may
be a registered name, a weights file, a checkpoint folder
(runs/x/checkpoints/iter-000050) or a training run folder, or the URL of a
weights file or run folder (file://…, s3://bucket/run?endpoint=…: downloaded
first).
--replays K saves the first K games (their moves and seeds) as replay files
for 'gridgym replay FILE', in --replay-dir (default: DIR/replays with
--report, else ./replays); with --report each one is also a web page,
DIR/replays/replay-NNNN.html, linked from the report's Replays table;
--with-policy adds to it each network seat's top moves (a heat map) and
value at every position.
--margin A,B prints the per-game margin of bot A over bot B (labels as
the table names them): in every game that seats both, A's score less B's,
with its 95% interval; the form in which gridgym's strength acceptance
reads a table (the network above a held-out bot with the interval above
0). Repeat it for more pairs.
--report and --replay-dir may be URLs (file://, s3://…): written locally,
then uploaded.
Ctrl-C stops early and reports the games finished so far, then exits with
status 130; a second Ctrl-C, or SIGTERM, stops at once (143 for SIGTERM).
Either way every hosted bot (py:, cmd:) is killed and its temporary folder
removed.`,
		Example: `  gridgym tournament --game rising-tide --games 120
  gridgym tournament --game slime --bots simplebot,random --games 200 --seed 3
  gridgym tournament --game slime --bots a=run/best.safetensors,b=run/best.safetensors,greedy,simplebot --all-orders --games 408
  gridgym tournament --game slime --bots net=models/slime/final.safetensors,surveyor,greedy,simplebot --all-orders --games 480 --margin net,surveyor`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) (err error) {
			// From the first bot spec resolved (a py: bot's import check
			// runs it), Ctrl-C and SIGTERM leave no bot behind.
			ctx, done := hostingInterruptible(c.ErrOrStderr(), "no new game starts; the games under way finish and are reported", nil)
			defer func() { err = done(err) }()
			cfg, names, err := gf.configAndBots(bots)
			if err != nil {
				return err
			}
			g := cfg.Game()
			spec := g.New(cfg).Spec()
			pairs, err := marginPairs(margins, names)
			if err != nil {
				return err
			}
			if games < 0 {
				return usagef("--games %d: want at least 1 (or 0 for a balanced schedule)", games)
			}
			if games > eval.MaxGames {
				return tooManyGames(games)
			}
			if games == 0 { // the smallest balanced schedule of at least 100 games
				n := len(eval.Seatings(eval.Config{Bots: names, AllOrders: allOrders}, spec.Seats))
				games = (100 + n - 1) / n * n
			}
			if workers < 0 || workers > eval.MaxWorkers {
				return usagef("--workers %d: want 0 (all cores) to %d games in parallel", workers, eval.MaxWorkers)
			}
			if replays < 0 || replays > eval.MaxGames {
				return usagef("--replays %d: want 0..%d games to save", replays, eval.MaxGames)
			}
			if policy && (replays == 0 || report == "") {
				return usagef("--with-policy goes with --replays K and --report DIR (it adds the networks' views to the replay pages)")
			}
			if kinds := distinctBots(names); !allOrders && spec.Seats > 2 && (kinds > 2 || spec.Sequential && kinds > 1) {
				fmt.Fprintf(c.ErrOrStderr(), "note: rotated seatings keep each bot's neighbours in %s, which can decide games; --all-orders seats every order\n", g.Name)
			}
			// Reports and replays are written locally; a URL's are
			// uploaded when the tournament ends.
			var reportOut, replayOut *output
			if report != "" {
				if reportOut, err = openOutput(report); err != nil {
					return err
				}
			}
			switch {
			case replayDir != "":
				if replayOut, err = openOutput(replayDir); err != nil {
					return err
				}
			case reportOut != nil:
				replayOut = &output{dir: filepath.Join(reportOut.dir, "replays")} // uploaded with the report
			default:
				replayOut = &output{dir: "replays"}
			}
			notePlaySettings(c.OutOrStdout(), names) // what each network plays with (issue 54)
			var bar *progressbar.ProgressBar
			if !quiet && isTerminal(os.Stderr) {
				bar = progressbar.NewOptions(games, progressbar.OptionSetWriter(os.Stderr),
					progressbar.OptionSetDescription(g.Name), progressbar.OptionShowCount(),
					progressbar.OptionSetItsString("games"), progressbar.OptionShowIts(),
					progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
			}
			res, err := eval.Run(ctx, eval.Config{
				Game: cfg, Bots: names, Games: games, Seed: gf.seed, Workers: workers, AllOrders: allOrders,
				Replays: replays, ReplayDir: replayOut.dir,
				Progress: func(done int) {
					if bar != nil {
						bar.Set(done)
					}
				},
			})
			if bar != nil {
				bar.Finish()
			}
			if err != nil && (res == nil || len(res.Games) == 0) {
				return err
			}
			if ctx.Err() != nil {
				fmt.Fprintf(c.ErrOrStderr(), "stopped early: %d of %d games\n", len(res.Games), games)
			}
			// eval.Report writes the report (and uploads it) before it
			// prints anything: output piped into a reader that stops early
			// (| head) kills the process at its next write, and must not
			// cost the report.
			opt := eval.ReportOptions{Analyze: eval.AnalyzeOptions{Ratings: eval.RatingOptions{Seed: gf.seed}}, PrintAnswerTimes: true, Margins: pairs}
			if reportOut != nil {
				opt.Dir = reportOut.dir
				opt.Saved = func() error { return reportOut.finish(ctx) }
				// Each replay as a web page in the report, linked from it.
				// The replays name bots by label; --with-policy loads each from its spec.
				opt.Pages = func(dir string, r *eval.Result) (map[int]string, []string, error) {
					specs := map[string]string{}
					if labels, lerr := agents.Labels(names); lerr == nil {
						for i, l := range labels {
							specs[l] = names[i]
						}
					}
					return viewer.WritePages(dir, r.Replays, viewer.Options{Policy: policy, Specs: specs})
				}
			}
			paths, rerr := eval.Report(c.OutOrStdout(), res, opt) // the table, then every bot's cost per move
			if rerr != nil {
				return rerr
			}
			if err := host.WriteTimings(c.OutOrStdout()); err != nil { // hosted bots' answer times vs the limit
				return err
			}
			if len(paths) > 0 {
				fmt.Fprintf(c.OutOrStdout(), "\nreport (ratings with 95%% bootstrap intervals, head-to-head win rates, plots):\n")
				for _, p := range paths {
					fmt.Fprintf(c.OutOrStdout(), "  %s\n", reportOut.show(p))
				}
			}
			if len(res.Replays) > 0 {
				shown := replayOut
				if replayOut.loc == "" && reportOut != nil {
					shown = reportOut
				}
				if replayOut.loc != "" {
					if err := replayOut.finish(ctx); err != nil {
						return err
					}
				}
				fmt.Fprintf(c.OutOrStdout(), "\n%s in %s (play one back: gridgym replay %s)\n",
					plural(len(res.Replays), "replay"), shown.show(replayOut.dir), shellWord(shown.show(res.Replays[0])))
				if reportOut != nil {
					fmt.Fprintf(c.OutOrStdout(), "watch one in a browser: %s (report.html links every game's page)\n",
						reportOut.show(filepath.Join(reportOut.dir, "replays", "replay-0000.html")))
				}
			}
			if err != nil && ctx.Err() == nil { // not Ctrl-C: a replay file could not be written
				return err
			}
			return nil
		},
	}
	gf.add(c, gridgames.DefaultPlayGame)
	c.Flags().StringVarP(&bots, "bots", "b", "", "comma-separated bots: names, weights files or run folders, or their URLs (default: every bot of the game)")
	c.Flags().IntVarP(&games, "games", "n", 0, "number of games (0 = the smallest multiple of the seatings ≥ 100, so every bot plays every seat equally)")
	c.Flags().IntVar(&workers, "workers", 0, "games played in parallel (0 = one per core)")
	c.Flags().BoolVar(&allOrders, "all-orders", false, "seat the bots in every order, not only rotated: a rotation always seats a bot right after the same one, which in a sequential game (Slime) gives two copies of one bot different neighbours; every order gives each bot each neighbour equally (4 bots: 24 seatings; --games 0 rounds up to a multiple)")
	c.Flags().StringVar(&report, "report", "", "also write a report into this folder (or URL: file://, s3://…; written locally, then uploaded): Plackett–Luce ratings with bootstrap intervals, pairwise win rates, plots (report.md, report.html, games.jsonl)")
	c.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress bar")
	c.Flags().StringArrayVar(&margins, "margin", nil, "A,B: print bot A's per-game margin over bot B with its 95% interval (labels as the table names them; repeatable)")
	c.Flags().IntVar(&replays, "replays", 0, "save the first K games as replay files ('gridgym replay FILE'; with --report also as web pages linked from the report)")
	addBotLogFlag(c)
	c.Flags().BoolVar(&policy, "with-policy", false, "with --replays and --report: the replay pages show each network seat's top moves (a heat map) and value at every position")
	c.Flags().StringVar(&replayDir, "replay-dir", "", "folder or URL (file://, s3://…) for --replays (default: REPORT/replays with --report, else replays)")
	return c
}

// marginPairs parses --margin's "A,B" values into label pairs, each a
// label of one of the bots (agents.Labels of specs) and the two different,
// before any game is played.
func marginPairs(flags, specs []string) ([][2]string, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	labels, err := agents.Labels(specs)
	if err != nil {
		return nil, err
	}
	var pairs [][2]string
	for _, f := range flags {
		a, b, ok := strings.Cut(f, ",")
		a, b = strings.TrimSpace(a), strings.TrimSpace(b)
		if !ok || a == "" || b == "" || strings.Contains(b, ",") {
			return nil, usagef("--margin %q: want two bot labels A,B (e.g. --margin net,surveyor)", f)
		}
		for _, l := range []string{a, b} {
			if !slices.Contains(labels, l) {
				return nil, usagef("--margin %q: no bot labelled %q (the bots: %s)", f, l, strings.Join(labels, ", "))
			}
		}
		if a == b {
			return nil, usagef("--margin %q: two different bots, please", f)
		}
		pairs = append(pairs, [2]string{a, b})
	}
	return pairs, nil
}

// distinctBots counts the different bots among specs, labels aside: one bot
// against three copies of another (s=X,a=Y,b=Y,c=Y) is two, and every
// rotation gives each of them the same kinds of neighbours.
func distinctBots(specs []string) int {
	seen := map[string]bool{}
	for _, s := range specs {
		_, bot := agents.SplitLabel(s)
		seen[bot] = true
	}
	return len(seen)
}

// tooManyGames is the error for a --games over eval.MaxGames: the bound,
// why there is one, and how to play more.
func tooManyGames(games int) error {
	return usagef("--games %d: at most %d: every game's result is kept in memory for the table, the ratings and games.jsonl; for more, run tournaments with other --seed values and pool their games.jsonl with 'gridgym rate'", games, eval.MaxGames)
}
