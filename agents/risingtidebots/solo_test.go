package risingtidebots

import (
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/risingtide"
)

// solo_stockholm never digs at a rival settlement whose flood time fell
// in the last 30 rounds without a dig of its own — here sapper_seoul's
// and the sample bots' digs, which siege_sofia would join. The flood
// times are computed apart from the bot, on its view before each move.
func TestSoloStockholmLeavesAnAttackInProgress(t *testing.T) {
	holds, digs := 0, 0
	for g := 0; g < 8; g++ {
		names := [risingtide.Seats]string{"sapper_seoul", "wall_warsaw", "nearby_new_orleans", "border_barcelona"}
		names[g%4], names[(g+1+g/4)%4] = "solo_stockholm", names[g%4]
		g := g % 4
		s := newState(t)
		var ag [risingtide.Seats]agents.Agent
		for seat, n := range names {
			ag[seat] = newAgent(t, n)
			ag[seat].Reset(s, seat, rules.Derive(uint64(70+g), uint64(seat)))
		}
		solo := ag[g].(*SoloStockholm)
		var f risingtide.FloodTimes
		var fell [3][]int // rounds in which rival k's flood time fell without solo_stockholm's dig
		last, dug := [3]int{-1, -1, -1}, -1
		rng := rules.NewRNG(uint64(70 + g))
		moves := make([]rules.Move, risingtide.Seats)
		for !s.Done() {
			r := s.Round()
			v := risingtide.View(s, g)
			f.Compute(&v)
			for k, c := range rivalSettlements {
				if tk := f.T[c[0]][c[1]]; last[k] >= 0 && tk < last[k] && dug != k {
					fell[k] = append(fell[k], r)
				}
				last[k] = f.T[c[0]][c[1]]
			}
			for seat := range moves {
				moves[seat] = rules.Move{}
				if s.Active(seat) {
					moves[seat] = ag[seat].Act(s)
				}
			}
			dug = -1
			if s.Active(g) {
				dug = solo.dug
			}
			if dug >= 0 {
				digs++
				for _, q := range fell[dug] {
					if q > r-soloHold && q <= r {
						t.Fatalf("game %d, round %d: solo_stockholm digs at rival %d, whose flood time fell in round %d without its dig", g, r, dug, q)
					}
				}
			}
			s.Step(moves, rng)
		}
		for k := range fell {
			holds += len(fell[k])
		}
	}
	if holds < 10 || digs < 40 {
		t.Fatalf("%d rounds with another seat's dig, %d digs of solo_stockholm: the test would prove little", holds, digs)
	}
	t.Logf("%d rounds with another seat's dig, %d digs of solo_stockholm", holds, digs)
}

// Against three seats that never defend (pass_perth: flooded in round 502
// untouched, E6), with nobody else digging, solo_stockholm attacks as
// siege_sofia does: it drowns one well before that and survives.
func TestSoloStockholmAttacksAlone(t *testing.T) {
	drownsAPasser(t, "solo_stockholm", 40, 450)
}
