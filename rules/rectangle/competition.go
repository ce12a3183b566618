package rectangle

import (
	_ "embed"
	"time"

	"github.com/gridgym/gridgym/rules"
)

// competition is Rectangle's bot protocol (§5) and exported bot.
var competition = &rules.Competition{
	Protocol: rules.PythonCall, Entry: "bot", Limit: 100 * time.Millisecond, Args: "robot-tuples",
	Rules:    "rectangle R18 (bot(board, robots, scores, move_num)), R19 ((r, c) tuples), R20 (0.1 s; exception or time-out = R9's default)",
	Template: botTemplate,
	Refusals: rules.Refusals{
		Form: func([]byte) string {
			return "not b (r, c) pairs of Python ints in 0..n-1 at move_num 0, nor later b directions from N E S W X, as one string or a list of one-letter strings (R20): every robot stays (R9)"
		},
	},
	Export: &rules.Export{Source: twin, File: "rectangle_bot.py", Entry: "bot", Args: 4, Steps: true, Opening: true,
		Usage: "rectangle_bot.py defines bot(board, robots, scores, move_num), the Rectangle protocol's callable (R18)."},
}

// botTemplate is the starting bot of `gridgym new-bot --game` this game.
//
//go:embed bot_template.py
var botTemplate []byte

// twin is the NumPy twin of the encoder (plan.go's plans included) and the
// answer format, exported after the shared network (export/py/common.py).
//
//go:embed rectangle.py
var twin []byte
