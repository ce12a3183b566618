package risingtide

import "github.com/gridgym/gridgym/rules"

// Name is the registry name of the game.
const Name = "rising-tide"

// Game is the registered game (read-only after init): its rules,
// parameters, encoder and competition (competition.go).
var Game = &rules.Game{
	Name:    Name,
	Title:   "Rising Tide",
	Summary: "4 seats push land on an 18×18 island to keep their settlements above a rising sea",
	Params: []rules.Param{{
		Name:    "nonadjacent_moves",
		Doc:     "drop R10b as the official controller does: any two cells (src = dst included) may form a move",
		Kind:    rules.Bool,
		Default: "false",
	}},
	New:         func(cfg rules.Config) rules.State { return New(cfg) },
	Codec:       codec{},
	Encoder:     NewEncoder,
	Competition: competition,
}

func init() { rules.Register(Game) }
