package rectangle

// Rect is the rectangle of rows R1..R2 and columns C1..C2 (inclusive): the
// shape R11 claims with. Plans' squares (Plan.Rect) and the scripted bots'
// rectangles share its geometry.
type Rect struct{ R1, C1, R2, C2 int }

// Contains reports whether (r, c) is in q, boundary included.
func (q Rect) Contains(r, c int) bool {
	return r >= q.R1 && r <= q.R2 && c >= q.C1 && c <= q.C2
}

// OnBoundary reports whether (r, c) is one of q's boundary cells (R11).
func (q Rect) OnBoundary(r, c int) bool {
	return q.Contains(r, c) && (r == q.R1 || r == q.R2 || c == q.C1 || c == q.C2)
}

// Overlaps reports whether q and o share a cell.
func (q Rect) Overlaps(o Rect) bool {
	return q.R1 <= o.R2 && o.R1 <= q.R2 && q.C1 <= o.C2 && o.C1 <= q.C2
}

// Dist is the Manhattan distance from (r, c) to q's nearest boundary cell.
func (q Rect) Dist(r, c int) int {
	dr := max(q.R1-r, r-q.R2, 0)
	dc := max(q.C1-c, c-q.C2, 0)
	if dr > 0 || dc > 0 {
		return dr + dc
	}
	return min(r-q.R1, q.R2-r, c-q.C1, q.C2-c)
}

// Length is the number of q's boundary cells (sides of at least 2).
func (q Rect) Length() int { return 2*(q.R2-q.R1) + 2*(q.C2-q.C1) }

// Perimeter appends q's boundary cells to dst clockwise from the top-left
// corner (sides of at least 2).
func (q Rect) Perimeter(dst []Pos) []Pos {
	for c := q.C1; c < q.C2; c++ {
		dst = append(dst, Pos{R: q.R1, C: c})
	}
	for r := q.R1; r < q.R2; r++ {
		dst = append(dst, Pos{R: r, C: q.C2})
	}
	for c := q.C2; c > q.C1; c-- {
		dst = append(dst, Pos{R: q.R2, C: c})
	}
	for r := q.R2; r > q.R1; r-- {
		dst = append(dst, Pos{R: r, C: q.C1})
	}
	return dst
}

// Boundary counts t's cells on q's boundary (t built over the n×n grid;
// sides of at least 3).
func (t *Prefix) Boundary(n int, q Rect) int32 {
	h, w := q.R2-q.R1+1, q.C2-q.C1+1
	return t.Sum(n, q.R1, q.C1, h, w) - t.Sum(n, q.R1+1, q.C1+1, h-2, w-2)
}
