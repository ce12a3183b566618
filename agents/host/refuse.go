package host

import (
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/pyval"
	"github.com/gridgym/gridgym/rules/slime"
)

// refusal says why a bot's answer, read by the game's codec as m, is no
// move (or not a legal one), in the terms of the game's rules file (§5 and
// the legality rule), for the log of refused answers; "" if the answer is a
// legal move. answer is the tagged Python value of a Python bot, or the
// first line of a program's output.
func refusal(game string, st rules.State, seat int, answer []byte, m rules.Move) string {
	if m != (rules.Move{}) {
		if c, ok := competitions[game]; ok && c.malformed != nil && c.malformed(answer) {
			return formRefusal(game, answer)
		}
		if st.Legal(seat, m) {
			return ""
		}
		return illegalRefusal(game)
	}
	switch game {
	case "slime":
		if _, _, _, _, ok := slime.ParseOutput(answer); ok {
			return "a coordinate off the board (R8): a pass (R7)"
		}
	case "rising-tide":
		v, err := pyval.Parse(answer)
		if err == nil && risingTideForm(v) {
			return illegalRefusal(game)
		}
	}
	return formRefusal(game, answer)
}

// risingTideForm reports whether v has R22's form: (i1, j1), (i2, j2) of
// four Python ints (legality aside).
func risingTideForm(v pyval.Value) bool {
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

// formRefusal: the answer does not have the form the competition reads.
func formRefusal(game string, answer []byte) string {
	switch game {
	case "rising-tide":
		if v, err := pyval.Parse(answer); err == nil && hasNumpy(v) {
			return "NumPy integers are not Python ints: the controller's isinstance(x, int) test fails (R22; return int(x)): a pass (R9)"
		}
		return "not (i1, j1), (i2, j2) of four Python ints, nor None (R22): a pass (R9)"
	case "bovine-borders":
		return "not ((i1, j1), (i2, j2)), (i2, j2) or None, with integer values (R20): a pass (R10)"
	case "nuggets":
		return "not a tuple or list (x, y) of two integers (Python or NumPy, not bool) each in 0..19 (R20): the query (0,0) is played (R6)"
	case "rectangle":
		return "not b (r, c) pairs of Python ints in 0..n-1 at move_num 0, nor later b directions from N E S W X, as one string or a list of one-letter strings (R20): every robot stays (R9)"
	case "slime":
		return "not four integers r1 c1 r2 c2 followed by a newline on the first line of standard output (R15): a pass"
	}
	return "the codec reads no move in it: a pass"
}

// illegalRefusal: the answer has the form but is no legal move here.
func illegalRefusal(game string) string {
	switch game {
	case "rising-tide":
		return "not a legal move on the bot's view of the board (R10: 8-neighbours in 0..17, source land of height ≥ 1, destination land of height ≤ 7, neither a settlement): a pass (R9)"
	case "bovine-borders":
		return "not a valid move (R7: the source the bot's own, the destination not, sharing a side; a destination alone needs a side-neighbour of the bot's own, R8): a pass (R10)"
	case "slime":
		return "not a valid move (R8: the source the player's slime; the target empty at distance 1 or 2, or the player's own at distance 1): a pass (R7)"
	}
	return "not a legal move in this position: the game's treatment of an illegal move"
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
