package eval

import (
	"testing"

	"github.com/gridgym/gridgym/agents"
	_ "github.com/gridgym/gridgym/games" // links every game and its bots
	"github.com/gridgym/gridgym/rules"
)

// Seats are rotated fairly: in a tournament of n bots whose games are a
// multiple of the seatings, every bot plays every seat equally often — with
// n ≤ seats (the acceptance test), and with one bot more than seats.
func TestSeatRotationBalanced(t *testing.T) {
	for _, g := range rules.Games() {
		t.Run(g.Name, func(t *testing.T) {
			cfg := g.Default()
			seats := g.New(cfg).Spec().Seats
			for n := 1; n <= seats+1; n++ {
				bots := make([]string, n) // one name n times: seats are counted by index into Bots
				for i := range bots {
					bots[i] = "random"
				}
				lineups := len(agents.Lineups(n, seats))
				rounds := 2
				if n > seats {
					rounds = 1
				}
				games := rounds * lineups
				res, err := Run(t.Context(), Config{Game: cfg, Bots: bots, Games: games, Seed: uint64(n), Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Games) != games {
					t.Fatalf("%d bots: %d games played, want %d", n, len(res.Games), games)
				}
				count := make([][]int, n) // count[bot][seat]
				for b := range count {
					count[b] = make([]int, seats)
				}
				for _, gr := range res.Games {
					if len(gr.Lineup) != seats {
						t.Fatalf("%d bots: game %d lineup %v, want %d seats", n, gr.Index, gr.Lineup, seats)
					}
					for s, b := range gr.Lineup {
						count[b][s]++
					}
				}
				want := count[0][0]
				if want == 0 {
					t.Fatalf("%d bots: bot 0 never sat at seat 0: %v", n, count)
				}
				for b := range count {
					for s, c := range count[b] {
						if c != want {
							t.Fatalf("%d bots, %d games: bot %d played seat %d %d times, bot 0 seat 0 %d times (seat counts %v)",
								n, games, b, s, c, want, count)
						}
					}
				}
			}
		})
	}
}
