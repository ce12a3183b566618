package risingtidebots

import (
	"testing"

	"github.com/gridgym/gridgym/rules/risingtide"
)

// The flood times agree with the rules on the start board when nobody
// moves: the border floods in round 101 (height 1, R12), ring 1 in 201,
// the settlements in 502 (E6: their 5-high neighbours flood in 501), the
// 6-high land inside from 601, one ring a round from the drowned
// settlement (12,12): (9,9) in 603.
func TestFloodTimesStartBoard(t *testing.T) {
	v := risingtide.View(newState(t), 0)
	var f risingtide.FloodTimes
	f.Compute(&v)
	for _, c := range []struct{ i, j, want int }{{0, 0, 101}, {0, 9, 101}, {1, 1, 201}, {4, 4, 501}, {5, 5, 502}, {12, 12, 502}, {11, 11, 601}, {9, 9, 603}} {
		if got := f.T[c.i][c.j]; got != c.want {
			t.Errorf("(%d,%d) floods in %d, want %d", c.i, c.j, got, c.want)
		}
	}
	// A dug corridor brings the water in: (4,4) lowered to 0 next to a
	// flooded (3,3) floods the round after, and the settlement the round
	// after that.
	v.Round = 300
	v.Terrain[3][3], v.Terrain[4][4] = -1, 0
	f.Compute(&v)
	if f.T[4][4] != 301 || f.T[5][5] != 302 {
		t.Errorf("(4,4) floods in %d, the settlement in %d; want 301, 302", f.T[4][4], f.T[5][5])
	}
}

// sapper_seoul drowns seats that do not defend: against three pass_perth
// (whose settlements flood in round 502 untouched, E6) every game ends with
// a rival drowned well before that, while it survives.
func TestSapperDrownsTheUndefended(t *testing.T) {
	drownsAPasser(t, "sapper_seoul", 20, 400)
}
