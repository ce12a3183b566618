package risingtidebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

func init() {
	agents.Register(game, "wall_warsaw",
		"scripted: raises the 8 neighbours of its settlement to height 8 (which never floods in 800 rounds), then the ring around them, lowest cell first, from the highest land just outside; repairs them when dug",
		func() agents.Agent { return &WallWarsaw{} })
}

// wallTop is the height the wall is built to: a cell of height 8 floods only
// in a round r > 800 (R12), after the game's last round (R6).
const wallTop = 8

// WallWarsaw is a scripted survivor. Its settlement floods only once one of
// its 8 neighbours has flooded (R12, R14), and a cell of height 8 never floods
// within the 800 rounds, so it raises those 8 neighbours (ring 1, the wall)
// to 8: about 21 moves from the start board. Then it raises ring 2 (the 16
// cells at Chebyshev distance 2 from (5,5)) to 8 as well: a buffer that
// floods late and keeps land next to the wall to repair it with when a rival
// digs into it. Each round it takes the lowest cell below 8 of the innermost
// unfinished ring and moves a unit onto it from an adjacent land cell of the
// next ring out (not a settlement, R10), the highest such source first; ties
// are drawn uniformly with its own generator. A cell with no source is
// skipped for the next lowest; when both rings are complete, or nothing can
// be done, it passes. It reads only its view (risingtide.View, R20) and
// allocates nothing.
type WallWarsaw struct {
	seat int
	rng  *rules.RNG
	view risingtide.SeatView
}

// Reset implements agents.Agent.
func (b *WallWarsaw) Reset(_ rules.State, seat int, rng *rules.RNG) { b.seat, b.rng = seat, rng }

// Act implements agents.Agent.
func (b *WallWarsaw) Act(st rules.State) rules.Move {
	return actOn(st, b.seat, &b.view, b.Decide)
}

// Decide returns wall_warsaw's move on view v, or ok = false to pass.
func (b *WallWarsaw) Decide(v *risingtide.SeatView) (m Move, ok bool) {
	const si, sj = 5, 5 // the settlement, in every seat's view (R20)
	var cand [16 * 8]Move
	// Ring 1 (the wall) first, then ring 2 (its buffer); within a ring the
	// cells by height, lowest first: height h in 0..7 (flooded cells, −1,
	// cannot be raised, R13).
	for ring := 1; ring <= 2; ring++ {
		for h := int8(0); h < wallTop; h++ {
			n, best := 0, int8(0)
			for i := si - ring; i <= si+ring; i++ {
				for j := sj - ring; j <= sj+ring; j++ {
					if max(abs(i-si), abs(j-sj)) != ring || v.Terrain[i][j] != h {
						continue
					}
					for i1 := i - 1; i1 <= i+1; i1++ {
						for j1 := j - 1; j1 <= j+1; j1++ {
							if max(abs(i1-si), abs(j1-sj)) != ring+1 || !v.Legal(i1, j1, i, j) {
								continue
							}
							switch s := v.Terrain[i1][j1]; {
							case s > best:
								best, n = s, 0
								fallthrough
							case s == best:
								cand[n] = Move{i1, j1, i, j}
								n++
							}
						}
					}
				}
			}
			if n > 0 {
				return cand[b.rng.U(n)], true
			}
		}
	}
	return Move{}, false
}
