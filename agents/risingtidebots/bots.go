// Package risingtidebots holds the six official sample bots of Rising Tide
// (shared/rules/sample-bots.md), under their official names. Like a
// competition bot, each one reads only its seat's view (risingtide.View: the
// terrain rotated so its settlement is at (5, 5), and round_num), decides in
// view coordinates, and maps its answer back with risingtide.MoveFromView.
//
// "Legal moves" are those of the official util.allowed_moves: every (source,
// destination) with the destination among the source's in-bounds 8-neighbours
// that passes R10 on the view. A bot with no legal move passes (the official
// bots raise, which the controller counts as a pass).
//
// border_barcelona and level_los_angeles shuffle the legal moves and take the
// first with a property, else the first of the list. The first element with a
// property of a uniformly shuffled list is a uniformly random element among
// those with it, so these bots draw one U(k) over the k qualifying moves (or
// over all moves when none qualifies): the same choice distribution.
//
// Beside them, four scripted bots of the project: a stronger baseline
// (wall.go), an attacker (sapper.go), the first bot here that drowns a
// rival on purpose, so that training meets a seat that attacks, and the
// two in order of need (siege.go), and that one without ganging up
// (solo.go):
//
// | name | behaviour |
// | --- | --- |
// | `wall_warsaw` | raises the 8 neighbours of (5,5) to height 8 (which never floods within 800 rounds, R12), then the 16 cells around them, lowest cell first, each from the highest adjacent land one ring further out; repairs them when dug; else passes. About 1 µs a move, no allocation; survives about 797 of 800 rounds against nearby_new_orleans, border_barcelona and trench_tunis |
// | `sapper_seoul` | walks back from the rival settlement that would flood first along the water's quickest way in (flood times: R12 replayed from the sea, as if nobody moved again) and digs its highest cell, dumping the earth on the neighbour farthest from that settlement; repairs its own wall as wall_warsaw does when its own settlement would flood within 60 rounds. Drowns the shipped network in 220 rounds on average (40 games with wall_warsaw and trench_tunis); wall_warsaw holds against it |
// | `siege_sofia` | wall_warsaw's move whenever it has one (both rings to 8, repairs), else sapper_seoul's. Against three pass_perth it drowns one in round 106 and survives; with each held-out bot, wall_warsaw and sapper_seoul (480 games, every seating order) it survives more rounds than the held-out bot: breach_berlin +76.9 [+40.6, +113.2], levee_lima +99.0 [+58.6, +139.4], sniper_santiago +24.3 [−16.7, +65.3] |
// | `solo_stockholm` | siege_sofia that does not gang up: never digs at a rival settlement whose flood time fell in the last 30 rounds without its own dig (another seat is attacking it). In the same tables: breach_berlin +95.4 [+58.8, +132.1], levee_lima +99.0 [+58.6, +139.4], sniper_santiago −2.6 [−42.9, +37.7]; level with siege_sofia (−0.35 [−48.7, +48.0], seed 2). A 60-iteration PPO exploiter against three copies gains +15.1 [+10.0, +20.3] rounds a game, against +42.1 [+34.8, +49.5] for three siege_sofia copies (reports/rising-tide/siege) |
package risingtidebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

const game = "rising-tide"

func init() {
	agents.Register(game, "pass_perth", "always passes", func() agents.Agent { return &passBot{} })
	for _, b := range []struct {
		name, doc string
		pick      picker
	}{
		{"random_rizhao", "a legal move uniformly at random", pickAny},
		{"nearby_new_orleans", "uniformly among legal moves whose destination is nearest (Manhattan) to its settlement (5,5): builds a mound next to itself", pickNearby},
		{"trench_tunis", "uniformly among legal moves whose source is near water and nearest (Manhattan) to a rival settlement: digs where the water is, toward rivals", pickTrench},
		{"border_barcelona", "a random legal move from dry land onto a cell near water, else any legal move: raises walls on the coastline", pickBorder},
		{"level_los_angeles", "a random legal move downhill within rows and columns 0..9, else any legal move: flattens its own quarter", pickLevel},
	} {
		pick := b.pick
		agents.Register(game, b.name, b.doc, func() agents.Agent { return &bot{pick: pick} })
	}
}

// Move is a move in view coordinates: one unit of land from (I1, J1) to (I2, J2).
type Move struct{ I1, J1, I2, J2 int }

// LegalMoves appends the legal moves of util.allowed_moves on view v: every
// destination among the source's 8 neighbours, with R10 on the view.
func LegalMoves(v *risingtide.SeatView, dst []Move) []Move {
	for i1 := 0; i1 < risingtide.Size; i1++ {
		for j1 := 0; j1 < risingtide.Size; j1++ {
			if v.Terrain[i1][j1] < 1 {
				continue
			}
			for i2 := i1 - 1; i2 <= i1+1; i2++ {
				for j2 := j1 - 1; j2 <= j1+1; j2++ {
					if v.Legal(i1, j1, i2, j2) {
						dst = append(dst, Move{i1, j1, i2, j2})
					}
				}
			}
		}
	}
	return dst
}

