package bovineheldout

import (
	"math/bits"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

// n is the board's side; every bot here decides in its seat's view (R19):
// its barn at (0,0), rival label l's barn at barnOf[l].
const n = bovine.Size

// cell is a view cell (i, j).
type cell struct{ i, j int }

// set is a cell set of the view, one word per row, bit j = column j.
type set [n]uint32

func (s *set) has(c cell) bool { return s[c.i]>>uint(c.j)&1 != 0 }
func (s *set) add(c cell)      { s[c.i] |= 1 << uint(c.j) }
func (s *set) del(c cell)      { s[c.i] &^= 1 << uint(c.j) }

func (s *set) count() int {
	k := 0
	for _, w := range s {
		k += bits.OnesCount32(w)
	}
	return k
}

// barnOf is each label's barn in the view (R19): 0 own, 1..3 the rivals.
var barnOf = [4]cell{{0, 0}, {0, n - 1}, {n - 1, n - 1}, {n - 1, 0}}

func inBounds(c cell) bool { return c.i >= 0 && c.i < n && c.j >= 0 && c.j < n }

// nbrs lists c's side-neighbours (some may be off the board).
func nbrs(c cell) [4]cell {
	return [4]cell{{c.i - 1, c.j}, {c.i, c.j - 1}, {c.i, c.j + 1}, {c.i + 1, c.j}}
}

// flood returns the component of mask that holds seed (R4 when mask is a
// seat's cows and seed its barn), by row sweeps down and up.
func flood(mask *set, seed cell) set {
	var c set
	if !mask.has(seed) {
		return c
	}
	c.add(seed)
	const full = 1<<n - 1
	for {
		changed := false
		grow := func(r int) {
			x := c[r]
			if r > 0 {
				x |= c[r-1]
			}
			if r+1 < n {
				x |= c[r+1]
			}
			x &= mask[r]
			for {
				y := (x | x<<1&full | x>>1) & mask[r]
				if y == x {
					break
				}
				x = y
			}
			if x != c[r] {
				c[r], changed = x, true
			}
		}
		for r := seed.i; r < n; r++ {
			grow(r)
		}
		for r := n - 1; r >= 0; r-- {
			grow(r)
		}
		if !changed {
			return c
		}
	}
}

// scan is what every bot reads off its view once a round: its cows and
// which of them are connected (R4), the empty cells, each rival's cows and
// connected cows, and which rivals are alive.
type scan struct {
	v     [n][n]int8
	own   set
	empty set
	riv   [4]set // by label 1..3
	conn  set
	rconn [4]set
	live  [4]bool
	nConn int
	nRC   [4]int // connected cows per rival label
}

// load reads seat's view of st; false if st is not a Bovine Borders game or
// the seat has no barn.
func (s *scan) load(st rules.State, seat int) bool {
	b, ok := st.(*bovine.State)
	if !ok {
		return false
	}
	s.v = bovine.View(b, seat)
	s.own, s.empty = set{}, set{}
	s.riv = [4]set{}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			switch l := s.v[i][j]; {
			case l < 0:
				s.empty[i] |= 1 << uint(j)
			case l == 0:
				s.own[i] |= 1 << uint(j)
			default:
				s.riv[l][i] |= 1 << uint(j)
			}
		}
	}
	if !s.own.has(cell{}) {
		return false
	}
	s.conn = flood(&s.own, cell{})
	s.nConn = s.conn.count()
	for l := 1; l < 4; l++ {
		s.live[l] = s.riv[l].has(barnOf[l])
		s.rconn[l] = flood(&s.riv[l], barnOf[l])
		s.nRC[l] = s.rconn[l].count()
	}
	return true
}

// label is the view label of c: −1 empty, 0 own, 1..3 a rival.
func (s *scan) label(c cell) int { return int(s.v[c.i][c.j]) }

// ownCut is how many connected cows, src excluded, lose their link to the
// barn when src is emptied (a capture's source, R11).
func (s *scan) ownCut(src cell) int {
	if !s.conn.has(src) {
		return 0
	}
	m := s.conn
	m.del(src)
	c := flood(&m, cell{})
	return s.nConn - 1 - c.count()
}

// rivalCut is how many of the rival's connected cows, dst excluded, lose
// their link to its barn when dst becomes ours.
func (s *scan) rivalCut(dst cell) int {
	l := s.label(dst)
	if l <= 0 || !s.rconn[l].has(dst) {
		return 0
	}
	m := s.rconn[l]
	m.del(dst)
	c := flood(&m, barnOf[l])
	return s.nRC[l] - 1 - c.count()
}

