// Package gamestest links every game into a test binary together with the
// test-only game, Four Square (games/internal/foursquare,
// docs/adding-a-game.md): a generic package's tests import it for its side
// effects, in place of package games, so that each of their loops over the
// registry (rules.Games, rules.Names, export.TargetGames) runs on the test
// game too. Only test files import it; the games package's
// TestTestGameNotLinked fails if a program does.
package gamestest

import (
	_ "github.com/gridgym/gridgym/games"                         // the games and their bots
	_ "github.com/gridgym/gridgym/games/internal/foursquarebots" // the test game and its bot
)
