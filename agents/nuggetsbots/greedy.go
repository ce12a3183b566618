// Package nuggetsbots holds scripted bots for Nuggets (rules/nuggets). No
// official sample bots were published; the generic random bot exists for
// every game. Each bot reads only its seat's competition view
// (nuggets.ViewOf) and answers in view coordinates, mapped back with
// State.Answer.
package nuggetsbots

import (
	"math"
	"math/bits"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bitboard"
	"github.com/gridgym/gridgym/rules/nuggets"
)

func init() {
	agents.Register("nuggets", "greedy",
		"one-ply greedy on nugget values: grows and repairs 3-square nuggets, splits rivals' nuggets when nothing better is open",
		func() agents.Agent { return NewGreedy() })
	agents.Register("nuggets", "greedy_tuned",
		"greedy with re-tuned weights (lighter singletons and compactness, little attack): a stronger teacher for behaviour cloning",
		func() agents.Agent { return NewGreedyTuned() })
}

// Greedy is the `greedy` bot. It values a nugget of size n at V(n) = ln n
// for n ≥ 2 and V(1) = Singleton (a singleton is worth something because it
// can become a pair), except on the last move, where V(1) = 0, its real
// log-score. Each square it may query (setup: the empty squares; build: the
// empty and the rivals' squares; never its own, which a query can only empty)
// scores:
//
//   - gain = V(1 + Σ a) − Σ V(a), a over the sizes of its own nuggets that
//     side-touch the square: what owning the square adds;
//   - an empty square: gain + Compact·(own side-neighbours) + Room·(empty
//     side-neighbours): compact shapes decay less (R12), and room to grow;
//   - a rival's square (build phase): 0.4·(gain + Compact·(own
//     side-neighbours) + Attack·(V(m) − Σ V(p))), its chance to recolour it
//     alone (R10) times its gain plus a share of the rival's loss, where m is
//     the size of the rival nugget holding the square and p the sizes of the
//     pieces left without it (so it attacks where it splits a nugget).
//
// It plays uniformly at random among the squares of maximal score (equal
// within 1e-9), and (0,0) if no square is a candidate. With the default weights a new singleton scores 0.25 (+room),
// singleton → pair 0.54, pair → triple 0.51, and growing a nugget of n squares
// by a square touching two of them ln(1+1/n) + 0.2, so it builds compact
// nuggets of up to about 20 squares, starts new ones when only thin growth is
// left, and first repairs nuggets that decay or a rival split (two singletons
// rejoined: 0.8).
type Greedy struct {
	Singleton float64 // V(1) before the last move
	Compact   float64 // weight of a square's own side-neighbours
	Room      float64 // weight of an empty square's empty side-neighbours
	Attack    float64 // share of a rival's loss counted

	seat int
	rng  *rules.RNG
}

// NewGreedy returns the greedy bot with its documented weights.
func NewGreedy() *Greedy {
	return &Greedy{Singleton: 0.25, Compact: 0.1, Room: 0.001, Attack: 0.25}
}

// NewGreedyTuned returns `greedy_tuned`: Greedy with the weights that won a
// sweep over Singleton, Compact, Room and Attack, each variant playing
// greedy, random and pass (3000 games, seats rotated: 25.33 against
// greedy's 24.96, +0.36 ± 0.11). It is the teacher of Nuggets' warm start.
func NewGreedyTuned() *Greedy {
	return &Greedy{Singleton: 0.15, Compact: 0.07, Room: 0.001, Attack: 0.1}
}

// Reset implements agents.Agent.
func (g *Greedy) Reset(_ rules.State, seat int, rng *rules.RNG) { g.seat, g.rng = seat, rng }

// Act implements agents.Agent.
func (g *Greedy) Act(st rules.State) rules.Move {
	s, ok := st.(*nuggets.State)
	if !ok {
		return rules.Move{}
	}
	v := nuggets.ViewOf(s, g.seat)
	x, y := g.Decide(&v, g.rng)
	return s.Answer(x, y)
}

var grid = bitboard.New(nuggets.Size, nuggets.Size)

// labels holds the nuggets of one colour: the nugget index of every square
// (−1 for none) and the nuggets' sizes and squares.
type labels struct {
	of    [nuggets.Cells]int16
	size  []int
	comps []nuggets.Board
}

