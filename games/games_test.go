package games

import (
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// games.go links each game by one line, its bots package, which imports
// the game's rules: as many games are registered as bots packages are
// linked, and every game has bots and a competition. So a bots package
// whose game is not registered (or is another's), or a game linked
// without its bots, fails here.
func TestAllGamesRegistered(t *testing.T) {
	var linked []string
	for _, dir := range linkedBots(t) {
		switch {
		case strings.HasSuffix(dir, "bots"):
			linked = append(linked, dir)
		case strings.HasSuffix(dir, "heldout"):
			// A game's test set (agents.RegisterHeldOut, kept out of
			// training by configs' TestNoTrainingSeesAHeldOutBot), optional:
			// its own line.
		default:
			t.Errorf("games.go links %s: link a game by its bots package (agents/<game>bots), which imports its rules, and its held-out bots by agents/<game>heldout", dir)
		}
	}
	got := rules.Names()
	if len(got) != len(linked) {
		t.Fatalf("registered games %v: want one per bots package linked (%v)", got, linked)
	}
	for _, g := range rules.Games() {
		if len(agents.Names(g.Name)) <= 2 { // "pass" and "random" are every game's
			t.Errorf("%s: no bots registered (link its agents/<game>bots in games.go)", g.Name)
		}
		if g.Competition == nil {
			t.Errorf("%s: no competition declared on its registration", g.Name)
		}
	}
}

// The OpenSpiel-style suite, run the same way on every registered game.
func TestConformance(t *testing.T) {
	for _, g := range rules.Games() {
		t.Run(g.Name, func(t *testing.T) {
			// Not parallel: the suite's AllocsPerRun refuses parallel tests.
			rulestest.Conformance(t, g.Default(), 3)
		})
	}
}

// Every registered bot of every game, held-out bots included (agents.Names
// leaves them out), only ever answers with a legal move or a pass, never
// panics, and plays the same game twice from the same seed.
func TestBotsPlayLegalMoves(t *testing.T) {
	for _, g := range rules.Games() {
		for _, name := range append(agents.Names(g.Name), agents.HeldOut(g.Name)...) {
			t.Run(g.Name+"/"+name, func(t *testing.T) {
				t.Parallel()
				cfg := g.Default()
				var hashes [2]uint64
				for run := 0; run < 2; run++ {
					st := g.New(cfg)
					n := st.Spec().Seats
					bots := make([]agents.Agent, n)
					for s := range bots {
						e, _ := agents.Lookup(g.Name, name)
						bots[s] = e.New()
						bots[s].Reset(st, s, rules.NewRNG(uint64(100+s)))
					}
					rng := rules.NewRNG(1)
					moves := make([]rules.Move, n)
					for step := 0; step < 300 && !st.Done(); step++ {
						for s := range moves {
							moves[s] = rules.Move{}
							if !st.Active(s) {
								continue
							}
							moves[s] = bots[s].Act(st)
							if moves[s].Kind != rules.Pass && !st.Legal(s, moves[s]) {
								t.Fatalf("step %d seat %d: %s answered an illegal move %+v", step, s, name, moves[s])
							}
						}
						st.Step(moves, rng)
					}
					hashes[run], _ = rules.Hash(st, nil)
				}
				if hashes[0] != hashes[1] {
					t.Fatalf("same seeds, different games")
				}
			})
		}
	}
}

// A short tournament per game with all its bots: deterministic in the seed.
func TestTournamentDeterministic(t *testing.T) {
	for _, g := range rules.Games() {
		t.Run(g.Name, func(t *testing.T) {
			cfg := eval.Config{Game: g.Default(), Bots: agents.Names(g.Name), Games: 4, Seed: 9}
			if g.Name == "bovine-borders" || g.Name == "rectangle" {
				cfg.Bots = cfg.Bots[:min(len(cfg.Bots), 4)]
			}
			var totals [2]float64
			for run := 0; run < 2; run++ {
				cfg.Workers = run + 1
				res, err := eval.Run(t.Context(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range res.Bots {
					totals[run] += b.Score*1000 + b.MeanPoints
				}
			}
			if totals[0] != totals[1] {
				t.Fatalf("1 worker and 2 workers disagree: %v vs %v", totals[0], totals[1])
			}
		})
	}
}
