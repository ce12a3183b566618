package eval

import (
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
)

// gameNamed is a passing agent that records, in games by seat, the game
// number a game tells it after Reset (SetGame, as hosted bots take it for
// their bot logs); -1 = Reset but not told.
type gameNamed struct {
	agents.Pass
	seat  int
	games []int64
}

func (a *gameNamed) Reset(_ rules.State, seat int, _ *rules.RNG) {
	a.seat = seat
	a.games[seat] = -1
}

func (a *gameNamed) SetGame(index uint64) { a.games[a.seat] = int64(index) }

// TestPlayNamesTheGame: every agent that takes SetGame is told its game's
// index after its Reset.
func TestPlayNamesTheGame(t *testing.T) {
	g := rules.Games()[0]
	cfg := g.Default()
	seats := g.New(cfg).Spec().Seats
	got := make([]int64, seats)
	for s := range got {
		got[s] = -2
	}
	e := agents.Entry{Game: g.Name, Name: "named", New: func() agents.Agent { return &gameNamed{games: got} }}
	PlayGame(cfg, []agents.Entry{e}, make([]int, seats), 1, 5, nil)
	for s, n := range got {
		if n != 5 {
			t.Errorf("seat %d: game %d, want 5", s, n)
		}
	}
}
