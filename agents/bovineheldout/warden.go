package bovineheldout

import "github.com/gridgym/gridgym/rules"

// WardenWanda is warden_wanda, a fortress keeper with a tempo rule. Every
// seat gets one move a round (R6): a place gains a cow for one move, while a
// capture gains nothing by itself (the source empties, R11) and needs a
// second move to refill the hole. Two neighbours that keep retaking one
// cell from each other spend every move on it while the other two grow,
// and in the games watched between the scripted bots and the shipped
// network (README) that loop decided more than any tactic. Wanda plays by
// three ideas:
//   - tempo (a ko rule): in the opening, while empty cells she reaches no
//     later than any rival are left, she captures only to cut, rejoin or
//     guard, and a move into a cell she has moved into within the last
//     koSpan rounds is marked down for each such move, so she leaves a
//     retaking loop to grow elsewhere; from steadyRound on, when the board
//     is full and a cell given up is a cell lost, she retakes freely and
//     captures rank with places;
//   - her region as a graph (R4): each round she finds its articulation
//     points (the cows each one's loss cuts off her barn) by a depth-first
//     search; a move that rejoins cut-off cows of hers comes first, a rival
//     cow that could capture a loaded articulation point is taken, a place
//     that closes a second path around one is worth the cows it protects,
//     and a capture whose emptied source would cut her own cows off is
//     avoided;
//   - rival reach: the breadth-first distance from the rivals' connected
//     cows through empty cells; an empty cell a rival can place on next
//     round is filled first, new land grows where it has most own
//     neighbours (thick), captures rank by the rival cows they cut off
//     their barn, cut-off rival cows are harvested, the rival with at
//     least her territory first; a capture is marked down for each
//     connected rival cow that could retake the cell or place on its
//     emptied source next round (a bulge of the rival's is taken, a cell
//     that only starts a retaking loop is not).
//
// She never uses a network and needs no round number: she counts her own
// calls to Act.
type WardenWanda struct {
	base
	// cut[k]: own connected cows, k excluded, cut off the barn if cell k
	// (an own connected cow) is lost; 0 for every other cell.
	cut            [n * n]int16
	disc, low, sub [n * n]int16
	par            [n * n]int16
	stk            [n * n]int16
	it             [n * n]int8
	// reach[k]: steps from the nearest live rival's connected cows to the
	// empty cell k through empty cells (1: a rival can place there next
	// round); farReach for cells no rival reaches, 0 for cows.
	reach [n * n]int8
	mine  [n * n]int8 // the same from her own connected cows
	q     [n * n]int16
	// piece[k]: 1 + the first cell of the cut-off own piece that holds cow
	// k, 0 for connected cows and every other cell; psize[first] its size.
	piece [n * n]int16
	psize [n * n]int16
	// Her own moves into each cell lately (a ko rule): hits[k] moves into
	// cell k, the last in round last[k]; round counts her calls to Act.
	hits  [n * n]int8
	last  [n * n]int32
	round int32
}

// farReach is the reach of an empty cell no rival can get to.
const farReach = 60

// Reset implements agents.Agent.
func (a *WardenWanda) Reset(_ rules.State, seat int, rng *rules.RNG) {
	a.base = base{seat: seat, rng: rng}
	a.hits, a.last, a.round = [n * n]int8{}, [n * n]int32{}, 0
}

// again is how often she moved into cell k within the last koSpan rounds.
func (a *WardenWanda) again(k int16) int {
	if a.round-a.last[k] > koSpan {
		return 0
	}
	return int(a.hits[k])
}

// play records her move into dst and returns it.
func (a *WardenWanda) play(src, dst cell) rules.Move {
	k := idx(dst)
	if a.round-a.last[k] > koSpan {
		a.hits[k] = 0
	}
	if a.hits[k] < 100 {
		a.hits[k]++
	}
	a.last[k] = a.round
	return a.full(src, dst)
}

func idx(c cell) int16 { return int16(c.i*n + c.j) }

func at(k int16) cell { return cell{int(k) / n, int(k) % n} }

// articulate fills cut by a depth-first search of the connected cows from
// the barn (Tarjan's articulation points, iterative).
func (a *WardenWanda) articulate() {
	s := &a.s
	for k := range a.cut {
		a.cut[k], a.disc[k] = 0, 0
	}
	t := int16(1)
	a.disc[0], a.low[0], a.sub[0], a.par[0], a.it[0] = t, t, 1, -1, 0
	a.stk[0] = 0
	for sp := 0; sp >= 0; {
		u := a.stk[sp]
		if a.it[u] < 4 {
			v := nbrs(at(u))[a.it[u]]
			a.it[u]++
			if !inBounds(v) || !s.conn.has(v) {
				continue
			}
			k := idx(v)
			if a.disc[k] == 0 {
				t++
				a.disc[k], a.low[k], a.sub[k], a.par[k], a.it[k] = t, t, 1, u, 0
				sp++
				a.stk[sp] = k
			} else if k != a.par[u] && a.disc[k] < a.low[u] {
				a.low[u] = a.disc[k]
			}
			continue
		}
		sp--
		if p := a.par[u]; p >= 0 {
			a.sub[p] += a.sub[u]
			if a.low[u] < a.low[p] {
				a.low[p] = a.low[u]
			}
			if a.low[u] >= a.disc[p] {
				a.cut[p] += a.sub[u]
			}
		}
	}
}

