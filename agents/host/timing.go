package host

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
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
// competitions measure it, except for a move that gridgym's own clock found
// late (judgeTime): that one counts at gridgym's time, request to answer; a
// program's from its start to its first line of output. A move with no
// answer in time counts at the time waited.
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
// moves over it. These are the times the competition counts (a Python
// bot's call, a program's start to its first line), which the limit
// applies to; the tournament's own table beside it measures each move's
// round trip in gridgym's process (process start and pipes included), so
// its figures are larger. When moves were over the limit on a machine whose
// load exceeds its cores, a note says the load may be the cause. It writes
// nothing when no hosted bot played.
func WriteTimings(w io.Writer) error {
	load, cpus, _ := machineLoad()
	return writeTimings(w, Timings(), load, cpus)
}

// writeTimings is WriteTimings for the timings ts on a machine with load
// average load (1 minute; 0 unknown) over cpus cores.
func writeTimings(w io.Writer, ts []Timing, load float64, cpus int) error {
	if len(ts) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nhosted bots' answer times as the competition counts them (a Python bot's call; a program's start to its first line), against the limit:\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "bot\tmoves\tp50\tp99\tmax\tlimit\tover the limit\t\n")
	over := 0
	for _, t := range ts {
		warn := ""
		if t.P99 > t.Limit {
			warn = "  ← p99 over the limit: those moves are passes"
		}
		over += t.Over
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%d\t%s\n", t.Bot, t.Moves, ms(t.P50), ms(t.P99), ms(t.Max), ms(t.Limit), t.Over, warn)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if hint := loadHint(over, load, cpus); hint != "" {
		_, err := fmt.Fprintln(w, hint)
		return err
	}
	return nil
}

// loadHint is the note under the timings when over moves lost to the
// limit on a machine busier than its cores (load above cpus): "" otherwise.
func loadHint(over int, load float64, cpus int) string {
	if over == 0 || cpus <= 0 || load <= float64(cpus) {
		return ""
	}
	return fmt.Sprintf("note: this machine's load average is %.1f on %d cores: moves over the limit may be the machine's fault, "+
		"not the bot's (each waits its turn for a core); rerun on an idle machine to tell them apart", load, cpus)
}

// machineLoad reads the 1-minute load average (Linux /proc/loadavg) and the
// cores this process may use; ok is false where the load is unknown.
func machineLoad() (load float64, cpus int, ok bool) {
	cpus = runtime.GOMAXPROCS(0)
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, cpus, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, cpus, false
	}
	load, err = strconv.ParseFloat(f[0], 64)
	return load, cpus, err == nil
}

// ms writes d in milliseconds with one decimal.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}
