package eval

import (
	"slices"
	"strings"
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

// With AllOrders game i takes seating i of agents.Orders (every order of the
// rotations), and the table says so.
func TestAllOrdersSeating(t *testing.T) {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	gc, err := g.Configure(map[string]string{"max_turns": "8"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Game: gc, Bots: []string{"random", "pass", "random", "pass"}, Games: 30, Seed: 3, Workers: 2, AllOrders: true}
	res, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := agents.Orders(agents.Lineups(4, 4))
	if len(want) != 24 {
		t.Fatalf("%d orders of 4 bots, want 24", len(want))
	}
	for _, gr := range res.Games {
		if w := want[gr.Index%len(want)]; !slices.Equal(gr.Lineup, w) {
			t.Errorf("game %d: seating %v, want %v", gr.Index, gr.Lineup, w)
		}
	}
	var b strings.Builder
	if err := WriteTable(&b, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "seats in every order") || !strings.Contains(b.String(), "not a multiple of the 24 seatings") {
		t.Errorf("table does not say how the seats were filled or that 30 games are unbalanced:\n%s", b.String())
	}
}
