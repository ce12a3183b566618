package slimeheldout

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

func init() {
	agents.RegisterHeldOut(slime.Name, "surveyor",
		"held out: a room keeper; one ply over every move, scoring own cells and the room it alone can grow into (empty cells next to its slime that no rival reaches, empty cells within its two-step reach) against its exposed cells, the largest single capture any rival has next and all rivals' cells together; ties at random",
		func() agents.Agent { return &Surveyor{} })
}

// Surveyor's weights, in eighths of a cell. They were tuned in 400-game
// tables against the shipped network, greedy and bastion (seeds 2–5; the
// acceptance table's seed 1 only checked the result).
const (
	surveyorOwn      = 8
	surveyorExposed  = 5
	surveyorFrontier = 1
	surveyorGuard    = 2
	surveyorRivals   = 2
	surveyorPrivate  = 2
	surveyorReach    = 1
)

// Surveyor is a room keeper. It scores the pass and each valid move by the
// position right after it:
//
//	8 · own − 5 · exposed − 1 · frontier − 2 · guard − 2 · rivals
//	        + 2 · private + 1 · reach
//
// exposed counts its cells in the block of an empty cell within distance 2
// of a rival (pos.exposed); frontier the empty cells next to its slime;
// guard the most of its cells one rival converts with its next spread or
// jump (the maximum over the rivals, pos.capture); rivals the three
// rivals' cells together. The two room terms are what no other Slime bot
// counts: private is the empty cells next to its slime that no rival
// reaches within distance 2 (where its next spread or merge grows without
// a fight), reach the empty cells within distance 2 of its slime (its
// spread and jump targets, R9–R10). So it keeps a pocket of room of its
// own to merge into, instead of walling itself in (bastion) or spending
// its moves on one rival (hunter). Ties are drawn uniformly from its
// generator.
type Surveyor struct{ core }

// Reset implements agents.Agent.
func (b *Surveyor) Reset(_ rules.State, seat int, rng *rules.RNG) { b.reset(seat, rng) }

// Act implements agents.Agent.
func (b *Surveyor) Act(st rules.State) rules.Move {
	s := st.(*slime.State)
	p, me := b.read(s)
	return b.decide(s, p, me, func(q *pos, _, _ uint, _ bool) int { return survey(q, me) })
}

// survey is Surveyor's score of position q for player me (see Surveyor).
func survey(q *pos, me int) int {
	own := q.c[me]
	empty := q.empty()
	reach, rivals, guard := uint64(0), 0, 0
	for r := range q.c {
		if r == me || q.c[r] == 0 {
			continue
		}
		reach |= dilate(dilate(q.c[r]))
		rivals += pop(q.c[r])
		guard = max(guard, q.capture(r, me))
	}
	near := dilate(own) & empty
	return surveyorOwn*pop(own) - surveyorExposed*pop(own&dilate(reach&empty)) -
		surveyorFrontier*pop(near) - surveyorGuard*guard - surveyorRivals*rivals +
		surveyorPrivate*pop(near&^reach) + surveyorReach*pop(dilate(dilate(own))&empty)
}
