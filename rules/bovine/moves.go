package bovine

import (
	"math/bits"

	"github.com/gridgym/gridgym/rules"
)

// FullMove returns the full move src → dst (cells r*20+c of the real board).
func FullMove(src, dst int) rules.Move {
	return rules.Move{Kind: Full, N: 2, Arg: [8]int16{int16(src), int16(dst)}}
}

// DstMove returns the destination-only move to dst (R8).
func DstMove(dst int) rules.Move {
	return rules.Move{Kind: Dst, N: 1, Arg: [8]int16{int16(dst)}}
}

// Legal implements rules.State: m passes R6.3's submission check for seat now
// (R7, with R8 for destination-only moves). A pass is always legal.
func (s *State) Legal(seat int, m rules.Move) bool {
	if seat < 0 || seat >= Seats {
		return false
	}
	if m.Kind == rules.Pass {
		return true
	}
	if !s.Active(seat) {
		return false
	}
	src, dst, ok := s.decode(seat, m, nil)
	return ok && s.valid(seat, src, dst)
}

// dirSources sets, for row r of seat's cows, the sources whose side-neighbour
// up, left, right or down (in that order: the destinations' row-major order)
// is in bounds and not owned: the full moves valid under the default rules.
func (s *State) dirSources(seat, r int) (d [4]uint64) {
	own := &s.own[seat]
	w := own[r]
	not := ^w & rowMask
	if r > 0 {
		d[0] = w &^ own[r-1]
	}
	d[1] = w & (not << 1)
	d[2] = w & (not >> 1)
	if r < Size-1 {
		d[3] = w &^ own[r+1]
	}
	return d
}

// dirOffset is the destination cell minus the source cell for each direction
// of dirSources.
var dirOffset = [4]int{-Size, -1, 1, Size}

// LegalMoves implements rules.State: Pass, then every full move valid under
// the default rules, by source then destination (row-major). Under the
// nonadjacent_moves variant the extra non-adjacent moves are not listed (see
// the package doc).
func (s *State) LegalMoves(seat int, dst []rules.Move) []rules.Move {
	dst = append(dst, rules.Move{})
	if !s.Active(seat) {
		return dst
	}
	for r := 0; r < Size; r++ {
		d := s.dirSources(seat, r)
		for u := d[0] | d[1] | d[2] | d[3]; u != 0; u &= u - 1 {
			c := bits.TrailingZeros64(u)
			from := r*Size + c
			for k := 0; k < 4; k++ {
				if d[k]>>uint(c)&1 != 0 {
					dst = append(dst, FullMove(from, from+dirOffset[k]))
				}
			}
		}
	}
	return dst
}

// RandomMove implements rules.State: uniform over LegalMoves' list (Pass
// included), with one draw U(len); Pass without a draw for a seat that is not
// Active.
func (s *State) RandomMove(seat int, rng *rules.RNG) rules.Move {
	if !s.Active(seat) {
		return rules.Move{}
	}
	var rowCount [Size]int
	total := 0
	for r := 0; r < Size; r++ {
		if s.own[seat][r] == 0 {
			continue
		}
		d := s.dirSources(seat, r)
		n := bits.OnesCount64(d[0]) + bits.OnesCount64(d[1]) + bits.OnesCount64(d[2]) + bits.OnesCount64(d[3])
		rowCount[r] = n
		total += n
	}
	k := rng.U(total + 1)
	if k == 0 {
		return rules.Move{}
	}
	k--
	r := 0
	for k >= rowCount[r] {
		k -= rowCount[r]
		r++
	}
	d := s.dirSources(seat, r)
	for u := d[0] | d[1] | d[2] | d[3]; ; u &= u - 1 {
		c := bits.TrailingZeros64(u)
		for dir := 0; dir < 4; dir++ {
			if d[dir]>>uint(c)&1 == 0 {
				continue
			}
			if k == 0 {
				from := r*Size + c
				return FullMove(from, from+dirOffset[dir])
			}
			k--
		}
	}
}
