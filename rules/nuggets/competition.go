package nuggets

import (
	_ "embed"
	"time"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
)

// competition is Nuggets' bot protocol (§5) and exported bot.
var competition = &rules.Competition{
	Protocol: rules.PythonCall, Entry: "bot", Limit: 100 * time.Millisecond, Args: "plain",
	Rules:    "nuggets R17 (bot(board, move_num)), R18 (lists of Python ints), R20 (0.1 s; exception or time-out = the query (0,0), R6)",
	Template: botTemplate,
	Refusals: rules.Refusals{
		Malformed: malformed,
		Form: func([]byte) string {
			return "not a tuple or list (x, y) of two integers (Python or NumPy, not bool) each in 0..19 (R20): the query (0,0) is played (R6)"
		},
	},
	Export: &rules.Export{Source: twin, File: "nuggets_bot.py", Entry: "bot", Args: 2, Steps: true,
		Usage: "nuggets_bot.py defines bot(board, move_num), the Nuggets protocol's callable (R17, R18)."},
}

// malformed reports whether an answer is not an (x, y) square (R20): the
// codec reads it as the query (0,0) (R6), which a valid answer can ask too.
func malformed(answer []byte) bool {
	v, err := pyval.Parse(answer)
	if err != nil {
		return true
	}
	_, _, ok := AnswerXY(v)
	return !ok
}

// botTemplate is the starting bot of `gridgym new-bot --game` this game.
//
//go:embed bot_template.py
var botTemplate []byte

// twin is the NumPy twin of the encoder (greedy.go's one-ply evaluation
// included) and the answer format, exported after the shared network
// (export/py/common.py).
//
//go:embed nuggets.py
var twin []byte
