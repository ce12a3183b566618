package viewer

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/eval"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/rulestest"
)

// policyGame records one game of game's default config between the
// network fixture in the game's folder (rulestest.Policy) and random, and
// returns its replay and the label → spec map of its bots.
func policyGame(t *testing.T, game string) (*eval.Replay, map[string]string) {
	t.Helper()
	weights := rulestest.Policy(t, game)
	if _, err := os.Stat(weights); err != nil {
		t.Skipf("no trained network for %s: %v", game, err)
	}
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	bots := []string{weights, "random"}
	labels, err := agents.Labels(bots)
	if err != nil {
		t.Fatal(err)
	}
	specs := map[string]string{}
	for i, l := range labels {
		specs[l] = bots[i]
	}
	return record(t, g.Default(), bots, 4), specs
}

// With Options.Policy, every seat played by the (greedy) network gets, at
// every position it moved from, a list of moves by probability whose first
// is the move it played, probabilities in thousandths that fall and add up
// to at most 1000, and a value; where it was not asked, an empty list. The
// other seats get no policy.
func TestPolicyIsThePlayedMove(t *testing.T) {
	for _, game := range []string{"slime", "nuggets", "rising-tide", "rectangle"} {
		t.Run(game, func(t *testing.T) {
			r, specs := policyGame(t, game)
			start := time.Now()
			d, err := Build(r, Options{Policy: true, TopK: 4, Specs: specs})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d steps, built in %v", r.Steps(), time.Since(start).Round(time.Millisecond))
			var want []int
			for s, b := range r.Bots {
				if b != "random" {
					want = append(want, s)
				}
			}
			if len(d.Policies) != len(want) {
				t.Fatalf("%d policies for the network seats %v of %v", len(d.Policies), want, r.Bots)
			}
			moves, _ := Decode(d.Moves)
			for i, p := range d.Policies {
				if p.Seat != want[i] {
					t.Fatalf("policy %d for seat %d, want %d", i, p.Seat, want[i])
				}
				top, err := Decode(p.Top)
				if err != nil {
					t.Fatal(err)
				}
				vals, _ := Decode(p.Values)
				if len(vals) != d.Steps {
					t.Fatalf("%d values for %d steps", len(vals), d.Steps)
				}
				q, asked := 0, 0
				for n := 0; n < d.Steps; n++ {
					k := top[q]
					q++
					played := moves[n*d.Seats+p.Seat]
					if (k == 0) != (played == 0) || (vals[n] == 0) != (played == 0) {
						t.Fatalf("step %d: %d moves listed, value %d, but the seat was asked: %v", n+1, k, vals[n], played != 0)
					}
					if k > 4 {
						t.Fatalf("step %d: %d moves listed, TopK 4", n+1, k)
					}
					sum, last := 0, 1001
					for j := 0; j < k; j++ {
						text, pm, cell := top[q], top[q+1], top[q+2]
						q += 3
						if j == 0 && text != played-1 {
							t.Fatalf("step %d: the network's first move is %q, it played %q", n+1, d.MoveTexts[text], d.MoveTexts[played-1])
						}
						if pm > last || cell > d.Rows*d.Cols {
							t.Fatalf("step %d: move %d has %d‰ after %d‰, cell %d", n+1, j, pm, last, cell)
						}
						sum, last = sum+pm, pm
					}
					if sum > 1000+k {
						t.Fatalf("step %d: probabilities add up to %d‰", n+1, sum)
					}
					if k > 0 {
						asked++
					}
				}
				if q != len(top) || asked == 0 {
					t.Errorf("%d of %d values read, %d positions", q, len(top), asked)
				}
			}
		})
	}
}

// A seat named as a weights file that does not load is an error, not a page
// without its policy.
func TestPolicyMissingWeights(t *testing.T) {
	r, _ := policyGame(t, "slime")
	r.Bots[0] = filepath.Join(t.TempDir(), "gone.safetensors")
	if _, err := Build(r, Options{Policy: true}); err == nil {
		t.Error("a missing network accepted")
	} else {
		t.Log(err)
	}
}
