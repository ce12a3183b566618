// Package risingtideheldout holds three held-out Rising Tide bots (issue 54):
// hand-written opponents of the test set, registered with
// agents.RegisterHeldOut so that no training ever sees them. Like every
// competition bot they read only their seat's view (risingtide.View: their
// settlement at (5, 5), the rivals at (5, 12), (12, 12), (12, 5)) and answer
// in view coordinates.
//
// | name | behaviour |
// | --- | --- |
// | `levee_lima` | defender: raises the 5×5 block around its settlement to 8, the cell the sea would reach first first, from the outer ring it then digs into a flooded moat; a block ringed by water has no legal move left that touches it |
// | `breach_berlin` | disruptor: walls itself in, then every spare move digs the cell whose lowering brings the sea soonest to the most exposed rival settlement (a flood-time search over the rivals' surroundings) |
// | `sniper_santiago` | late opportunist: builds its block, starves rivals of wall material in mid-game, and from round 600 plays the digs that flood a rival's wall cell this very round, which no repair can undo |
//
// All three share the flood-time map (floodMap): the earliest round each
// cell would flood if nobody moved again (R12: a cell floods once 100·h < r
// and a neighbour is water), computed by a Dijkstra search from the sea.
package risingtideheldout

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

const (
	game = "rising-tide"
	n    = risingtide.Size
	top  = risingtide.MaxHeight // 8: never floods within 800 rounds
	// never is above every flood time the map computes.
	never = 30000
)

// Move is a move in view coordinates.
type Move struct{ I1, J1, I2, J2 int }

// settlements in every view: own first, then the rivals (R20).
var settlements = [4][2]int{{5, 5}, {5, 12}, {12, 12}, {12, 5}}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ring is the Chebyshev distance of (i, j) from (ci, cj).
func ring(i, j, ci, cj int) int { return max(abs(i-ci), abs(j-cj)) }

// floodMap holds, for every cell, the earliest round it floods if nobody
// moves from the view's round on: t = max(100·h + 1, r, t(neighbour) + 1),
// the sea beside the border; cells already flooded hold r − 1.
type floodMap struct {
	t    [n][n]int16
	heap [n * n * 9]int32 // key<<10 | cell, a binary min-heap with stale entries
	size int
}

func (f *floodMap) push(key int, c int) {
	x := int32(key<<10 | c)
	k := f.size
	f.size++
	for k > 0 {
		p := (k - 1) / 2
		if f.heap[p] <= x {
			break
		}
		f.heap[k] = f.heap[p]
		k = p
	}
	f.heap[k] = x
}

func (f *floodMap) pop() (key, c int) {
	x := f.heap[0]
	f.size--
	last := f.heap[f.size]
	k := 0
	for {
		l := 2*k + 1
		if l >= f.size {
			break
		}
		if r := l + 1; r < f.size && f.heap[r] < f.heap[l] {
			l = r
		}
		if last <= f.heap[l] {
			break
		}
		f.heap[k] = f.heap[l]
		k = l
	}
	if f.size > 0 {
		f.heap[k] = last
	}
	return int(x >> 10), int(x & 1023)
}

// own is the round c = (i, j) of height h floods at the earliest by its own
// height and the round: max(100·h + 1, r).
func own(h int8, r int) int { return max(100*int(h)+1, r) }

func border(i, j int) bool { return i == 0 || j == 0 || i == n-1 || j == n-1 }

// compute fills the map for view v.
func (f *floodMap) compute(v *risingtide.SeatView) {
	r := v.Round
	f.size = 0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			switch h := v.Terrain[i][j]; {
			case h < 0:
				f.t[i][j] = int16(r - 1)
				f.push(r-1, i*n+j)
			case border(i, j):
				f.t[i][j] = int16(own(h, r))
				f.push(own(h, r), i*n+j)
			default:
				f.t[i][j] = never
			}
		}
	}
	f.spread(v, -1, 0)
}

// spread runs the search from the heap's entries; cell lc counts its height
// as lowered by lower.
func (f *floodMap) spread(v *risingtide.SeatView, lc int, lower int8) {
	for f.size > 0 {
		k, c := f.pop()
		i, j := c/n, c%n
		if k != int(f.t[i][j]) {
			continue
		}
		for a := max(i-1, 0); a <= min(i+1, n-1); a++ {
			for b := max(j-1, 0); b <= min(j+1, n-1); b++ {
				h := v.Terrain[a][b]
				if h < 0 {
					continue
				}
				if a*n+b == lc {
					h -= lower
				}
				if nt := max(own(h, v.Round), k+1); nt < int(f.t[a][b]) {
					f.t[a][b] = int16(nt)
					f.push(nt, a*n+b)
				}
			}
		}
	}
}

