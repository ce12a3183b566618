// Package slimeheldout holds Slime's held-out bots (issue 54): four
// hand-written bots of styles no other Slime bot plays, registered with
// agents.RegisterHeldOut so that no training ever sees them. They are the
// test set that measures whether a network learned to play Slime or only to
// beat the bots it trained with.
//
//   - prophet: a round simulator. It plays each of its moves on a copy of
//     the board, lets the three rivals answer in turn order, each with the
//     move that gains it the most cells (R9–R11), and keeps the move whose
//     position after that round is best (own cells against the largest
//     rival's and against its cells still exposed to a capture).
//   - bastion: a compact-territory builder. It scores a move by its own
//     cells less the cells of its that lie in the block of an empty cell a
//     rival can reach (R9–R10: the cells a spread or jump could convert),
//     and less its open frontier, so it fills its holes and grows in lumps.
//   - hunter: an aggressor. It fixes the leading rival before it moves and
//     scores a move by its own cells less the leader's, with a guard
//     against the single largest capture any rival has next.
//   - surveyor: a room keeper. It scores a move by its own cells and the
//     room it alone can grow into (empty cells next to its slime that no
//     rival reaches, and its two-step reach) against its exposed cells,
//     the largest single capture a rival has next and all rivals' cells.
//
// Every bot reads only a competition bot's view (slime.ViewOf, R14),
// answers through slime.AnswerMove, draws its ties from the *rules.RNG given
// to Reset, and allocates nothing in Act.
package slimeheldout

