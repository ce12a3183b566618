package bovine

import (
	_ "embed"
	"time"

	"github.com/gridgym/gridgym/rules"
)

// competition is Bovine Borders' bot protocol (§5) and exported bot.
var competition = &rules.Competition{
	Protocol: rules.PythonCall, Entry: "bot", Limit: 100 * time.Millisecond, Args: "int16-board",
	Rules:    "bovine-borders R18 (bot(board)), R19 (NumPy int16 scalars), R21 (0.1 s, exception = pass)",
	Template: botTemplate,
	Refusals: rules.Refusals{
		Form: func([]byte) string {
			return "not ((i1, j1), (i2, j2)), (i2, j2) or None, with integer values (R20): a pass (R10)"
		},
		Illegal: "not a valid move (R7: the source the bot's own, the destination not, sharing a side; a destination alone needs a side-neighbour of the bot's own, R8): a pass (R10)",
	},
	Export: &rules.Export{Source: twin, File: "bovine_borders_bot.py", Entry: "bot", Args: 1,
		Guard: "With a rival cow one or two steps from the barn it captures one (beside the barn first, from a\n" +
			"connected cow first, never from the barn), else places a cow from the barn beside it (guard.go).",
		Usage: "bovine_borders_bot.py defines the bot function taking board, as the competition imports it."},
}

// botTemplate is the starting bot of `gridgym new-bot --game` this game.
//
//go:embed bot_template.py
var botTemplate []byte

// twin is the NumPy twin of the encoder and the answer format (R18-R22), exported
// after the shared network (export/py/common.py).
//
//go:embed bovine.py
var twin []byte
