package rectangle

import (
	"math/bits"
	"slices"

	"github.com/gridgym/gridgym/rules"
)

// Step implements rules.State: the placement (R7) at step 0, a move (R8)
// after it, then painting (R10), claims (R11–R13), the idle counter (R14) and
// the end test (R15). Invalid moves get R9's default. The RNG is not used.
func (s *State) Step(moves []rules.Move, _ *rules.RNG) {
	if s.done {
		return
	}
	sc := &s.sc
	placement := s.steps == 0
	var rr, rc [maxSeats][MaxRobots]uint8
	if s.rt.on && !placement {
		s.keepRings()
		rr, rc = s.rr, s.rc
	}
	for i := 0; i < s.p; i++ {
		var m rules.Move
		if i < len(moves) {
			m = moves[i]
		}
		sc.newN[i] = 0
		if placement {
			s.place(i, m)
		} else {
			s.move(i, m)
		}
	}
	s.paintStep()
	claimed := s.claims()
	t := int(s.steps) // the move just played (0 = placement)
	s.steps++
	switch {
	case placement:
		s.idle = 0 // R14: placement claims do not count as moves
	case claimed:
		s.idle = 0
	default:
		s.idle++
	}
	s.done = t >= 1 && (int(s.idle) >= s.idleK || t >= s.maxMoves) // R15
	if s.rt.on && !placement {
		for i := 0; i < s.p; i++ {
			for k := 0; k < s.b; k++ {
				if s.rr[i][k] == rr[i][k] && s.rc[i][k] == rc[i][k] {
					s.rt.still[i][k]++
				} else {
					s.rt.still[i][k] = 0
				}
			}
		}
	}
}

// keepRings advances every seat's ring memory over the current move
// (RingKept on its view), before the move is played.
func (s *State) keepRings() {
	if s.sc.ring == nil {
		s.sc.ring = new(ringScratch)
	}
	w := s.sc.ring
	var still [maxSeats][MaxRobots]int32
	var guard [maxSeats]Rect
	kept := s.rt.mem // every seat guards against the rings kept before this move
	for seat := 0; seat < s.p; seat++ {
		s.View(seat, &w.v)
		Plans(&w.v, w.plans[:s.b])
		s.stillOf(seat, &still)
		RingKeptBy(&w.x, &w.v, w.plans[:s.b], &still, &s.rt.mem[seat], s.guardOf(seat, &kept, &guard), s.rt.rule)
	}
}

// guardOf writes the rivals' kept rings of mem in seat's view labels into
// dst and returns it (RingKept's guard), or nil without ring_guard.
func (s *State) guardOf(seat int, mem *[maxSeats]RingMemory, dst *[maxSeats]Rect) *[maxSeats]Rect {
	if !s.rt.guard {
		return nil
	}
	for k := 1; k < s.p; k++ {
		dst[k] = mem[(seat+k)%s.p].Kept
	}
	return dst
}

// stillOf writes the robots' still counts in seat's view labels (R19).
func (s *State) stillOf(seat int, still *[maxSeats][MaxRobots]int32) {
	for k := 0; k < s.p; k++ {
		still[k] = s.rt.still[(seat+k)%s.p]
	}
}

// Ring is seat's ring at the current move as the ring planes show it, and
// whether it has one: RingKept with a copy of the seat's memory when the
// state keeps it (ring_memory=true), else RingOf. v must hold seat's view
// at a move and plans its Plans; x is left ready for RingSteps.
func (s *State) Ring(seat int, x *Rings, v *View, plans []Plan) (Rect, bool) {
	if !s.rt.on {
		return RingOfBy(x, v, plans, s.rt.rule)
	}
	m := s.rt.mem[seat]
	var still [maxSeats][MaxRobots]int32
	var guard [maxSeats]Rect
	s.stillOf(seat, &still)
	return RingKeptBy(x, v, plans, &still, &m, s.guardOf(seat, &s.rt.mem, &guard), s.rt.rule)
}

// place puts player i's robots per R7, or all on (0,0) if m is invalid (R9).
// Every robot arrives.
func (s *State) place(i int, m rules.Move) {
	ok := s.validPlace(m)
	for k := 0; k < s.b; k++ {
		r, c := 0, 0
		if ok {
			r, c = int(m.Arg[k])/s.n, int(m.Arg[k])%s.n
		}
		s.rr[i][k], s.rc[i][k] = uint8(r), uint8(c)
	}
	s.sc.arrived[i] = uint8(1<<uint(s.b) - 1)
}

// Direction deltas, indexed by Dir.
var (
	dRow = [5]int{-1, 0, 1, 0, 0}
	dCol = [5]int{0, 1, 0, -1, 0}
)