import (
	"math/bits"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

const (
	notColA  = ^uint64(0x0101010101010101) // every cell but column 0
	notColH  = ^uint64(0x8080808080808080) // every cell but column 7
	maxMoves = 64*24 + 1
)

// dilate returns b and every cell at Chebyshev distance 1 of it (8-bit
// stride; cells beyond an N < 8 board may be set, callers mask them).
func dilate(b uint64) uint64 {
	h := b | (b<<1)&notColA | (b>>1)&notColH
	return h | h<<8 | h>>8
}

func pop(b uint64) int { return bits.OnesCount64(b) }

// pos is a position as the four players' cell sets, bit r*8+c.
type pos struct {
	c    [4]uint64
	mask uint64 // the N×N board
}

func (p *pos) occ() uint64   { return p.c[0] | p.c[1] | p.c[2] | p.c[3] }
func (p *pos) empty() uint64 { return p.mask &^ p.occ() }

// play applies the valid move src → tgt of player s (R9–R11).
func (p *pos) play(s int, src, tgt uint) {
	occ := p.occ()
	tb := uint64(1) << tgt
	if occ&tb == 0 {
		conv := occ&slime.Block(tgt) | tb
		for q := range p.c {
			p.c[q] &^= conv
		}
		p.c[s] |= conv
		if slime.Ring2(src)&tb != 0 {
			p.c[s] &^= 1 << src
		}
		return
	}
	p.c[s] = (p.c[s] | slime.Block(tgt)&p.mask&^occ) &^ (1 << src)
}

// top returns the most cells any rival of me holds.
func (p *pos) top(me int) int {
	t := 0
	for q := range p.c {
		if q != me {
			t = max(t, pop(p.c[q]))
		}
	}
	return t
}

// exposed returns how many of me's cells lie in the block of an empty cell
// within distance 2 of some rival: every cell a spread or jump could
// convert next (R9–R10).
func (p *pos) exposed(me int) int {
	reach := uint64(0)
	for r := range p.c {
		if r != me {
			reach |= dilate(dilate(p.c[r]))
		}
	}
	return pop(p.c[me] & dilate(reach&p.empty()))
}

// capture returns the most of victim's cells that player r converts with
// one spread or jump (the block of an empty cell within distance 2 of r).
func (p *pos) capture(r, victim int) int {
	worst := 0
	v := p.c[victim]
	for t := dilate(dilate(p.c[r])) & p.empty(); t != 0; t &= t - 1 {
		worst = max(worst, pop(v&slime.Block(uint(bits.TrailingZeros64(t)))))
	}
	return worst
}

// reply returns the move of player r that gains it the most cells (a spread
// counts its target, a jump does not, a merge its filled cells less its
// source), ties going to the move that takes the most of victim's cells,
// then to the first found; ok is false when r has no move.
func (p *pos) reply(r, victim int) (src, tgt uint, gain int, ok bool) {
	own := p.c[r]
	if own == 0 {
		return 0, 0, 0, false
	}
	occ := p.occ()
	empty := p.mask &^ occ
	best := -1 << 30
	near := dilate(own) & empty
	for t := near; t != 0; t &= t - 1 {
		tg := uint(bits.TrailingZeros64(t))
		b := slime.Block(tg)
		k := 16*(1+pop(occ&b&^own)) + pop(p.c[victim]&b)
		if k > best {
			best, tgt, ok = k, tg, true
			src = uint(bits.TrailingZeros64(slime.Ring1(tg) & own))
		}
	}
	for t := dilate(dilate(own)) & empty &^ near; t != 0; t &= t - 1 {
		tg := uint(bits.TrailingZeros64(t))
		b := slime.Block(tg)
		k := 16*pop(occ&b&^own) - 4 + pop(p.c[victim]&b)
		if k > best {
			best, tgt, ok = k, tg, true
			src = uint(bits.TrailingZeros64(slime.Ring2(tg) & own))
		}
	}
	// Merges into an own cell with an own neighbour.
	for t := own & dilate(own); t != 0; t &= t - 1 {
		tg := uint(bits.TrailingZeros64(t))
		s := slime.Ring1(tg) & own
		if s == 0 {
			continue
		}
		if k := 16 * (pop(empty&slime.Block(tg)) - 1); k > best {
			best, tgt, ok = k, tg, true
			src = uint(bits.TrailingZeros64(s))
		}
	}
	return src, tgt, best >> 4, ok
}

// core is what the bots share: the seat, the generator, and the
// move loop with its ties.
type core struct {
	seat int
	rng  *rules.RNG
	best [maxMoves][2]uint8
	memo [64]int32 // a spread's score by target, this turn
	seen uint64    // the targets memo holds
	cur  pos       // the position to move in
	next pos       // the position after a candidate move
}

func (c *core) reset(seat int, rng *rules.RNG) { c.seat, c.rng = seat, rng }

// read sets c.cur to the seat's view of st and returns it, with the player
// index.
func (c *core) read(s *slime.State) (p *pos, me int) {
	v := slime.ViewOf(s, c.seat)
	p = &c.cur
	*p = pos{}
	for q := range p.c {
		p.c[q] = v.Cells(byte('1' + q))
	}
	for r := 0; r < v.N; r++ {
		p.mask |= uint64(1)<<uint(8*r+v.N) - uint64(1)<<uint(8*r)
	}
	return p, v.Player - 1
}

// decide scores the pass and every valid move of me in p with score (the
// position after the move, its source and target and whether it is a
// jump) and answers a best one, drawn uniformly among ties; spreads are
// scored once per target.
func (c *core) decide(s *slime.State, p *pos, me int, score func(after *pos, src, tgt uint, jump bool) int) rules.Move {
	own := p.c[me]
	empty := p.empty()
	bestScore := score(p, 0, 0, false)
	n := 0
	c.seen = 0
	consider := func(sc int, src, tgt uint) {
		switch {
		case sc > bestScore || n == 0 && sc == bestScore:
			bestScore, n = sc, 0
			fallthrough
		case sc == bestScore:
			c.best[n] = [2]uint8{uint8(src), uint8(tgt)}
			n++
		}
	}
	for o := own; o != 0; o &= o - 1 {
		src := uint(bits.TrailingZeros64(o))
		for t := slime.Ring1(src) & empty; t != 0; t &= t - 1 {
			tgt := uint(bits.TrailingZeros64(t))
			if c.seen>>tgt&1 == 0 {
				c.next = *p
				c.next.play(me, src, tgt)
				c.memo[tgt] = int32(score(&c.next, src, tgt, false))
				c.seen |= 1 << tgt
			}
			consider(int(c.memo[tgt]), src, tgt)
		}
		for t := slime.Ring2(src) & empty; t != 0; t &= t - 1 {
			tgt := uint(bits.TrailingZeros64(t))
			c.next = *p
			c.next.play(me, src, tgt)
			consider(score(&c.next, src, tgt, true), src, tgt)
		}
		for t := slime.Ring1(src) & own; t != 0; t &= t - 1 {
			tgt := uint(bits.TrailingZeros64(t))
			c.next = *p
			c.next.play(me, src, tgt)
			consider(score(&c.next, src, tgt, false), src, tgt)
		}
	}
	if n == 0 {
		return rules.Move{}
	}
	m := c.best[0]
	if n > 1 {
		m = c.best[c.rng.U(n)]
	}
	return slime.AnswerMove(s, c.seat, int(m[0]>>3), int(m[0]&7), int(m[1]>>3), int(m[1]&7))
}
