package risingtideheldout

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

func init() {
	agents.RegisterHeldOut(game, "sniper_santiago",
		"held-out opportunist: builds its 5×5 block, then plays only digs that flood a cell this very round (no repair undoes them) where that brings the sea nearer a rival settlement; between them it strips the land just outside the rivals' walls, their repair material",
		func() agents.Agent { return &Sniper{} })
}

// Sniper is sniper_santiago. A dig that a rival repairs next round gains
// nothing, but a dig that floods its cell in this round's flood step (the
// cell is next to water and 100·(h − 1) < r, R12) is permanent (R13).
// Sniper builds its 5×5 block at 8 (ring 1, then ring 2, lowest cell
// first), repairing it first; then, among the land cells near a living
// rival, it plays the permanent dig that lowers that rival's flood time
// most (floodMap), the unit dumped onto the neighbour farthest from the
// rival; with none, it digs the highest land cell at distance 3 of a rival
// settlement that is not its own block (what the rival's wall is rebuilt
// from), outwards; else it passes.
type Sniper struct{ base }

// Reset implements agents.Agent.
func (b *Sniper) Reset(_ rules.State, seat int, rng *rules.RNG) { b.reset(seat, rng) }

// Act implements agents.Agent.
func (b *Sniper) Act(st rules.State) rules.Move {
	v := b.look(st)
	if m, ok := (builder{rings: 2}).move(v, &b.f); ok {
		return b.answer(m, true)
	}
	return b.answer(b.strike(v))
}

// away returns the dig of (i, j) onto its legal neighbour farthest from
// (ci, cj) and outside the own block, the sea's first among equals.
func (b *Sniper) away(v *risingtide.SeatView, i, j, ci, cj int) (m Move, ok bool) {
	dr, dt := -1, 0
	for a := i - 1; a <= i+1; a++ {
		for c := j - 1; c <= j+1; c++ {
			if !v.Legal(i, j, a, c) || ring(a, c, 5, 5) <= 2 {
				continue
			}
			r, t := ring(a, c, ci, cj), int(b.f.t[a][c])
			if r > dr || r == dr && t < dt {
				m, dr, dt, ok = Move{i, j, a, c}, r, t, true
			}
		}
	}
	return m, ok
}

func (b *Sniper) strike(v *risingtide.SeatView) (Move, bool) {
	r := v.Round
	best, bm, ok := 0, Move{}, false
	for s := 1; s < 4; s++ {
		if !alive(v, s) {
			continue
		}
		ci, cj := settlements[s][0], settlements[s][1]
		t0 := min(b.f.settleTime(s), capT)
		for i := max(ci-5, 0); i <= min(ci+5, n-1); i++ {
			for j := max(cj-5, 0); j <= min(cj+5, n-1); j++ {
				if v.Terrain[i][j] < 1 || ring(i, j, 5, 5) <= 2 || risingtide.IsSettlement(i, j) {
					continue
				}
				if own(v.Terrain[i][j]-1, r) > r || b.f.t[i][j] <= int16(r) {
					continue // would not flood now (or floods anyway)
				}
				m, found := b.away(v, i, j, ci, cj)
				if !found {
					continue
				}
				b.f.lowered(&b.g, v, i, j)
				if int(b.g.t[i][j]) != r {
					continue
				}
				if g := t0 - min(b.g.settleTime(s), capT); g > best {
					best, bm, ok = g, m, true
				}
			}
		}
	}
	if ok {
		return bm, true
	}
	// starve: the highest land at distance 3 of a rival settlement
	hb := 0
	for s := 1; s < 4; s++ {
		if !alive(v, s) {
			continue
		}
		ci, cj := settlements[s][0], settlements[s][1]
		for i := ci - 3; i <= ci+3; i++ {
			for j := cj - 3; j <= cj+3; j++ {
				if ring(i, j, ci, cj) != 3 || ring(i, j, 5, 5) <= 3 || int(v.Terrain[i][j]) <= hb {
					continue
				}
				if m, found := b.away(v, i, j, ci, cj); found {
					hb, bm, ok = int(v.Terrain[i][j]), m, true
				}
			}
		}
	}
	return bm, ok
}
