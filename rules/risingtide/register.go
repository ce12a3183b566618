package risingtide

import (
	"embed"

	"github.com/gridgym/gridgym/rules"
)

// Name is the registry name of the game.
const Name = "rising-tide"

// ParamFloodPlanes names the observation-only flag that adds the
// encoder's flood planes (Encoder.flood).
const ParamFloodPlanes = "flood_planes"

// Game is the registered game (read-only after init): its rules,
// parameters, encoder, competition (competition.go) and training
// configs.
var Game = &rules.Game{
	Name:    Name,
	Title:   "Rising Tide",
	Summary: "4 seats push land on an 18×18 island to keep their settlements above a rising sea",
	Params: []rules.Param{{
		Name:    "nonadjacent_moves",
		Doc:     "drop R10b as the official controller does: any two cells (src = dst included) may form a move",
		Kind:    rules.Bool,
		Default: "false",
	}, {
		Name:        ParamFloodPlanes,
		Observation: true,
		Doc:         "observation only (the rules ignore it): the encoder adds four planes from the flood rounds with nobody moving (FloodTimes): the quickest way of the sea into the own settlement; the rival settlement it reaches first and its way; that way's highest cell; all ones while the own settlement outlasts the game",
		Kind:        rules.Bool,
		Default:     "false",
	}},
	New:         func(cfg rules.Config) rules.State { return New(cfg) },
	Codec:       codec{},
	Encoder:     NewEncoder,
	Competition: competition,
	Train:       trainConfigs,
	Testdata:    testdata,
	Legend:      &rules.Legend{Seat: []rules.LegendSymbol{{Shape: 's', Base: 'A', What: "settlement"}}, Others: "digits are land heights, ~ water"},
}

func init() { rules.Register(Game) }

// trainConfigs are the game's training configs (rules.Game.Train, package
// configs): train/default.yaml and the strong preset, train/strong.yaml.
//
//go:embed train/*.yaml
var trainConfigs embed.FS
