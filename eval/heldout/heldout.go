// Package heldout plays issue 54's acceptance tables: a bot against each of
// its game's held-out bots (agents.HeldOut, the test set no training sees)
// beside the game's reference bots, in every seating order, with the bot's
// per-game margin over each held-out bot and a verdict; and the learning
// curve of a training run against them, one set of tables per checkpoint.
// gridgym heldout and the pipeline's held-out step run it.
package heldout

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/rules"
)

// MinGames is the default number of games of a table: issue 54's tables
// are at least 400 games, rounded up to whole rounds of the seating orders
// (Games).
const MinGames = 400

// SeatCompany is the first of company that fit a table of cfg's game
// beside the bot and a held-out bot: its seats − 2.
func SeatCompany(cfg rules.Config, company []string) []string {
	return company[:min(len(company), max(cfg.Game().New(cfg).Spec().Seats-2, 0))]
}

// Plan is a run of held-out tables: Bot against each of Held, every table
// seating Company beside them (at most the game's seats − 2 bots,
// SeatCompany).
type Plan struct {
	Config        rules.Config
	Bot           string
	Held, Company []string
	Games         int    // per table; 0: the smallest number of whole rounds of the seating orders ≥ MinGames
	Seed          uint64 // every table's
	Workers       int
	Report        string    // each table's report into Report/<held-out bot>; "" none
	Progress      io.Writer // a line per table as it starts; nil none
}

// tableGames is the number of games of held's table: the plan's Games
// where it names a number, else the smallest number of whole rounds of the
// table's seating orders that is at least min.
func (p Plan) tableGames(held string, min int) int {
	if p.Games > 0 {
		return p.Games
	}
	spec := p.Config.Game().New(p.Config).Spec()
	k := len(eval.Seatings(eval.Config{Bots: p.lineup(held), AllOrders: true}, spec.Seats))
	return (min + k - 1) / k * k
}

// lineup is a table's bots: the bot, the held-out bot, the company.
func (p Plan) lineup(held string) []string {
	return append([]string{p.Bot, held}, p.Company...)
}

// Run plays the tables one after another and prints them (Write); stopped
// (ctx), it prints the tables finished.
func (p Plan) Run(ctx context.Context, w io.Writer) error {
	_, err := p.run(ctx, w)
	return err
}

// run is Run, returning the margins of the tables played.
func (p Plan) run(ctx context.Context, w io.Writer) ([]eval.Margin, error) {
	fmt.Fprintf(w, "%s against %s's held-out bots, each %s, every seating order, seed %d:\n", p.Bot, p.Config.Game().Name, p.beside(), p.Seed)
	ms, err := p.tables(ctx, MinGames, p.Report)
	if err != nil {
		return nil, err
	}
	return ms, Write(w, ms, len(p.Held), p.Report)
}

// Company is one set of bots that fill the other seats of every table,
// named for the summary and the reports' folders.
type Company struct {
	Name string
	Bots []string
}

// Companies are a game's default companies: its reference bots (the
// strongest scripted ones, agents.Reference) and, where it names one, its
// field (the competition's sample bots, agents.Field), each cut to the
// seats (SeatCompany); one that comes out the same as the one before it is
// played once.
func Companies(cfg rules.Config) []Company {
	var cs []Company
	for _, c := range []Company{{"reference", agents.Reference(cfg.Game().Name)}, {"field", agents.Field(cfg.Game().Name)}} {
		c.Bots = SeatCompany(cfg, c.Bots)
		if c.Bots == nil || (len(cs) > 0 && slices.Equal(cs[len(cs)-1].Bots, c.Bots)) {
			continue
		}
		cs = append(cs, c)
	}
	if len(cs) == 0 {
		cs = []Company{{"reference", nil}} // a two-seat game: the bot and the held-out bot alone
	}
	return cs
}

