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
	flood risingtide.FloodTimes
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
	f.Compute(v)
	if f.T[5][5]-v.Round < threatened {
		if m, ok := b.wall.Decide(v); ok {
			return m, true
		}
	}
	k := firstToFlood(v, f, [3]int{})
	if k < 0 {
		return b.wall.Decide(v)
	}
	if m, ok := b.dig(v, rivalSettlements[k][0], rivalSettlements[k][1]); ok {
		return m, true
	}
	return b.wall.Decide(v)
}

// firstToFlood is the live rival settlement that would flood first by f
// (an index into rivalSettlements, the first in that order on a tie),
// among those whose round has come (v.Round ≥ from[k]); −1 if none.
func firstToFlood(v *risingtide.SeatView, f *risingtide.FloodTimes, from [3]int) int {
	k, best := -1, int(^uint(0)>>1)
	for i, s := range rivalSettlements {
		if t := f.T[s[0]][s[1]]; v.Terrain[s[0]][s[1]] >= 0 && v.Round >= from[i] && t < best {
			k, best = i, t
		}
	}
	return k
}

// dig lowers the bottleneck of the water's quickest way into the
// settlement (si, sj): walking back from it along the neighbour that
// floods first, the highest cell whose own height (not its distance from
// the water) sets its flood time; its unit goes to the legal neighbour
// farthest from the settlement off that way (lowest first among those).
func (b *SapperSeoul) dig(v *risingtide.SeatView, si, sj int) (Move, bool) {
	f := &b.flood
	var path [risingtide.Cells][2]int
	n := f.Path(v, si, sj, &path)
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

func settlement(i, j int) bool { return (i == 5 || i == 12) && (j == 5 || j == 12) }

func onPath(path [][2]int, i, j int) bool {
	for _, c := range path {
		if c[0] == i && c[1] == j {
			return true
		}
	}
	return false
}
