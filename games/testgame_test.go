package games

// The one line that links the test-only game (games/internal/foursquare,
// docs/adding-a-game.md) into this package's tests, as games.go links the
// real games: every test of this package then runs on it too.
import (
	_ "github.com/gridgym/gridgym/games/internal/foursquarebots"
)
