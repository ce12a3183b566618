package host

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"text/tabwriter"
	"time"
)

// timings collects one bot spec's answer times in one game kind, shared
// by every agent made from it, for the summary after a tournament.
type timings struct {
	mu    sync.Mutex
	name  string
	game  string
	limit time.Duration
	times []time.Duration // every move asked: the call's time, or at least the limit when there was no answer in time
	over  int             // moves over the limit (time-outs, hangs)
}

var (
	timingMu  sync.Mutex
	timingReg = map[string]*timings{}
	timingSeq []*timings // in order of first use
)

// timingsOf returns the shared timings of bot name in game.
func timingsOf(name, game string, limit time.Duration) *timings {
	timingMu.Lock()
	defer timingMu.Unlock()
	key := name + "\x00" + game
	if t := timingReg[key]; t != nil {
		return t
	}
	t := &timings{name: name, game: game, limit: limit}
	timingReg[key] = t
	timingSeq = append(timingSeq, t)
	return t
}

// add records one move's time; over marks a move with no answer within
// the limit of the bot that asked.
func (t *timings) add(d time.Duration, over bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.times = append(t.times, d)
	if over {
		t.over++
	}
}

// Timing is one hosted bot's answer times since the last ResetTimings.
type Timing struct {
	Bot, Game     string
	Limit         time.Duration // the competition's limit (or the --bot-limit set)
	Moves         int           // moves timed: answered, raised, refused or out of time
	P50, P99, Max time.Duration
	Over          int // moves with no answer within Limit
}

// Timings returns the answer times of every hosted bot (py:, cmd:) that was
// asked for a move since the last ResetTimings, in order of first use. A
// Python bot's time is its call's, measured inside its host process as the
// competitions measure it; a program's from its start to its first line of
// output. A move with no answer in time counts at the time waited.
func Timings() []Timing {
	timingMu.Lock()
	seq := slices.Clone(timingSeq)
	timingMu.Unlock()
	var out []Timing
	for _, t := range seq {
		t.mu.Lock()
		s := slices.Clone(t.times)
		tm := Timing{Bot: t.name, Game: t.game, Limit: t.limit, Moves: len(s), Over: t.over}
		t.mu.Unlock()
		if len(s) == 0 {
			continue
		}
		slices.Sort(s)
		tm.P50 = s[(len(s)-1)/2]
		tm.P99 = s[min(len(s)-1, len(s)*99/100)]
		tm.Max = s[len(s)-1]
		out = append(out, tm)
	}
	return out
}

// ResetTimings forgets the times collected so far.
func ResetTimings() {
	timingMu.Lock()
	defer timingMu.Unlock()
	for _, t := range timingSeq {
		t.mu.Lock()
		t.times, t.over = nil, 0
		t.mu.Unlock()
	}
}

// WriteTimings writes a table of Timings, one line per hosted bot: moves,
// p50, p99 and the slowest answer against the game's time limit, and the
// moves over it. It writes nothing when no hosted bot played.
func WriteTimings(w io.Writer) error {
	ts := Timings()
	if len(ts) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nhosted bots' answer times (a Python bot's call; a program's start to its first line):\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "bot\tmoves\tp50\tp99\tmax\tlimit\tover the limit\t\n")
	for _, t := range ts {
		warn := ""
		if t.P99 > t.Limit {
			warn = "  ← p99 over the limit: those moves are passes"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%d\t%s\n", t.Bot, t.Moves, ms(t.P50), ms(t.P99), ms(t.Max), ms(t.Limit), t.Over, warn)
	}
	return tw.Flush()
}

// ms writes d in milliseconds with one decimal.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}
