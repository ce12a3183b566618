package bovine

import (
	"embed"

	"github.com/gridgym/gridgym/rules"
)

// Name is the registry name of the game.
const Name = "bovine-borders"

// ParamNonadjacent names the variant flag of §6: drop R7's side condition, as
// the official controller does.
const ParamNonadjacent = "nonadjacent_moves"

// ParamFrontierPlanes names the observation-only flag that adds the
// encoder's frontier planes (PlaneFirst, PlaneRivalFirst).
const ParamFrontierPlanes = "frontier_planes"

// Game is the registered game (read-only after init): its rules,
// parameters, encoder, competition (competition.go) and training
// configs.
var Game = &rules.Game{
	Name:    Name,
	Title:   "Bovine Borders",
	Summary: "4 farmers grow, move and fight with cows on a 20×20 grid; losing the barn eliminates; rank by territory",
	Params: []rules.Param{{
		Name:    ParamNonadjacent,
		Doc:     "drop the side-adjacency check of R7, as the official controller does (§6)",
		Kind:    rules.Bool,
		Default: "false",
	}, {
		Name:        ParamFrontierPlanes,
		Observation: true,
		Doc:         "observation only (the rules ignore it): the encoder adds two planes, the empty cells the seat reaches before every rival and those a rival reaches first (State.Frontier's race, by side steps through empty cells from each side's connected cows)",
		Kind:        rules.Bool,
		Default:     "false",
	}},
	New:         func(cfg rules.Config) rules.State { return New(cfg) },
	Codec:       Codec{},
	Encoder:     NewEncoder,
	Competition: competition,
	Train:       trainConfigs,
	Testdata:    testdata,
	Legend:      &rules.Legend{Seat: []rules.LegendSymbol{{Shape: 'c', Base: '0', What: "cows"}, {Shape: 'b', Base: 'A', What: "barn"}}, Others: ". empty"},
}

func init() { rules.Register(Game) }

// Config returns the config with nonadjacent_moves set as given (the written
// rules when false).
func Config(nonadjacent bool) rules.Config {
	v := "false"
	if nonadjacent {
		v = "true"
	}
	cfg, err := Game.Configure(map[string]string{ParamNonadjacent: v})
	if err != nil {
		panic(err) // unreachable: the value is valid
	}
	return cfg
}

// trainConfigs are the game's training configs (rules.Game.Train, package
// configs): train/default.yaml and the strong preset, train/strong.yaml.
//
//go:embed train/*.yaml
var trainConfigs embed.FS
