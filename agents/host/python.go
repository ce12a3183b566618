package host

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/gridgym/gridgym/rules"
)

// hostScript is host.py, run with python -c so nothing is written to disk.
//
//go:embed host.py
var hostScript string

// Script returns host.py, the Python side of hosting (its doc string gives
// the protocol), for tools that run a bot file on raw requests: export's
// parity tests drive the exported bots through it.
func Script() string { return hostScript }

// maxFails is how many process failures in a row (start failures, crashes,
// hangs, garbage) make an agent stop asking its bot for the rest of the game.
const maxFails = 3

// pyBot is what the agents made from one py: spec share: the file, the
// entry point, the options and the event log.
type pyBot struct {
	name   string // the spec, for logs
	game   *rules.Game
	comp   Competition
	file   string // absolute
	entry  string
	python string
	opt    Options
	log    *eventLog
	times  *timings
	// now is gridgym's clock for the bots' answer times (time.Now, whose
	// monotonic reading time.Time.Sub uses); tests set a fake one.
	now func() time.Time
}

// reply is one line of host.py's protocol.
type reply struct {
	ID     *int64          `json:"id"`
	Answer json.RawMessage `json:"answer"`
	Error  *string         `json:"error"`
	Repr   *string         `json:"repr"` // the answer as Python writes it
	US     int64           `json:"us"`
	Ready  bool            `json:"ready"`
}

// newPyBot checks what can be checked without Python: the game's protocol,
// the file and the interpreter.
func newPyBot(name, game, file, entry string, opt Options) (*pyBot, error) {
	g, comp, err := competition(name, game, PythonCall)
	if err != nil {
		return nil, err
	}
	if entry == "" {
		entry = comp.Entry
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such bot file %s", name, abs)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: %s is a folder, not a Python file", name, abs)
	}
	python, err := Interpreter(opt.Python)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	opt = opt.withDefaults(comp)
	if opt, err = opt.withBotLog(name, game); err != nil {
		return nil, err
	}
	return &pyBot{name: name, game: g, comp: comp, file: abs, entry: entry, python: python, opt: opt,
		log: newEventLog(opt.Log, name), times: timingsOf(name, game, opt.Limit), now: time.Now}, nil
}

// launch starts a host process for b and waits for it to have imported the
// bot; with check set, the process then exits. What the bot prints goes to
// out; where that is not nil, the bot's exceptions are written there too,
// with their tracebacks (host.py's --traces).
func (b *pyBot) launch(check bool, out io.Writer) (*proc, error) {
	argv := []string{b.python, "-c", scriptFor(b.game.Name), "--args", b.comp.Args, b.file, b.entry}
	if check {
		argv = append(argv[:3], append([]string{"--check"}, argv[3:]...)...)
	} else if out != nil {
		argv = append(argv[:3], append([]string{"--traces"}, argv[3:]...)...)
	}
	sb := b.sandbox()
	p, err := start(argv, []string{"PYTHONDONTWRITEBYTECODE=1"}, out, &sb)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", b.python, err)
	}
	timer := time.NewTimer(b.opt.StartTimeout)
	defer timer.Stop()
	line, eof, timedOut := p.next(timer)
	switch {
	case timedOut:
		p.kill()
		return nil, fmt.Errorf("%s did not import %s within %v", b.python, b.file, b.opt.StartTimeout)
	case eof:
		p.kill()
		return nil, fmt.Errorf("%s exited while importing %s (%s)%s", b.python, b.file, p.status(), p.tail.note())
	}
	var r reply
	if err := json.Unmarshal(line, &r); err != nil || !r.Ready {
		p.close(time.Second)
		if r.Error != nil {
			return nil, errors.New(*r.Error)
		}
		return nil, fmt.Errorf("%s: unexpected start-up line %q", b.python, shorten(string(line), 200))
	}
	return p, nil
}

// check imports the bot once in a host process that exits at once, so a
// broken file is reported when its spec is resolved, not as a tournament of
// passes.
func (b *pyBot) check() error {
	p, err := b.launch(true, b.opt.prefixed("[import] "))
	if err != nil {
		return fmt.Errorf("%s: %w", b.name, err)
	}
	p.close(time.Second)
	return nil
}

