// Package games links every game into a program: importing it (for its side
// effects) registers each game's rules (with its competition, on
// rules.Game) and bots, and the search bots every game gets. Adding a game
// means adding its rules/<game> and agents/<game>bots packages here
// (docs/adding-a-game.md); the generic packages read games from the
// registry and import none, which generic_test.go checks (the CLI's default
// --game values and Slime's own runner, cmd/slimebot, are its listed
// exceptions).
package games

import (
	_ "github.com/gridgym/gridgym/agents/bovinebots"
	_ "github.com/gridgym/gridgym/agents/nuggetsbots"
	_ "github.com/gridgym/gridgym/agents/rectanglebots"
	_ "github.com/gridgym/gridgym/agents/risingtidebots"
	_ "github.com/gridgym/gridgym/agents/slimebots"
	_ "github.com/gridgym/gridgym/rules/bovine"
	_ "github.com/gridgym/gridgym/rules/nuggets"
	_ "github.com/gridgym/gridgym/rules/rectangle"
	_ "github.com/gridgym/gridgym/rules/risingtide"
	_ "github.com/gridgym/gridgym/rules/slime"
	_ "github.com/gridgym/gridgym/search"
)
