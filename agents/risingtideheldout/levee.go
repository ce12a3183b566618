package risingtideheldout

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

func init() {
	agents.RegisterHeldOut(game, "levee_lima",
		"held-out defender: raises the 5×5 block around its settlement to 8, the cell the sea would reach first first, from the outer ring, which it then digs into a flooded moat so that no legal move can touch the block",
		func() agents.Agent { return &Levee{} })
}

// Levee is levee_lima, a pure defender. A settlement floods once one of its
// 8 neighbours is water (R14); a cell of height 8 never floods (R12), and a
// land cell can only be dug into a land neighbour below 8 (R10d). So a 5×5
// block at 8 around the settlement, ringed by flooded cells, can never be
// touched again: no move has a source or destination in it. Levee builds
// the block ring 1 first, each ring's cell with the earliest flood time
// first, taking each unit from the outer neighbour the sea reaches first
// (that land is lost soonest anyway); then it digs ring 3 (the moat) down,
// the cell whose lowering brings the sea to the moat soonest first,
// dumping outwards; it repairs the block before anything else.
type Levee struct{ base }

// Reset implements agents.Agent.
func (b *Levee) Reset(_ rules.State, seat int, rng *rules.RNG) { b.reset(seat, rng) }

// Act implements agents.Agent.
func (b *Levee) Act(st rules.State) rules.Move {
	v := b.look(st)
	if m, ok := (builder{rings: 2, urgent: true, lowSource: true}).move(v, &b.f); ok {
		return b.answer(m, true)
	}
	return b.answer(b.moat(v))
}

// moat digs the land of rings 3..5 that most lowers the summed flood time
// of ring 3, onto its outer neighbour (never onto ring 3 or the block) the
// sea reaches first.
func (b *Levee) moat(v *risingtide.SeatView) (Move, bool) {
	sum := func(f *floodMap) int {
		s := 0
		for i := 2; i <= 8; i++ {
			for j := 2; j <= 8; j++ {
				if ring(i, j, 5, 5) == 3 {
					s += min(int(f.t[i][j]), 900)
				}
			}
		}
		return s
	}
	base := sum(&b.f)
	best, bm, ok := 0, Move{}, false
	for i := 0; i <= 10; i++ {
		for j := 0; j <= 10; j++ {
			rg := ring(i, j, 5, 5)
			if rg < 3 || rg > 5 || v.Terrain[i][j] < 1 || risingtide.IsSettlement(i, j) {
				continue
			}
			// the destination: an outer neighbour, flooding soonest
			dst, dt := Move{}, never+1
			for a := i - 1; a <= i+1; a++ {
				for c := j - 1; c <= j+1; c++ {
					if ring(a, c, 5, 5) > rg && v.Legal(i, j, a, c) && int(b.f.t[a][c]) < dt {
						dst, dt = Move{i, j, a, c}, int(b.f.t[a][c])
					}
				}
			}
			if dt > never {
				continue
			}
			b.f.lowered(&b.g, v, i, j)
			if g := base - sum(&b.g); g > best {
				best, bm, ok = g, dst, true
			}
		}
	}
	return bm, ok
}
