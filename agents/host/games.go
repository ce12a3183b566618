package host

import (
	"fmt"
	"time"

	"github.com/gridgym/gridgym/rules"
)

// Protocol is how a competition talks to its bots (rules.Protocol).
type Protocol = rules.Protocol

const (
	// PythonCall competitions import the bot's file and call one of its
	// functions once per move (rules.PythonCall).
	PythonCall = rules.PythonCall
	// ProgramRun competitions start the bot's program once per move
	// (rules.ProgramRun).
	ProgramRun = rules.ProgramRun
)

// Competition is a game's bot protocol as §5 of its rules file
// (shared/rules/*.md) fixes it: the defaults a hosted bot of the game gets.
// The game declares it on its registration (rules.Game.Competition); host
// names no game.
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
	// refusals words the log of refused answers (refuse.go).
	refusals rules.Refusals
}

// competitionOf returns the hosting rules g declares; ok is false for a game
// without a competition.
func competitionOf(g *rules.Game) (Competition, bool) {
	c := g.Competition
	if c == nil {
		return Competition{}, false
	}
	return Competition{Game: g.Name, Protocol: c.Protocol, Entry: c.Entry, Limit: c.Limit, Args: c.Args, Rules: c.Rules, refusals: c.Refusals}, true
}

// CompetitionOf returns the bot protocol of game; ok is false for a game
// whose competition gridgym cannot host.
func CompetitionOf(game string) (c Competition, ok bool) {
	g, err := rules.Lookup(game)
	if err != nil {
		return Competition{}, false
	}
	return competitionOf(g)
}

// competitions lists the hostable games' protocols, by game name.
func competitions() []Competition {
	var out []Competition
	for _, g := range rules.Games() {
		if c, ok := competitionOf(g); ok {
			out = append(out, c)
		}
	}
	return out
}

// competition returns game and its competition's hosting rules for bot
// name, which must speak protocol want.
func competition(name, game string, want Protocol) (*rules.Game, Competition, error) {
	g, err := rules.Lookup(game)
	if err != nil {
		return nil, Competition{}, err
	}
	comp, ok := competitionOf(g)
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
