package train

import (
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/agents/neural/neuraltest"
	_ "github.com/gridgym/gridgym/games"
)

// The network shapes the train step's tests and benchmarks run on, as
// package graph's tests have them (graph/graph_test.go).

// testNet is neuraltest.SmallNet: a small network of game with every
// parameter (biases included) drawn at random.
func testNet(t testing.TB, game string, params map[string]string, coords bool) *neural.Net {
	t.Helper()
	return neuraltest.SmallNet(t, game, params, coords)
}

// gameShapes is every game's network shape for the tests that run on each
// (testNet's arguments): Rectangle on a small board with several robots.
var gameShapes = []struct {
	game   string
	params map[string]string
	coords bool
}{
	{"slime", nil, false},
	{"rising-tide", nil, false},
	{"bovine-borders", nil, true},
	{"nuggets", nil, true},
	{"rectangle", map[string]string{"n": "8", "robots": "3"}, true},
}