// lowered sets g to f's map with cell (i, j) one unit lower (its dug
// source): only the cells whose flood time falls are searched again.
func (f *floodMap) lowered(g *floodMap, v *risingtide.SeatView, i, j int) {
	g.t = f.t
	g.size = 0
	h := v.Terrain[i][j] - 1
	nt := own(h, v.Round)
	if !border(i, j) {
		m := never
		for a := max(i-1, 0); a <= min(i+1, n-1); a++ {
			for b := max(j-1, 0); b <= min(j+1, n-1); b++ {
				if a != i || b != j {
					m = min(m, int(f.t[a][b])+1)
				}
			}
		}
		nt = max(nt, m)
	}
	if nt < int(g.t[i][j]) {
		g.t[i][j] = int16(nt)
		g.push(nt, i*n+j)
		g.spread(v, i*n+j, 1)
	}
}

// settleTime is the round settlement s floods at the earliest if nobody
// moves (r − 1 for one already flooded).
func (f *floodMap) settleTime(s int) int {
	return int(f.t[settlements[s][0]][settlements[s][1]])
}

// alive reports whether settlement s is land in v.
func alive(v *risingtide.SeatView, s int) bool {
	return v.Terrain[settlements[s][0]][settlements[s][1]] >= 0
}

// builder raises the block of rings 1..rings around the own settlement to
// 8. Its targets are taken ring by ring; within a ring by key (the flood
// time when urgent, else the height), lowest first. A target's source is an
// adjacent land cell one ring further out; lowSource takes the one the sea
// reaches first (it is lost soonest), else the highest.
type builder struct {
	rings     int
	urgent    bool
	lowSource bool
}

// move returns the builder's move, ok = false when the block is complete or
// nothing can raise it.
func (bd builder) move(v *risingtide.SeatView, f *floodMap) (m Move, ok bool) {
	for rg := 1; rg <= bd.rings; rg++ {
		bestKey, bestSrc := never+1, 0
		for i := 5 - rg; i <= 5+rg; i++ {
			for j := 5 - rg; j <= 5+rg; j++ {
				h := v.Terrain[i][j]
				if ring(i, j, 5, 5) != rg || h < 0 || h >= top {
					continue
				}
				key := int(h)
				if bd.urgent {
					key = int(f.t[i][j])
				}
				if key > bestKey {
					continue
				}
				for a := i - 1; a <= i+1; a++ {
					for b := j - 1; b <= j+1; b++ {
						if ring(a, b, 5, 5) != rg+1 || !v.Legal(a, b, i, j) {
							continue
						}
						src := int(v.Terrain[a][b])
						if bd.lowSource {
							src = never - int(f.t[a][b])
						}
						if key < bestKey || src > bestSrc {
							bestKey, bestSrc, m, ok = key, src, Move{a, b, i, j}, true
						}
					}
				}
			}
		}
		if ok {
			return m, true
		}
	}
	return Move{}, false
}

// complete reports whether rings 1..rings around the own settlement are all
// at 8.
func complete(v *risingtide.SeatView, rings int) bool {
	for i := 5 - rings; i <= 5+rings; i++ {
		for j := 5 - rings; j <= 5+rings; j++ {
			if (i != 5 || j != 5) && v.Terrain[i][j] != top {
				return false
			}
		}
	}
	return true
}

// base is the state every bot keeps: seat, generator, view, flood maps.
type base struct {
	seat int
	rng  *rules.RNG
	view risingtide.SeatView
	f, g floodMap
}

func (b *base) reset(seat int, rng *rules.RNG) { b.seat, b.rng = seat, rng }

// look reads the view and the flood map of st.
func (b *base) look(st rules.State) *risingtide.SeatView {
	b.view = risingtide.View(st.(*risingtide.State), b.seat)
	b.f.compute(&b.view)
	return &b.view
}

func (b *base) answer(m Move, ok bool) rules.Move {
	if !ok || !b.view.Legal(m.I1, m.J1, m.I2, m.J2) {
		return rules.Move{}
	}
	return risingtide.MoveFromView(b.seat, m.I1, m.J1, m.I2, m.J2)
}

var _ agents.Agent = (*Levee)(nil)
