// Package neuraltest holds test helpers for the network: the architectures
// the games' training presets give, for tests that must hold on every
// shipped network without reading the weight files. It reads the games from
// the registry and links none: a test that uses it links them (the
// games/gamestest import every generic package's tests have).
package neuraltest

import (
	"encoding/json"
	"fmt"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/configs"
	"github.com/gridgym/gridgym/rules"
)

// PresetArchs returns the architecture of every game's default config and
// presets (rules/*/train/*.yaml, which the shipped networks in models/ are
// trained from), each once, with a name: game-preset-FILTERSxLAYERS of its
// first preset. A preset's network and params sections lie over its
// default's, as train.PresetConfig reads them (this package does not
// import train, so that train's own packages can use it).
func PresetArchs(t testing.TB) (names []string, archs []neural.Arch) {
	t.Helper()
	type section struct {
		Params  map[string]string `yaml:"params"`
		Network struct {
			Filters int  `yaml:"filters"`
			Layers  int  `yaml:"layers"`
			Hidden  int  `yaml:"hidden"`
			Coords  bool `yaml:"coords"`
		} `yaml:"network"`
	}
	seen := map[string]bool{}
	for _, game := range configs.Games() {
		for _, preset := range append([]string{"default"}, configs.PresetsOf(game)...) {
			var c section
			d, err := configs.Default(game)
			if err != nil {
				t.Fatal(err)
			}
			if err := yaml.Unmarshal(d, &c); err != nil {
				t.Fatalf("%s default: %v", game, err)
			}
			if preset != "default" {
				b, err := configs.Preset(game, preset)
				if err != nil {
					t.Fatal(err)
				}
				if err := yaml.Unmarshal(b, &c); err != nil {
					t.Fatalf("%s %s: %v", game, preset, err)
				}
			}
			g, err := rules.Lookup(game)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := g.Configure(c.Params)
			if err != nil {
				t.Fatalf("%s %s: %v", game, preset, err)
			}
			a, err := neural.NewArch(game, g.Encoder(cfg).Space(), c.Network.Filters, c.Network.Layers, c.Network.Hidden)
			if err != nil {
				t.Fatalf("%s %s: %v", game, preset, err)
			}
			a.Coords = c.Network.Coords
			key, err := json.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			if !seen[string(key)] {
				seen[string(key)] = true
				names = append(names, fmt.Sprintf("%s-%s-%dx%d", game, preset, a.Filters, a.Layers))
				archs = append(archs, a)
			}
		}
	}
	if len(archs) < len(configs.Games()) {
		t.Fatalf("%d architectures for %d games", len(archs), len(configs.Games()))
	}
	return names, archs
}

// RandomNet is a network of arch with every value, biases too, drawn
// uniformly from [−1/8, 1/8) from seed, so that no unit is dead.
func RandomNet(t testing.TB, a neural.Arch, seed uint64) *neural.Net {
	t.Helper()
	net, err := neural.New(a)
	if err != nil {
		t.Fatal(err)
	}
	r := rules.NewRNG(seed)
	for _, v := range net.Values {
		for i := range v {
			v[i] = float32(r.Float64()-0.5) / 4
		}
	}
	return net
}

// SmallNet is a network of game (with params) of 8 filters × 2 layers and
// 16 hidden units, coordinate planes if coords, every value drawn
// uniformly from [−0.3, 0.3) from seed 3: the small random network the
// learner's tests (train, train/graph) run their steps on.
func SmallNet(t testing.TB, game string, params map[string]string, coords bool) *neural.Net {
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