// Python is an agent played by a user's Python bot in its competition form:
// a file with the function the competition calls (Rising Tide's my_bot_fn,
// the others' bot), run by host.py in a Python process of its own. Each
// move sends the codec's request, the exact arguments the competition
// passes, and plays the codec's reading of the answer.
//
// As in the competitions, an exception, an answer later than the limit, or
// no answer at all is the game's treatment of no answer. An answer is late
// when host.py's measure of the call exceeds the limit, or when gridgym's
// own clock, from writing the request to reading the answer, exceeds it by
// more than transportAllowance (judgeTime): a bot that fakes host.py's
// clock still loses its late moves (the codec's
// ParseAnswer of nothing: a pass, Nuggets' (0,0), Rectangle's default); the
// game goes on. A process that hangs (HangAfter), dies or breaks the
// protocol is killed and a fresh one started for the next move; after
// maxFails such failures in a row the bot is not asked again in this game.
// Every event is counted (Events) and logged. In a bot log (Options.BotLog)
// each line the bot prints starts with its game and seat (seatPrefix), and
// an exception is written there with its traceback.
//
// The process starts at the first move and serves the whole game, so the
// bot's globals persist between its moves; Reset after a game starts a fresh
// one, so every game begins from a fresh import. Close ends it: callers must
// close the agent (it is an io.Closer) when its game is over. A Python is
// used by one goroutine at a time.
type Python struct {
	bot    *pyBot
	h      *holder
	seat   int
	game   int64 // the game's number, from SetGame; -1 = not known
	move   int   // moves asked in this game
	id     int64
	fails  int // process failures in a row
	events Events
	buf    []byte
}

// holder owns the agent's process; a cleanup kills it if an agent that was
// not closed is garbage collected.
type holder struct{ p *proc }

// NewPython returns an agent of game played by function entry ("" = the
// competition's entry point) of the Python file. It checks the file and the
// interpreter but does not import the bot (the py: specs do, once).
func NewPython(game, file, entry string, opt Options) (*Python, error) {
	b, err := newPyBot("py:"+file, game, file, entry, opt)
	if err != nil {
		return nil, err
	}
	return b.agent(), nil
}

func (b *pyBot) agent() *Python {
	a := &Python{bot: b, h: &holder{}, game: -1}
	runtime.AddCleanup(a, func(h *holder) {
		if h.p != nil {
			h.p.kill()
		}
	}, a.h)
	return a
}

// Reset implements agents.Agent. A process that served a previous game is
// closed, so the next game starts from a fresh import.
func (a *Python) Reset(_ rules.State, seat int, _ *rules.RNG) {
	if a.move > 0 {
		a.Close()
	}
	a.seat, a.game, a.move, a.fails, a.events = seat, -1, 0, 0, Events{}
}

// SetGame names the game that Reset started by its number (a tournament's
// game index), for the lines of the bot log (Options.BotLog).
func (a *Python) SetGame(index uint64) { a.game = int64(index) }

// Events returns the counts of this game's moves (since Reset).
func (a *Python) Events() Events { return a.events }

// NoAnswers returns Events().NoAnswers(): the moves of this game that got
// the no-answer treatment because the bot failed.
func (a *Python) NoAnswers() int { return a.events.NoAnswers() }

// Close ends the bot's process, if one runs. It always returns nil.
func (a *Python) Close() error {
	if p := a.h.p; p != nil {
		a.h.p = nil
		p.close(200 * time.Millisecond)
	}
	return nil
}

