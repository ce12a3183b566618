package rectangle

import (
	"fmt"
	"math/bits"
)

// wordCount is the length of AppendWords' output (layout in the package doc).
func (s *State) wordCount() int {
	return 1 + s.p + (s.p*s.b+3)/4 + s.n + s.p*s.n
}

// AppendWords implements rules.State (layout in the package doc).
func (s *State) AppendWords(dst []uint64) []uint64 {
	dst = append(dst, uint64(uint32(s.steps))|uint64(uint32(s.idle))<<32)
	for i := 0; i < s.p; i++ {
		dst = append(dst, uint64(s.score[i]))
	}
	var w uint64
	e := 0
	for i := 0; i < s.p; i++ {
		for k := 0; k < s.b; k++ {
			w |= (uint64(s.rr[i][k])<<8 | uint64(s.rc[i][k])) << uint(16*(e%4))
			e++
			if e%4 == 0 {
				dst = append(dst, w)
				w = 0
			}
		}
	}
	if e%4 != 0 {
		dst = append(dst, w)
	}
	dst = append(dst, s.unp[:s.n]...)
	for i := 0; i < s.p; i++ {
		dst = append(dst, s.paint[i][:s.n]...)
	}
	return dst
}

// SetWords implements rules.State: it restores a state written by
// AppendWords for the same parameters, after checking the length, the ranges
// and the invariants that need no search (I1–I3). On error the state is left
// unchanged.
func (s *State) SetWords(w []uint64) error {
	if len(w) != s.wordCount() {
		return fmt.Errorf("rectangle: SetWords: %d words, want %d for n=%d players=%d robots=%d", len(w), s.wordCount(), s.n, s.p, s.b)
	}
	var nb board
	nb.steps, nb.idle = int32(uint32(w[0])), int32(uint32(w[0]>>32))
	if w[0]&0x80000000_80000000 != 0 || int(nb.steps) > s.maxMoves+1 {
		return fmt.Errorf("rectangle: SetWords: steps %d out of range 0..%d", uint32(w[0]), s.maxMoves+1)
	}
	pos := 1
	for i := 0; i < s.p; i++ {
		if w[pos] > uint64(s.n*s.n) {
			return fmt.Errorf("rectangle: SetWords: score of player %d is %d, more than the board", i, w[pos])
		}
		nb.score[i] = int32(w[pos])
		pos++
	}
	e := 0
	for i := 0; i < s.p; i++ {
		for k := 0; k < s.b; k++ {
			v := w[pos+e/4] >> uint(16*(e%4)) & 0xffff
			r, c := int(v>>8), int(v&0xff)
			if r >= s.n || c >= s.n {
				return fmt.Errorf("rectangle: SetWords: robot %d of player %d at (%d, %d), off the %d×%d grid", k, i, r, c, s.n, s.n)
			}
			nb.rr[i][k], nb.rc[i][k] = uint8(r), uint8(c)
			e++
		}
	}
	for ; e%4 != 0; e++ {
		if w[pos+e/4]>>uint(16*(e%4))&0xffff != 0 {
			return fmt.Errorf("rectangle: SetWords: padding of the robot words is not zero")
		}
	}
	pos += e / 4
	copy(nb.unp[:s.n], w[pos:pos+s.n])
	pos += s.n
	for i := 0; i < s.p; i++ {
		copy(nb.paint[i][:s.n], w[pos:pos+s.n])
		pos += s.n
	}
	old := s.board
	s.board = nb
	s.done = s.finished()
	if err := s.checkBasic(); err != nil {
		s.board = old
		return fmt.Errorf("rectangle: SetWords: %w", err)
	}
	return nil
}

// Check implements rules.Checker: the invariants of every position. I1 (no
// paint on unpaintable cells, none on the border ring), I2 (shared cells
// unpainted), I3 (scores sum to the unpaintable cells), I4 (no candidate
// left), I6 (robots on the grid), the counters (R14, R15) and the word ranges.
func (s *State) Check() error {
	if err := s.checkBasic(); err != nil {
		return err
	}
	if s.steps == 0 {
		return nil
	}
	for i := 0; i < s.p; i++ {
		if r1, c1, r2, c2, gain, ok := s.findCandidate(i); ok {
			return fmt.Errorf("I4: player %d's rectangle (%d,%d)–(%d,%d) is complete with gain %d but unclaimed", i, r1, c1, r2, c2, gain)
		}
	}
	return nil
}

