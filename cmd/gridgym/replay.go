package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/store"
	"github.com/gridgym/gridgym/viewer"
)

func newReplayCmd() *cobra.Command {
	var (
		delay   time.Duration
		step    int
		noColor bool
		html    string
		policy  bool
	)
	c := &cobra.Command{
		Use:   "replay FILE|URL",
		Short: "Play back a saved game (tournament --replays) in the terminal, or write it as a web page",
		Long: `Play back a replay file written by 'gridgym tournament --replays K': every
position from the start, with the step number and the bot of each seat, then
the outcome. On a terminal the board is redrawn in place every --delay, in
colour unless --no-color; otherwise the frames are printed one after another
without pausing. --step N shows only the position after N steps (negative:
counted from the end, -1 is the final position). FILE may be a URL
(file://…, s3://bucket/replays/replay-0000.jsonl?endpoint=…): it is
downloaded first.
--html OUT.html writes the game instead as one self-contained web page
(script and data inline, nothing fetched): open it in any browser to watch
the board with play/pause, step, a timeline, speed and the keys (space,
←/→, Home/End), each seat's moves, the scores over time and the ranking
(collapsed until the last step: no spoiler). OUT.html#step=N opens it at
step N, and the address follows the step shown, for a link to a position.
With --with-policy, each seat played by a trained network (a weights file
or run folder, still at the path the replay names) also shows, at every
position it moved from, its top moves with their probabilities as a heat
map over the board and a list, and its value.`,
		Example: `  gridgym tournament --game slime --bots simplebot,random --games 40 --replays 2
  gridgym replay replays/replay-0000.jsonl --delay 50ms
  gridgym replay replays/replay-0001.jsonl --step -1
  gridgym replay replays/replay-0000.jsonl --html game0.html`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			path, cleanup, err := localInput(args[0], "")
			if err != nil {
				return err
			}
			defer cleanup()
			r, err := eval.ReadReplay(path)
			if err != nil {
				if path != args[0] {
					return fmt.Errorf("%s: %w", store.Redact(args[0]), err)
				}
				return err
			}
			if html != "" {
				if err := viewer.WriteFile(html, r, viewer.Options{Policy: policy}); err != nil {
					return err
				}
				fmt.Fprintf(c.OutOrStdout(), "wrote %s (%s, %s): open it in a browser\n", html, r.Config.Game().Title, plural(r.Steps(), "step"))
				return nil
			}
			if policy {
				return usagef("--with-policy goes with --html")
			}
			if delay < 0 {
				return usagef("--delay %v: want 0 or more", delay)
			}
			first, last := 0, r.Steps()
			if c.Flags().Changed("step") {
				n := step
				if n < 0 {
					n += r.Steps() + 1
				}
				if n < 0 || n > r.Steps() {
					return usagef("--step %d: the game has steps 0..%d (or -1..-%d from the end)", step, r.Steps(), r.Steps()+1)
				}
				first, last = n, n
			}
			out := c.OutOrStdout()
			tty := false
			if f, ok := out.(*os.File); ok {
				tty = isTerminal(f)
			}
			color := tty && !noColor
			redraw := tty && delay > 0 && first < last
			g := r.Config.Game()
			seats := make([]string, len(r.Bots))
			for s, b := range r.Bots {
				seats[s] = fmt.Sprintf("%d %s", s, b)
			}
			title := fmt.Sprintf("%s (%s) · game %d, seed %d\nseats: %s", g.Title, r.Config, r.Index, r.Seed, strings.Join(seats, " · "))
			for n := first; n <= last; n++ {
				st, err := r.State(n)
				if err != nil {
					return fmt.Errorf("%s: %w", store.Redact(args[0]), err)
				}
				// Redrawn in place, every frame has the title; printed one
				// after another, the first.
				if redraw {
					fmt.Fprint(out, "\x1b[H\x1b[2J")
				}
				if redraw || n == first {
					fmt.Fprintln(out, title)
				}
				fmt.Fprintf(out, "\nstep %d/%d\n", n, r.Steps())
				st.Render(out, color)
				if tty && delay > 0 && n < last {
					time.Sleep(delay)
				}
			}
			fmt.Fprintln(out)
			writeReplayOutcome(out, r)
			return nil
		},
	}
	c.Flags().DurationVar(&delay, "delay", 200*time.Millisecond, "pause between positions on a terminal (0: no pause)")
	c.Flags().IntVar(&step, "step", 0, "show only the position after this many steps (negative: from the end)")
	c.Flags().BoolVar(&noColor, "no-color", false, "no ANSI colours")
	c.Flags().BoolVar(&policy, "with-policy", false, "with --html: show each network seat's top moves (a heat map) and value at every position")
	c.Flags().StringVar(&html, "html", "", "write the game as a self-contained web page to this file instead of playing it in the terminal")
	return c
}

// writeReplayOutcome prints the recorded game's ranking as 'gridgym play' does.
func writeReplayOutcome(out io.Writer, r *eval.Replay) {
	fmt.Fprintf(out, "outcome after %s:\n", plural(r.Steps(), "step"))
	errs := r.Errors
	if errs == nil {
		errs = make([]int, len(r.Bots))
	}
	spec := r.Config.Game().New(r.Config).Spec()
	writeRanking(out, spec, r.Bots, eval.GameResult{Index: r.Index, Steps: r.Steps(), Outcome: r.Outcome, Errors: errs})
}