// move moves player i's robots per R8 (all stay if m is invalid, R9) and
// records which of them arrived on a new cell (R10).
func (s *State) move(i int, m rules.Move) {
	var arr uint8
	if s.validDirs(m) {
		for k := 0; k < s.b; k++ {
			d := m.Arg[k]
			r, c := int(s.rr[i][k])+dRow[d], int(s.rc[i][k])+dCol[d]
			if d == Stay || r < 0 || r >= s.n || c < 0 || c >= s.n {
				continue // X, or stopped by the edge: no arrival
			}
			s.rr[i][k], s.rc[i][k] = uint8(r), uint8(c)
			arr |= 1 << uint(k)
		}
	}
	s.sc.arrived[i] = arr
}

// paintStep applies R10 after all robots have moved: cells with two or more
// robots lose their paint; a cell with one robot that arrived there, if
// paintable, takes that robot's colour. Cells newly painted in a player's
// colour are recorded for the claim search (I5).
func (s *State) paintStep() {
	sc := &s.sc
	for i := 0; i < s.p; i++ {
		for k := 0; k < s.b; k++ {
			r, bit := s.rr[i][k], uint64(1)<<s.rc[i][k]
			sc.occ2[r] |= sc.occ1[r] & bit
			sc.occ1[r] |= bit
		}
	}
	for i := 0; i < s.p; i++ {
		for k := 0; k < s.b; k++ {
			r, c := s.rr[i][k], s.rc[i][k]
			bit := uint64(1) << c
			if sc.occ2[r]&bit != 0 {
				for j := 0; j < s.p; j++ {
					s.paint[j][r] &^= bit
				}
				continue
			}
			if sc.arrived[i]>>uint(k)&1 == 0 || s.unp[r]&bit != 0 || s.paint[i][r]&bit != 0 {
				continue
			}
			for j := 0; j < s.p; j++ {
				s.paint[j][r] &^= bit
			}
			s.paint[i][r] |= bit
			sc.newCell[i][sc.newN[i]] = uint16(r)<<8 | uint16(c)
			sc.newN[i]++
		}
	}
	for i := 0; i < s.p; i++ {
		for k := 0; k < s.b; k++ {
			r := s.rr[i][k]
			sc.occ1[r], sc.occ2[r] = 0, 0
		}
	}
}

// claimKey packs a candidate so that ascending keys are R12's order: gain
// descending, then player, r1, c1, r2, c2 ascending. Gains are < 62·62.
func claimKey(gain, player, r1, c1, r2, c2 int) uint64 {
	return uint64(4095-gain)<<40 | uint64(player)<<32 | uint64(r1)<<24 | uint64(c1)<<16 | uint64(r2)<<8 | uint64(c2)
}

func decodeKey(k uint64) (gain, player, r1, c1, r2, c2 int) {
	return 4095 - int(k>>40), int(k >> 32 & 0xff), int(k >> 24 & 0xff), int(k >> 16 & 0xff), int(k >> 8 & 0xff), int(k & 0xff)
}

// span returns the bits a..b (inclusive), 0 ≤ a, b ≤ 63; empty if a > b.
func span(a, b int) uint64 {
	if a > b {
		return 0
	}
	return ^uint64(0) >> uint(63-b) &^ (1<<uint(a) - 1)
}

// claims runs R11–R13 and reports whether anything was claimed. By I5 only
// rectangles with a boundary cell newly painted in this step can be
// candidates. The keys are sorted once and re-validated one at a time. If the
// buffer overflows, the scan keeps the smallest keys; they are processed, and
// the pre-claim position (snapshot) is scanned again for the keys after the
// last one processed, until no key was dropped.
func (s *State) claims() bool {
	sc := &s.sc
	sc.candN, sc.over, sc.rescan, sc.bound = 0, false, false, ^uint64(0)
	sc.nCand, sc.nClaims = 0, 0
	s.scanAll(&s.paint, &s.unp)
	if sc.candN == 0 {
		return false
	}
	if sc.over {
		sc.snapPaint = s.paint
		sc.snapUnp = s.unp
	}
	claimed := false
	for {
		keys := sc.cand[:sc.candN]
		if len(keys) > 1 {
			slices.Sort(keys)
		}
		sc.nCand += len(keys)
		for _, k := range keys {
			if s.apply(k) {
				claimed = true
			}
		}
		if !sc.over {
			return claimed
		}
		sc.last = keys[len(keys)-1]
		sc.candN, sc.over, sc.rescan, sc.bound = 0, false, true, ^uint64(0)
		s.scanAll(&sc.snapPaint, &sc.snapUnp)
		if sc.candN == 0 {
			return claimed
		}
	}
}

// scanAll adds the candidates of every player with new paint, reading paint
// and unpaintable cells from the given boards.
func (s *State) scanAll(paint *[maxSeats][MaxN]uint64, unp *[MaxN]uint64) {
	sc := &s.sc
	for i := 0; i < s.p; i++ {
		if sc.newN[i] == 0 {
			continue
		}
		rmin, rmax := s.n, -1
		for k := 0; k < int(sc.newN[i]); k++ {
			r, c := int(sc.newCell[i][k]>>8), sc.newCell[i][k]&0xff
			sc.newB[r] |= 1 << c
			rmin, rmax = min(rmin, r), max(rmax, r)
		}
		s.scanPlayer(i, &paint[i], unp, rmin, rmax)
		for k := 0; k < int(sc.newN[i]); k++ {
			sc.newB[sc.newCell[i][k]>>8] = 0
		}
	}
}

