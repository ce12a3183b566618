package train

import (
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
	_ "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/rules"
)

// The network shapes the train step's tests and benchmarks run on, as
// package graph's tests have them (graph/graph_test.go).

// testNet shapes a small network for game with every parameter (biases
// included) drawn at random.
func testNet(t testing.TB, game string, params map[string]string, coords bool) *neural.Net {
	t.Helper()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := g.Configure(params)
	if err != nil {
		t.Fatal(err)
	}
	arch, err := neural.NewArch(game, g.Encoder(cfg).Space(), 8, 2, 16)
	if err != nil {
		t.Fatal(err)
	}
	arch.Coords = coords
	net, err := neural.New(arch)
	if err != nil {
		t.Fatal(err)
	}
	rng := rules.NewRNG(3)
	for _, v := range net.Values {
		for i := range v {
			v[i] = float32(rng.Float64()*2-1) * 0.3
		}
	}
	return net
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
