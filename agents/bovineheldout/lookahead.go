package bovineheldout

import (
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

// LookaheadLena is lookahead_lena, a one-step simulator. She lists every
// full move of hers (bovine.State.LegalMoves), plays each one on a copy of
// the game with the engine itself (the rivals passing), and scores the
// resulting position: her cows and, twice as much, her connected cows,
// against the most cows of any live rival and the rivals' connected cows;
// a rival eliminated is worth a whole board; rival cows next to her barn
// count heavily against her. Ties go uniformly at random. Unlike the other
// bots here she has no plan, only an evaluation of what the rules do to
// each move (R11, R12 applied by the engine, not by her own reading).
type LookaheadLena struct {
	seat  int
	rng   *rules.RNG
	sim   *bovine.State
	moves []rules.Move
	step  []rules.Move
	simR  *rules.RNG
}

// Reset implements agents.Agent.
func (a *LookaheadLena) Reset(_ rules.State, seat int, rng *rules.RNG) {
	a.seat, a.rng = seat, rng
	if a.sim == nil {
		a.sim = bovine.New(bovine.Config(false))
		a.step = make([]rules.Move, bovine.Seats)
		a.simR = rules.NewRNG(0)
	}
}

// value scores st for seat (higher is better).
func (a *LookaheadLena) value(st *bovine.State) int {
	me := a.seat
	if !st.Alive(me) {
		return -1 << 30
	}
	own := st.Territory(me)
	conn := st.Connected(me)
	nc := 0
	for _, w := range conn {
		nc += popcount(w)
	}
	v := own + 2*nc
	maxR := 0
	for r := 0; r < bovine.Seats; r++ {
		if r == me {
			continue
		}
		if !st.Alive(r) {
			v += 400
			continue
		}
		t := st.Territory(r)
		if t > maxR {
			maxR = t
		}
		rc := st.Connected(r)
		for _, w := range rc {
			v -= popcount(w) / 2
		}
	}
	v -= maxR
	// Rival cows within two steps of the barn (R12: one more step takes it).
	br, bc := bovine.Barn(me)
	for dr := -2; dr <= 2; dr++ {
		for dc := -2; dc <= 2; dc++ {
			d := abs(dr) + abs(dc)
			if d == 0 || d > 2 {
				continue
			}
			if o := st.Cell(br+dr, bc+dc); o >= 0 && o != me {
				v -= 300 / d
			}
		}
	}
	return v
}

// Act implements agents.Agent.
func (a *LookaheadLena) Act(st rules.State) rules.Move {
	b, ok := st.(*bovine.State)
	if !ok || !b.Alive(a.seat) {
		return rules.Move{}
	}
	a.moves = b.LegalMoves(a.seat, a.moves[:0])
	var best rules.Move
	bestV, ties := 0, 0
	br, bc := bovine.Barn(a.seat)
	barn := br*bovine.Size + bc
	for _, m := range a.moves {
		if m.Kind != bovine.Full {
			continue
		}
		dst := int(m.Arg[1])
		if int(m.Arg[0]) == barn && b.Cell(dst/bovine.Size, dst%bovine.Size) >= 0 {
			continue // R12b: the barn onto a rival is a suicide
		}
		a.sim.CopyFrom(b)
		for k := range a.step {
			a.step[k] = rules.Move{}
		}
		a.step[a.seat] = m
		a.sim.Step(a.step, a.simR)
		v := a.value(a.sim)
		switch {
		case ties == 0 || v > bestV:
			best, bestV, ties = m, v, 1
		case v == bestV:
			ties++
			if a.rng.U(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