// reachOf fills out breadth-first from the cows in src through empty
// cells: 0 on a cow, farReach where src never gets to.
func (a *WardenWanda) reachOf(src *set, out *[n * n]int8) {
	s := &a.s
	head, tail := 0, 0
	for k := range out {
		out[k] = 0
		if s.empty.has(at(int16(k))) {
			out[k] = farReach
		}
	}
	for i := 0; i < n; i++ {
		for w := src[i]; w != 0; w &= w - 1 {
			a.q[tail] = int16(i*n + trailing(w))
			tail++
		}
	}
	for ; head < tail; head++ {
		u := a.q[head]
		d := out[u] + 1 // 1 from a cow (reach 0)
		for _, v := range nbrs(at(u)) {
			if !inBounds(v) {
				continue
			}
			if k := idx(v); out[k] > d {
				out[k] = d
				a.q[tail] = k
				tail++
			}
		}
	}
}

// pieces fills piece and psize with the own pieces cut off the barn.
func (a *WardenWanda) pieces() {
	s := &a.s
	for k := range a.piece {
		a.piece[k] = 0
	}
	for i := 0; i < n; i++ {
		for w := s.own[i] &^ s.conn[i]; w != 0; w &= w - 1 {
			k0 := int16(i*n + trailing(w))
			if a.piece[k0] != 0 {
				continue
			}
			a.piece[k0] = k0 + 1
			a.q[0] = k0
			tail := 1
			for head := 0; head < tail; head++ {
				for _, v := range nbrs(at(a.q[head])) {
					if !inBounds(v) || !s.own.has(v) || s.conn.has(v) {
						continue
					}
					if k := idx(v); a.piece[k] == 0 {
						a.piece[k] = k0 + 1
						a.q[tail] = k
						tail++
					}
				}
			}
			a.psize[k0] = int16(tail)
		}
	}
}

// rejoined is the number of cut-off own cows that dst, once a connected
// cow of ours, joins back to the barn (each piece counted once).
func (a *WardenWanda) rejoined(dst cell) int {
	var seen [4]int16
	k, tot := 0, 0
	for _, p := range nbrs(dst) {
		if !inBounds(p) {
			continue
		}
		id := a.piece[idx(p)]
		if id == 0 {
			continue
		}
		dup := false
		for x := 0; x < k; x++ {
			dup = dup || seen[x] == id
		}
		if !dup {
			seen[k] = id
			k++
			tot += int(a.psize[id-1])
		}
	}
	return tot
}

// Wanda's weights, set by tables against the shipped network, fence_fiona,
// lookahead_lena, greedy and defensive_dan_heng (README).
const (
	wPlace    = 1000 // base of a place
	wCapture  = 700  // base of a capture in the opening
	wCapFull  = 1000 // base of a capture from steadyRound on
	wHot      = 300  // a place on an empty cell a rival can place on next round
	wThick    = 40   // per own neighbour of a placed cell
	wCapThick = 40   // per own neighbour of a captured cell beyond the source
	wRejoin   = 200  // per cut-off own cow a move joins back to the barn
	wGuard    = 120  // per own cow a capture or place protects from a cut
	wRivalCut = 80   // per rival cow a capture cuts off its barn
	wHarvest  = 350  // a capture of a rival cow already cut off its barn
	wOwnCut   = 300  // per own cow a capture's emptied source cuts off
	wLeader   = 100  // a capture against a rival with at least her territory
	wRetake   = 100  // per connected rival cow that could retake a captured cell
	wHoleOpen = 100  // per connected rival cow, the captured one aside, next to a capture's emptied source
	// The opening's tempo rules, while at least freeLand empty cells are
	// hers to take (she reaches them no later than any rival) and before
	// steadyRound: a capture loses wTempo, and a move into a cell loses wKo
	// for each move of hers into it within the last koSpan rounds.
	wTempo      = 600
	freeLand    = 4
	wKo         = 250
	koSpan      = 24
	steadyRound = 600
)

