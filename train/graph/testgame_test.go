package graph

// Every game, and the test-only game Four Square (docs/adding-a-game.md):
// this package's loops over the registered games (neuraltest.PresetArchs)
// run on it too.
import _ "github.com/gridgym/gridgym/games/gamestest"
