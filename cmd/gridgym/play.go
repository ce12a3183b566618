package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/host"
	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
)

func newPlayCmd() *cobra.Command {
	var (
		gf     gameFlags
		bots   string
		render bool
		every  int
		delay  time.Duration
	)
	c := &cobra.Command{
		Use:   "play",
		Short: "Play one game and print the final scores and ranking",
		Long: `Play one game between the given bots (seat 0 first; a shorter list is
repeated to fill the seats) and print each seat's score, placement points and
rank, then each seat's answer times (mean, p50, p99 and slowest move in this
process). --render draws the board after every step, in colour on a terminal,
after a legend of which symbol is which seat and bot; --every N draws only
the start, every Nth step and the final position (a 10,000-round Bovine
Borders game is 8 MB of boards at every step).
A bot is a registered name, a weights file, a checkpoint folder
(runs/x/checkpoints/iter-000050) or a training run folder, or the URL of a
weights file or run folder (file://…, s3://bucket/run?endpoint=…: downloaded
first).`,
		Example: `  gridgym play --game rising-tide --bots pass_perth,random_rizhao,nearby_new_orleans,trench_tunis --seed 7
  gridgym play --game slime --bots simplebot,random --render --delay 50ms
  gridgym play --game bovine-borders --bots models/bovine-borders/final.safetensors,greedy,centre_cleo,defensive_dan_heng --every 500`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) (err error) {
			if every < 0 {
				return fmt.Errorf("--every %d: want a number of steps ≥ 1 (or 0: every step)", every)
			}
			// Ctrl-C and SIGTERM stop at once, leaving no bot behind.
			_, done := hostingInterruptible(c.ErrOrStderr(), "", nil)
			defer func() { err = done(err) }()
			cfg, names, err := gf.configAndBots(bots)
			if err != nil {
				return err
			}
			g := cfg.Game()
			spec := g.New(cfg).Spec()
			entries := make([]agents.Entry, len(names))
			for i, n := range names {
				entries[i], _ = agents.Lookup(g.Name, n)
			}
			lineup := make([]int, spec.Seats)
			seated := make([]string, spec.Seats)
			for s := range lineup {
				lineup[s] = s % len(names)
				seated[s] = names[lineup[s]]
			}
			out := c.OutOrStdout()
			notePlaySettings(out, names) // what each network plays with (issue 54)
			color := isTerminal(os.Stdout)
			var onStep func(rules.State)
			var boards *boardSampler
			if render || every > 0 {
				writeLegend(out, g.Name, seated)
				boards = &boardSampler{out: out, every: max(every, 1), color: color, delay: delay}
				onStep = boards.step
			}
			res := eval.PlayGame(cfg, entries, lineup, gf.seed, 0, onStep)
			if boards != nil {
				boards.flush() // the final position, unless it was drawn
			}
			fmt.Fprintf(out, "%s (%s), seed %d: %s\n", g.Title, cfg, gf.seed, plural(res.Steps, "step"))
			writeRanking(out, spec, seated, res)
			perSeat := &eval.Result{} // each seat's answer times, in the tournament's table
			for s, name := range seated {
				perSeat.Bots = append(perSeat.Bots, eval.BotStats{Name: fmt.Sprintf("seat %d: %s", s, name), Answers: res.Answers[s]})
			}
			if err := eval.WriteAnswerTimes(out, perSeat); err != nil {
				return err
			}
			return host.WriteTimings(out) // hosted bots' answer times vs the limit
		},
	}
	gf.add(c, games.DefaultPlayGame)
	c.Flags().StringVarP(&bots, "bots", "b", "random", "comma-separated bots (names, weights files, run folders or their URLs), one per seat in seat order")
	c.Flags().BoolVar(&render, "render", false, "draw the board after every step")
	c.Flags().IntVar(&every, "every", 0, "with --render (implied), draw only every Nth step, the start and the final position (e.g. --every 500)")
	c.Flags().DurationVar(&delay, "delay", 0, "pause after each rendered step (e.g. 100ms)")
	addBotLogFlag(c)
	return c
}

// boardSampler draws play's boards: the start, every every-th step and the
// final position. PlayGame's states live in its env, gone when it returns,
// so the latest position not drawn is kept as text in last until flush.
type boardSampler struct {
	out   io.Writer
	every int
	color bool
	delay time.Duration
	seen  int          // positions seen so far
	last  bytes.Buffer // the latest position, drawn, if it was not written
}

// step sees the position before the first step and after every step.
func (b *boardSampler) step(st rules.State) {
	b.last.Reset()
	if b.color && b.delay > 0 {
		b.last.WriteString("\x1b[H\x1b[2J")
	}
	st.Render(&b.last, b.color)
	b.last.WriteByte('\n')
	if b.seen%b.every == 0 {
		b.flush()
	}
	b.seen++
}

// flush writes the latest position if it was not written yet: every
// every-th step, and the final position after the game.
func (b *boardSampler) flush() {
	if b.last.Len() == 0 {
		return
	}
	_, _ = b.out.Write(b.last.Bytes()) // a terminal or pipe; a write error shows as missing boards
	b.last.Reset()
	if b.delay > 0 {
		time.Sleep(b.delay)
	}
}

// writeLegend writes which symbol of the rendered board is which seat and
// bot, for play --render: one line a seat, symbol → seat → bot, then the
// symbols no seat owns, from the game's registration (rules.Game.Legend).
func writeLegend(w io.Writer, game string, seated []string) {
	var lg rules.Legend
	if g, err := rules.Lookup(game); err == nil && g.Legend != nil {
		lg = *g.Legend
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "legend (symbol → seat → bot):")
	for s, name := range seated {
		var sym []string
		for _, r := range lg.Seat {
			sym = append(sym, fmt.Sprintf("%c %s", r.Base+byte(s), r.What))
		}
		if len(sym) == 0 {
			sym = []string{"?"} // a game without a legend
		}
		fmt.Fprintf(tw, "  %s\t→ seat %d\t→ %s\n", strings.Join(sym, ", "), s, name)
	}
	tw.Flush()
	if lg.Others != "" {
		fmt.Fprintf(w, "  %s\n", lg.Others)
	}
	fmt.Fprintln(w)
}

func writeRanking(out io.Writer, spec *rules.Spec, seated []string, res eval.GameResult) {
	o := res.Outcome
	order := make([]int, len(seated))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return o.Points[order[a]] > o.Points[order[b]] })
	tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "rank\tseat\tbot\t%s\tpoints\t\n", spec.ScoreName)
	for _, s := range order {
		better := 0
		for t := range seated {
			if o.Points[t] > o.Points[s] {
				better++
			}
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%.1f\t\n", better+1, s, seated[s], formatScore(o.Score[s]), o.Points[s])
	}
	tw.Flush()
	var errs []string
	for s, n := range res.Errors {
		if n > 0 {
			errs = append(errs, fmt.Sprintf("seat %d: %d", s, n))
		}
	}
	if len(errs) > 0 {
		fmt.Fprintf(out, "bot errors counted as passes: %s\n", strings.Join(errs, ", "))
	}
}

func formatScore(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.4f", x)
}
