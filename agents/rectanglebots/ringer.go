package rectanglebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rectangle"
)

func init() {
	agents.Register(rectangle.Name, "ringer",
		"follows the encoder's ring planes (rings=true) and else its plan planes: the encloser whose choices a network sees (its memory only with ring_memory=true); boxer's random placement",
		func() agents.Agent { return &Ringer{} })
}

// Ringer plays what the encoder's ring and plan planes show (rings=true,
// rules/rectangle ring.go): at each move, the ring that the planes show
// (State.Ring: RingOf, or RingKept with the game's ring_memory=true, and its
// guard against the rivals' rings with ring_guard=true), with
// every robot taking the first of its RingSteps (N, E, S, W, X order) that
// no robot of its own holds or steps onto (with the game's ring_step=free,
// the first of the best steps among those: State.RingMoves); without a
// ring, planner's steps (rectangle.Plans). Without ring_memory it is the encloser with no memory
// (no kept ring, no stall, no parked rivals); with it, the state keeps that
// memory for it. It never draws a random step, so a network with the ring
// planes can clone its moves; its placement is boxer's (a side-6 square
// drawn per robot), so two copies rarely share cells.
type Ringer struct {
	box   Boxer
	plans [rectangle.MaxRobots]rectangle.Plan
	ring  rectangle.Rings
	dirs  [rectangle.MaxRobots]rectangle.Dir
}

// Reset implements agents.Agent.
func (a *Ringer) Reset(st rules.State, seat int, rng *rules.RNG) { a.box.Reset(st, seat, rng) }

// Act implements agents.Agent.
func (a *Ringer) Act(st rules.State) rules.Move {
	s := st.(*rectangle.State)
	if s.MoveNum() == 0 {
		return a.box.Act(st)
	}
	v := &a.box.v
	s.View(a.box.seat, v)
	b := v.Robots
	rectangle.Plans(v, a.plans[:b])
	q, ok := s.Ring(a.box.seat, &a.ring, v, a.plans[:b])
	if !ok {
		for i, p := range a.plans[:b] {
			a.dirs[i] = p.Step
		}
	} else {
		s.RingMoves(&a.ring, v, q, a.dirs[:b])
	}
	return rectangle.DirsMove(a.dirs[:b])
}