// scanPlayer adds every rectangle (R11) with a complete boundary in P, gain
// ≥ 1 and a boundary cell in sc.newB (rows rmin..rmax). For rows r1 < r2, V is
// the AND of P's rows r1..r2: the columns painted all the way down. Pairs of
// columns c1 < c2 of V that lie in one bit run of P[r1] & P[r2] close a
// rectangle.
func (s *State) scanPlayer(i int, P *[MaxN]uint64, unp *[MaxN]uint64, rmin, rmax int) {
	newB := &s.sc.newB
	n := s.n
	for r1 := 0; r1 <= rmax && r1 <= n-3; r1++ {
		top := P[r1]
		if top&(top-1) == 0 {
			continue // fewer than two cells
		}
		v := top
		mid := uint64(0) // new paint on rows r1+1 .. r2−1
		for r2 := r1 + 1; r2 < n; r2++ {
			v &= P[r2]
			if v&(v-1) == 0 {
				break // fewer than two full columns
			}
			if r2 >= r1+2 && r2 >= rmin {
				t := top & P[r2]
				edge := (newB[r1] | newB[r2]) & t
				if edge != 0 || mid&v != 0 {
					s.scanPair(i, r1, r2, v, t, edge, mid, unp)
				}
			}
			mid |= newB[r2]
		}
	}
}

// scanPair adds the candidates with top row r1 and bottom row r2: v holds the
// columns painted on all rows r1..r2, t the cells painted on both rows, edge
// the new cells on rows r1 and r2, mid the new cells strictly between.
func (s *State) scanPair(i, r1, r2 int, v, t, edge, mid uint64, unp *[MaxN]uint64) {
	for w := v; w != 0; w &= w - 1 {
		c1 := bits.TrailingZeros64(w)
		end := c1 + bits.TrailingZeros64(^(t >> uint(c1))) - 1 // the run of t from c1
		if end > 63 {
			end = 63
		}
		if end < c1+2 {
			continue
		}
		for cs := v & span(c1+2, end); cs != 0; cs &= cs - 1 {
			c2 := bits.TrailingZeros64(cs)
			if edge&span(c1, c2) == 0 && mid&(1<<uint(c1)|1<<uint(c2)) == 0 {
				continue // no new boundary cell (I5)
			}
			in := span(c1+1, c2-1)
			gain := 0
			for r := r1 + 1; r < r2; r++ {
				gain += bits.OnesCount64(in &^ unp[r])
			}
			if gain > 0 {
				s.add(claimKey(gain, i, r1, c1, r2, c2))
			}
		}
	}
}

// add puts a candidate key in the buffer. When the buffer is full it keeps
// the smaller half and drops every key above it from this scan (see claims).
func (s *State) add(k uint64) {
	sc := &s.sc
	if (sc.rescan && k <= sc.last) || k > sc.bound {
		return
	}
	if sc.candN == sc.candLimit {
		slices.Sort(sc.cand[:sc.candN])
		half := max(sc.candLimit/2, 1)
		sc.bound = sc.cand[half-1]
		sc.candN = half
		sc.over = true
		if k > sc.bound {
			return
		}
	}
	sc.cand[sc.candN] = k
	sc.candN++
}

// apply re-validates candidate k on the current position (R12) and claims it
// if its boundary is still complete and its gain, recomputed, is ≥ 1 (R13).
func (s *State) apply(k uint64) bool {
	_, i, r1, c1, r2, c2 := decodeKey(k)
	P := &s.paint[i]
	row := span(c1, c2)
	if P[r1]&row != row || P[r2]&row != row {
		return false
	}
	cols := uint64(1)<<uint(c1) | uint64(1)<<uint(c2)
	in := span(c1+1, c2-1)
	gain := 0
	for r := r1 + 1; r < r2; r++ {
		if P[r]&cols != cols {
			return false
		}
		gain += bits.OnesCount64(in &^ s.unp[r])
	}
	if gain == 0 {
		return false
	}
	s.score[i] += int32(gain)
	for r := r1 + 1; r < r2; r++ {
		s.unp[r] |= in
		for j := 0; j < s.p; j++ {
			s.paint[j][r] &^= in
		}
	}
	sc := &s.sc
	if sc.nClaims < maxClaimLog {
		sc.claimLog[sc.nClaims] = Claim{Player: i, R1: r1, C1: c1, R2: r2, C2: c2, Gain: gain}
	}
	sc.nClaims++
	return true
}

// RingMoves writes the ringer's steps on ring q (x from s.Ring) into
// dirs[:v.Robots] by the game's ring_step (ring.go RingMoves): what the
// ring_go planes show with ring_memory=true.
func (s *State) RingMoves(x *Rings, v *View, q Rect, dirs []Dir) { RingMoves(x, v, q, s.rt.free, dirs) }