// RunCompanies plays p's tables beside each company in turn (p.Company
// unused), printed as Run prints them, each company's reports in
// p.Report/<its name> (in p.Report itself with one company), and ends with
// whether the bot beat every held-out bot in every company, naming each
// table where it did not. A held-out bot beaten beside the strongest
// scripted bots can win beside weak ones (reports/heldout-forms).
func (p Plan) RunCompanies(ctx context.Context, w io.Writer, cs []Company) error {
	var missed []string // per company where the bot did not beat them all: which it did not
	for i, c := range cs {
		q := p
		q.Company = c.Bots
		if p.Report != "" && len(cs) > 1 {
			q.Report = filepath.Join(p.Report, c.Name)
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		ms, err := q.run(ctx, w)
		if err != nil || len(cs) == 1 {
			return err
		}
		if len(ms) < len(p.Held) {
			fmt.Fprintf(w, "\nstopped early: %d of %d companies played\n", i, len(cs))
			return nil
		}
		by := map[string][]string{}
		for _, m := range ms {
			by[Verdict(m)] = append(by[Verdict(m)], m.B)
		}
		var not []string
		if l := by["level"]; len(l) > 0 {
			not = append(not, "level with "+strings.Join(l, ", "))
		}
		if b := by["below"]; len(b) > 0 {
			not = append(not, "below "+strings.Join(b, ", "))
		}
		if len(not) > 0 {
			missed = append(missed, fmt.Sprintf("  %s: %s\n", q.beside(), strings.Join(not, "; ")))
		}
	}
	if len(missed) == 0 {
		fmt.Fprintf(w, "\nin every company (%d): beats every held-out bot\n", len(cs))
	} else {
		fmt.Fprintf(w, "\nnot in every company (%d of %d without a miss):\n%s", len(cs)-len(missed), len(cs), strings.Join(missed, ""))
	}
	return nil
}

// beside says who else sits at every table.
func (p Plan) beside() string {
	if len(p.Company) == 0 {
		return "alone"
	}
	return "beside " + strings.Join(p.Company, ", ")
}

// tables plays one table per held-out bot, min games or more each
// (tableGames), reports into report/<held-out bot> when report is set, and
// returns the margins of the tables finished before ctx stopped them.
func (p Plan) tables(ctx context.Context, min int, report string) ([]eval.Margin, error) {
	var ms []eval.Margin
	for _, h := range p.Held {
		n := p.tableGames(h, min)
		if p.Progress != nil {
			fmt.Fprintf(p.Progress, "%s: %d games…\n", h, n)
		}
		m, err := Table(ctx, p.Config, p.lineup(h), n, p.Seed, p.Workers, report)
		if err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			break
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// Table plays one table (lineup: the bot, the held-out bot, the company)
// in every seating order and returns the bot's margin over the held-out
// bot; with report set, the table's report goes to report/<held-out bot>.
func Table(ctx context.Context, cfg rules.Config, lineup []string, games int, seed uint64, workers int, report string) (eval.Margin, error) {
	labels, err := agents.Labels(lineup)
	if err != nil {
		return eval.Margin{}, err
	}
	held := lineup[1]
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

// Verdict is a margin's verdict: "above" when its whole interval is above
// 0, "below" when below, else "level".
func Verdict(m eval.Margin) string {
	switch {
	case m.Lo > 0:
		return "above"
	case m.Hi < 0:
		return "below"
	}
	return "level"
}

// Write prints the margins as a table, a verdict per held-out bot, and
// whether the bot beat all of the want tables (fewer margins than want:
// stopped early).
func Write(w io.Writer, ms []eval.Margin, want int, report string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "held-out bot\tgames\tbot\theld-out\tmargin a game [95%%]\tverdict\t\n")
	beat := 0
	for _, m := range ms {
		v := Verdict(m)
		if v == "above" {
			beat++
		}
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%+.2f [%+.2f, %+.2f]\t%s\t\n", m.B, m.Games, m.MeanA, m.MeanB, m.Mean, m.Lo, m.Hi, v)
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