// Act implements agents.Agent.
func (a *WardenWanda) Act(st rules.State) rules.Move {
	s := &a.s
	if !s.load(st, a.seat) {
		return rules.Move{}
	}
	a.round++
	if src, dst, ok := s.urgent(); ok {
		return a.play(src, dst)
	}
	a.articulate()
	var rc set
	for l := 1; l < 4; l++ {
		if s.live[l] {
			for i := range rc {
				rc[i] |= s.rconn[l][i]
			}
		}
	}
	a.reachOf(&rc, &a.reach)
	a.reachOf(&s.conn, &a.mine)
	// free: empty cells she reaches no later than any rival. While there
	// are some, a place gains a cow a move and a capture only trades
	// (capture and refill: two moves for one cow), so she captures only
	// to cut, rejoin or guard.
	free := 0
	for k := range a.mine {
		if m := a.mine[k]; m > 0 && m < farReach && m <= a.reach[k] {
			free++
		}
	}
	a.pieces()
	myT := s.own.count()
	var rivalT [4]int
	for l := 1; l < 4; l++ {
		rivalT[l] = s.riv[l].count()
	}
	ko, tempo, capBase := 0, 0, wCapFull
	if free >= freeLand && a.round < steadyRound {
		ko, tempo, capBase = wKo, wTempo, wCapture
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
				src, ok := s.connSrc(d)
				if !ok {
					continue
				}
				sc := wPlace + wThick*countNbrs(&s.own, d) - 2*(i+j)
				if a.reach[idx(d)] == 1 {
					sc += wHot
				}
				sc += wRejoin * a.rejoined(d)
				sc += wGuard * a.guard(d)
				sc -= ko * a.again(idx(d))
				pk.offer(a.rng, src, d, sc)
				continue
			}
			src, ok := a.captureSrc(d)
			if !ok {
				continue
			}
			sc := capBase - 2*(i+j) - wOwnCut*int(a.cut[idx(src)])
			rc, rj, th := s.rivalCut(d), a.rejoined(d), a.threatens(d)
			sc += wRivalCut*rc + wRejoin*rj + wGuard*th
			if !s.rconn[l].has(d) {
				sc += wHarvest
			}
			if rivalT[l] >= myT {
				sc += wLeader
			}
			if rc == 0 && rj == 0 && th == 0 {
				sc -= tempo // a plain trade
			}
			sc += wCapThick * (countNbrs(&s.own, d) - 1)
			sc -= wRetake*a.rivalNbrs(d) + wHoleOpen*(a.rivalNbrs(src)-1)
			sc -= ko * a.again(idx(d))
			pk.offer(a.rng, src, d, sc)
		}
	}
	if pk.ties == 0 {
		return rules.Move{}
	}
	return a.play(pk.src, pk.dst)
}

// rivalNbrs counts c's side-neighbours that are connected rival cows.
func (a *WardenWanda) rivalNbrs(c cell) int {
	k := 0
	for _, p := range nbrs(c) {
		if !inBounds(p) {
			continue
		}
		if l := a.s.label(p); l > 0 && a.s.rconn[l].has(p) {
			k++
		}
	}
	return k
}

// captureSrc is the connected, non-barn own neighbour of dst whose emptying
// cuts off the fewest own cows.
func (a *WardenWanda) captureSrc(dst cell) (src cell, ok bool) {
	best := int16(1 << 14)
	for _, p := range nbrs(dst) {
		if !inBounds(p) || p == (cell{}) || !a.s.conn.has(p) {
			continue
		}
		if c := a.cut[idx(p)]; c < best {
			src, best, ok = p, c, true
		}
	}
	return
}

// threatens is the most own cows rival cow d could take or cut off by
// capturing one of its own-cow neighbours next round (0 if d is cut off
// its barn: its capture would kill both cows, R11).
func (a *WardenWanda) threatens(d cell) int {
	l := a.s.label(d)
	if l <= 0 || !a.s.rconn[l].has(d) {
		return 0
	}
	t := 0
	for _, p := range nbrs(d) {
		if inBounds(p) && a.s.conn.has(p) && p != (cell{}) {
			if c := 1 + int(a.cut[idx(p)]); c > t {
				t = c
			}
		}
	}
	if t <= 1 {
		return 0
	}
	return t
}

// guard is how many own cows a place on empty d protects: d closes a
// second path around an articulation point next to it that a rival can
// capture next round, when d touches both that point's cut-off side and
// another own connected cow.
func (a *WardenWanda) guard(d cell) int {
	s := &a.s
	g := 0
	for _, p := range nbrs(d) {
		if !inBounds(p) || !s.conn.has(p) || a.cut[idx(p)] == 0 || !s.rivalNear(p) {
			continue
		}
		// d must link p's cut-off side (a neighbour of d deeper than p in
		// the search tree) with a cow outside it.
		var deep, other bool
		for _, q := range nbrs(d) {
			if !inBounds(q) || q == p || !s.conn.has(q) {
				continue
			}
			k, kp := idx(q), idx(p)
			if a.disc[k] > a.disc[kp] && a.disc[k] < a.disc[kp]+a.sub[kp] {
				deep = true
			} else {
				other = true
			}
		}
		if deep && other && int(a.cut[idx(p)]) > g {
			g = int(a.cut[idx(p)])
		}
	}
	return g
}
