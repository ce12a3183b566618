package agents

import (
	"fmt"
	"strings"

	"github.com/gridgym/gridgym/rules"
)

func init() { RegisterResolver(resolveDagger) }

// DaggerPrefix starts a DAgger bot spec, dagger:TEACHER:PLAYER — TEACHER a
// bot name (no colon), PLAYER any bot spec (a weights file, say): the
// seat plays PLAYER's moves and labels each decision with TEACHER's answer
// in the same position (Dagger).
const DaggerPrefix = "dagger:"

// Dagger plays one agent's moves and names another's as the label of each
// decision: DAgger's data collection (Ross, Gordon & Bagnell 2011). A
// network cloned from a teacher's own games has seen only the positions
// the teacher reaches; where its first mistake leads somewhere else it has
// never been told what to do, and errors compound (in Rising Tide: a wall
// cell left half dug, which the teacher never leaves so). Self-play with a
// Dagger in the teacher's seat, Player the clone, records the positions
// the clone reaches with the teacher's answers as their actions
// (selfplay.Labeler), and cloning again on them teaches the recovery.
// Both agents see every position (a teacher with memory keeps it).
type Dagger struct {
	Teacher, Player Agent
	label           rules.Move
}

// Reset implements Agent: both agents, with the seat's generator.
func (d *Dagger) Reset(st rules.State, seat int, rng *rules.RNG) {
	d.Teacher.Reset(st, seat, rng)
	d.Player.Reset(st, seat, rng)
}

// Act implements Agent: the teacher's answer is kept as the label, the
// player's is played.
func (d *Dagger) Act(st rules.State) rules.Move {
	d.label = d.Teacher.Act(st)
	return d.Player.Act(st)
}

// Label is the teacher's answer to the last position Act saw.
func (d *Dagger) Label() rules.Move { return d.label }

// resolveDagger makes dagger:TEACHER:PLAYER specs (DaggerPrefix) usable
// wherever a bot name is. The entry is held out if either part is, and
// carries the player's game parameters.
func resolveDagger(game, spec string) (Entry, bool, error) {
	rest, ok := strings.CutPrefix(spec, DaggerPrefix)
	if !ok {
		return Entry{}, false, nil
	}
	teacher, player, ok := strings.Cut(rest, ":")
	if !ok || teacher == "" || player == "" {
		return Entry{}, true, fmt.Errorf("bot %s: want dagger:TEACHER:PLAYER (a bot name, then the bot that plays)", spec)
	}
	te, err := Lookup(game, teacher)
	if err != nil {
		return Entry{}, true, fmt.Errorf("bot %s, teacher: %w", spec, err)
	}
	pe, err := Lookup(game, player)
	if err != nil {
		return Entry{}, true, fmt.Errorf("bot %s, player: %w", spec, err)
	}
	return Entry{Game: game, Name: spec, Params: pe.Params, HeldOut: te.HeldOut || pe.HeldOut,
		Doc: fmt.Sprintf("plays %s's moves, labelled with %s's answers (DAgger's data)", player, teacher),
		New: func() Agent { return &Dagger{Teacher: te.New(), Player: pe.New()} },
	}, true, nil
}
