package neural_test

// Every game, and the test-only game Four Square (docs/adding-a-game.md):
// this package's loops over the registered games run on it too.
import _ "github.com/gridgym/gridgym/games/gamestest"
