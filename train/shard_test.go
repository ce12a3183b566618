package train

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// A PPO update with the minibatch split over two workers is deterministic
// (the same weights, moments and metrics bit for bit, run twice), and its
// loss terms are the unsplit update's within 1e-5.
func TestUpdateSplitDeterministic(t *testing.T) {
	for _, game := range []string{"slime", "rectangle"} {
		t.Run(game, func(t *testing.T) {
			update := func(workers int) (string, Metrics) {
				tr := updateTrainer(t, game, 0.99, 0.01)
				tr.cfg.Workers = workers
				var m Metrics
				if err := tr.learn(context.Background(), 1, rules.NewRNG(5), 1e-3, &m); err != nil {
					t.Fatal(err)
				}
				if workers > 1 && tr.step.Parts() != workers {
					t.Fatalf("%d workers, %d minibatch parts", workers, tr.step.Parts())
				}
				return weightsHash(tr, m), m
			}
			h1, m1 := update(1)
			ha, ma := update(2)
			hb, _ := update(2)
			if ha != hb {
				t.Fatalf("two workers: hash %s, then %s", ha, hb)
			}
			for _, c := range []struct {
				name string
				a, b float64
			}{{"pg_loss", m1.PGLoss, ma.PGLoss}, {"v_loss", m1.ValueLoss, ma.ValueLoss}, {"entropy", m1.Entropy, ma.Entropy}, {"kl_clone", m1.KLClone, ma.KLClone}, {"grad_norm", m1.GradNorm, ma.GradNorm}} {
				if math.Abs(c.a-c.b) > 1e-5*max(1, math.Abs(c.a)) {
					t.Errorf("%s: %v unsplit, %v on two workers (hashes %s, %s)", c.name, c.a, c.b, h1, ha)
				}
			}
		})
	}
}

// The split update is pinned too, on two and three workers (the last part
// takes a remainder row): moving the split's copy onto the parts and its
// gradient sum onto every core (issue 55) kept each element's sum over the
// parts in part order, so the bits did not move.
func TestUpdateSplitPinned(t *testing.T) {
	for _, tc := range []struct {
		game    string
		workers int
		want    string
	}{
		{"slime", 2, "d5f4d103932a4af8"},
		{"slime", 3, "40122b206a7c05ae"},
		{"rectangle", 2, "971b054c12e2e643"},
		{"rectangle", 3, "0b518f51b8a7f4ef"},
	} {
		t.Run(fmt.Sprintf("%s/workers=%d", tc.game, tc.workers), func(t *testing.T) {
			tr := updateTrainer(t, tc.game, 0.99, 0.01)
			tr.cfg.Workers = tc.workers
			var m Metrics
			if err := tr.learn(context.Background(), 1, rules.NewRNG(5), 1e-3, &m); err != nil {
				t.Fatal(err)
			}
			if tr.step.Parts() != tc.workers {
				t.Fatalf("%d workers, %d minibatch parts", tc.workers, tr.step.Parts())
			}
			if got := weightsHash(tr, m); got != tc.want {
				t.Errorf("weights hash %s, want %s", got, tc.want)
			}
		})
	}
}
