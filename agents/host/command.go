package host

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/gridgym/gridgym/rules"
)

// cmdBot is what the agents made from one cmd: spec share.
type cmdBot struct {
	name string
	game *rules.Game
	comp Competition
	argv []string // the command line, argv[0] resolved on the PATH
	opt  Options
	log  *eventLog
	// times are the answer times; hint reports, once, why a program whose
	// every move times out is slow (shebangHint).
	times *timings
	hint  sync.Once
}

func newCmdBot(name, game string, argv []string, opt Options) (*cmdBot, error) {
	g, comp, err := competition(name, game, ProgramRun)
	if err != nil {
		return nil, err
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("%s: empty command line", name)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	argv = append([]string{path}, argv[1:]...)
	opt = opt.withDefaults(comp)
	if opt, err = opt.withBotLog(name, game); err != nil {
		return nil, err
	}
	return &cmdBot{name: name, game: g, comp: comp, argv: argv, opt: opt, log: newEventLog(opt.Log, name),
		times: timingsOf(name, game, opt.Limit)}, nil
}

// Command is an agent played by a program in a program competition's form
// (Slime's): every move runs the command line with the codec's request
// appended as one more argument, in a fresh process, and reads the first
// line of its standard output as the answer. No answer within the limit is
// a pass (slime R16, turn_timeout) and the process is killed; an answer the
// codec cannot read is a pass (R15). Exit status and standard error are
// ignored, except in the log (in a bot log, Options.BotLog, each of its
// lines starts with its game and seat, seatPrefix, after a line with the
// move's request). Every event is counted (Events) and logged.
// A Command is used by one goroutine at a time.
type Command struct {
	bot    *cmdBot
	seat   int
	game   int64 // the game's number, from SetGame; -1 = not known
	move   int
	fails  int // start failures in a row
	events Events
	buf    []byte
}

// NewCommand returns an agent of game (a program competition) that runs
// argv, the bot's command line, once per move.
func NewCommand(game string, argv []string, opt Options) (*Command, error) {
	b, err := newCmdBot("cmd:"+strings.Join(argv, " "), game, argv, opt)
	if err != nil {
		return nil, err
	}
	return &Command{bot: b, game: -1}, nil
}

// Reset implements agents.Agent.
func (a *Command) Reset(_ rules.State, seat int, _ *rules.RNG) {
	a.seat, a.game, a.move, a.fails, a.events = seat, -1, 0, 0, Events{}
}

// SetGame names the game that Reset started by its number (a tournament's
// game index), for the lines of the bot log (Options.BotLog).
func (a *Command) SetGame(index uint64) { a.game = int64(index) }

// Events returns the counts of this game's moves (since Reset).
func (a *Command) Events() Events { return a.events }

// NoAnswers returns Events().NoAnswers(): the moves of this game that got
// the no-answer treatment because the program failed.
func (a *Command) NoAnswers() int { return a.events.NoAnswers() }

// Close implements io.Closer. A Command's processes end within each move,
// so there is nothing to do; it returns nil.
func (a *Command) Close() error { return nil }

// Act implements agents.Agent.
func (a *Command) Act(st rules.State) rules.Move {
	b := a.bot
	a.move++
	a.events.Moves++
	noAnswer := b.game.Codec.ParseAnswer(st, a.seat, nil)
	if a.fails >= maxFails {
		a.events.Skipped++
		return noAnswer
	}
	a.buf = b.game.Codec.AppendRequest(a.buf[:0], st, a.seat)
	argv := append(b.argv[:len(b.argv):len(b.argv)], string(a.buf))
	out := b.opt.prefixed(seatPrefix(a.game, a.seat))
	marker(out, "move %d: %s", a.move, a.buf)
	sb := b.sandbox()
	p, err := start(argv, nil, out, &sb)
	if err != nil {
		a.events.Crashes++
		a.fails++
		msg := fmt.Sprintf("could not start the program: %v", err)
		if a.fails == maxFails {
			msg += fmt.Sprintf("; %d failures in a row: the bot is not asked again in this game", maxFails)
		}
		b.log.event(a.seat, a.move, "%s", msg)
		return noAnswer
	}
	a.fails = 0
	p.stdin.Close() // a program bot gets no input
	t0 := time.Now()
	timer := time.NewTimer(b.opt.Limit)
	line, _, timedOut := p.next(timer)
	timer.Stop()
	if timedOut {
		p.kill()
		a.events.Timeouts++
		b.times.add(b.opt.Limit, true)
		b.log.event(a.seat, a.move, "no answer within %v: killed, pass", b.opt.Limit)
		if a.events.Timeouts == a.events.Moves && a.events.Moves >= hintAfter {
			b.hint.Do(func() {
				if h := shebangHint(b.argv[0], b.opt.Limit); h != "" {
					b.log.note("every move so far timed out: %s", h)
				}
			})
		}
		return noAnswer
	}
	b.times.add(time.Since(t0), false) // within the limit: the timer did not fire
	if p.close(b.opt.HangAfter) {
		b.log.event(a.seat, a.move, "still running %v after its answer: killed (the answer counts)", b.opt.HangAfter)
	}
	m := b.game.Codec.ParseAnswer(st, a.seat, line)
	if why := refusal(b.game.Name, st, a.seat, line, m); why != "" {
		a.events.Rejected++
		b.log.event(a.seat, a.move, "answered %q (its first line of output): refused, %s (%s; stderr: %q)",
			shorten(string(line), 120), why, p.status(), p.tail.last())
		return m
	}
	a.events.Answered++
	return m
}
