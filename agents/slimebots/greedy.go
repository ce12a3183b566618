package slimebots

import (
	"math/bits"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

func init() {
	agents.Register("slime", "greedy",
		"scripted: one-ply search over every spread, jump, merge and the pass, maximising own cells minus the largest rival's, less the cells rivals could convert next and the hole a jump leaves; ties uniformly at random",
		func() agents.Agent { return &Greedy{} })
}

// Greedy works on the 8-bit-stride bitboards of slime.View.Cells (bit
// r*8+c) with the rules' neighbourhood tables (slime.Ring1, Ring2, Block),
// which are unclipped: cells beyond N are never set in a view's bitboards,
// so masking with them clips.

// Greedy's evaluation weights, in eighths of a cell (integers, so that equal
// positions tie exactly). They were tuned against three simplebots.
const (
	cellWeight   = 8
	threatWeight = 4       // half a cell per cell a rival can convert next
	holeWeight   = 8       // a cell per own neighbour of the hole a jump leaves
	maxMoves     = 64 * 24 // at most 8 spread/merge and 16 jump targets per cell
)

const (
	notColA = ^uint64(0x0101010101010101) // every cell but column 0
	notColH = ^uint64(0x8080808080808080) // every cell but column 7
)

// dilate returns b and every cell at Chebyshev distance 1 of it (8-bit
// stride; cells beyond the board may be set, callers mask them).
func dilate(b uint64) uint64 {
	h := b | (b<<1)&notColA | (b>>1)&notColH
	return h | h<<8 | h>>8
}

// Greedy is a scripted one-ply searcher. It scores every R8-valid move of
// its seat, and the pass, by the position right after it, in eighths of a
// cell:
//
//	8 · (own cells − the largest rival's cells) − 4 · threat − 8 · hole
//
// threat is, summed over the three rivals, the most of its cells that rival
// could convert with its next spread or jump (the largest count of its cells
// in the block of an empty cell within distance 2 of that rival, R9–R10);
// hole, for a jump only, is the number of its cells around the source that
// the jump empties, which an enemy spreading into the hole would convert. It
// plays a best-scoring move, drawn uniformly among the ties with one U(k)
// from its own generator; it passes only when no move scores at least as well
// as passing (for example a merge that fills nothing, slime E7). Spreads are
// scored once per target (every source gives the same board), jumps and
// merges per source and target. All of it is bitboard arithmetic on the
// seat's view (slime.ViewOf, R14); one Act allocates nothing.
type Greedy struct {
	seat int
	rng  *rules.RNG
	best [maxMoves][2]uint8 // best-scoring (source, target) bits, reused every turn
}

// Reset implements agents.Agent.
func (b *Greedy) Reset(_ rules.State, seat int, rng *rules.RNG) { b.seat, b.rng = seat, rng }

// Act implements agents.Agent: it decides on its seat's view and maps the
// answer back with slime.AnswerMove.
func (b *Greedy) Act(st rules.State) rules.Move {
	s := st.(*slime.State)
	v := slime.ViewOf(s, b.seat)
	r1, c1, r2, c2, ok := b.Decide(&v)
	if !ok {
		return rules.Move{}
	}
	return slime.AnswerMove(s, b.seat, r1, c1, r2, c2)
}

// Decide returns greedy's answer r1 c1 r2 c2 for view v, or ok = false to
// pass.
func (b *Greedy) Decide(v *slime.View) (r1, c1, r2, c2 int, ok bool) {
	var cells [4]uint64
	me := v.Player - 1
	for p := range cells {
		cells[p] = v.Cells(byte('1' + p))
	}
	own := cells[me]
	empty := v.Empty()
	occ := cells[0] | cells[1] | cells[2] | cells[3]
	var count [4]int
	for p := range cells {
		count[p] = bits.OnesCount64(cells[p])
	}
	// eval scores the position where the mover has mine cells and each rival
	// has its count minus the cells it loses in lost (the converted block).
	// eval scores the position right after a move: the mover has cells
	// after, each rival has lost the cells in lost (the converted block).
	eval := func(after, lost uint64) int {
		top, threat := 0, 0
		free := empty &^ (after | lost)
		for p := range cells {
			if p == me {
				continue
			}
			rival := cells[p] &^ lost
			top = max(top, count[p]-bits.OnesCount64(cells[p]&lost))
			// The most of our cells this rival converts with one spread
			// or jump into an empty cell within its reach.
			worst := 0
			for t := dilate(dilate(rival)) & free; t != 0; t &= t - 1 {
				worst = max(worst, bits.OnesCount64(after&slime.Block(uint(bits.TrailingZeros64(t)))))
			}
			threat += worst
		}
		return cellWeight*(bits.OnesCount64(after)-top) - threatWeight*threat
	}
	bestScore := eval(own, 0) // the pass
	n := 0
	consider := func(score int, src, tgt uint) {
		switch {
		case score > bestScore || n == 0 && score == bestScore:
			bestScore, n = score, 0
			fallthrough
		case score == bestScore:
			b.best[n] = [2]uint8{uint8(src), uint8(tgt)}
			n++
		}
	}
	// Spreads (R9): the result depends on the target only.
	var spreadScore [64]int
	reach1 := uint64(0)
	for o := own; o != 0; o &= o - 1 {
		reach1 |= slime.Ring1(uint(bits.TrailingZeros64(o)))
	}
	for t := reach1 & empty; t != 0; t &= t - 1 {
		tgt := uint(bits.TrailingZeros64(t))
		conv := occ & slime.Block(tgt)
		spreadScore[tgt] = eval(own|conv|1<<tgt, conv)
	}
	for o := own; o != 0; o &= o - 1 {
		src := uint(bits.TrailingZeros64(o))
		for t := slime.Ring1(src) & empty; t != 0; t &= t - 1 {
			tgt := uint(bits.TrailingZeros64(t))
			consider(spreadScore[tgt], src, tgt)
		}
		// Jumps (R10): the spread's result, then the source empties.
		for t := slime.Ring2(src) & empty; t != 0; t &= t - 1 {
			tgt := uint(bits.TrailingZeros64(t))
			conv := occ & slime.Block(tgt)
			after := (own | conv | 1<<tgt) &^ (1 << src)
			hole := bits.OnesCount64(after & slime.Ring1(src))
			consider(eval(after, conv)-holeWeight*hole, src, tgt)
		}
		// Merges (R11): the empty cells of the target's block fill, the
		// source empties; no rival loses anything.
		for t := slime.Ring1(src) & own; t != 0; t &= t - 1 {
			tgt := uint(bits.TrailingZeros64(t))
			consider(eval((own|empty&slime.Block(tgt))&^(1<<src), 0), src, tgt)
		}
	}
	if n == 0 {
		return 0, 0, 0, 0, false
	}
	m := b.best[0]
	if n > 1 {
		m = b.best[b.rng.U(n)]
	}
	return int(m[0] >> 3), int(m[0] & 7), int(m[1] >> 3), int(m[1] & 7), true
}
