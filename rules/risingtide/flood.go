package risingtide

// FloodHorizon bounds every flood time FloodTimes computes: land of height 8
// floods from round 801 on, and the water needs at most one round a cell
// to reach it.
const FloodHorizon = 100*MaxHeight + 2 + Cells

// FloodTimes is the earliest round each cell of a seat's view floods if
// nobody moves again: R12 replayed as a shortest-path search from the sea.
// A land cell of height h floods in round max(100·h + 1, its first flooded
// neighbour's round + 1), a border cell needing no neighbour; a flooded
// cell keeps the current round. It is a fact of the whole board that the
// attackers and defenders of Rising Tide reason with (which settlement the
// sea reaches first, and by which way) and that a few 3×3 convolutions
// cannot see. Its arrays are fixed, so a FloodTimes on the stack costs no
// allocation.
type FloodTimes struct {
	T    [Size][Size]int // the flood round of each view cell, at most FloodHorizon
	done [Size][Size]bool
	heap [9 * Cells]uint32 // (round << 9 | cell): each cell is pushed at most 9 times
	n    int
}

// Compute fills f.T for view v (Dijkstra over rounds: a cell's round only
// grows along the way, so the first time a cell is popped is its round).
func (f *FloodTimes) Compute(v *SeatView) {
	f.n = 0
	for i := 0; i < Size; i++ {
		for j := 0; j < Size; j++ {
			f.done[i][j] = false
			f.T[i][j] = FloodHorizon
			switch h := int(v.Terrain[i][j]); {
			case h < 0:
				f.push(i, j, v.Round)
			case OnEdge(i, j):
				f.push(i, j, max(100*h+1, v.Round))
			}
		}
	}
	for f.n > 0 {
		x := f.pop()
		r, c := int(x>>9), int(x&511)
		i, j := c/Size, c%Size
		if f.done[i][j] || f.T[i][j] != r {
			continue
		}
		f.done[i][j] = true
		for a := max(i-1, 0); a <= min(i+1, Size-1); a++ {
			for b := max(j-1, 0); b <= min(j+1, Size-1); b++ {
				if !f.done[a][b] && v.Terrain[a][b] >= 0 {
					f.push(a, b, max(100*int(v.Terrain[a][b])+1, r+1))
				}
			}
		}
	}
}

func (f *FloodTimes) push(i, j, t int) {
	t = min(t, FloodHorizon)
	if t >= f.T[i][j] {
		return
	}
	f.T[i][j] = t
	h := &f.heap
	k := f.n
	h[k] = uint32(t)<<9 | uint32(i*Size+j)
	f.n++
	for k > 0 {
		p := (k - 1) / 2
		if h[p] <= h[k] {
			break
		}
		h[p], h[k] = h[k], h[p]
		k = p
	}
}

func (f *FloodTimes) pop() uint32 {
	h := &f.heap
	top := h[0]
	f.n--
	h[0] = h[f.n]
	for k := 0; ; {
		l, m := 2*k+1, k
		if l < f.n && h[l] < h[m] {
			m = l
		}
		if l+1 < f.n && h[l+1] < h[m] {
			m = l + 1
		}
		if m == k {
			return top
		}
		h[k], h[m] = h[m], h[k]
		k = m
	}
}

// Path writes into path the water's quickest way into cell (si, sj) of v,
// after Compute on v: walking back from it, each step to the neighbour that
// floods first (the first such in row-major order), while that neighbour
// is land and floods before the cell it leads to; a walk that ends on the
// border without a step is the border cell itself. It returns the number
// of cells written, (si, sj) not among them.
func (f *FloodTimes) Path(v *SeatView, si, sj int, path *[Cells][2]int) int {
	n, ci, cj := 0, si, sj
	for v.Terrain[ci][cj] >= 0 && !OnEdge(ci, cj) && n < len(path) {
		pi, pj, pt := f.earliest(ci, cj)
		if v.Terrain[pi][pj] < 0 || pt >= f.T[ci][cj] {
			break
		}
		path[n] = [2]int{pi, pj}
		n++
		ci, cj = pi, pj
	}
	if n == 0 && OnEdge(ci, cj) {
		path[0], n = [2]int{ci, cj}, 1
	}
	return n
}

// Ways marks with 1 in ways (cell i·Size + j) every cell of the water's
// quickest ways into cell (si, sj) of v, after Compute on v: Path's walk
// with its ties kept, each step to every neighbour that floods first, while
// those neighbours are land and flood before the cell they lead to. (si,
// sj) itself is not marked unless a way passes it. It allocates nothing.
func (f *FloodTimes) Ways(v *SeatView, si, sj int, ways *[Cells]uint8) {
	var stack [Cells]int16
	var seen [Cells]bool
	n := 1
	stack[0], seen[si*Size+sj] = int16(si*Size+sj), true
	for n > 0 {
		n--
		ci, cj := int(stack[n])/Size, int(stack[n])%Size
		if v.Terrain[ci][cj] < 0 || OnEdge(ci, cj) {
			continue
		}
		_, _, pt := f.earliest(ci, cj)
		if pt >= f.T[ci][cj] {
			continue
		}
		for i := ci - 1; i <= ci+1; i++ {
			for j := cj - 1; j <= cj+1; j++ {
				c := i*Size + j
				if (i == ci && j == cj) || f.T[i][j] != pt || v.Terrain[i][j] < 0 || seen[c] {
					continue
				}
				seen[c], ways[c] = true, 1
				stack[n] = int16(c)
				n++
			}
		}
	}
}

// earliest returns the 8-neighbour of inner cell (ci, cj) that floods
// first (the first such in row-major order) and its round: the step of
// Path and Ways.
func (f *FloodTimes) earliest(ci, cj int) (pi, pj, pt int) {
	pi, pj, pt = -1, -1, int(^uint(0)>>1)
	for i := ci - 1; i <= ci+1; i++ {
		for j := cj - 1; j <= cj+1; j++ {
			if (i != ci || j != cj) && f.T[i][j] < pt {
				pi, pj, pt = i, j, f.T[i][j]
			}
		}
	}
	return pi, pj, pt
}

// OnEdge reports whether cell (i, j) is on the border ring, where the sea
// comes in (R12).
func OnEdge(i, j int) bool { return i == 0 || j == 0 || i == Size-1 || j == Size-1 }
