package host

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Events counts what happened to a hosted bot's moves in the current game.
// Every event but Answered means the move got the game's treatment of no
// answer (a pass, Nuggets' query (0,0), Rectangle's default), as the
// competition's rules prescribe for the same failure.
type Events struct {
	Moves    int // moves asked for
	Answered int // answers played as the bot gave them
	Errors   int // the bot raised an exception
	Timeouts int // the answer came after the time limit and was discarded
	Hangs    int // no answer long after the limit: the process was killed
	Crashes  int // the process died, or could not be started
	Garbage  int // the process wrote something that is not the protocol
	Rejected int // the answer was read but is no move (malformed, illegal): a pass
	Skipped  int // moves not asked because the bot failed too often in a row
}

// NoAnswers counts the moves that got the no-answer treatment because of a
// failure of the bot's process: errors, time-outs, hangs, crashes, garbage
// and skipped moves. Rejected answers are not among them.
func (e Events) NoAnswers() int {
	return e.Errors + e.Timeouts + e.Hangs + e.Crashes + e.Garbage + e.Skipped
}

// String lists the non-zero counters.
func (e Events) String() string {
	var parts []string
	for _, c := range []struct {
		n    int
		name string
	}{{e.Moves, "moves"}, {e.Answered, "answered"}, {e.Errors, "errors"}, {e.Timeouts, "time-outs"},
		{e.Hangs, "hangs"}, {e.Crashes, "crashes"}, {e.Garbage, "garbage"}, {e.Rejected, "rejected"}, {e.Skipped, "skipped"}} {
		if c.n != 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.name))
		}
	}
	if len(parts) == 0 {
		return "no moves"
	}
	return strings.Join(parts, ", ")
}

// logBurst is how many events a bot spec logs in full; after that, at most
// one summary line per logEvery.
const (
	logBurst = 20
	logEvery = 10 * time.Second
)

// eventLog writes one bot spec's events, shared by every agent made from
// its entry, so a tournament of many games stays readable: the first
// logBurst events in full, then a count of the events not shown at most once
// per logEvery.
type eventLog struct {
	mu      sync.Mutex
	w       io.Writer
	name    string
	logged  int
	held    int // events since the last line, not shown
	last    time.Time
	nowFunc func() time.Time
}

func newEventLog(w io.Writer, name string) *eventLog {
	if w == nil {
		w = os.Stderr
	}
	return &eventLog{w: w, name: name, nowFunc: time.Now}
}

// event logs one event of seat's move (1-based in the game).
func (l *eventLog) event(seat, move int, format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.nowFunc()
	if l.logged < logBurst {
		l.logged++
		msg := fmt.Sprintf(format, args...)
		if l.logged == logBurst {
			msg += fmt.Sprintf(" (further events of %s are summarised every %v)", l.name, logEvery)
		}
		fmt.Fprintf(l.w, "host: %s, seat %d, move %d: %s\n", l.name, seat, move, msg)
		l.last = now
		return
	}
	l.held++
	if now.Sub(l.last) >= logEvery {
		fmt.Fprintf(l.w, "host: %s: %d more events, the last at seat %d, move %d: %s\n",
			l.name, l.held, seat, move, fmt.Sprintf(format, args...))
		l.held = 0
		l.last = now
	}
}

// note logs one line about the bot as a whole, outside the rate limit (a
// hint given once).
func (l *eventLog) note(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "host: %s: %s\n", l.name, fmt.Sprintf(format, args...))
}
