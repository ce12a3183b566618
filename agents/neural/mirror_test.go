package neural_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/rules"
)

// mirrorCase is one shipped network's mirror measurement, with the lineups
// of its model card (models/<game>/README.md; reports/mirror_ratio.py):
// two copies beside the game's two strongest scripted bots (mirror), and
// the network alone beside three scripted bots (alone).
type mirrorCase struct {
	game      string
	with      []string // beside the two copies
	alone     []string // beside the network alone
	games     int      // games of each table
	allOrders bool     // every seating order (a rotation keeps neighbours)
}

// mirrorCases are the shipped networks the mirror test plays.
var mirrorCases = []mirrorCase{
	// Rectangle: 24 games a table (5 s). With 4, the network of 2026-12-01
	// read 62.5% (alone 124.25, one copy 100.00, the other 55.25): a
	// 4-game table swings more than the margin; its 408-game tables, every
	// order, give 73.7% and 74.8% (models/rectangle/README.md), 24 games
	// 80.0%.
	{"rectangle", []string{"planner", "boxer"}, []string{"planner", "boxer", "random"}, 24, false},
	{"nuggets", []string{"fortress", "greedy_tuned"}, []string{"fortress", "greedy_tuned", "random"}, 4, false},
	{"rising-tide", []string{"wall_warsaw", "trench_tunis"}, []string{"trench_tunis", "nearby_new_orleans", "border_barcelona"}, 4, false},
	// Slime's alone table is, as Rectangle's and Nuggets', the mirror
	// table with the twin replaced by random. Until 2026-11-30 it was the
	// network against three simplebots, a table that measures how much a
	// bot takes from random movers more than whether two copies collapse:
	// there every strong Slime bot "failed" (480 games each, every order,
	// seed 1: greedy's copies kept 66.6%, the held-out surveyor's 64.5%,
	// hunter's 68.7%, prophet's 66.5%, bastion's 66.8%; against greedy,
	// simplebot and random 73.1%, 71.9%, 72.0%, 70.6%, 72.4%), and only a
	// network that took less alone passed (reports/slime/finetune/README.md,
	// "The mirror's alone table").
	{"slime", []string{"greedy", "simplebot"}, []string{"greedy", "simplebot", "random"}, 24, true},
	// Bovine Borders is left out for its cost, not its ratio: a game runs
	// its 10,000 steps (2.2 s of CPU with two copies), and its two greedy
	// copies need every seating order (24 games a table; rotated with the
	// copies side by side, the copy seated first takes 3 points and the
	// other 0 in every game), 82 s of CPU in all. Measured 2026-11-29 with
	// bovineMirror (GRIDGYM_MIRROR_ALL=1), 24 games a table, seed 1, the
	// network fine-tuned against its exploiters that plays at temperature 1:
	// alone 2.25 points, each copy 2.00 (88.9%); the card's 480-game
	// tables: 93.1% each.
}

// bovineMirror is Bovine Borders' case, played with GRIDGYM_MIRROR_ALL=1.
var bovineMirror = mirrorCase{"bovine-borders", []string{"greedy", "defensive_dan_heng"}, []string{"random_raven", "defensive_dan_heng", "adjacent_asta"}, 24, true}

// Two copies of every shipped network, entered by plain file name (so
// with the play settings its weights store: Rectangle's sampled
// placement), keep at least 70% of the score the network makes alone
// (issue 54: "mirror by default"). The copies' mean score in the mirror
// table (the mean of the two: over a short schedule which copy sits ahead
// of the other decides which gets the better games, so each alone is a
// noisy estimate of a copy; each is logged) is divided by the network's
// mean in the alone table. Both tables are seeded (seed 1) and small (one
// rotation, or every order once): this holds the shipped files to the
// claim and catches a collapse (Rectangle's greedy copies keep 26% and
// 56%), it does not measure the ratio (the cards' 408-game tables do;
// GRIDGYM_MIRROR_GAMES=N plays N games a table).
func TestShippedMirrorByDefault(t *testing.T) {
	cases := mirrorCases
	if os.Getenv("GRIDGYM_MIRROR_ALL") == "1" {
		cases = append(cases, bovineMirror)
	}
	for _, mc := range cases {
		t.Run(mc.game, func(t *testing.T) {
			w := filepath.Join("..", "..", "models", mc.game, "final.safetensors")
			e, err := agents.Lookup(mc.game, w)
			if err != nil {
				t.Fatal(err)
			}
			g, err := rules.Lookup(mc.game)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := g.Configure(e.Params) // the parameters it was trained with that the state carries
			if err != nil {
				t.Fatal(err)
			}
			games := mc.games
			if n, err := strconv.Atoi(os.Getenv("GRIDGYM_MIRROR_GAMES")); err == nil && n > 0 {
				games = n // a longer measurement by hand
			}
			run := func(bots []string) *eval.Result {
				r, err := eval.Run(context.Background(), eval.Config{Game: cfg, Bots: bots, Games: games, Seed: 1, Workers: 2, AllOrders: mc.allOrders})
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			mirror := run(append([]string{"a=" + w, "b=" + w}, mc.with...))
			alone := run(append([]string{"net=" + w}, mc.alone...))
			base := alone.Bots[0].MeanScore
			line := fmt.Sprintf("%s, %d games a table, seed 1: alone %.2f", mc.game, games, base)
			for _, c := range mirror.Bots[:2] {
				line += fmt.Sprintf(", %s %.2f (%.1f%%)", c.Name, c.MeanScore, 100*c.MeanScore/base)
			}
			copies := (mirror.Bots[0].MeanScore + mirror.Bots[1].MeanScore) / 2
			t.Logf("%s; the copies %.2f (%.1f%%)", line, copies, 100*copies/base)
			if !(copies >= 0.7*base) {
				t.Errorf("two copies keep %.1f%% of the network's score alone (%.2f of %.2f), want ≥ 70%%", 100*copies/base, copies, base)
			}
		})
	}
}