// checkBasic checks everything Check does except I4.
func (s *State) checkBasic() error {
	n := s.n
	if s.idle < 0 || int(s.idle) > s.idleK || (s.steps <= 1 && s.idle != 0) || s.idle > s.steps {
		return fmt.Errorf("R14: idle counter %d after %d steps (K=%d)", s.idle, s.steps, s.idleK)
	}
	if s.steps < 0 || int(s.steps) > s.maxMoves+1 {
		return fmt.Errorf("R15: %d steps, more than M+1=%d", s.steps, s.maxMoves+1)
	}
	if s.done != s.finished() {
		return fmt.Errorf("R15: done=%v after %d steps with idle counter %d", s.done, s.steps, s.idle)
	}
	var all [MaxN]uint64
	for r := 0; r < MaxN; r++ {
		mask := s.full
		if r >= n {
			mask = 0
		}
		if s.unp[r]&^mask != 0 {
			return fmt.Errorf("unpaintable cells off the grid in row %d", r)
		}
		if s.unp[r] != 0 && (r == 0 || r == n-1 || s.unp[r]&(1|1<<uint(n-1)) != 0) {
			return fmt.Errorf("I1: unpaintable cell on the border ring in row %d", r)
		}
		for i := 0; i < maxSeats; i++ {
			p := s.paint[i][r]
			if i >= s.p && p != 0 {
				return fmt.Errorf("paint of nonexistent player %d", i)
			}
			if p&^mask != 0 {
				return fmt.Errorf("player %d's paint off the grid in row %d", i, r)
			}
			if p&s.unp[r] != 0 {
				return fmt.Errorf("I1: player %d's paint on an unpaintable cell in row %d", i, r)
			}
			if p&all[r] != 0 {
				return fmt.Errorf("R3: a cell in row %d painted by two players", r)
			}
			all[r] |= p
		}
	}
	total := 0
	for i := 0; i < maxSeats; i++ {
		if i >= s.p && s.score[i] != 0 {
			return fmt.Errorf("score of nonexistent player %d", i)
		}
		if s.score[i] < 0 {
			return fmt.Errorf("player %d's score %d is negative", i, s.score[i])
		}
		total += int(s.score[i])
	}
	unp := 0
	for r := 0; r < n; r++ {
		unp += bits.OnesCount64(s.unp[r])
	}
	if total != unp {
		return fmt.Errorf("I3: scores sum to %d but %d cells are unpaintable", total, unp)
	}
	if s.steps == 0 {
		if unp != 0 || all != ([MaxN]uint64{}) {
			return fmt.Errorf("R5: board not empty before the placement")
		}
		for i := 0; i < maxSeats; i++ {
			if s.rr[i] != [MaxRobots]uint8{} || s.rc[i] != [MaxRobots]uint8{} {
				return fmt.Errorf("R5: robots placed before the placement")
			}
		}
		return nil
	}
	var occ1, occ2 [MaxN]uint64
	for i := 0; i < maxSeats; i++ {
		for k := 0; k < MaxRobots; k++ {
			r, c := int(s.rr[i][k]), int(s.rc[i][k])
			if i >= s.p || k >= s.b {
				if r != 0 || c != 0 {
					return fmt.Errorf("nonexistent robot %d of player %d at (%d,%d)", k, i, r, c)
				}
				continue
			}
			if r >= n || c >= n {
				return fmt.Errorf("I6: robot %d of player %d at (%d,%d), off the grid", k, i, r, c)
			}
			occ2[r] |= occ1[r] & (1 << uint(c))
			occ1[r] |= 1 << uint(c)
		}
	}
	for r := 0; r < n; r++ {
		if occ2[r]&all[r] != 0 {
			return fmt.Errorf("I2: a cell in row %d holds two robots but is painted", r)
		}
	}
	return nil
}

// findCandidate looks for a rectangle of player i with a complete boundary
// and gain ≥ 1 anywhere on the board (I4), by the same column-AND method as
// the claim search but without the new-paint filter.
func (s *State) findCandidate(i int) (r1, c1, r2, c2, gain int, ok bool) {
	P := &s.paint[i]
	for r1 = 0; r1+2 < s.n; r1++ {
		v := P[r1]
		for r2 = r1 + 1; r2 < s.n && v != 0; r2++ {
			v &= P[r2]
			if r2 < r1+2 {
				continue
			}
			t := P[r1] & P[r2]
			for a := v; a != 0; a &= a - 1 {
				c1 = bits.TrailingZeros64(a)
				for b := a & (a - 1); b != 0; b &= b - 1 {
					c2 = bits.TrailingZeros64(b)
					if c2 < c1+2 || t&span(c1, c2) != span(c1, c2) {
						continue
					}
					gain = 0
					for r := r1 + 1; r < r2; r++ {
						gain += bits.OnesCount64(span(c1+1, c2-1) &^ s.unp[r])
					}
					if gain > 0 {
						return r1, c1, r2, c2, gain, true
					}
				}
			}
		}
	}
	return 0, 0, 0, 0, 0, false
}
