package risingtideheldout

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

func init() {
	agents.RegisterHeldOut(game, "breach_berlin",
		"held-out disruptor: walls itself in (ring 1, then ring 2, repaired first), then spends every spare move on the dig that brings the sea soonest to the most exposed rival settlement (a flood-time search over the rivals' surroundings), dumping the unit away from that rival",
		func() agents.Agent { return &Breach{} })
}

// Breach is breach_berlin, a disruptor. Its own defence is ring 1 at 8 (the
// settlement's 8 neighbours: no water can reach it), kept repaired, and ring
// 2 when it has nothing better to do. Every other move attacks: for each
// rival alive and each land cell within Chebyshev distance 4 of it, Breach
// computes the rival settlement's flood time (floodMap) with that cell one
// unit lower and plays the dig with the largest gain on the capped flood
// time of the rival that is closest to flooding; the unit goes to the
// neighbour farthest from that rival, the one the sea reaches first among
// equals (so it is lost, not a rival's repair material).
type Breach struct{ base }

// Reset implements agents.Agent.
func (b *Breach) Reset(_ rules.State, seat int, rng *rules.RNG) { b.reset(seat, rng) }

// capT is the flood time at which a settlement counts as safe: the game has
// 800 rounds.
const capT = 802

// Act implements agents.Agent.
func (b *Breach) Act(st rules.State) rules.Move {
	v := b.look(st)
	if m, ok := (builder{rings: 1}).move(v, &b.f); ok {
		return b.answer(m, true)
	}
	if m, ok := b.attack(v); ok {
		return b.answer(m, true)
	}
	return b.answer((builder{rings: 2}).move(v, &b.f))
}

// attack returns the best dig against a rival, ok = false when no dig gains.
func (b *Breach) attack(v *risingtide.SeatView) (Move, bool) {
	best, bm, ok := 0, Move{}, false
	for s := 1; s < 4; s++ {
		if !alive(v, s) {
			continue
		}
		ci, cj := settlements[s][0], settlements[s][1]
		t0 := min(b.f.settleTime(s), capT)
		// the rival nearest to flooding weighs most
		w := 1 + (capT-t0)/100
		for i := max(ci-4, 0); i <= min(ci+4, n-1); i++ {
			for j := max(cj-4, 0); j <= min(cj+4, n-1); j++ {
				if v.Terrain[i][j] < 1 || ring(i, j, 5, 5) <= 2 || risingtide.IsSettlement(i, j) {
					continue
				}
				dst, dr, dt := Move{}, -1, 0
				for a := i - 1; a <= i+1; a++ {
					for c := j - 1; c <= j+1; c++ {
						if !v.Legal(i, j, a, c) || ring(a, c, 5, 5) <= 2 && v.Terrain[a][c] >= top {
							continue
						}
						r, t := ring(a, c, ci, cj), int(b.f.t[a][c])
						if r > dr || r == dr && t < dt {
							dst, dr, dt = Move{i, j, a, c}, r, t
						}
					}
				}
				if dr < 0 {
					continue
				}
				b.f.lowered(&b.g, v, i, j)
				if g := (t0 - min(b.g.settleTime(s), capT)) * w; g > best {
					best, bm, ok = g, dst, true
				}
			}
		}
	}
	return bm, ok
}
