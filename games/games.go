// Package games links every game into a program: importing it (for its side
// effects) registers each game's rules and bots. Adding a game means adding
// its two packages here; nothing else names games.
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
