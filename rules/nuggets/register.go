package nuggets

import (
	"embed"

	"github.com/gridgym/gridgym/rules"
)

// Name is the registry name of the game.
const Name = "nuggets"

// Game is the registered game (read-only after init): its rules,
// parameters, encoder, competition (competition.go) and training
// configs.
var Game = &rules.Game{
	Name:    Name,
	Title:   "Nuggets",
	Summary: "4 seats colour a 20×20 grid by simultaneous queries against decay; score = product of nugget sizes",
	Params: []rules.Param{
		{Name: "setup_moves", Doc: "moves of the setup phase (R5), no recolouring and no decay", Kind: rules.Int, Default: "60", Min: 0, Max: MaxPhaseMoves},
		{Name: "build_moves", Doc: "moves of the build phase (R5), with recolouring and decay", Kind: rules.Int, Default: "200", Min: 0, Max: MaxPhaseMoves},
		{Name: "decay_table", Doc: "R12's base percentages by moves left: lo-hi:b0,b1,b2,b3,b4 bands separated by ';'", Kind: rules.Text, Default: DefaultDecayTable,
			Check: func(s string) error { _, err := ParseDecayTable(s); return err }},
		{Name: "invalid_query", Doc: "an invalid or missing answer queries (0,0) (origin, R6) or nothing (pass)", Kind: rules.Choice, Default: "origin", Choices: []string{"origin", "pass"}},
	},
	Validate:    validate,
	New:         func(c rules.Config) rules.State { return New(c) },
	Codec:       Codec{},
	Encoder:     NewEncoder,
	Competition: competition,
	Train:       trainConfigs,
	Testdata:    testdata,
	Legend:      &rules.Legend{Seat: []rules.LegendSymbol{{Base: '0', What: "squares"}}, Others: ". empty"},
}

func init() { rules.Register(Game) }

// trainConfigs are the game's training configs (rules.Game.Train, package
// configs): train/default.yaml and the strong preset, train/strong.yaml.
//
//go:embed train/*.yaml
var trainConfigs embed.FS
