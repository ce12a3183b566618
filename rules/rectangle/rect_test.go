package rectangle

import "testing"

// TestRect: for rectangles of several shapes, Perimeter lists Length
// distinct cells, each OnBoundary and at Dist 0, clockwise from the
// top-left corner; every other cell of the grid is off the boundary at a
// positive Dist equal to the nearest boundary cell's Manhattan distance;
// Prefix.Boundary over the all-true grid counts Length and over Contains
// counts Length too; Overlaps is symmetric and agrees with a shared cell.
func TestRect(t *testing.T) {
	const n = 12
	rects := []Rect{{0, 0, 2, 2}, {1, 2, 5, 9}, {3, 3, 11, 5}, {0, 0, 11, 11}, {4, 6, 6, 8}}
	for _, q := range rects {
		per := q.Perimeter(nil)
		if len(per) != q.Length() {
			t.Fatalf("%+v: %d perimeter cells, Length %d", q, len(per), q.Length())
		}
		if per[0] != (Pos{R: q.R1, C: q.C1}) || per[1] != (Pos{R: q.R1, C: q.C1 + 1}) {
			t.Fatalf("%+v: perimeter starts %v, want the top-left corner, then rightwards", q, per[:2])
		}
		seen := map[Pos]bool{}
		for _, p := range per {
			if seen[p] || !q.OnBoundary(p.R, p.C) || q.Dist(p.R, p.C) != 0 {
				t.Fatalf("%+v: perimeter cell %v repeated, off the boundary or at Dist %d", q, p, q.Dist(p.R, p.C))
			}
			seen[p] = true
		}
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				if seen[Pos{R: r, C: c}] {
					continue
				}
				want := 1 << 30
				for _, p := range per {
					want = min(want, abs(p.R-r)+abs(p.C-c))
				}
				if q.OnBoundary(r, c) || q.Dist(r, c) != want {
					t.Fatalf("%+v: (%d,%d) OnBoundary %v, Dist %d, want off it at %d", q, r, c, q.OnBoundary(r, c), q.Dist(r, c), want)
				}
			}
		}
		var all, in Prefix
		all.Build(n, func(int, int) bool { return true })
		in.Build(n, q.Contains)
		if all.Boundary(n, q) != int32(q.Length()) || in.Boundary(n, q) != int32(q.Length()) {
			t.Fatalf("%+v: Boundary %d and %d, want Length %d", q, all.Boundary(n, q), in.Boundary(n, q), q.Length())
		}
		for _, o := range rects {
			shared := false
			for r := 0; r < n; r++ {
				for c := 0; c < n; c++ {
					shared = shared || q.Contains(r, c) && o.Contains(r, c)
				}
			}
			if q.Overlaps(o) != shared || o.Overlaps(q) != shared {
				t.Fatalf("%+v, %+v: Overlaps %v / %v, share a cell %v", q, o, q.Overlaps(o), o.Overlaps(q), shared)
			}
		}
	}
}