func (l *labels) build(b *nuggets.Board) {
	l.size, l.comps = l.size[:0], l.comps[:0]
	for i := range l.of {
		l.of[i] = -1
	}
	rest := *b
	for {
		r, c, ok := bitboard.First(rest[:])
		if !ok {
			return
		}
		var comp nuggets.Board
		comp[r] = 1 << uint(c)
		grid.Fill4(comp[:], rest[:])
		n := 0
		for y := range comp {
			rest[y] &^= comp[y]
			for w := comp[y]; w != 0; w &= w - 1 {
				l.of[y*nuggets.Size+bits.TrailingZeros64(w)] = int16(len(l.size))
				n++
			}
		}
		l.size = append(l.size, n)
		l.comps = append(l.comps, comp)
	}
}

// Decide returns the square (x, y) the bot queries in view v (view
// coordinates, which for Nuggets are the real ones), drawing ties from rng.
func (g *Greedy) Decide(v *nuggets.View, rng *rules.RNG) (x, y int) {
	var mine, empty nuggets.Board
	var rival [3]nuggets.Board
	for yy := 0; yy < nuggets.Size; yy++ {
		for xx, c := range v.Board[yy] {
			switch {
			case c < 0:
				empty[yy] |= 1 << uint(xx)
			case c == 0:
				mine[yy] |= 1 << uint(xx)
			case c <= 3:
				rival[c-1][yy] |= 1 << uint(xx)
			}
		}
	}
	build := v.MoveNum >= v.SetupMoves
	single := g.Singleton
	if v.TotalMoves-v.MoveNum <= 1 {
		single = 0
	}
	val := func(n int) float64 {
		if n == 1 {
			return single
		}
		return math.Log(float64(n))
	}
	var own labels
	own.build(&mine)
	var riv [3]labels
	if build {
		for r := range riv {
			riv[r].build(&rival[r])
		}
	}

	best, ties := math.Inf(-1), 0
	for c := 0; c < nuggets.Cells; c++ {
		cx, cy := c%nuggets.Size, c/nuggets.Size
		label := v.Board[cy][cx]
		if label == 0 || label > 0 && !build {
			continue
		}
		// gain: merge the own nuggets side-touching c.
		var seen [4]int16
		ns, sum, lost, room, mineN := 0, 1, 0.0, 0, 0
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := cx+d[0], cy+d[1]
			if nx < 0 || nx >= nuggets.Size || ny < 0 || ny >= nuggets.Size {
				continue
			}
			switch v.Board[ny][nx] {
			case -1:
				room++
			case 0:
				mineN++
			}
			id := own.of[ny*nuggets.Size+nx]
			if id < 0 || contains(seen[:ns], id) {
				continue
			}
			seen[ns] = id
			ns++
			sum += own.size[id]
			lost += val(own.size[id])
		}
		gain := val(sum) - lost + g.Compact*float64(mineN)
		var score float64
		if label < 0 {
			score = gain + g.Room*float64(room)
		} else {
			score = 0.4 * gain
			if g.Attack > 0 {
				r := &riv[label-1]
				id := r.of[c]
				m := r.size[id]
				if bound := 0.4 * (gain + g.Attack*val(m)); bound >= best-1e-9 {
					score = 0.4 * (gain + g.Attack*(val(m)-splitValue(&r.comps[id], cx, cy, val)))
				}
			}
		}
		switch {
		case score > best+1e-9:
			best, ties, x, y = score, 1, cx, cy
		case score >= best-1e-9:
			ties++
			if rng.U(ties) == 0 {
				x, y = cx, cy
			}
		}
	}
	return x, y
}

func contains(ids []int16, id int16) bool {
	for _, i := range ids {
		if i == id {
			return true
		}
	}
	return false
}

// splitValue returns Σ val(p) over the pieces p that nugget comp falls into
// without the square (x, y).
func splitValue(comp *nuggets.Board, x, y int, val func(int) float64) float64 {
	rest := *comp
	rest[y] &^= 1 << uint(x)
	total := 0.0
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		nx, ny := x+d[0], y+d[1]
		if nx < 0 || nx >= nuggets.Size || ny < 0 || ny >= nuggets.Size || rest[ny]>>uint(nx)&1 == 0 {
			continue
		}
		var piece nuggets.Board
		piece[ny] = 1 << uint(nx)
		grid.Fill4(piece[:], rest[:])
		n := 0
		for i := range piece {
			rest[i] &^= piece[i]
			n += bits.OnesCount64(piece[i])
		}
		total += val(n)
	}
	return total
}
