package foursquare

import (
	"embed"
	"time"

	"github.com/gridgym/gridgym/rules"
)

// Game is the registered game.
var Game = &rules.Game{
	Name:        Name,
	Title:       "Four Square (test game)",
	Summary:     "test-only: 2 seats place stones on a 4×4 board; the largest group wins",
	New:         func(rules.Config) rules.State { return New() },
	Codec:       Codec{},
	Encoder:     NewEncoder,
	Competition: competition,
	Train:       trainConfigs,
	Testdata:    testdata,
	Legend:      &rules.Legend{Seat: []rules.LegendSymbol{{Base: '0', What: "cells"}}, Others: ". empty"},
}

var competition = &rules.Competition{
	Protocol: rules.PythonCall, Entry: "bot", Limit: 100 * time.Millisecond, Args: "plain",
	Rules:    "four-square R6 (bot(board), lists of ints, (r, c) or None, 0.1 s), R3 (anything else is a pass)",
	Template: botTemplate,
	Refusals: rules.Refusals{Illegal: "not an empty cell (R2): a pass (R3)"},
	Export: &rules.Export{Source: twin, File: "four_square_bot.py", Entry: "bot", Args: 1,
		Usage: "four_square_bot.py defines bot(board) (R6)."},
}

//go:embed bot_template.py
var botTemplate []byte

// twin is the NumPy twin of the encoder and the answer format, exported
// after the shared network (export/py/common.py).
//
//go:embed foursquare.py
var twin []byte

// trainConfigs are the game's tiny training configs: the default
// (train/default.yaml), which TestTestGameTrains runs, and the strong
// preset every game has (train/strong.yaml).
//
//go:embed train/*.yaml
var trainConfigs embed.FS

func init() { rules.Register(Game) }
