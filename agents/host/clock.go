package host

import (
	"fmt"
	"time"
)

// transportAllowance is the time gridgym allows, on top of the
// competition's limit, for its own side of a Python bot's move as gridgym's
// clock sees it: writing the request, host.py reading it and converting the
// arguments, writing the answer back and gridgym reading it. The
// competitions time the call alone (rising-tide R23, bovine-borders R21,
// nuggets R20, rectangle R20: "more than 0.1 s wall-clock"), so the bot is
// not charged for that transport. Measured with bots that answer at once
// (200 moves each of the four games, 2 cores at load 3.6): 0.06-0.16 ms at
// the median, up to 5 ms at worst; the allowance leaves room for a busier
// machine. It is the only margin gridgym adds: host.py's own measure of the
// call is held to the limit itself, and a bot that hides its time from
// host.py (a patched time.perf_counter) gains at most this much.
const transportAllowance = 10 * time.Millisecond

// moveTime is the verdict on how long one answer of a Python bot took.
type moveTime struct {
	took time.Duration // the time recorded for the move (Timings)
	late bool          // over the limit: the answer is discarded
	why  string        // for the log when late: the clock that says so
}

// judgeTime decides whether an answer came in time. inside is the call's
// time as host.py measured it, with the bot's own interpreter's clock (the
// competitions' measure, which a bot can fake); outside is gridgym's own,
// from writing the request to reading the answer (monotonic, out of the
// bot's reach). The answer is late when either exceeds the limit, the
// outside one after transportAllowance. took is inside, or outside when
// that is what makes the answer late.
func judgeTime(inside, outside, limit time.Duration) moveTime {
	inside = max(inside, 0) // a forged reply's negative time
	switch {
	case outside > limit+transportAllowance:
		return moveTime{took: max(inside, outside), late: true,
			why: fmt.Sprintf("answered %.3f s after its request by gridgym's clock (its host measured %.3f s), over the %v limit (+%v for the pipes)",
				outside.Seconds(), inside.Seconds(), limit, transportAllowance)}
	case inside > limit:
		return moveTime{took: inside, late: true,
			why: fmt.Sprintf("answered in %.3f s, over the %v limit", inside.Seconds(), limit)}
	}
	return moveTime{took: inside}
}
