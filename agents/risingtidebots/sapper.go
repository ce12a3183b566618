package risingtidebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

func init() {
	agents.Register(game, "sapper_seoul", "attacker: digs the bottleneck of the water's quickest way into the rival settlement that would flood first, its earth dumped away from that settlement; repairs its own wall (as wall_warsaw) only when its own settlement would flood within 60 rounds. A training opponent that drowns a seat which does not defend",
		func() agents.Agent { return &SapperSeoul{} })
}

// threatened is how many rounds ahead of its own flood time sapper_seoul
// stops attacking to repair its own wall.
const threatened = 60

// SapperSeoul is the attacker among the project's scripted Rising Tide bots
// (sapper_seoul): the sample bots and wall_warsaw build or dig at random or
// defend, none attacks a rival settlement on purpose, so a network trained
// only with them never learns to hold its wall against one that does. It
// reads only its view and allocates nothing after its first move.
type SapperSeoul struct {
	seat  int
	rng   *rules.RNG
	view  risingtide.SeatView
	wall  WallWarsaw
	flood floodTimes
}

// Reset implements agents.Agent.
func (b *SapperSeoul) Reset(st rules.State, seat int, rng *rules.RNG) {
	b.seat, b.rng = seat, rng
	b.wall.Reset(st, seat, rng)
}

// Act implements agents.Agent.
func (b *SapperSeoul) Act(st rules.State) rules.Move {
	return actOn(st, b.seat, &b.view, b.Decide)
}

// rivalSettlements are the rival settlements in every seat's view (R4, R20).
var rivalSettlements = [3][2]int{{5, 12}, {12, 12}, {12, 5}}

// Decide returns sapper_seoul's move on view v, or ok = false to pass.
func (b *SapperSeoul) Decide(v *risingtide.SeatView) (m Move, ok bool) {
	f := &b.flood
	f.compute(v)
	if f.t[5][5]-v.Round < threatened {
		if m, ok := b.wall.Decide(v); ok {
			return m, true
		}
	}
	ti, tj, best := -1, -1, int(^uint(0)>>1)
	for _, s := range rivalSettlements {
		if v.Terrain[s[0]][s[1]] >= 0 && f.t[s[0]][s[1]] < best {
			ti, tj, best = s[0], s[1], f.t[s[0]][s[1]]
		}
	}
	if ti < 0 {
		return b.wall.Decide(v)
	}
	if m, ok := b.dig(v, ti, tj); ok {
		return m, true
	}
	return b.wall.Decide(v)
}

// dig lowers the bottleneck of the water's quickest way into the
// settlement (si, sj): walking back from it along the neighbour that
// floods first, the highest cell whose own height (not its distance from
// the water) sets its flood time; its unit goes to the legal neighbour
// farthest from the settlement off that way (lowest first among those).
func (b *SapperSeoul) dig(v *risingtide.SeatView, si, sj int) (Move, bool) {
	f := &b.flood
	var path [risingtide.Size * risingtide.Size][2]int
	n, ci, cj := 0, si, sj
	for v.Terrain[ci][cj] >= 0 && !onEdge(ci, cj) && n < len(path) {
		pi, pj, pt := -1, -1, int(^uint(0)>>1)
		for i := ci - 1; i <= ci+1; i++ {
			for j := cj - 1; j <= cj+1; j++ {
				if (i != ci || j != cj) && f.t[i][j] < pt {
					pi, pj, pt = i, j, f.t[i][j]
				}
			}
		}
		if v.Terrain[pi][pj] < 0 || pt >= f.t[ci][cj] {
			break
		}
		path[n] = [2]int{pi, pj}
		n++
		ci, cj = pi, pj
	}
	if n == 0 && onEdge(ci, cj) {
		path[0], n = [2]int{ci, cj}, 1
	}
	bi, bj, bh := -1, -1, int8(0)
	for _, c := range path[:n] {
		h := v.Terrain[c[0]][c[1]]
		if h >= 1 && !settlement(c[0], c[1]) && h > bh {
			bi, bj, bh = c[0], c[1], h
		}
	}
	if bi < 0 {
		return Move{}, false
	}
	var cand [8]Move
	k, far, low := 0, -1, int8(9)
	for i := bi - 1; i <= bi+1; i++ {
		for j := bj - 1; j <= bj+1; j++ {
			if !v.Legal(bi, bj, i, j) || onPath(path[:n], i, j) {
				continue
			}
			d, h := max(abs(i-si), abs(j-sj)), v.Terrain[i][j]
			if d > far || (d == far && h < low) {
				far, low, k = d, h, 0
			}
			if d == far && h == low {
				cand[k] = Move{bi, bj, i, j}
				k++
			}
		}
	}
	if k == 0 {
		return Move{}, false
	}
	return cand[b.rng.U(k)], true
}

func onEdge(i, j int) bool {
	return i == 0 || j == 0 || i == risingtide.Size-1 || j == risingtide.Size-1
}

func settlement(i, j int) bool { return (i == 5 || i == 12) && (j == 5 || j == 12) }

func onPath(path [][2]int, i, j int) bool {
	for _, c := range path {
		if c[0] == i && c[1] == j {
			return true
		}
	}
	return false
}

// floodTimes is the earliest round each cell floods if nobody moves again
// (R12 replayed as a shortest-path search from the sea): a land cell of
// height h floods in round max(100·h + 1, its first flooded neighbour's
// round + 1), a border cell needing no neighbour; a flooded cell keeps the
// current round. Dial's algorithm over rounds, buckets reused.
type floodTimes struct {
	t       [risingtide.Size][risingtide.Size]int
	done    [risingtide.Size][risingtide.Size]bool
	buckets [][]int16
}

// horizon bounds every flood time: height 8 floods from round 801 on.
const horizon = 100*8 + 2 + risingtide.Size*risingtide.Size

func (f *floodTimes) compute(v *risingtide.SeatView) {
	if f.buckets == nil {
		f.buckets = make([][]int16, horizon+1)
	}
	for i := range f.buckets {
		f.buckets[i] = f.buckets[i][:0]
	}
	for i := 0; i < risingtide.Size; i++ {
		for j := 0; j < risingtide.Size; j++ {
			f.done[i][j] = false
			f.t[i][j] = horizon
			switch h := int(v.Terrain[i][j]); {
			case h < 0:
				f.push(i, j, v.Round)
			case onEdge(i, j):
				f.push(i, j, max(100*h+1, v.Round))
			}
		}
	}
	for r := 0; r <= horizon; r++ {
		for k := 0; k < len(f.buckets[r]); k++ {
			c := int(f.buckets[r][k])
			i, j := c/risingtide.Size, c%risingtide.Size
			if f.done[i][j] || f.t[i][j] != r {
				continue
			}
			f.done[i][j] = true
			for a := max(i-1, 0); a <= min(i+1, risingtide.Size-1); a++ {
				for b := max(j-1, 0); b <= min(j+1, risingtide.Size-1); b++ {
					if !f.done[a][b] && v.Terrain[a][b] >= 0 {
						f.push(a, b, max(100*int(v.Terrain[a][b])+1, r+1))
					}
				}
			}
		}
	}
}

func (f *floodTimes) push(i, j, t int) {
	t = min(t, horizon)
	if t < f.t[i][j] {
		f.t[i][j] = t
		f.buckets[t] = append(f.buckets[t], int16(i*risingtide.Size+j))
	}
}