// ownNbrs counts c's side-neighbours in s.
func countNbrs(x *set, c cell) int {
	k := 0
	for _, p := range nbrs(c) {
		if inBounds(p) && x.has(p) {
			k++
		}
	}
	return k
}

// rivalNear reports whether a connected rival cow is a side-neighbour of c.
func (s *scan) rivalNear(c cell) bool {
	for _, p := range nbrs(c) {
		if !inBounds(p) {
			continue
		}
		if l := s.label(p); l > 0 && s.rconn[l].has(p) {
			return true
		}
	}
	return false
}

// bestCaptureSrc is the connected, non-barn own neighbour of dst whose
// emptying cuts off the fewest own cows (ties: the first in nbrs order);
// ok=false if there is none.
func (s *scan) bestCaptureSrc(dst cell) (src cell, cut int, ok bool) {
	cut = 1 << 30
	for _, p := range nbrs(dst) {
		if !inBounds(p) || p == (cell{}) || !s.conn.has(p) {
			continue
		}
		if c := s.ownCut(p); c < cut {
			src, cut, ok = p, c, true
		}
	}
	return
}

// anySrc is a non-barn own neighbour of dst, connected first; ok=false if none.
// connSrc is dst's first neighbour, in nbrs order, that is an own cell
// connected to the barn: the source of a plain step into dst.
func (s *scan) connSrc(dst cell) (cell, bool) {
	for _, p := range nbrs(dst) {
		if inBounds(p) && s.conn.has(p) {
			return p, true
		}
	}
	return cell{}, false
}

func (s *scan) anySrc(dst cell) (src cell, ok bool) {
	for pass := 0; pass < 2; pass++ {
		for _, p := range nbrs(dst) {
			if !inBounds(p) || p == (cell{}) || !s.own.has(p) {
				continue
			}
			if pass == 0 && !s.conn.has(p) {
				continue
			}
			return p, true
		}
	}
	return cell{}, false
}

// urgent returns the move every bot here plays before its own plan, if any:
//  1. a cow of ours next to a live rival's barn takes it (R12a: capture or
//     both-die alike eliminate the rival);
//  2. a rival cow next to our barn is removed (it could take the barn next
//     round), by a connected capture if possible, else by both-die, never
//     from the barn (R12b);
//  3. an empty cell next to our barn is filled (from the barn: a place);
//  4. a rival cow two steps from our barn is captured.
func (s *scan) urgent() (src, dst cell, ok bool) {
	for l := 1; l < 4; l++ {
		if !s.live[l] {
			continue
		}
		b := barnOf[l]
		for _, p := range nbrs(b) {
			if inBounds(p) && s.own.has(p) {
				return p, b, true
			}
		}
	}
	near := [2]cell{{0, 1}, {1, 0}}
	for _, d := range near {
		if s.label(d) > 0 {
			if p, ok := s.anySrc(d); ok {
				return p, d, true
			}
		}
	}
	for _, d := range near {
		if s.label(d) < 0 {
			return cell{}, d, true
		}
	}
	for _, d := range [3]cell{{1, 1}, {0, 2}, {2, 0}} {
		if s.label(d) > 0 {
			if p, _, ok := s.bestCaptureSrc(d); ok {
				return p, d, true
			}
		}
	}
	return cell{}, cell{}, false
}

// base holds what every bot keeps: its seat, generator and this round's scan.
type base struct {
	seat int
	rng  *rules.RNG
	s    scan
}

func (b *base) full(src, dst cell) rules.Move {
	return bovine.ViewFullMove(b.seat, int64(src.i), int64(src.j), int64(dst.i), int64(dst.j))
}

// pick keeps the best-scoring candidate, uniformly at random among equals
// (reservoir sampling with the bot's generator).
type pick struct {
	src, dst cell
	score    int
	ties     int
}

func (p *pick) offer(rng *rules.RNG, src, dst cell, score int) {
	switch {
	case p.ties == 0 || score > p.score:
		p.src, p.dst, p.score, p.ties = src, dst, score, 1
	case score == p.score:
		p.ties++
		if rng.U(p.ties) == 0 {
			p.src, p.dst = src, dst
		}
	}
}

func trailing(w uint32) int { return bits.TrailingZeros32(w) }

// threat is the damage rival cow d could do next round: the most own cows
// (the taken one included) that its capture of one of our neighbours of d
// would remove or cut off from our barn (R4, R11).
func (s *scan) threat(d cell) int {
	t := 0
	for _, p := range nbrs(d) {
		if !inBounds(p) || !s.conn.has(p) {
			continue
		}
		if c := s.ownCut(p) + 1; c > t {
			t = c
		}
	}
	return t
}

func popcount(w uint64) int { return bits.OnesCount64(w) }
