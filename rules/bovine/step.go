package bovine

import (
	"github.com/gridgym/gridgym/rules"
)

// effect is what executing one move did (R11), for tests of I3 and I7.
type effect uint8

const (
	skipped  effect = iota // R6.5: seat eliminated earlier, or the re-check failed
	placed                 // empty dst, connected src: new cow
	moved                  // empty dst, disconnected src: the cow moves
	captured               // rival dst, connected src
	bothDied               // rival dst, disconnected src
)

// Step implements rules.State: one round (R6). moves[seat] is seat's answer;
// answers of seats not alive at round start are ignored, missing entries
// count as passes. rng supplies R9's draws in canonical order.
func (s *State) Step(moves []rules.Move, rng *rules.RNG) {
	if s.Done() {
		return
	}
	s.round++
	s.submit(moves, rng)
	n := s.drawOrder(rng)
	for _, seat := range s.order[:n] {
		s.execute(int(seat))
	}
}

// submit does R6.1–R6.3 for every seat alive at round start, in increasing
// seat order: R8 completes destination-only answers (drawing U(k) when k ≥ 2)
// and R7 checks each move on the round-start board; failures become passes.
func (s *State) submit(moves []rules.Move, rng *rules.RNG) {
	for seat := 0; seat < Seats; seat++ {
		s.src[seat] = -1
		if s.alive>>uint(seat)&1 == 0 || seat >= len(moves) {
			continue
		}
		src, dst, ok := s.decode(seat, moves[seat], rng)
		if ok && s.valid(seat, src, dst) {
			s.src[seat], s.dst[seat] = int16(src), int16(dst)
		}
	}
}

// decode turns a Move into cells, completing a Dst move per R8 with rng (nil:
// report whether some source exists, without drawing). ok is false for a pass
// and for malformed moves (R10).
func (s *State) decode(seat int, m rules.Move, rng *rules.RNG) (src, dst int, ok bool) {
	switch {
	case m.Kind == Full && m.N == 2:
		src, dst = int(m.Arg[0]), int(m.Arg[1])
		return src, dst, uint(src) < Cells && uint(dst) < Cells
	case m.Kind == Dst && m.N == 1:
		dst = int(m.Arg[0])
		if uint(dst) >= Cells {
			return 0, 0, false
		}
		var cand [4]int
		k := s.sources(seat, dst, &cand)
		switch {
		case k == 0:
			return 0, 0, false
		case k == 1 || rng == nil:
			return cand[0], dst, true
		default:
			return cand[rng.U(k)], dst, true
		}
	}
	return 0, 0, false
}

// sources lists R8's candidate sources of dst for seat: its in-bounds
// side-neighbours that seat owns, in row-major order. It returns their number.
func (s *State) sources(seat, dst int, cand *[4]int) int {
	r, c := dst/Size, dst%Size
	own := &s.own[seat]
	k := 0
	if r > 0 && own[r-1]>>uint(c)&1 != 0 {
		cand[k] = dst - Size
		k++
	}
	if c > 0 && own[r]>>uint(c-1)&1 != 0 {
		cand[k] = dst - 1
		k++
	}
	if c < Size-1 && own[r]>>uint(c+1)&1 != 0 {
		cand[k] = dst + 1
		k++
	}
	if r < Size-1 && own[r+1]>>uint(c)&1 != 0 {
		cand[k] = dst + Size
		k++
	}
	return k
}

