package nuggets

import (
	"math"
	"math/bits"
	"slices"
)

// # The one-ply greedy evaluation
//
// Weights and Evaluate are the evaluation of agents/nuggetsbots' greedy bots
// (their package doc explains the terms). It lives here, next to the
// encoder, because the encoder shows its best squares as the plane
// greedy_best: a network then sees what greedy_tuned would query (and the
// fortress bot, once its opening is over), and the exported Python bot
// (nuggets.py, beside this file) computes the same squares from the same
// request.

// Weights are the weights of the greedy evaluation.
type Weights struct {
	Singleton float64 // V(1) before the last move
	Compact   float64 // weight of a square's own side-neighbours
	Room      float64 // weight of an empty square's empty side-neighbours
	Attack    float64 // share of a rival's loss counted
}

// GreedyWeights are the `greedy` bot's documented weights; TunedWeights are
// `greedy_tuned`'s, which won a sweep against greedy (+0.36 ± 0.11 in 3000
// games) and drive the encoder's greedy_best plane.
var (
	GreedyWeights = Weights{Singleton: 0.25, Compact: 0.1, Room: 0.001, Attack: 0.25}
	TunedWeights  = Weights{Singleton: 0.15, Compact: 0.07, Room: 0.001, Attack: 0.1}
)

// FortressWeights and FortressLeft are the `fortress` bot's opening: while
// more than FortressLeft moves are left (moves 0..99 of the written game),
// it weighs a square's own side-neighbours at 0.2 instead of greedy_tuned's
// 0.07, so that every query grows a nugget it already has, as compactly as
// it can, and a new nugget starts only where no growth is left. The interior
// of such a fortress hardly decays while more than 120 moves are left (base
// 0 or 1 for N ≥ 3, R12), so the fortress holds ground that the rivals'
// small nuggets would otherwise take; after the opening fortress plays as
// greedy_tuned, whose small nuggets then grow on that ground and score.
// Against three greedy_tuned it scores +1.3 log-score a game over them
// (reports/nuggets/fortress). The switch is counted in moves left, as R12's
// bands are, so that other game lengths keep it at the same band.
var FortressWeights = Weights{Singleton: 0.15, Compact: 0.2, Room: 0.001, Attack: 0.1}

// FortressLeft is the moves left above which the fortress bot uses
// FortressWeights (FortressWeights' doc).
const FortressLeft = 160

// FortressAt returns the weights the fortress bot plays with movesLeft moves
// left: FortressWeights above FortressLeft, TunedWeights from then on.
func FortressAt(movesLeft int) Weights {
	if movesLeft > FortressLeft {
		return FortressWeights
	}
	return TunedWeights
}

// HarvestWeights and HarvestLeft are the `harvester` bot's last moves: once
// HarvestLeft moves or fewer are left (the last 80 of the written game),
// it weighs a square's own side-neighbours at 0.045 instead of 0.07 and a new
// singleton at 0.25 instead of 0.15, so that it starts new small nuggets on
// open ground instead of thickening the ones it has. Fortress (and
// greedy_tuned after its opening) keeps thickening: in its games two
// nuggets of seven squares or more stand to the end, holding ground that
// scores ln n for n squares (reports/nuggets/harvest's probe). Found by
// a sweep of the last moves' weights against fortress, greedy_tuned and
// greedy, never against a held-out bot (reports/nuggets/harvest).
var HarvestWeights = Weights{Singleton: 0.25, Compact: 0.045, Room: 0.001, Attack: 0.1}

// HarvestLeft is the moves left at and below which the harvester plays
// HarvestWeights (HarvestWeights' doc).
const HarvestLeft = 80

// HarvestAt returns the weights the harvester plays with movesLeft moves
// left: fortress's (FortressAt) above HarvestLeft, HarvestWeights from then
// on.
func HarvestAt(movesLeft int) Weights {
	if movesLeft <= HarvestLeft {
		return HarvestWeights
	}
	return FortressAt(movesLeft)
}

// Holding returns the greedy evaluation's value of seat's nuggets: Σ V(size)
// over them, V(n) = ln n for n ≥ 2 and V(1) = w.Singleton before the last
// move (0 on it, the real log-score, R15), as Evaluate values the nuggets a
// query merges. It allocates nothing.
func (s *State) Holding(seat int, w Weights) float64 {
	single := w.Singleton
	if s.cfg.total-s.t <= 1 {
		single = 0
	}
	var r runSet
	r.build(&s.own[seat])
	return r.value(single)
}

// Standing returns seat's position as the greedy evaluation weighs a
// square's terms, summed over the board: Holding, plus w.Compact for every
// pair of side-adjacent own squares (compact nuggets decay less, R12) and
// w.Room for every own square's empty side-neighbour (room to grow). After
// a query of an empty square that joins no rival's, it changes by about the
// square's score in Evaluate. It allocates nothing.
func (s *State) Standing(seat int, w Weights) float64 {
	b := &s.own[seat]
	var all Board
	for o := range s.own {
		for y := range all {
			all[y] |= s.own[o][y]
		}
	}
	pairs, room := 0, 0
	for y := 0; y < Size; y++ {
		empty := ^all[y] & grid.Full
		pairs += bits.OnesCount64(b[y] & (b[y] >> 1))
		room += bits.OnesCount64(b[y]<<1&empty) + bits.OnesCount64(b[y]>>1&empty)
		if y+1 < Size {
			pairs += bits.OnesCount64(b[y] & b[y+1])
			room += bits.OnesCount64(b[y]&^all[y+1]&grid.Full) + bits.OnesCount64(b[y+1]&^all[y]&grid.Full)
		}
	}
	return s.Holding(seat, w) + w.Compact*float64(pairs) + w.Room*float64(room)
}

