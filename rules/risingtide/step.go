package risingtide

import (
	"math/bits"

	"github.com/gridgym/gridgym/rules"
)

// MakeMove returns the move of one unit of land from real cell (i1, j1) to
// real cell (i2, j2), or Pass if either cell is out of bounds.
func MakeMove(i1, j1, i2, j2 int) rules.Move {
	if uint(i1) >= Size || uint(j1) >= Size || uint(i2) >= Size || uint(j2) >= Size {
		return rules.Move{}
	}
	return rules.Move{Kind: KindMove, N: 2, Arg: [8]int16{int16(i1*Size + j1), int16(i2*Size + j2)}}
}

// cells returns the source and destination of a well-formed move (package doc:
// Kind 1, N = 2, both cells in 0..323); ok is false for anything else.
func cells(m rules.Move) (src, dst int, ok bool) {
	if m.Kind != KindMove || m.N != 2 || uint16(m.Arg[0]) >= Cells || uint16(m.Arg[1]) >= Cells {
		return 0, 0, false
	}
	return int(m.Arg[0]), int(m.Arg[1]), true
}

// legal is R10 for in-bounds cells on the current board.
func (s *State) legal(src, dst int) bool {
	if s.h[src] < 1 || s.h[dst] < 0 || s.h[dst] > MaxHeight-1 || isSettle[src] || isSettle[dst] { // R10c, d, e
		return false
	}
	if s.nonadj { // §6: R10b dropped
		return true
	}
	di, dj := rowOf[src]-rowOf[dst], colOf[src]-colOf[dst] // R10b: 8-neighbours
	return src != dst && di >= -1 && di <= 1 && dj >= -1 && dj <= 1
}

// Legal implements rules.State: Pass always; a move iff it is well formed, seat
// is Active and R10 holds on the current board (the submission check, R7.2).
func (s *State) Legal(seat int, m rules.Move) bool {
	if m.Kind == rules.Pass {
		return true
	}
	src, dst, ok := cells(m)
	return ok && s.Active(seat) && s.legal(src, dst)
}

// LegalMove reports whether m is a well-formed move that passes R10 on the
// current board, whoever plays it (the codec's check, R22).
func (s *State) LegalMove(m rules.Move) bool {
	src, dst, ok := cells(m)
	return ok && s.legal(src, dst)
}

// Step implements rules.State: one round r of R7. Moves of seats not alive at
// round start, missing entries and malformed or illegal moves are passes (R9).
// Draws: rng.Shuffle of the n alive seats (R8), n−1 draws.
func (s *State) Step(moves []rules.Move, rng *rules.RNG) {
	if s.Done() {
		return
	}
	r := s.round

	// R7.1–2: collect and check every alive seat's move on the round-start board.
	var order [Seats]int8
	var src, dst [Seats]int
	var ok [Seats]bool
	n := 0
	for seat := 0; seat < Seats; seat++ {
		if s.alive>>seat&1 == 0 {
			continue
		}
		order[n] = int8(seat)
		n++
		if seat < len(moves) {
			src[seat], dst[seat], ok[seat] = cells(moves[seat])
			ok[seat] = ok[seat] && s.legal(src[seat], dst[seat])
		}
	}

	// R7.3, R8: a uniformly random execution order.
	rng.Shuffle(order[:n])

	// R7.4: execute in order, checking R10 again on the current board; R11.
	for _, seat := range order[:n] {
		if ok[seat] && s.legal(src[seat], dst[seat]) {
			s.move(src[seat], dst[seat])
		}
	}

	// R7.5, R12: land with 100·h < r, i.e. h ≤ (r−1)/100, that is on the border
	// or next to water floods, all at once. Nothing floods in round 0 (I4).
	if r >= 1 {
		s.flood(&s.le[(r-1)/100])
	}

	// R7.6, R14: eliminate seats whose settlement flooded this round.
	for seat, c := range settleCell {
		if s.alive>>seat&1 != 0 && s.h[c] == Flooded {
			s.alive &^= 1 << seat
			s.elim[seat] = r
		}
	}
	s.round = r + 1 // R7.7: the end check is Done (R15).
}

// move applies R11 to a legal move and keeps le in step: the source leaves
// height a for a−1 (joins le[a−1]), the destination leaves b for b+1 (leaves
// le[b]). src = dst (variant) nets out.
func (s *State) move(src, dst int) {
	a := s.h[src]
	s.h[src] = a - 1
	s.le[a-1][rowOf[src]] |= 1 << uint(colOf[src])
	b := s.h[dst]
	s.h[dst] = b + 1
	s.le[b][rowOf[dst]] &^= 1 << uint(colOf[dst])
}