// Act implements agents.Agent.
func (a *Python) Act(st rules.State) rules.Move {
	b := a.bot
	a.move++
	a.events.Moves++
	if a.fails >= maxFails {
		a.events.Skipped++
		return a.noAnswer(st)
	}
	if a.h.p == nil {
		out := b.opt.prefixed(seatPrefix(a.game, a.seat))
		marker(out, "move %d: a new process", a.move)
		p, err := b.launch(false, out)
		if err != nil {
			a.events.Crashes++
			return a.failed(st, "could not start the bot: %v", err)
		}
		a.h.p = p
	}
	p := a.h.p
	a.id++
	a.buf = append(a.buf[:0], `{"id":`...)
	a.buf = strconv.AppendInt(a.buf, a.id, 10)
	a.buf = append(a.buf, `,"move":`...)
	a.buf = strconv.AppendInt(a.buf, int64(a.move), 10)
	a.buf = append(a.buf, `,"args":`...)
	a.buf = b.game.Codec.AppendRequest(a.buf, st, a.seat)
	a.buf = append(a.buf, "}\n"...)
	sent := b.now() // the move's time runs from here, on gridgym's clock
	if _, err := p.stdin.Write(a.buf); err != nil {
		a.events.Crashes++
		return a.lost(st, "the bot's process is gone (%s)%s", p.status(), p.tail.note())
	}
	timer := time.NewTimer(b.opt.HangAfter)
	defer timer.Stop()
	line, eof, timedOut := p.next(timer)
	outside := b.now().Sub(sent)
	switch {
	case timedOut:
		a.events.Hangs++
		b.times.add(b.opt.HangAfter, true)
		return a.lost(st, "no answer within %v (limit %v): killed, restarted for the next move", b.opt.HangAfter, b.opt.Limit)
	case eof && p.rdErr != nil:
		a.events.Garbage++
		return a.lost(st, "wrote a %v on its protocol stream: killed", p.rdErr)
	case eof:
		a.events.Crashes++
		return a.lost(st, "the bot's process died (%s)%s", p.status(), p.tail.note())
	}
	var r reply
	if err := json.Unmarshal(line, &r); err != nil || r.ID == nil || *r.ID != a.id || (r.Answer == nil && r.Error == nil) {
		a.events.Garbage++
		return a.lost(st, "wrote %q instead of the answer to request %d: killed", shorten(string(line), 120), a.id)
	}
	a.fails = 0
	v := judgeTime(time.Duration(r.US)*time.Microsecond, outside, b.opt.Limit)
	b.times.add(v.took, v.late)
	switch {
	case r.Error != nil:
		a.events.Errors++
		b.log.event(a.seat, a.move, "raised %s%s: no answer", *r.Error, limitHint(*r.Error, b.opt))
		return a.noAnswer(st)
	case v.late:
		a.events.Timeouts++
		b.log.event(a.seat, a.move, "%s: discarded", v.why)
		return a.noAnswer(st)
	}
	m := b.game.Codec.ParseAnswer(st, a.seat, r.Answer)
	if m != (rules.Move{}) || string(r.Answer) != "null" {
		if why := refusal(b.game.Name, st, a.seat, r.Answer, m); why != "" {
			a.events.Rejected++
			b.log.event(a.seat, a.move, "answered %s: refused, %s", a.shown(r), why)
			return m
		}
	}
	a.events.Answered++
	return m
}

// shown is the answer of r as the bot returned it: Python's repr, from
// host.py (the tagged JSON where there is none).
func (a *Python) shown(r reply) string {
	if r.Repr != nil {
		return shorten(*r.Repr, 200)
	}
	return shorten(string(r.Answer), 120)
}

// noAnswer is the game's treatment of a bot that gave no answer.
func (a *Python) noAnswer(st rules.State) rules.Move {
	return a.bot.game.Codec.ParseAnswer(st, a.seat, nil)
}

// failed counts a process failure, logs it and returns the no-answer move.
func (a *Python) failed(st rules.State, format string, args ...any) rules.Move {
	a.fails++
	msg := fmt.Sprintf(format, args...)
	if a.fails == maxFails {
		msg += fmt.Sprintf("; %d failures in a row: the bot is not asked again in this game", maxFails)
	}
	a.bot.log.event(a.seat, a.move, "%s", msg)
	return a.noAnswer(st)
}

// lost kills the process after a failure, then reports it as failed does.
func (a *Python) lost(st rules.State, format string, args ...any) rules.Move {
	if p := a.h.p; p != nil {
		a.h.p = nil
		p.kill()
	}
	return a.failed(st, format, args...)
}
