package rectangle_test

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

// TestOpening: the scripted opening (rules.Opener) places a seat's robots
// on distinct cells of the boundary of a size×size square in the corner the
// first two draws choose, the robots spread evenly round it (a quarter of
// the boundary apart with 4 robots), and the placement paints them in the
// seat's colour (R7, R10); every corner and several offsets occur. It
// refuses a size outside 3..n and any state after the placement.
func TestOpening(t *testing.T) {
	g, _ := rules.Lookup(rectangle.Name)
	rng := rules.NewRNG(5)
	corners := map[[2]bool]bool{}
	starts := map[rectangle.Pos]bool{}
	for trial := 0; trial < 200; trial++ {
		st := g.New(g.Default()).(*rectangle.State)
		k := 3 + rng.U(18) // 3..20
		moves := make([]rules.Move, 4)
		var want [4]rectangle.Rect
		for seat := range moves {
			var u [rules.OpeningDraws]float64
			for i := range u {
				u[i] = rng.Float64()
			}
			m, ok := st.Opening(seat, k, u)
			if !ok {
				t.Fatalf("size %d: no opening at the placement", k)
			}
			moves[seat] = m
			q := rectangle.OpeningSquare(20, k, u)
			want[seat] = q
			top, left := u[0] < 0.5, u[1] < 0.5
			if k < 20 && (top != (q.R1 == 0) || left != (q.C1 == 0)) || q.R2-q.R1 != k-1 || q.C2-q.C1 != k-1 || q.R1 < 0 || q.C1 < 0 || q.R2 > 19 || q.C2 > 19 {
				t.Fatalf("draws %v size %d: square %+v", u, k, q)
			}
			corners[[2]bool{top, left}] = true
			cells := rectangle.OpeningCells(20, 4, k, u, nil)
			starts[rectangle.Pos{R: cells[0].R - q.R1, C: cells[0].C - q.C1}] = true
			seen := map[rectangle.Pos]bool{}
			var per []rectangle.Pos
			per = q.Perimeter(per)
			idx := map[rectangle.Pos]int{}
			for i, p := range per {
				idx[p] = i
			}
			for i, p := range cells {
				if !q.OnBoundary(p.R, p.C) || seen[p] {
					t.Fatalf("size %d: robot %d at %+v: not a distinct boundary cell of %+v", k, i, p, q)
				}
				seen[p] = true
				if i > 0 {
					if gap := (idx[p] - idx[cells[i-1]] + len(per)) % len(per); gap != len(per)/4 {
						t.Fatalf("size %d: robots %d and %d are %d cells apart, want %d", k, i-1, i, gap, len(per)/4)
					}
				}
			}
		}
		st.Step(moves, nil)
		for seat := range moves {
			var v rectangle.View
			st.View(seat, &v)
			for i, p := range v.Pos[0][:4] {
				if !want[seat].OnBoundary(p.R, p.C) {
					t.Fatalf("seat %d robot %d placed at %+v, off its square %+v", seat, i, p, want[seat])
				}
				alone := true
				for k := 0; k < 4; k++ {
					for j, o := range v.Pos[k][:4] {
						if o == p && (k != 0 || j != i) {
							alone = false
						}
					}
				}
				if alone && v.Board[p.R][p.C] != 0 {
					t.Fatalf("seat %d robot %d alone at %+v: cell %d, want its own paint (R7, R10)", seat, i, p, v.Board[p.R][p.C])
				}
			}
		}
		if _, ok := st.Opening(0, k, [rules.OpeningDraws]float64{}); ok {
			t.Fatal("an opening after the placement")
		}
	}
	if len(corners) != 4 || len(starts) < 3 {
		t.Fatalf("%d corners, %d offsets: the draws do not vary", len(corners), len(starts))
	}
	st := g.New(g.Default()).(*rectangle.State)
	for _, k := range []int{0, 2, 21} {
		if _, ok := st.Opening(0, k, [rules.OpeningDraws]float64{}); ok {
			t.Fatalf("size %d on a 20×20 board: an opening", k)
		}
	}
}
