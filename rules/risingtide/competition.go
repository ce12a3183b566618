package risingtide

import (
	_ "embed"
	"time"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
)

// competition is Rising Tide's bot protocol (§5) and exported bot.
var competition = &rules.Competition{
	Protocol: rules.PythonCall, Entry: "my_bot_fn", Limit: 100 * time.Millisecond, Args: "plain",
	Rules:    "rising-tide R18 (my_bot_fn(terrain, round_num)), R20 (lists of Python ints), R23 (0.1 s, exception = pass)",
	Template: botTemplate,
	Modules:  map[string][]byte{"util.py": utilModule},
	Refusals: rules.Refusals{
		Form:    formRefusal,
		Illegal: illegalRefusal,
		Pass: func(answer []byte) string {
			if v, err := pyval.Parse(answer); err == nil && answerForm(v) {
				return illegalRefusal
			}
			return ""
		},
	},
	Export: &rules.Export{Source: twin, File: "rising_tide_bot.py", Entry: "my_bot_fn", Args: 2,
		Usage: "Import rising_tide_bot.py like any Rising Tide bot: it defines my_bot_fn(terrain, round_num) and,\n" +
			"where the tournament's util module is importable, bot = util.make_bot(...)."},
}

// illegalRefusal: the answer has R22's form but is no legal move here.
const illegalRefusal = "not a legal move on the bot's view of the board (R10: 8-neighbours in 0..17, source land of height ≥ 1, destination land of height ≤ 7, neither a settlement): a pass (R9)"

// formRefusal says why an answer without R22's form is a pass.
func formRefusal(answer []byte) string {
	if v, err := pyval.Parse(answer); err == nil && hasNumpy(v) {
		return "NumPy integers are not Python ints: the controller's isinstance(x, int) test fails (R22; return int(x)): a pass (R9)"
	}
	return "not (i1, j1), (i2, j2) of four Python ints, nor None (R22): a pass (R9)"
}

// answerForm reports whether v has R22's form: (i1, j1), (i2, j2) of four
// Python ints (legality aside).
func answerForm(v pyval.Value) bool {
	pair, err := v.Unpack(2)
	if err != nil {
		return false
	}
	for _, p := range pair {
		xy, err := p.Unpack(2)
		if err != nil || !xy[0].IsPyInt() || !xy[1].IsPyInt() {
			return false
		}
	}
	return true
}

// hasNumpy reports whether v holds a NumPy scalar.
func hasNumpy(v pyval.Value) bool {
	if v.Kind == pyval.NumpyInt || v.Kind == pyval.NumpyFloat {
		return true
	}
	for _, it := range v.Items {
		if hasNumpy(it) {
			return true
		}
	}
	return false
}

// botTemplate is the starting bot of `gridgym new-bot --game` this game.
//
//go:embed bot_template.py
var botTemplate []byte

// utilModule is the competition's util module (R18), shipped beside every
// hosted bot.
//
//go:embed pylib/util.py
var utilModule []byte

// twin is the NumPy twin of the encoder and the answer format, exported
// after the shared network (export/py/common.py).
//
//go:embed risingtide.py
var twin []byte
