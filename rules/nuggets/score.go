package nuggets

import (
	"fmt"
	"io"
	"math"
	"math/big"
	"math/bits"

	"github.com/gridgym/gridgym/rules"
)

// logSize[n] = ln n, for nugget sizes 1..400.
var logSize = func() (t [Cells + 1]float64) {
	for n := 1; n <= Cells; n++ {
		t[n] = math.Log(float64(n))
	}
	return
}()

// EachNugget calls f with the size of each of seat's nuggets (R4), in the
// row-major order of their first squares (bitboard.Grid.NextComponent: no
// allocation).
func (s *State) EachNugget(seat int, f func(size int)) {
	rest := s.own[seat]
	var comp Board
	for n := grid.NextComponent(rest[:], comp[:]); n > 0; n = grid.NextComponent(rest[:], comp[:]) {
		f(n)
	}
}

// LogScore returns seat's log-score Σ ln(size) over its nuggets, 0 with no
// square (R15).
func (s *State) LogScore(seat int) float64 { return fastLogScore(&s.own[seat]) }

// Product returns seat's score, the product of its nugget sizes, 1 with no
// square (R15). It can exceed 2⁶⁴, hence the big integer; it is for display
// and exact comparison, not for the hot path.
func (s *State) Product(seat int) *big.Int {
	p := big.NewInt(1)
	var f big.Int
	s.EachNugget(seat, func(size int) {
		if size > 1 {
			p.Mul(p, f.SetInt64(int64(size)))
		}
	})
	return p
}

// compare returns the sign of score(a) − score(b), exactly (R15: equal
// products tie). Log-scores that differ by more than their rounding error
// decide directly; close ones are settled with the exact products.
func (s *State) compare(a, b int, la, lb float64) int {
	const eps = 1e-7 // ≫ the rounding error of ≤ 400 logarithms
	switch {
	case la > lb+eps:
		return 1
	case lb > la+eps:
		return -1
	}
	return s.Product(a).Cmp(s.Product(b))
}

// Outcome implements rules.State: Score is the log-score (R15); Points and Win
// rank the exact products, equal products tying.
func (s *State) Outcome(o *rules.Outcome) {
	var ls, keys [Seats]float64
	for seat := range ls {
		ls[seat] = s.LogScore(seat)
		o.Score[seat] = ls[seat]
	}
	for a := range keys {
		for b := range keys {
			if a != b && s.compare(a, b, ls[a], ls[b]) > 0 {
				keys[a]++ // seats strictly below a
			}
		}
	}
	rules.PointsFromKeys(keys[:], o)
}

// seatColour are the ANSI background colours of seats 0..3 in Render.
var seatColour = [Seats]string{"\x1b[41m", "\x1b[42m", "\x1b[44m", "\x1b[43m"}

// Render implements rules.State: one line per row y, '.' for an empty square
// and the seat digit for a coloured one (x grows rightwards), then a status
// line with the move, the phase, P and every seat's log-score.
func (s *State) Render(w io.Writer, color bool) {
	var line [Size * 12]byte
	for y := 0; y < Size; y++ {
		b := line[:0]
		for x := 0; x < Size; x++ {
			o := s.Owner(x, y)
			switch {
			case o < 0:
				b = append(b, '.')
			case color:
				b = append(b, seatColour[o]...)
				b = append(b, byte('0'+o))
				b = append(b, "\x1b[0m"...)
			default:
				b = append(b, byte('0'+o))
			}
		}
		b = append(b, '\n')
		w.Write(b)
	}
	phase := "setup"
	switch {
	case s.Done():
		phase = "over"
	case s.t >= s.cfg.setup:
		phase = "build"
	}
	fmt.Fprintf(w, "move %d/%d %s P=%d log-score", s.t, s.cfg.total, phase, s.Colored())
	for seat := 0; seat < Seats; seat++ {
		fmt.Fprintf(w, " %d:%.3f", seat, s.LogScore(seat))
	}
	fmt.Fprintln(w)
}

// maxRuns bounds the runs of set bits of a board: at most 10 per row.
const maxRuns = Size / 2 * Size

// runSet is a board's nuggets as union-find over the runs of set bits of its
// rows: a run joins the runs of the row above that it touches (found by
// merging the two sorted run lists). Each component is rooted at its first
// run in row-major order. It allocates nothing.
type runSet struct {
	parent, size [maxRuns]uint16 // size: the component's squares, at its root
	mask         [maxRuns]uint64 // the run's squares in its row
	row          [maxRuns]uint8
	n            int // runs
}

// build labels the runs of b.
func (r *runSet) build(b *Board) {
	var prevRuns [Size / 2]uint16 // run numbers of the row above
	np, n := 0, 0
	var cur [Size / 2]uint16
	for y := 0; y < Size; y++ {
		nc, j := 0, 0
		for w := b[y]; w != 0; {
			x := uint(bits.TrailingZeros64(w))
			l := uint(bits.TrailingZeros64(^(w >> x)))
			run := (uint64(1)<<l - 1) << x
			w &^= run
			id := uint16(n)
			n++
			r.parent[id], r.size[id], r.mask[id], r.row[id] = id, uint16(l), run, uint8(y)
			for j < np && r.mask[prevRuns[j]]>>x == 0 { // runs above that end left of x
				j++
			}
			for k := j; k < np && r.mask[prevRuns[k]]&run != 0; k++ {
				ri, rj := r.root(id), prevRuns[k]
				for r.parent[rj] != rj {
					r.parent[rj] = r.parent[r.parent[rj]]
					rj = r.parent[rj]
				}
				if ri == rj {
					continue
				}
				if rj < ri { // keep the earlier run as the root
					ri, rj = rj, ri
				}
				r.parent[rj] = ri
				r.size[ri] += r.size[rj]
			}
			cur[nc] = id
			nc++
		}
		prevRuns, np = cur, nc
	}
	r.n = n
}

// root returns the root run of run i's component.
func (r *runSet) root(i uint16) uint16 {
	for r.parent[i] != i {
		i = r.parent[i]
	}
	return i
}

// fastLogScore returns Σ ln(size) over the nuggets of b (R15), equal to
// State.LogScore bit for bit (the same sizes added in the same order), from
// the union-find of runSet: the roots come in the order of the nuggets' first
// squares, as EachNugget visits them. It allocates nothing and takes about a
// tenth of LogScore's time.
func fastLogScore(b *Board) float64 {
	var r runSet
	r.build(b)
	return r.logScore()
}

// logScore returns Σ ln(size) over the components, in the order of their
// root runs.
func (r *runSet) logScore() float64 { return r.value(0) }

// value returns Σ V(size) over the components, in the order of their root
// runs, with V(n) = ln n for n ≥ 2 and V(1) = single.
func (r *runSet) value(single float64) float64 {
	sum := 0.0
	for i := 0; i < r.n; i++ {
		if r.parent[i] == uint16(i) {
			if n := r.size[i]; n == 1 {
				sum += single
			} else {
				sum += logSize[n]
			}
		}
	}
	return sum
}
