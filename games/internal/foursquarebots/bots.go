// Package foursquarebots holds the test game's scripted bot (games/internal/foursquare).
package foursquarebots

import (
	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/games/internal/foursquare"
	"github.com/gridgym/gridgym/rules"
)

// first places on the first empty cell.
type first struct{ seat int }

func (b *first) Reset(_ rules.State, seat int, _ *rules.RNG) { b.seat = seat }

func (b *first) Act(st rules.State) rules.Move {
	for cell := range foursquare.Cells {
		if m := foursquare.Place(cell); st.Legal(b.seat, m) {
			return m
		}
	}
	return rules.Move{}
}

func init() {
	agents.Register(foursquare.Name, "first", "places on the first empty cell", func() agents.Agent { return &first{} })
	agents.RegisterHeldOut(foursquare.Name, "last", "test set: places on the last empty cell", func() agents.Agent { return &last{} })
	agents.RegisterReference(foursquare.Name, "first")
	agents.RegisterField(foursquare.Name, "first")
}

// last places on the last empty cell: the test game's held-out bot, for
// the generic tests of what reads held-out bots (gridgym heldout).
type last struct{ seat int }

func (b *last) Reset(_ rules.State, seat int, _ *rules.RNG) { b.seat = seat }

func (b *last) Act(st rules.State) rules.Move {
	for cell := foursquare.Cells - 1; cell >= 0; cell-- {
		if m := foursquare.Place(cell); st.Legal(b.seat, m) {
			return m
		}
	}
	return rules.Move{}
}