// NearWater is util.is_near_water: one of the cell's in-bounds 8-neighbours
// is flooded, or the cell is on the board's edge.
func NearWater(v *risingtide.SeatView, i, j int) bool {
	const last = risingtide.Size - 1
	if i == 0 || j == 0 || i == last || j == last {
		return true
	}
	for a := i - 1; a <= i+1; a++ {
		for b := j - 1; b <= j+1; b++ {
			if (a != i || b != j) && v.Terrain[a][b] == risingtide.Flooded {
				return true
			}
		}
	}
	return false
}

func dist(i1, j1, i2, j2 int) int { return abs(i1-i2) + abs(j1-j2) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// actOn is the Act of a bot that decides on its seat's view (wall_warsaw,
// sapper_seoul, siege_sofia): st seen from seat into *view, decide's move
// mapped back to real cells, a pass where decide has none.
func actOn(st rules.State, seat int, view *risingtide.SeatView, decide func(*risingtide.SeatView) (Move, bool)) rules.Move {
	*view = risingtide.View(st.(*risingtide.State), seat)
	m, ok := decide(view)
	if !ok {
		return rules.Move{}
	}
	return risingtide.MoveFromView(seat, m.I1, m.J1, m.I2, m.J2)
}

// picker appends to best the moves among the (non-empty) legal moves that the
// bot chooses from uniformly.
type picker func(v *risingtide.SeatView, moves, best []Move) []Move

// bot is a sample bot that picks uniformly among the moves its picker keeps.
type bot struct {
	pick        picker
	seat        int
	rng         *rules.RNG
	view        risingtide.SeatView
	moves, best []Move
}

// Reset implements agents.Agent.
func (b *bot) Reset(_ rules.State, seat int, rng *rules.RNG) { b.seat, b.rng = seat, rng }

// Act implements agents.Agent.
func (b *bot) Act(st rules.State) rules.Move {
	b.view = risingtide.View(st.(*risingtide.State), b.seat)
	b.moves = LegalMoves(&b.view, b.moves[:0])
	if len(b.moves) == 0 {
		return rules.Move{}
	}
	b.best = b.pick(&b.view, b.moves, b.best[:0])
	m := b.best[b.rng.U(len(b.best))]
	return risingtide.MoveFromView(b.seat, m.I1, m.J1, m.I2, m.J2)
}

// passBot is pass_perth.
type passBot struct{}

func (passBot) Reset(rules.State, int, *rules.RNG) {}
func (passBot) Act(rules.State) rules.Move         { return rules.Move{} }

// pickAny is random_rizhao: random.choice over all legal moves.
func pickAny(_ *risingtide.SeatView, moves, best []Move) []Move { return append(best, moves...) }

// pickMin keeps the moves of lowest score.
func pickMin(moves, best []Move, score func(Move) int) []Move {
	low := 0
	for k, m := range moves {
		sc := score(m)
		switch {
		case k == 0 || sc < low:
			low, best = sc, append(best[:0], m)
		case sc == low:
			best = append(best, m)
		}
	}
	return best
}

// pickNearby is nearby_new_orleans: the destinations nearest to (5, 5).
func pickNearby(_ *risingtide.SeatView, moves, best []Move) []Move {
	return pickMin(moves, best, func(m Move) int { return dist(5, 5, m.I2, m.J2) })
}

// rivals are the other settlements in the view (util.CITIES[1:]).
var rivals = [3][2]int{{5, 12}, {12, 12}, {12, 5}}

// noWater is trench_tunis's +infinity: above every real distance (≤ 34).
const noWater = 1 << 30

// pickTrench is trench_tunis: sources near water, nearest to a rival
// settlement; if no source is near water, every move (all score +inf).
func pickTrench(v *risingtide.SeatView, moves, best []Move) []Move {
	return pickMin(moves, best, func(m Move) int {
		if !NearWater(v, m.I1, m.J1) {
			return noWater
		}
		d := noWater
		for _, c := range rivals {
			d = min(d, dist(m.I1, m.J1, c[0], c[1]))
		}
		return d
	})
}

// pickIf keeps the moves with property ok, or every move if none has it.
func pickIf(moves, best []Move, ok func(Move) bool) []Move {
	for _, m := range moves {
		if ok(m) {
			best = append(best, m)
		}
	}
	if len(best) == 0 {
		best = append(best, moves...)
	}
	return best
}

// pickBorder is border_barcelona: from a source not near water onto a
// destination near water.
func pickBorder(v *risingtide.SeatView, moves, best []Move) []Move {
	return pickIf(moves, best, func(m Move) bool {
		return NearWater(v, m.I2, m.J2) && !NearWater(v, m.I1, m.J1)
	})
}

// pickLevel is level_los_angeles: inside rows and columns 0..9, from higher
// to lower land.
func pickLevel(v *risingtide.SeatView, moves, best []Move) []Move {
	return pickIf(moves, best, func(m Move) bool {
		return max(m.I1, m.J1, m.I2, m.J2) < 10 && v.Terrain[m.I1][m.J1] > v.Terrain[m.I2][m.J2]
	})
}
