package bovineheldout

import (
	"github.com/gridgym/gridgym/rules"
)

// RaiderRhea is raider_rhea, a barn hunter. A rival is out of the game the
// moment a cow of ours stands on its barn (R12a), and an eliminated rival
// ranks below every live seat whatever its territory (R15), so Rhea spends
// her moves on the cheapest corridor to a rival barn: a shortest-path search
// from her connected cows where an own cow costs 0, an empty cell 1 (one
// place) and a rival cow 2 (a capture, then a place to refill the emptied
// source, R11). She takes the first step of the cheapest corridor to any
// live rival's barn; when no corridor is cheap enough she grows like a
// careful farmer (fill the cell nearest her barn, capture what comes close).
// Before either: take a barn in reach, clear rivals near her own barn.
type RaiderRhea struct {
	base
	dist [n * n]int16
	pred [n * n]int16
	q    [3][]int16
	// Per rival label: the cheapest corridor cost seen, the round it was
	// last lowered, and the round until which the rival is left alone (a
	// raid that stops making progress is broken off).
	bestSeen  [4]int
	improved  [4]int
	bannedTil [4]int
	round     int
}

// Raid pacing: a raid on a rival whose corridor has not got cheaper for
// raidPatience rounds is broken off for raidRest rounds.
const (
	raidPatience = 40
	raidRest     = 400
)

// raidLimit is the largest corridor cost Rhea raids at; above it she farms.
const raidLimit = 60

// Reset implements agents.Agent.
func (a *RaiderRhea) Reset(_ rules.State, seat int, rng *rules.RNG) {
	a.base = base{seat: seat, rng: rng}
	for l := range a.bestSeen {
		a.bestSeen[l], a.improved[l], a.bannedTil[l] = 1<<30, 0, 0
	}
	for k := range a.q {
		if a.q[k] == nil {
			a.q[k] = make([]int16, 0, 4*n*n)
		}
	}
}

// paths fills dist and pred from the connected cows (cost 0) into every
// cell: own 0, empty 1, rival 2; rival barns are never entered.
func (a *RaiderRhea) paths() {
	s := &a.s
	for k := range a.dist {
		a.dist[k] = 1 << 14
		a.pred[k] = -1
	}
	for k := range a.q {
		a.q[k] = a.q[k][:0]
	}
	for i := 0; i < n; i++ {
		for w := s.conn[i]; w != 0; w &= w - 1 {
			j := trailing(w)
			a.dist[i*n+j] = 0
			a.q[0] = append(a.q[0], int16(i*n+j))
		}
	}
	for d := 0; ; d++ {
		b := d % 3
		if len(a.q[0])+len(a.q[1])+len(a.q[2]) == 0 {
			return
		}
		for k := 0; k < len(a.q[b]); k++ {
			x := int(a.q[b][k])
			if int(a.dist[x]) != d {
				continue
			}
			c := cell{x / n, x % n}
			for _, p := range nbrs(c) {
				if !inBounds(p) {
					continue
				}
				l := s.label(p)
				cost := 1
				switch {
				case l == 0:
					cost = 0
				case l > 0 && p == barnOf[l]:
					continue
				case l > 0:
					cost = 2
				}
				y := p.i*n + p.j
				if nd := d + cost; nd < int(a.dist[y]) {
					a.dist[y], a.pred[y] = int16(nd), int16(x)
					a.q[nd%3] = append(a.q[nd%3], int16(y))
				}
			}
		}
		a.q[b] = a.q[b][:0]
	}
}

// Act implements agents.Agent.
func (a *RaiderRhea) Act(st rules.State) rules.Move {
	s := &a.s
	if !s.load(st, a.seat) {
		return rules.Move{}
	}
	a.round = st.Steps()
	if src, dst, ok := s.urgent(); ok {
		return a.full(src, dst)
	}
	if src, dst, ok := a.raid(); ok {
		return a.full(src, dst)
	}
	if src, dst, ok := farm(&a.base); ok {
		return a.full(src, dst)
	}
	return rules.Move{}
}

// raid is the first step of the cheapest corridor to a live rival's barn.
func (a *RaiderRhea) raid() (src, dst cell, ok bool) {
	s := &a.s
	a.paths()
	best, bestCost := -1, raidLimit+1
	for l := 1; l < 4; l++ {
		if !s.live[l] || a.round < a.bannedTil[l] {
			continue
		}
		lBest, lCost := -1, 1<<30
		for _, p := range nbrs(barnOf[l]) {
			if !inBounds(p) {
				continue
			}
			y := p.i*n + p.j
			if c := int(a.dist[y]); c < lCost {
				lBest, lCost = y, c
			}
		}
		switch {
		case lCost < a.bestSeen[l]:
			a.bestSeen[l], a.improved[l] = lCost, a.round
		case a.round-a.improved[l] > raidPatience:
			a.bannedTil[l] = a.round + raidRest
			a.bestSeen[l], a.improved[l] = 1<<30, a.bannedTil[l]
			continue
		}
		if lCost < bestCost || lCost == bestCost && a.rng.U(2) == 0 {
			best, bestCost = lBest, lCost
		}
	}
	if best < 0 {
		return cell{}, cell{}, false
	}
	// Walk back to the first cell of the corridor that is not a connected cow.
	y := best
	for a.pred[y] >= 0 && a.dist[a.pred[y]] > 0 {
		y = int(a.pred[y])
	}
	if a.pred[y] < 0 {
		return cell{}, cell{}, false
	}
	dst = cell{y / n, y % n}
	switch l := s.label(dst); {
	case l < 0:
		x := int(a.pred[y])
		return cell{x / n, x % n}, dst, true
	case l > 0:
		if p, cut, ok := s.bestCaptureSrc(dst); ok && cut <= 2 {
			return p, dst, true
		}
	}
	return cell{}, cell{}, false
}

// farm is the plain growth every bot here falls back on: the connected place
// or capture nearest the barn (row+column), contested cells first, a capture
// marked down for each own cow its emptied source cuts off.
func farm(b *base) (src, dst cell, ok bool) {
	s := &b.s
	var pk pick
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d := cell{i, j}
			l := s.label(d)
			if l == 0 || l > 0 && d == barnOf[l] {
				continue
			}
			if l < 0 {
				if countNbrs(&s.conn, d) == 0 {
					continue
				}
				sc := 1000 - 10*(i+j)
				if s.rivalNear(d) {
					sc += 60
				}
				if p, ok := s.connSrc(d); ok {
					pk.offer(b.rng, p, d, sc)
				}
				continue
			}
			p, cut, ok := s.bestCaptureSrc(d)
			if !ok {
				continue
			}
			sc := 500 - 10*(i+j) - 300*cut
			if t := s.threat(d); t >= 3 {
				sc += 600 + 20*t // it could cut t of ours off next round
			}
			if rc := s.rivalCut(d); rc >= 2 {
				sc += 500 + 20*rc
			}
			if s.label(d) > 0 && !s.rconn[s.label(d)].has(d) {
				sc += 300 // a cut-off rival cow cannot be placed back
			}
			pk.offer(b.rng, p, d, sc)
		}
	}
	if pk.ties == 0 {
		return cell{}, cell{}, false
	}
	return pk.src, pk.dst, true
}
