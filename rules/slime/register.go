package slime

import (
	"embed"

	"github.com/gridgym/gridgym/rules"
)

// Name is the registry name of the game.
const Name = "slime"

// Game is the registered game (read-only after init): its rules,
// parameters, encoder, competition (competition.go) and training
// configs.
var Game = &rules.Game{
	Name:    Name,
	Title:   "Slime: The Territory War",
	Summary: "4 slimes on an 8×8 board take turns to spread, jump or merge, converting neighbours; score = own cells",
	Params: []rules.Param{
		{Name: "max_turns", Doc: "end the game after this many turns (the controller's cap, R5); 0 = no cap, the seed text's rule", Kind: rules.Int, Default: "2000", Min: 0, Max: 1000000},
		{Name: "board_size", Doc: "N of the N×N board (R1)", Kind: rules.Int, Default: "8", Min: 4, Max: 8},
	},
	New:         func(cfg rules.Config) rules.State { return New(cfg) },
	Codec:       Codec{},
	Encoder:     NewEncoder,
	Competition: competition,
	Train:       trainConfigs,
	Testdata:    testdata,
	Legend:      &rules.Legend{Seat: []rules.LegendSymbol{{Base: '1', What: "cells"}}, Others: ". empty"},
}

func init() { rules.Register(Game) }

// trainConfigs are the game's training configs (rules.Game.Train, package
// configs): train/default.yaml and the strong preset, train/strong.yaml.
//
//go:embed train/*.yaml
var trainConfigs embed.FS