// Tie is how close two scores must be to count as equal.
const Tie = 1e-9

// nuggetLabels holds the nuggets of one colour: the nugget number of every
// square (−1 for none) and the nuggets' sizes.
type nuggetLabels struct {
	of   [Cells]int16
	size [Cells]int16
}

func (l *nuggetLabels) build(b *Board) {
	for i := range l.of {
		l.of[i] = -1
	}
	rest := *b
	var comp Board
	for k := int16(0); ; k++ {
		n := grid.NextComponent(rest[:], comp[:])
		if n == 0 {
			return
		}
		for y := range comp {
			for w := comp[y]; w != 0; w &= w - 1 {
				l.of[y*Size+bits.TrailingZeros64(w)] = k
			}
		}
		l.size[k] = int16(n)
	}
}

// evaluation is the scratch of one Evaluate call.
type evaluation struct {
	mine   Board
	rival  [Seats - 1]Board
	own    nuggetLabels
	riv    [Seats - 1]nuggetLabels
	single float64
}

func (e *evaluation) val(n int) float64 {
	if n == 1 {
		return e.single
	}
	return logSize[n]
}

// Evaluate writes into scores the greedy score of every square of view v
// (index y·Size + x), −Inf where the bot may not query (its own squares; the
// rivals' in the setup phase). It visits the squares in index order; a
// rival's square whose upper bound is already below the best score so far
// (less Tie) gets the lower bound 0.4·gain instead of its split value, which
// changes neither the best score nor the squares within Tie of it. It
// allocates nothing.
func Evaluate(v *View, w Weights, scores *[Cells]float64) {
	var e evaluation
	for y := 0; y < Size; y++ {
		for x, c := range v.Board[y] {
			switch {
			case c == 0:
				e.mine[y] |= 1 << uint(x)
			case c > 0 && c < Seats:
				e.rival[c-1][y] |= 1 << uint(x)
			}
		}
	}
	build := v.MoveNum >= v.SetupMoves
	e.single = w.Singleton
	if v.TotalMoves-v.MoveNum <= 1 {
		e.single = 0
	}
	e.own.build(&e.mine)
	if build {
		for r := range e.riv {
			e.riv[r].build(&e.rival[r])
		}
	}
	best := math.Inf(-1)
	for c := 0; c < Cells; c++ {
		cx, cy := c%Size, c/Size
		label := v.Board[cy][cx]
		if label == 0 || label > 0 && !build {
			scores[c] = math.Inf(-1)
			continue
		}
		// gain: merge the own nuggets side-touching c.
		var seen [4]int16
		ns, sum, lost, room, mineN := 0, 1, 0.0, 0, 0
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := cx+d[0], cy+d[1]
			if nx < 0 || nx >= Size || ny < 0 || ny >= Size {
				continue
			}
			switch v.Board[ny][nx] {
			case -1:
				room++
			case 0:
				mineN++
			}
			id := e.own.of[ny*Size+nx]
			if id < 0 || slices.Contains(seen[:ns], id) {
				continue
			}
			seen[ns] = id
			ns++
			sum += int(e.own.size[id])
			lost += e.val(int(e.own.size[id]))
		}
		gain := e.val(sum) - lost + w.Compact*float64(mineN)
		var score float64
		if label < 0 {
			score = gain + w.Room*float64(room)
		} else {
			score = 0.4 * gain
			if w.Attack > 0 {
				r := &e.riv[label-1]
				m := int(r.size[r.of[c]])
				if bound := 0.4 * (gain + w.Attack*e.val(m)); bound >= best-Tie {
					score = 0.4 * (gain + w.Attack*(e.val(m)-e.splitValue(&e.rival[label-1], cx, cy)))
				}
			}
		}
		scores[c] = score
		if score > best+Tie {
			best = score
		}
	}
}

// splitValue returns Σ val(p) over the pieces p that the nugget of colour
// board b holding (x, y) falls into without that square: the pieces grown
// from its side-neighbours in b.
func (e *evaluation) splitValue(b *Board, x, y int) float64 {
	rest := *b
	rest[y] &^= 1 << uint(x)
	total := 0.0
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		nx, ny := x+d[0], y+d[1]
		if nx < 0 || nx >= Size || ny < 0 || ny >= Size || rest[ny]>>uint(nx)&1 == 0 {
			continue
		}
		var piece Board
		piece[ny] = 1 << uint(nx)
		grid.Fill4(piece[:], rest[:])
		n := 0
		for i := range piece {
			rest[i] &^= piece[i]
			n += bits.OnesCount64(piece[i])
		}
		total += e.val(n)
	}
	return total
}

// BestSquares sets, in best, the squares whose score is within Tie of the
// highest (none if no square may be queried) and reports how many there are.
func BestSquares(scores *[Cells]float64, best *Board) int {
	top := math.Inf(-1)
	for _, s := range scores {
		top = max(top, s)
	}
	*best = Board{}
	if math.IsInf(top, -1) {
		return 0
	}
	n := 0
	for c, s := range scores {
		if s >= top-Tie {
			best[c/Size] |= 1 << uint(c%Size)
			n++
		}
	}
	return n
}
