package host

import (
	"fmt"
	"sort"
	"time"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/nuggets"
	"github.com/gridgym/gridgym/rules/pyval"
)

// Protocol is how a competition talks to its bots.
type Protocol uint8

const (
	// PythonCall competitions import the bot's file and call one of its
	// functions once per move; the request is the JSON array of the call's
	// arguments and the answer a Python value (package rules/pyval).
	PythonCall Protocol = iota + 1
	// ProgramRun competitions start the bot's program once per move with the
	// request appended as its last argument; the answer is its standard output.
	ProgramRun
)

// String names the protocol as the bot specs do: "py" or "cmd".
func (p Protocol) String() string {
	switch p {
	case PythonCall:
		return "py"
	case ProgramRun:
		return "cmd"
	}
	return "unknown"
}

// Competition is a game's bot protocol as §5 of its rules file
// (shared/rules/*.md) fixes it: the defaults a hosted bot of the game gets.
type Competition struct {
	Game     string
	Protocol Protocol
	// Entry is the Python function the competition calls (PythonCall only).
	Entry string
	// Limit is the competition's wall-clock limit for one move.
	Limit time.Duration
	// Args names host.py's conversion of the JSON arguments into the Python
	// types the competition passes: "plain", "int16-board" or "robot-tuples".
	Args string
	// Rules cites the rules that fix the above.
	Rules string
	// malformed reports whether an answer is not a move at all, for the
	// Rejected count of a game whose no-answer treatment is a move (nuggets:
	// the query (0,0), which a valid answer can ask too). Other games count
	// an answer that becomes a pass, None excepted.
	malformed func(answer []byte) bool
}

var competitions = map[string]Competition{
	"rising-tide": {Game: "rising-tide", Protocol: PythonCall, Entry: "my_bot_fn", Limit: 100 * time.Millisecond, Args: "plain",
		Rules: "rising-tide R18 (my_bot_fn(terrain, round_num)), R20 (lists of Python ints), R23 (0.1 s, exception = pass)"},
	"bovine-borders": {Game: "bovine-borders", Protocol: PythonCall, Entry: "bot", Limit: 100 * time.Millisecond, Args: "int16-board",
		Rules: "bovine-borders R18 (bot(board)), R19 (NumPy int16 scalars), R21 (0.1 s, exception = pass)"},
	"nuggets": {Game: "nuggets", Protocol: PythonCall, Entry: "bot", Limit: 100 * time.Millisecond, Args: "plain",
		Rules:     "nuggets R17 (bot(board, move_num)), R18 (lists of Python ints), R20 (0.1 s; exception or time-out = the query (0,0), R6)",
		malformed: nuggetsMalformed},
	"rectangle": {Game: "rectangle", Protocol: PythonCall, Entry: "bot", Limit: 100 * time.Millisecond, Args: "robot-tuples",
		Rules: "rectangle R18 (bot(board, robots, scores, move_num)), R19 ((r, c) tuples), R20 (0.1 s; exception or time-out = R9's default)"},
	"slime": {Game: "slime", Protocol: ProgramRun, Limit: 100 * time.Millisecond,
		Rules: "slime R14 (a fresh process per turn, argument P,row0,...), R15 (first line of stdout), R16 (turn_timeout 0.1 s)"},
}

// CompetitionOf returns the bot protocol of game; ok is false for a game
// whose competition gridgym cannot host.
func CompetitionOf(game string) (c Competition, ok bool) {
	c, ok = competitions[game]
	return c, ok
}

// Competitions lists the hostable games' protocols, by game name.
func Competitions() []Competition {
	out := make([]Competition, 0, len(competitions))
	for _, c := range competitions {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Game < out[j].Game })
	return out
}

// nuggetsMalformed: an answer that is not an (x, y) square (nuggets R20).
func nuggetsMalformed(answer []byte) bool {
	v, err := pyval.Parse(answer)
	if err != nil {
		return true
	}
	_, _, ok := nuggets.AnswerXY(v)
	return !ok
}

// competition returns game and its competition's hosting rules for bot
// name, which must speak protocol want.
func competition(name, game string, want Protocol) (*rules.Game, Competition, error) {
	g, err := rules.Lookup(game)
	if err != nil {
		return nil, Competition{}, err
	}
	comp, ok := CompetitionOf(game)
	if !ok {
		return nil, Competition{}, fmt.Errorf("%s: gridgym cannot host bots of %s", name, game)
	}
	if comp.Protocol != want {
		if want == ProgramRun {
			return nil, Competition{}, fmt.Errorf("%s: %s bots are Python functions, not programs (%s): use py:FILE", name, game, comp.Rules)
		}
		return nil, Competition{}, fmt.Errorf("%s: %s bots are programs, not Python functions (%s): use cmd:COMMAND", name, game, comp.Rules)
	}
	return g, comp, nil
}
