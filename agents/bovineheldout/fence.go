package bovineheldout

import "github.com/gridgym/gridgym/rules"

// FenceFiona is fence_fiona, an enclosure planner. Territory counts every
// cow, but only connected cows can place or capture cleanly (R4, R11): a
// rival region cut off from its barn can neither grow nor refill its holes.
// Fiona never raids; each round she scores every connected place and
// capture by what it does to connectivity: a capture earns the rival cows it
// cuts off (the cell is an articulation of the rival's region) and the own
// cows it saves (the rival cow could cut them off next round), loses the own
// cows its emptied source cuts off; a place earns its own neighbours (a
// thick, hole-free region is hard to cut) and a bonus where a rival could
// take the cell first. Cut-off rival cows are harvested before free land.
type FenceFiona struct {
	base
}

// Reset implements agents.Agent.
func (a *FenceFiona) Reset(_ rules.State, seat int, rng *rules.RNG) {
	a.base = base{seat: seat, rng: rng}
}

// Act implements agents.Agent.
func (a *FenceFiona) Act(st rules.State) rules.Move {
	s := &a.s
	if !s.load(st, a.seat) {
		return rules.Move{}
	}
	if src, dst, ok := s.urgent(); ok {
		return a.full(src, dst)
	}
	var pk pick
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d := cell{i, j}
			l := s.label(d)
			if l == 0 || l > 0 && d == barnOf[l] {
				continue
			}
			if l < 0 {
				k := countNbrs(&s.conn, d)
				if k == 0 {
					continue
				}
				sc := 1000 + 40*countNbrs(&s.own, d) - 4*(i+j)
				if s.rivalNear(d) {
					sc += 120
				}
				if p, ok := s.connSrc(d); ok {
					pk.offer(a.rng, p, d, sc)
				}
				continue
			}
			p, cut, ok := s.bestCaptureSrc(d)
			if !ok {
				continue
			}
			sc := 700 - 4*(i+j) - 250*cut + 60*s.rivalCut(d)
			if t := s.threat(d); t >= 2 {
				sc += 400 + 30*t
			}
			if !s.rconn[l].has(d) {
				sc += 450 // cut off: it cannot be refilled or retaken cleanly
			}
			pk.offer(a.rng, p, d, sc)
		}
	}
	if pk.ties == 0 {
		return rules.Move{}
	}
	return a.full(pk.src, pk.dst)
}
