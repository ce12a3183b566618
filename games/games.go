// Package games links every game into a program: importing it (for its side
// effects) registers each game — its rules (with its competition and
// training configs, on rules.Game) and its bots — and the search bots every
// game gets. A game is linked by one line here, the import of its bots
// package agents/<game>bots, which imports the game's rules/<game> package
// and so registers both (docs/adding-a-game.md; TestAllGamesRegistered
// fails on a game without bots or bots without a game). The generic
// packages read games from the registry and import none, which
// generic_test.go checks (Slime's own runner, cmd/slimebot, is its one
// listed exception).
package games

import (
	_ "github.com/gridgym/gridgym/agents/bovinebots"
	_ "github.com/gridgym/gridgym/agents/bovineheldout"
	_ "github.com/gridgym/gridgym/agents/nuggetsbots"
	_ "github.com/gridgym/gridgym/agents/nuggetsheldout"
	_ "github.com/gridgym/gridgym/agents/rectanglebots"
	_ "github.com/gridgym/gridgym/agents/rectangleheldout"
	_ "github.com/gridgym/gridgym/agents/risingtidebots"
	_ "github.com/gridgym/gridgym/agents/risingtideheldout"
	_ "github.com/gridgym/gridgym/agents/slimebots"
	_ "github.com/gridgym/gridgym/agents/slimeheldout"
	_ "github.com/gridgym/gridgym/search"
)

// The CLI's default --game values, named once here so that no generic
// package spells a game's name.
const (
	// DefaultTrainGame is the game of the commands that train or write
	// training data when no --game is given (train, pipeline, selfplay):
	// Slime, the README's quick start.
	DefaultTrainGame = "slime"
	// DefaultPlayGame is the game of the commands that play games when no
	// --game is given (play, bench, tournament): Rising Tide.
	DefaultPlayGame = "rising-tide"
)
