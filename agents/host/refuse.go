package host

import (
	"strings"

	"github.com/gridgym/gridgym/rules"
)

// refusal says why a bot's answer, read by the game's codec as m, is no
// move (or not a legal one), in the terms of the game's rules file (§5 and
// the legality rule) as its registration words them
// (rules.Competition.Refusals), for the log of refused answers; "" if the
// answer is a legal move, or the game's own pass answer (rules.Program.Pass)
// where a pass is legal. answer is the tagged Python value of a Python bot,
// or the first line of a program's output.
func refusal(game string, st rules.State, seat int, answer []byte, m rules.Move) string {
	var r rules.Refusals
	pass := ""
	if g, err := rules.Lookup(game); err == nil && g.Competition != nil {
		r = g.Competition.Refusals
		if g.Competition.Program != nil {
			pass = g.Competition.Program.Pass
		}
	}
	if m != (rules.Move{}) {
		if r.Malformed != nil && r.Malformed(answer) {
			return formRefusal(r, answer)
		}
		if st.Legal(seat, m) || onlyPass(st, seat) {
			return ""
		}
		return illegalRefusal(r)
	}
	if onlyPass(st, seat) || passAnswer(answer, pass) && st.Legal(seat, m) {
		return ""
	}
	if r.Pass != nil {
		if why := r.Pass(answer); why != "" {
			return why
		}
	}
	return formRefusal(r, answer)
}

// passAnswer reports whether a program's answer is the game's own pass line
// pass (Slime: "-1 -1 -1 -1", what gridgym's exported bots print to pass): a
// pass chosen, not a refused move. An empty pass (no program form) matches
// nothing.
func passAnswer(answer []byte, pass string) bool {
	return pass != "" && strings.TrimRight(string(answer), "\r\n") == strings.TrimRight(pass, "\n")
}

// onlyPass reports whether Pass is the seat's one legal move (a Slime player
// with no spread or jump left): then whatever it answers plays as the pass
// it must play, and there is nothing to refuse.
func onlyPass(st rules.State, seat int) bool {
	ms := st.LegalMoves(seat, nil)
	return len(ms) == 1 && ms[0] == (rules.Move{})
}

// formRefusal: the answer does not have the form the competition reads.
func formRefusal(r rules.Refusals, answer []byte) string {
	if r.Form != nil {
		if why := r.Form(answer); why != "" {
			return why
		}
	}
	return "the codec reads no move in it: a pass"
}

// illegalRefusal: the answer has the form but is no legal move here.
func illegalRefusal(r rules.Refusals) string {
	if r.Illegal != "" {
		return r.Illegal
	}
	return "not a legal move in this position: the game's treatment of an illegal move"
}
