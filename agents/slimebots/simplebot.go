// Package slimebots holds the official sample bot of Slime: The Territory War
// (shared/rules/sample-bots.md) and a stronger scripted baseline. Both see
// exactly what a competition program sees, the argument of slime R14 read
// through slime.ViewOf, and answer in its coordinates, which are the real
// ones (no rotation).
//
// | name | behaviour |
// | --- | --- |
// | `simplebot` | official sample: a random spread if any, else a random jump, else pass; never merges |
// | `greedy` | one-ply search over every spread, jump and merge (R9–R11) and the pass: maximises 8·(own cells − largest rival's) − 4·(cells each rival could convert next, summed) − 8·(own cells around a jump's hole); ties uniformly at random. About 8 µs a move, no allocation; first in about 87–89% of games against three simplebots |
package slimebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/slime"
)

func init() {
	agents.Register("slime", "simplebot",
		"official sample: a random spread (empty cell at distance 1) if any, else a random jump (distance 2), else pass; never merges",
		func() agents.Agent { return &Simplebot{} })
	// The scripted greedy and the official sample bot: the company of Slime's acceptance tables (reports/slime/finetune).
	agents.RegisterReference("slime", "greedy", "simplebot")
	// The field: the competition's one sample bot, as its official runs seat it.
	agents.RegisterField("slime", "simplebot", "simplebot")
}

// The deltas of simplebot.rb, in its order: spreads are the 8 neighbours,
// jumps the 16 cells at Chebyshev distance 2, both row delta first.
var spreadDeltas, jumpDeltas [][2]int8

func init() {
	for dr := -2; dr <= 2; dr++ {
		for dc := -2; dc <= 2; dc++ {
			switch max(abs(dr), abs(dc)) {
			case 1:
				spreadDeltas = append(spreadDeltas, [2]int8{int8(dr), int8(dc)})
			case 2:
				jumpDeltas = append(jumpDeltas, [2]int8{int8(dr), int8(dc)})
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Simplebot is the official sample bot (simplebot.rb). It lists, over its
// slimes, every (slime, empty cell at distance 1) pair as a spread and every
// (slime, empty cell at distance 2) pair as a jump; it plays a spread drawn
// uniformly from that list if it is not empty, else a jump drawn uniformly,
// else it passes. The list keeps duplicates: an empty cell next to k of its
// slimes is k entries, so it is k times as likely as a cell next to one.
//
// simplebot.rb shuffles its slimes before collecting and shuffles the list
// before taking its first entry; a uniform pick from a list does not depend
// on the list's order, so this bot collects in row-major order and draws one
// U(len(list)) from its own generator: the same distribution, one draw.
type Simplebot struct {
	seat   int
	rng    *rules.RNG
	spread [64 * 8][4]int8  // candidate answers r1 c1 r2 c2, reused every turn
	jump   [64 * 16][4]int8 // …
}

// Reset implements agents.Agent.
func (b *Simplebot) Reset(_ rules.State, seat int, rng *rules.RNG) { b.seat, b.rng = seat, rng }

// Act implements agents.Agent: it decides on its seat's view and maps the
// answer back with slime.AnswerMove. simplebot.rb prints `0 0 0 0` to pass,
// which R8 rejects; Act returns Pass itself.
func (b *Simplebot) Act(st rules.State) rules.Move {
	s := st.(*slime.State)
	v := slime.ViewOf(s, b.seat)
	r1, c1, r2, c2, ok := b.Decide(&v)
	if !ok {
		return rules.Move{}
	}
	return slime.AnswerMove(s, b.seat, r1, c1, r2, c2)
}

// Decide returns simplebot's answer r1 c1 r2 c2 for view v, or ok = false
// to pass.
func (b *Simplebot) Decide(v *slime.View) (r1, c1, r2, c2 int, ok bool) {
	me := byte('0' + v.Player)
	ns, nj := 0, 0
	for r := 0; r < v.N; r++ {
		for c := 0; c < v.N; c++ {
			if v.Cell(r, c) != me {
				continue
			}
			for _, d := range spreadDeltas {
				if tr, tc := r+int(d[0]), c+int(d[1]); v.InBounds(tr, tc) && v.Cell(tr, tc) == '.' {
					b.spread[ns] = [4]int8{int8(r), int8(c), int8(tr), int8(tc)}
					ns++
				}
			}
			for _, d := range jumpDeltas {
				if tr, tc := r+int(d[0]), c+int(d[1]); v.InBounds(tr, tc) && v.Cell(tr, tc) == '.' {
					b.jump[nj] = [4]int8{int8(r), int8(c), int8(tr), int8(tc)}
					nj++
				}
			}
		}
	}
	var a [4]int8
	switch {
	case ns > 0:
		a = b.spread[b.rng.U(ns)]
	case nj > 0:
		a = b.jump[b.rng.U(nj)]
	default:
		return 0, 0, 0, 0, false
	}
	return int(a[0]), int(a[1]), int(a[2]), int(a[3]), true
}
