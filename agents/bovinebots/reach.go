package bovinebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bitboard"
	"github.com/gridgym/gridgym/rules/bovine"
)

func init() {
	agents.Register(bovine.Name, "reach_rosa",
		"scripted, one-step simulation: plays each of its moves on a copy of the game with the engine (the rivals passing) and keeps the position with the most connected cows, the largest lead in the race for the empty cells and the fewest rival connected cows, and a position with a rival cow one or two steps from its barn last of all; a training sparring partner that reads captures by what they cut off",
		func() agents.Agent { return &ReachRosa{} })
}

// ReachRosa is reach_rosa, the project's one-step simulator for Bovine
// Borders: every full move of hers (bovine.State.LegalMoves) is played on a
// copy of the game by the engine itself, the rivals passing, and the
// position after it is scored by rosaValue. The scripted bots above read
// the rules' consequences by hand (greedy ranks a capture lower for each of
// its own cows it cuts off); she asks the engine, so a capture that cuts a
// rival's region off its barn (R4, R11: its cows can then only move or die
// capturing) or reaches a rival barn (R12) is seen as such. Her value also
// counts the race for the open board (bovine.State.Frontier), so in the
// opening her places race for it as voronoi_vera's do. Her barn is guarded
// two steps deep: a rival cow two steps from it costs 3,000 (beside it
// 10,000) and each own cow within two steps is worth 400, so she fills those
// five cells and takes back a rival that comes into them. The execution order
// is random (R6, R9): a rival that reaches the barn's neighbour takes the
// barn in the next round with even odds whatever she answers, so one step
// deep is too late. voronoi_vera's cut-off cows eliminated her, and networks
// cloned from her, that way when she guarded only the barn's neighbours
// (reports/bovine-borders/sparring, session 91). Ties go uniformly at random
// through her seeded generator.
//
// She was written as a sparring partner for training (reports/bovine-borders/
// sparring): the shipped networks were trained only against bots that read
// no position after their move. A decision costs one engine step and one
// race per legal move.
type ReachRosa struct {
	seat  int
	rng   *rules.RNG
	sim   *bovine.State
	moves []rules.Move
	step  []rules.Move
	simR  *rules.RNG
}

// Reset implements agents.Agent.
func (a *ReachRosa) Reset(_ rules.State, seat int, rng *rules.RNG) {
	a.seat, a.rng = seat, rng
	if a.sim == nil {
		a.sim = bovine.New(bovine.Config(false))
		a.step = make([]rules.Move, bovine.Seats)
		a.simR = rules.NewRNG(0)
	}
}

// Weights of rosaValue, in cows.
const (
	rosaOwn       = 3      // each own cow (territory ranks, R15)
	rosaConnected = 2      // each own cow joined to the barn: it can still place (R11)
	rosaReach     = 1      // each empty cell she reaches before every rival (Frontier)
	rosaRival     = 1      // each rival cow
	rosaRivalConn = 1      // each rival cow joined to its barn
	rosaBarnNext  = 10_000 // a rival cow beside her barn takes it next round (R12)
	rosaBarnNear  = 3_000  // a rival cow two steps from her barn: a coin flip of the order away (R6, R9)
	rosaGuard     = 400    // each own cow one or two steps from her barn: a rival must kill it to come nearer
	rosaKill      = 2_000  // a rival eliminated (R12a)
)

// rosaValue scores st for seat, higher is better.
func rosaValue(st *bovine.State, seat int) int {
	if !st.Alive(seat) {
		return -1 << 30
	}
	conn := st.Connected(seat)
	v := rosaOwn*st.Territory(seat) + rosaConnected*bitboard.Count(conn[:]) + rosaReach*st.Frontier(seat)
	for r := 0; r < bovine.Seats; r++ {
		if r == seat {
			continue
		}
		if !st.Alive(r) {
			v += rosaKill
			continue
		}
		rc := st.Connected(r)
		v -= rosaRival*st.Territory(r) + rosaRivalConn*bitboard.Count(rc[:])
	}
	br, bc := bovine.Barn(seat)
	for r := br - 2; r <= br+2; r++ {
		for c := bc - 2; c <= bc+2; c++ {
			d := abs(r-br) + abs(c-bc)
			if d == 0 || d > 2 || r < 0 || r >= bovine.Size || c < 0 || c >= bovine.Size {
				continue
			}
			switch o := st.Cell(r, c); {
			case o == seat:
				v += rosaGuard
			case o < 0: // empty
			case d == 1:
				v -= rosaBarnNext
			default:
				v -= rosaBarnNear
			}
		}
	}
	return v
}

// Act implements agents.Agent.
func (a *ReachRosa) Act(st rules.State) rules.Move {
	b, ok := st.(*bovine.State)
	if !ok || !b.Alive(a.seat) {
		return rules.Move{}
	}
	a.moves = b.LegalMoves(a.seat, a.moves[:0])
	br, bc := bovine.Barn(a.seat)
	barn := br*bovine.Size + bc
	var best rules.Move
	bestV, ties := 0, 0
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
		v := rosaValue(a.sim, a.seat)
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
