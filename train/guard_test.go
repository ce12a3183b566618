package train

import (
	"slices"
	"testing"

	"github.com/gridgym/gridgym/env"
	"github.com/gridgym/gridgym/rules/bovine"
)

// With play.guard (Config.Play.Guard) the learner's seats, and its pool
// snapshots', play behind the game's scripted guard in rollouts and
// evaluations: a seat the guard answers is not asked (no decision is
// recorded for it) and plays the guard's move; without the setting it is
// asked like every other seat.
func TestPlayerGuard(t *testing.T) {
	cfg := tinyConfigOf(t, bovine.Name)
	rc, err := cfg.RulesConfig()
	if err != nil {
		t.Fatal(err)
	}
	net := testNet(t, bovine.Name, nil, false)
	for _, guard := range []bool{false, true} {
		v, err := env.New(env.Config{Game: rc, N: 1, Seed: 3, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		v.Reset(3)
		st := v.State(0).(*bovine.State)
		st.SetCell(1, 1, 2) // seat 2's cow two steps from seat 0's barn
		st.SetCell(0, 1, 0) // seat 0's connected cow beside it
		want, ok := st.Guard(0)
		if !ok {
			t.Fatal("no guard move: the test would prove nothing")
		}
		pl := newPlayer(v, rc, net, 1)
		pl.play.Guard = guard
		for s := 0; s < v.Seats; s++ {
			pl.actors[0][s] = seatActor{kind: byLearner}
		}
		pl.request([]bool{true}, byLearner, -1, false, nil)
		if asked := slices.Contains(pl.reqSeat, 0); asked == guard {
			t.Fatalf("guard %v: seat 0 asked %v (requests %v)", guard, asked, pl.reqSeat)
		}
		wantAsked := 4 // every seat
		if guard {
			wantAsked = 3 // every seat but seat 0
		}
		if len(pl.reqSeat) != wantAsked {
			t.Fatalf("guard %v: %d seats asked, want %d", guard, len(pl.reqSeat), wantAsked)
		}
		pl.decide(net, true, nil, nil)
		v.Step(pl.actions)
		dst := int(want.Arg[1])
		if got := st.Cell(dst/bovine.Size, dst%bovine.Size) == 0; guard && !got {
			t.Errorf("behind the guard seat 0 did not take %s", st.MoveText(0, want))
		}
		v.Close()
	}
}