// flood floods the cells of below (land under water level) that are wet
// (border or next to a cell flooded before this step), as one word operation
// per row (R12). Cells flooding now only widen wet for the next round.
func (s *State) flood(below *[Size]uint64) {
	var newly [Size]uint64
	var union uint64
	for i := range newly {
		newly[i] = below[i] & s.wet[i]
		union |= newly[i]
	}
	if union == 0 {
		return
	}
	for i, w := range newly {
		if w == 0 {
			continue
		}
		s.flooded[i] |= w
		for k := range s.le {
			s.le[k][i] &^= w
		}
		d := (w | w<<1 | w>>1) & grid.Full // R12: the 8-neighbours get wet
		s.wet[i] |= d
		if i > 0 {
			s.wet[i-1] |= d
		}
		if i+1 < Size {
			s.wet[i+1] |= d
		}
		for w != 0 {
			j := bits.TrailingZeros64(w)
			w &= w - 1
			s.h[i*Size+j] = Flooded // R13
		}
	}
}

// pairSets holds R10c–e as bitboards for listing neighbour moves: src are the
// sources (land of height ≥ 1, not a settlement); dst[dj+1][i+1] are the
// destinations (land of height ≤ 7, not a settlement) of row i shifted so that
// bit j is the cell (i, j+dj), with an empty row above and below the board.
type pairSets struct {
	src [Size]uint64
	dst [3][Size + 2]uint64
}

func (s *State) pairSets(p *pairSets) {
	for i := range p.src {
		p.src[i] = grid.Full &^ s.flooded[i] &^ s.le[0][i] &^ settleBB[i]
		d := s.le[MaxHeight-1][i] &^ settleBB[i]
		p.dst[0][i+1] = d << 1 & grid.Full
		p.dst[1][i+1] = d
		p.dst[2][i+1] = d >> 1
	}
}

// sources returns the sources in row i whose neighbour in direction d is a
// destination: one bit per legal move (src, src+dirs[d]).
func (p *pairSets) sources(i, d int) uint64 {
	return p.src[i] & p.dst[dirs[d][1]+1][i+dirs[d][0]+1]
}

// LegalMoves implements rules.State: Pass, then every legal neighbour move of
// seat (the default action set, under either variant setting) by source in
// row-major order and direction in dirs order. An inactive seat gets Pass only.
func (s *State) LegalMoves(seat int, dst []rules.Move) []rules.Move {
	dst = append(dst, rules.Move{})
	if !s.Active(seat) {
		return dst
	}
	var p pairSets
	s.pairSets(&p)
	for i := 0; i < Size; i++ {
		for w := p.src[i]; w != 0; w &= w - 1 {
			j := bits.TrailingZeros64(w)
			for d, dd := range dirs {
				if p.sources(i, d)>>uint(j)&1 != 0 {
					dst = append(dst, MakeMove(i, j, i+dd[0], j+dd[1]))
				}
			}
		}
	}
	return dst
}

// RandomMove implements rules.State: uniform over exactly the LegalMoves set
// (Pass included) with one draw U(moves+1); Pass for an inactive seat.
func (s *State) RandomMove(seat int, rng *rules.RNG) rules.Move {
	if !s.Active(seat) {
		return rules.Move{}
	}
	var p pairSets
	s.pairSets(&p)
	var perDir [8]int
	west, mid, east := &p.dst[0], &p.dst[1], &p.dst[2]
	for i := 0; i < Size; i++ { // dirs order; dst rows i−1, i, i+1 sit at i, i+1, i+2
		src := p.src[i]
		perDir[0] += bits.OnesCount64(src & west[i])
		perDir[1] += bits.OnesCount64(src & mid[i])
		perDir[2] += bits.OnesCount64(src & east[i])
		perDir[3] += bits.OnesCount64(src & west[i+1])
		perDir[4] += bits.OnesCount64(src & east[i+1])
		perDir[5] += bits.OnesCount64(src & west[i+2])
		perDir[6] += bits.OnesCount64(src & mid[i+2])
		perDir[7] += bits.OnesCount64(src & east[i+2])
	}
	total := 0
	for _, n := range perDir {
		total += n
	}
	k := rng.U(total + 1)
	if k == total {
		return rules.Move{}
	}
	d := 0
	for k >= perDir[d] {
		k -= perDir[d]
		d++
	}
	for i := 0; i < Size; i++ {
		w := p.sources(i, d)
		if c := bits.OnesCount64(w); k >= c {
			k -= c
			continue
		}
		for ; k > 0; k-- {
			w &= w - 1
		}
		j := bits.TrailingZeros64(w)
		return MakeMove(i, j, i+dirs[d][0], j+dirs[d][1])
	}
	return rules.Move{} // unreachable: k < total
}
