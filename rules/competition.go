package rules

import (
	"fmt"
	"time"
)

// Protocol is how a game's competition talks to its bots.
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
// (shared/rules/*.md) fixes it, declared on the game's registration
// (Game.Competition): what agents/host needs to host a bot of the game, what
// export needs to write one, and what a stand-alone program bot needs to
// answer. The generic packages read only this; none of them names a game.
type Competition struct {
	Protocol Protocol
	// Entry is the Python function the competition calls (PythonCall only).
	Entry string
	// Limit is the competition's wall-clock limit for one move.
	Limit time.Duration
	// Args names agents/host/host.py's conversion of the JSON arguments into
	// the Python types the competition passes: "plain", "int16-board" or
	// "robot-tuples" ("" for a program competition).
	Args string
	// Rules cites the rules that fix the above.
	Rules string
	// Refusals words the host's log of refused answers.
	Refusals Refusals
	// Template is the starting bot `gridgym new-bot` writes: a file in the
	// competition's form that plays legally as it is, citing the rules
	// file (a Python program without its #! line for a program
	// competition). nil = no template.
	Template []byte
	// Modules are the helper modules the competition ships beside its bots
	// (Rising Tide's util, R18), by file name ("util.py"): every hosted bot
	// of the game can import them.
	Modules map[string][]byte
	// Export is the game's exported bot; nil = no exporter.
	Export *Export
	// Program answers the competition's request from a stand-alone
	// executable (ProgramRun games with an exported executable); nil = none.
	Program *Program
}

// Refusals say why a bot's answer is no move (or no legal one), in the terms
// of the game's rules file (§5 and the legality rule), for agents/host's log
// of refused answers. Every field is optional.
type Refusals struct {
	// Malformed reports whether an answer the codec read as a move is not a
	// move at all, for a game whose no-answer treatment is a move (Nuggets:
	// the query (0,0), which a valid answer can ask too). Other games count
	// an answer that becomes a pass.
	Malformed func(answer []byte) bool
	// Form says why an answer without the competition's form is refused
	// ("" or nil: a generic sentence).
	Form func(answer []byte) string
	// Illegal says why an answer of the right form is no legal move here
	// ("": a generic sentence).
	Illegal string
	// Pass, for an answer the codec read as a pass, says why when the answer
	// has the competition's form (Slime: a coordinate off the board), and
	// returns "" when it does not (then Form says why).
	Pass func(answer []byte) string
}

// Export is a game's exported bot (package export).
type Export struct {
	// Source is the game's Python module, kept in the game's own folder
	// (go:embed): it turns the competition's arguments into the
	// observation and legal mask, runs the shared network
	// (export/py/common.py, which the exported file carries before it) and
	// answers in the competition's format — the NumPy twin of the game's
	// encoder and codec, which export's parity tests hold to the Go policy.
	Source []byte
	// File is the exported Python file's name; Entry the callable the
	// competition (and the parity tests, through agents/host) calls with the
	// request's arguments.
	File, Entry string
	// Args is the number of arguments the competition passes to Entry.
	Args int
	// Usage is how a competitor submits the file (README.txt of the export).
	Usage string
	// Pure marks a module that needs no NumPy: it carries its own
	// pure-Python network instead of py/common.py.
	Pure bool
	// Steps marks a module that passes the game's step (State.Steps) to
	// choose, so that a temperature for the first steps can be baked in.
	Steps bool
	// Opening marks a module that plays the game's scripted opening (the
	// state's rules.Opener) when its OPENING is above 0, as a network's
	// play settings ask (neural.Play.Opening).
	Opening bool
	// Guard, if set, marks a module that plays the game's scripted guard
	// (the state's rules.Guarder) in front of the network when its GUARD
	// is 1, as a network's play settings ask (neural.Play.Guard), and says
	// in a sentence when it answers and how (README.txt of the export).
	Guard string
	// Executable, if set, is the file name of the stand-alone executable
	// the export also writes (Competition.Program answers for it).
	Executable string
	// Runner is the import path of the main package that becomes the
	// executable with the weights appended (with Executable).
	Runner string
}

// Program is the bot side of a program competition: how a stand-alone
// executable turns the request (its last command-line argument) into a
// position and a move into its answer line.
type Program struct {
	// Params returns the parameter values of the game the request is played
	// with (Slime: board_size from the number of rows), or an error for a
	// request it cannot read.
	Params func(request string) (map[string]string, error)
	// Position sets st, a state of the config Params gave, to the request's
	// position and returns the seat to move.
	Position func(st State, request string) (seat int, err error)
	// AppendAnswer appends the answer line of move m in st; ok is false when
	// m has no answer (then the bot answers Pass).
	AppendAnswer func(dst []byte, st State, m Move) (out []byte, ok bool)
	// Pass is the answer for no move.
	Pass string
}

// check reports an incomplete competition declaration.
func (c *Competition) check(game string) error {
	switch c.Protocol {
	case PythonCall:
		if c.Entry == "" || c.Args == "" {
			return fmt.Errorf("game %s: a Python competition needs Entry and Args", game)
		}
	case ProgramRun:
	default:
		return fmt.Errorf("game %s: competition protocol %d", game, c.Protocol)
	}
	if c.Limit <= 0 || c.Rules == "" {
		return fmt.Errorf("game %s: a competition needs Limit and Rules", game)
	}
	if e := c.Export; e != nil {
		if len(e.Source) == 0 || e.File == "" || e.Entry == "" || e.Args <= 0 {
			return fmt.Errorf("game %s: an export needs Source, File, Entry and Args", game)
		}
		if (e.Executable == "") != (e.Runner == "") || (e.Executable != "" && c.Program == nil) {
			return fmt.Errorf("game %s: an exported executable needs Executable, Runner and Competition.Program", game)
		}
	}
	if p := c.Program; p != nil && (p.Params == nil || p.Position == nil || p.AppendAnswer == nil || p.Pass == "") {
		return fmt.Errorf("game %s: an incomplete Program", game)
	}
	return nil
}