// valid is R7 for in-bounds cells: seat owns src, not dst, and (unless the
// nonadjacent_moves variant is on) they share a side.
func (s *State) valid(seat, src, dst int) bool {
	sr, sc, dr, dc := src/Size, src%Size, dst/Size, dst%Size
	own := &s.own[seat]
	if own[sr]>>uint(sc)&1 == 0 || own[dr]>>uint(dc)&1 != 0 {
		return false
	}
	if s.nonadj {
		return true
	}
	return abs(sr-dr)+abs(sc-dc) == 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// drawOrder is R6.4 with R9's canonical draws: the seats alive at round
// start, increasing, shuffled by rules.RNG.Shuffle. It returns their number.
func (s *State) drawOrder(rng *rules.RNG) int {
	n := 0
	for seat := 0; seat < Seats; seat++ {
		if s.alive>>uint(seat)&1 != 0 {
			s.order[n] = int8(seat)
			n++
		}
	}
	rng.Shuffle(s.order[:n])
	return n
}

// execute is R6.5 for seat's submitted move: skip it if the seat is gone or
// the re-check fails, else apply R11 with its eliminations (R12).
func (s *State) execute(seat int) effect {
	if s.alive>>uint(seat)&1 == 0 || s.src[seat] < 0 {
		return skipped
	}
	src, dst := int(s.src[seat]), int(s.dst[seat])
	sr, sc, dr, dc := src/Size, src%Size, dst/Size, dst%Size
	if s.own[seat][sr]>>uint(sc)&1 == 0 || s.own[seat][dr]>>uint(dc)&1 != 0 {
		return skipped
	}
	rival := s.owner(dr, dc)
	conn := s.connectedCell(seat, sr, sc) // on the board just before the move
	switch {
	case rival == Empty && conn: // place: dst := s, src keeps its cow
		s.add(seat, dr, dc)
		return placed
	case rival == Empty: // move: src := empty, then dst := s
		s.remove(seat, sr, sc)
		s.add(seat, dr, dc)
		return moved
	case conn: // capture: dst := s, then src := empty
		s.remove(rival, dr, dc) // R12a: dst may be the rival's barn
		s.add(seat, dr, dc)
		s.remove(seat, sr, sc) // R12b, R12c: src may be s's barn
		return captured
	default: // both die: dst := empty, then src := empty
		s.remove(rival, dr, dc)
		s.remove(seat, sr, sc)
		return bothDied
	}
}

// connectedCell reports whether seat's cow at (r, c) is connected (R4),
// refilling the cached connected set if it is stale.
func (s *State) connectedCell(seat, r, c int) bool {
	if r == barnRow[seat] && c == barnCol[seat] {
		return true
	}
	if s.connOK>>uint(seat)&1 == 0 {
		s.fill(seat, &s.conn[seat])
		s.connOK |= 1 << uint(seat)
	}
	return s.conn[seat][r]>>uint(c)&1 != 0
}

// fill sets out to seat's connected set (R4): a flood fill from the barn
// through seat's cows. It only sweeps the rows from the barn's edge up to the
// first row without a cow of seat, since no path crosses an empty row.
func (s *State) fill(seat int, out *board) {
	*out = board{}
	own := &s.own[seat]
	br, bc := barnRow[seat], barnCol[seat]
	if own[br]>>uint(bc)&1 == 0 {
		return
	}
	lo, hi := br, br
	if br == 0 {
		for hi+1 < Size && own[hi+1] != 0 {
			hi++
		}
	} else {
		for lo > 0 && own[lo-1] != 0 {
			lo--
		}
	}
	out[br] = 1 << uint(bc)
	grids[hi-lo+1].Fill4(out[lo:hi+1], own[lo:hi+1])
}

// add gives (r, c) to seat (a cell it did not own) and keeps the connected
// set exact: a cell next to it joins it, together with the component of the
// seat's other cows it links to the barn.
func (s *State) add(seat, r, c int) {
	b := uint64(1) << uint(c)
	own, conn := &s.own[seat], &s.conn[seat]
	own[r] |= b
	if s.connOK>>uint(seat)&1 == 0 {
		return
	}
	switch nc := countNeighbours(conn, r, c); {
	case nc == 0: // not next to the connected set, which stays as it is
	case nc == countNeighbours(own, r, c): // every own neighbour is connected
		conn[r] |= b
	default:
		// The new cell links its component among the unconnected cows to the
		// barn. That component lies in the rows around r holding such cows.
		lo, hi := r, r
		for lo > 0 && own[lo-1]&^conn[lo-1] != 0 {
			lo--
		}
		for hi < Size-1 && own[hi+1]&^conn[hi+1] != 0 {
			hi++
		}
		var piece, within board
		for y := lo; y <= hi; y++ {
			within[y] = own[y] &^ conn[y]
		}
		piece[r] = b
		grids[hi-lo+1].Fill4(piece[lo:hi+1], within[lo:hi+1])
		for y := lo; y <= hi; y++ {
			conn[y] |= piece[y]
		}
	}
}

// countNeighbours counts the side-neighbours of (r, c) in set.
func countNeighbours(set *board, r, c int) int {
	n := int(set[r]>>uint(c+1)&1) + int(set[r]<<1>>uint(c)&1)
	if r > 0 {
		n += int(set[r-1] >> uint(c) & 1)
	}
	if r < Size-1 {
		n += int(set[r+1] >> uint(c) & 1)
	}
	return n
}

// remove empties (r, c), a cell of seat. Emptying a live seat's barn
// eliminates it (R12). Otherwise the connected set stays exact when the cell
// was outside it, when its removal is locally safe (removalSafe), or when
// splitOff finds what was cut off; else it is marked stale.
func (s *State) remove(seat, r, c int) {
	if r == barnRow[seat] && c == barnCol[seat] {
		s.eliminate(seat)
		return
	}
	b := uint64(1) << uint(c)
	s.own[seat][r] &^= b
	conn := &s.conn[seat]
	if s.connOK>>uint(seat)&1 == 0 || conn[r]&b == 0 {
		return
	}
	safe := removalSafe[ring(conn, r, c)]
	conn[r] &^= b
	if !safe && !s.splitOff(seat, r, c) {
		s.connOK &^= 1 << uint(seat)
	}
}

// maxGrowSteps bounds the dilation steps splitOff spends on each piece.
const maxGrowSteps = 8

// splitOff finishes removing (r, c) from seat's connected set (already
// without it) when the local test could not prove the rest still connected.
// The rest splits into components, each holding a side-neighbour of (r, c),
// one of them the barn's. It grows a piece from every neighbour in lockstep,
// one dilation at a time, for at most maxGrowSteps: a piece that stops
// growing without holding the barn is a whole component cut off from it, and
// leaves the set; a piece that reaches another's neighbour is the same
// component. It succeeds once at most one piece is still open (growing or
// holding the barn), and reports false (the set must be refilled) otherwise.
func (s *State) splitOff(seat, r, c int) bool {
	conn := &s.conn[seat]
	br, bc := barnRow[seat], barnCol[seat]
	var (
		seed         [4]int // the neighbours, as cells
		p            [4]board
		lo, hi       [4]int
		closed, barn [4]bool
		dead         [4]bool // merged into another piece
		k            int
	)
	for _, d := range dirOffset {
		n := r*Size + c + d
		nr, nc := n/Size, n%Size
		if n < 0 || n >= Cells || abs(nr-r)+abs(nc-c) != 1 || conn[nr]>>uint(nc)&1 == 0 {
			continue
		}
		seed[k] = n
		p[k][nr] = 1 << uint(nc)
		lo[k], hi[k] = nr, nr
		barn[k] = nr == br && nc == bc
		k++
	}
	open := k
	for step := 0; step < maxGrowSteps && open > 1; step++ {
		for i := 0; i < k && open > 1; i++ {
			if dead[i] || closed[i] || barn[i] {
				continue
			}
			pi := &p[i]
			lo[i], hi[i] = max(lo[i]-1, 0), min(hi[i]+1, Size-1)
			changed := false
			for y := lo[i]; y <= hi[i]; y++ {
				w := pi[y]
				g := w | (w<<1 | w>>1)
				if y > 0 {
					g |= pi[y-1]
				}
				if y < Size-1 {
					g |= pi[y+1]
				}
				g &= conn[y]
				if g != w {
					pi[y] = g
					changed = true
				}
			}
			switch {
			case !changed:
				closed[i] = true // a whole component without the barn: cut off
				open--
			case pi[br]>>uint(bc)&1 != 0:
				barn[i] = true // the barn's component: stays
			}
			for j := 0; j < k; j++ {
				if j == i || dead[j] || dead[i] || pi[seed[j]/Size]>>uint(seed[j]%Size)&1 == 0 {
					continue
				}
				// Same component as piece j: keep one of the two.
				if closed[j] {
					dead[i] = true
					if !closed[i] {
						open--
					}
					continue
				}
				dead[j] = true // j was open
				barn[i] = barn[i] || barn[j]
				open--
			}
		}
	}
	if open != 1 {
		return false
	}
	for i := 0; i < k; i++ {
		if closed[i] && !dead[i] {
			for y := lo[i]; y <= hi[i]; y++ {
				conn[y] &^= p[i][y]
			}
		}
	}
	return true
}

// eliminate removes seat from the game in the current round and empties
// every cell it owns (R12).
func (s *State) eliminate(seat int) {
	s.alive &^= 1 << uint(seat)
	s.own[seat] = board{}
	s.conn[seat] = board{}
	s.elim[seat] = s.round
	s.nElim++
	s.elimSeq[seat] = s.nElim
}

// ring returns the 3×3 neighbourhood of (r, c) in set as 9 bits: bits 0–2 the
// row above (columns c−1..c+1), 3–5 row r, 6–8 the row below; off-board cells
// are 0.
func ring(set *board, r, c int) int {
	row := func(w uint64) int { return int((w << 1 >> uint(c)) & 7) }
	p := row(set[r]) << 3
	if r > 0 {
		p |= row(set[r-1])
	}
	if r < Size-1 {
		p |= row(set[r+1]) << 6
	}
	return p
}

// removalSafe[p] says whether removing the centre of neighbourhood p (as
// ring encodes it) from a side-connected set keeps the rest connected: true
// when the centre's side-neighbours in the set are joined to each other
// through the other cells of the 3×3 square. The test is sufficient: any path
// through the centre can then be rerouted around it.
var removalSafe [512]bool

func init() {
	// The 8 cells around the centre in cyclic order; consecutive ones share a
	// side. Bit index = 3·row + column within the 3×3 square.
	cycle := [8]int{1, 2, 5, 8, 7, 6, 3, 0} // N, NE, E, SE, S, SW, W, NW
	side := [8]bool{true, false, true, false, true, false, true, false}
	for p := range removalSafe {
		// Count runs of present cells along the cycle that hold a side-neighbour.
		runs, sides := 0, 0
		for i := 0; i < 8; i++ {
			if p>>uint(cycle[i])&1 != 0 && side[i] {
				sides++
			}
		}
		for i := 0; i < 8; i++ {
			cur := p>>uint(cycle[i])&1 != 0
			prev := p>>uint(cycle[(i+7)%8])&1 != 0
			if !cur || prev {
				continue
			}
			// A run starts at i: does it hold a side-neighbour?
			for j := i; p>>uint(cycle[j%8])&1 != 0 && j < i+8; j++ {
				if side[j%8] {
					runs++
					break
				}
			}
		}
		if sides == 8/2 && runs == 0 { // the full ring is one run without a start
			runs = 1
		}
		removalSafe[p] = sides >= 1 && runs <= 1
	}
}
