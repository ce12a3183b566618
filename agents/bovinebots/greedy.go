package bovinebots

import (
	"math/bits"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

func init() {
	agents.Register(bovine.Name, "greedy",
		"scripted: take a rival barn, else clear a rival cow next to its barn, else the connected place or capture nearest its barn (row+column) that cuts none of its cows off; never suicides its barn",
		func() agents.Agent { return &Greedy{} })
	agents.Register(bovine.Name, "centre_cleo",
		"scripted: greedy's rules, but its places and captures race for the board's centre first (the destination nearest the centre), then fan out from it; a training opponent that contests the middle",
		func() agents.Agent { return &Greedy{centre: true} })
	// The strongest scripted bots (reports/bovine-borders/finetune: 1.95 and 1.67 points a game).
	agents.RegisterReference(bovine.Name, "centre_cleo", "voronoi_vera")
	// The field: the sample bots of the official controller (defensive_bot, dan_heng in issue 54's runs).
	agents.RegisterField(bovine.Name, "defensive_dan_heng", "adjacent_asta")
}

// rows is one seat's cows in the view, one bit per column (bit j = column j).
type rows = [bovine.Size]uint32

// connected returns the cows of own joined to the barn (0,0) by side-adjacent
// own cows (R4), by flood fill: each pass sweeps the rows down and then up.
func connected(own *rows) rows {
	var c rows
	if own[0]&1 == 0 {
		return c
	}
	c[0] = 1
	for {
		changed := false
		grow := func(r int) {
			x := c[r]
			if r > 0 {
				x |= c[r-1]
			}
			if r+1 < bovine.Size {
				x |= c[r+1]
			}
			x &= own[r]
			for {
				y := (x | x<<1 | x>>1) & own[r]
				if y == x {
					break
				}
				x = y
			}
			if x != c[r] {
				c[r], changed = x, true
			}
		}
		for r := 0; r < bovine.Size; r++ {
			grow(r)
		}
		for r := bovine.Size - 1; r >= 0; r-- {
			grow(r)
		}
		if !changed {
			return c
		}
	}
}

func count(b *rows) int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount32(w)
	}
	return n
}

// Move scores of Greedy, the larger the better; a pass scores 0.
const (
	scoreEliminate = 100_000 // the destination is a rival's barn (R12a)
	scoreDefend    = 50_000  // the destination is a rival cow next to its own barn
	scoreNear      = 5_000   // a connected place or capture, less 10·(i+j) of the destination
	scoreCut       = 1_200   // per own cow a capture's emptied source cuts off the barn
	scoreMove      = 10      // a disconnected cow onto an empty cell
)

// Greedy is a scripted bot for Bovine Borders, defensive_dan_heng's
// nearest-first front line made safe and aggressive. Each round it scores
// every full move (side-adjacent, so valid under both rule sets, R7) on its
// view (bovine.View: barn at (0,0), own cows 0) and plays the best one,
// uniformly at random among equals with its own generator:
//
//  1. taking a rival's barn, which eliminates that rival (R12a);
//  2. removing a rival cow next to its own barn, which could take the barn
//     next round;
//  3. a connected cow placed on an empty cell or capturing a rival cow, the
//     destination with the smallest row+column first (it fills the holes in
//     its own territory, then pushes the front line outward); a capture
//     loses this rank for each own cow its emptied source would cut off
//     from the barn (R4, R11);
//  4. a disconnected cow moving onto an empty cell (it keeps its territory).
//
// It never moves its barn cow onto a rival's (R12b, suicide) and never sends
// a disconnected cow to die with a rival cow except to take a barn or defend
// its own; it passes when nothing else is left. Each decision is one view,
// one flood fill for connectivity and one per capture candidate.
//
// With centre set it is centre_cleo: step 3 ranks a destination by its
// distance to the board's centre instead of to its barn, so it races
// for the middle (a contested area four seats reach at the same time)
// and fills the cells by its barn, which no rival reaches first, last.
type Greedy struct {
	base
	centre bool
	best   []move
}

// Reset implements agents.Agent.
func (a *Greedy) Reset(_ rules.State, seat int, rng *rules.RNG) { a.base = base{seat, rng} }

// near is step 3's rank of destination p, smaller first: row+column (the
// distance to its barn), or with centre the distance to the board's
// centre in the same units (|i − 9.5| + |j − 9.5|, rounded down).
func (a *Greedy) near(p pos) int {
	if a.centre && p.i+p.j > centreGuard {
		return (abs(2*p.i-(bovine.Size-1)) + abs(2*p.j-(bovine.Size-1))) / 2
	}
	return p.i + p.j
}

// centreGuard: centre_cleo first fills the cells within this row+column of
// its barn (nearest first), so that no rival walks up to the barn through
// empty cells while it races for the middle; then the centre first.
const centreGuard = 3

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// rivalBarn is the view cell of each rival label's barn (R19).
var rivalBarn = [4]pos{{}, {0, bovine.Size - 1}, {bovine.Size - 1, bovine.Size - 1}, {bovine.Size - 1, 0}}

// Act implements agents.Agent.
func (a *Greedy) Act(st rules.State) rules.Move {
	m, _ := a.pick(st)
	return m
}

// pick is Act's move with its score (0 for a pass): step 1 scores
// scoreEliminate, step 2 scoreDefend.
func (a *Greedy) pick(st rules.State) (rules.Move, int) {
	b, ok := a.look(st)
	if !ok {
		return rules.Move{}, 0
	}
	var own rows
	for i := range b {
		for j, l := range b[i] {
			if l == 0 {
				own[i] |= 1 << j
			}
		}
	}
	if own[0]&1 == 0 {
		return rules.Move{}, 0
	}
	conn := connected(&own)
	nConn := count(&conn)
	nearBarn := func(p pos) bool { return p.i+p.j == 1 }
	a.best = a.best[:0]
	bestScore := 0
	for i := 0; i < bovine.Size; i++ {
		for j := 0; j < bovine.Size; j++ {
			l := b[i][j]
			if l == 0 {
				continue
			}
			dst := pos{i, j}
			for _, src := range nearby(dst) {
				if !inBounds(src) || b[src.i][src.j] != 0 {
					continue
				}
				barnSrc := src == (pos{})
				linked := conn[src.i]>>src.j&1 != 0
				var score int
				switch {
				case l < 0 && linked: // place
					score = scoreNear - 10*a.near(dst)
				case l < 0: // a disconnected cow moves
					score = scoreMove
				case barnSrc: // R12b: the barn empties, a suicide
					continue
				case dst == rivalBarn[l]:
					score = scoreEliminate
				case nearBarn(dst):
					score = scoreDefend
				case linked: // capture
					cut := own
					cut[src.i] &^= 1 << src.j
					c := connected(&cut)
					score = scoreNear - 10*a.near(dst) - scoreCut*(nConn-1-count(&c))
				default: // both die: a loss for nothing
					continue
				}
				switch {
				case score > bestScore:
					bestScore = score
					a.best = append(a.best[:0], move{src, dst})
				case score == bestScore && score > 0:
					a.best = append(a.best, move{src, dst})
				}
			}
		}
	}
	if len(a.best) == 0 {
		return rules.Move{}, 0
	}
	return a.full(a.best[a.rng.U(len(a.best))]), bestScore
}
