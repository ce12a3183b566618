package eval

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
)

// simulate plays a synthetic tournament: agents with the given true ratings
// (Elo scale) in games of seats seats, seated by agents.Lineups in rotation,
// each finishing order drawn from the Plackett–Luce model. With tieProb > 0,
// each finisher ties the one just above with that probability. Scores are
// the finishing keys plus noise, for the histograms.
func simulate(elo []float64, seats, games int, seed uint64, tieProb float64) *Result {
	names := make([]string, len(elo))
	for i := range names {
		names[i] = fmt.Sprintf("agent-%d", i)
	}
	rng := rules.NewRNG(seed)
	lineups := agents.Lineups(len(elo), seats)
	r := &Result{
		Spec:   rules.Spec{Game: "synthetic", Seats: seats, ScoreName: "score", Tournament: rules.MeanScore},
		Config: Config{Bots: names, Games: games, Seed: seed},
	}
	weights := make([]float64, seats)
	for i := 0; i < games; i++ {
		lineup := lineups[i%len(lineups)]
		for s, a := range lineup {
			weights[s] = math.Exp(elo[a] / EloScale)
		}
		keys := make([]float64, seats)
		placed := make([]bool, seats)
		key := float64(seats)
		for pos := 0; pos < seats; pos++ {
			total := 0.0
			for s := range weights {
				if !placed[s] {
					total += weights[s]
				}
			}
			u := rng.Float64() * total
			pick := -1
			for s := range weights {
				if placed[s] {
					continue
				}
				pick = s
				if u -= weights[s]; u < 0 {
					break
				}
			}
			placed[pick] = true
			if pos == 0 || rng.Float64() >= tieProb {
				key--
			}
			keys[pick] = key
		}
		o := rules.NewOutcome(seats)
		rules.PointsFromKeys(keys, o)
		for s := range keys {
			o.Score[s] = keys[s] + rng.Float64()
		}
		r.Games = append(r.Games, GameResult{Index: i, Lineup: lineup, Steps: 10, Outcome: o, Errors: make([]int, seats)})
	}
	r.Bots = aggregate(r.Spec, names, r.Games)
	return r
}

// centred returns elo shifted to mean 0, the normalisation of the fit.
func centred(elo []float64) []float64 {
	out := slices.Clone(elo)
	m := 0.0
	for _, e := range out {
		m += e
	}
	for i := range out {
		out[i] -= m / float64(len(out))
	}
	return out
}

func TestRatingsRecoverOrder(t *testing.T) {
	for _, tc := range []struct {
		name    string
		elo     []float64
		seats   int
		games   int
		tieProb float64
	}{
		{"4 agents, 4 seats", []float64{240, 80, -80, -240}, 4, 400, 0},
		{"4 agents, 2 seats", []float64{240, 80, -80, -240}, 2, 400, 0},
		{"6 agents, 4 seats, ties", []float64{300, 180, 60, -60, -180, -300}, 4, 600, 0.05},
		{"3 agents, 4 seats (one seated twice)", []float64{150, 0, -150}, 4, 300, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := simulate(tc.elo, tc.seats, tc.games, 7, tc.tieProb)
			rt := FitRatings(r, RatingOptions{Resamples: 100, Seed: 1})
			if !rt.Converged {
				t.Errorf("not converged after %d iterations", rt.Iterations)
			}
			truth := centred(tc.elo)
			want := make([]int, len(truth))
			for i := range want {
				want[i] = i // true ratings are listed best first
			}
			if !slices.Equal(rt.Order, want) {
				t.Errorf("order %v, want %v", rt.Order, want)
			}
			for i, a := range rt.Agents {
				t.Logf("%s: true %+4.0f fitted %+4.0f [%+4.0f, %+4.0f] SE %.0f (%d iterations)",
					a.Name, truth[i], a.Elo, a.Lo, a.Hi, a.SE, rt.Iterations)
				if err := math.Abs(a.Elo - truth[i]); err > 4*a.SE || err > 80 {
					t.Errorf("%s: fitted %.0f, true %.0f (SE %.0f)", a.Name, a.Elo, truth[i], a.SE)
				}
				if !(a.Lo <= a.Elo && a.Elo <= a.Hi) {
					t.Errorf("%s: estimate %.0f outside its interval [%.0f, %.0f]", a.Name, a.Elo, a.Lo, a.Hi)
				}
			}
		})
	}
}

// TestRatingsTwoSeatTies checks the tie treatment against a hand computation:
// with two seats the model is Bradley–Terry and a tie is half a win each way,
// so 3 wins, 1 tie and 0 losses give odds 3.5 : 0.5 = 7, a gap of 400·log₁₀ 7.
func TestRatingsTwoSeatTies(t *testing.T) {
	r := &Result{Spec: rules.Spec{Seats: 2}, Config: Config{Bots: []string{"a", "b"}}}
	for i, pts := range [][2]float64{{1, 0}, {1, 0}, {0.5, 0.5}, {1, 0}} {
		lineup := []int{0, 1}
		if i%2 == 1 {
			lineup, pts = []int{1, 0}, [2]float64{pts[1], pts[0]}
		}
		r.Games = append(r.Games, GameResult{Lineup: lineup, Outcome: &rules.Outcome{Points: pts[:], Score: pts[:], Win: pts[:]}})
	}
	rt := FitRatings(r, RatingOptions{Resamples: -1, Prior: -1})
	gap := rt.Agents[0].Elo - rt.Agents[1].Elo
	if want := 400 * math.Log10(7); math.Abs(gap-want) > 1e-6 {
		t.Errorf("gap %.9f, want %.9f", gap, want)
	}
	if rt.Agents[0].Elo+rt.Agents[1].Elo > 1e-9 {
		t.Errorf("ratings %v do not have mean 0", rt.Agents)
	}
	if !math.IsNaN(rt.Agents[0].Lo) || rt.Better != nil {
		t.Errorf("intervals without resamples: %+v", rt)
	}
	// The prior pulls the gap in: one virtual draw of weight 1 gives odds 4 : 1.
	rt = FitRatings(r, RatingOptions{Resamples: -1})
	if gap, want := rt.Agents[0].Elo-rt.Agents[1].Elo, 400*math.Log10(4); math.Abs(gap-want) > 1e-6 {
		t.Errorf("gap with prior %.9f, want %.9f", gap, want)
	}
}

// TestRatingsTieExpansion checks that a k-way tie is symmetric and weighs as
// one full set of choices: games where everyone ties rate everyone equal, and
// a tie for last between b and c next to a win by a splits evenly.
func TestRatingsTieExpansion(t *testing.T) {
	d := newPLData(4)
	d.addGame([]int{0, 1, 2, 3}, []float64{1, 1, 1, 1})
	wins := make([]float64, 4)
	total := 0.0
	for _, st := range d.games[0] {
		wins[st.chosen] += st.w
		total += st.w
	}
	if math.Abs(total-3) > 1e-12 || wins[0] != wins[1] || wins[1] != wins[2] || wins[2] != wins[3] {
		t.Errorf("4-way tie: choices won %v (total %v), want 0.75 each, total 3", wins, total)
	}
	r := &Result{Spec: rules.Spec{Seats: 3}, Config: Config{Bots: []string{"a", "b", "c"}}}
	for i := 0; i < 30; i++ {
		r.Games = append(r.Games, GameResult{Lineup: []int{0, 1, 2}, Outcome: &rules.Outcome{Points: []float64{2, 0.5, 0.5}}})
		r.Games = append(r.Games, GameResult{Lineup: []int{0, 1, 2}, Outcome: &rules.Outcome{Points: []float64{1, 1, 1}}})
	}
	rt := FitRatings(r, RatingOptions{Resamples: 20, Seed: 3})
	a, b, c := rt.Agents[0], rt.Agents[1], rt.Agents[2]
	if math.Abs(b.Elo-c.Elo) > 1e-6 || a.Elo <= b.Elo {
		t.Errorf("ratings %+v, want a above b = c", rt.Agents)
	}
}

func TestRatingsBootstrapDeterministic(t *testing.T) {
	r := simulate([]float64{100, 0, -100, 0}, 4, 80, 11, 0)
	x := FitRatings(r, RatingOptions{Resamples: 30, Seed: 5})
	y := FitRatings(r, RatingOptions{Resamples: 30, Seed: 5})
	z := FitRatings(r, RatingOptions{Resamples: 30, Seed: 6})
	for i := range x.Agents {
		if x.Agents[i] != y.Agents[i] {
			t.Errorf("same seed, different ratings: %+v vs %+v", x.Agents[i], y.Agents[i])
		}
	}
	if x.Agents[0].Lo == z.Agents[0].Lo && x.Agents[0].Hi == z.Agents[0].Hi {
		t.Errorf("different seeds gave identical intervals")
	}
	if x.Resamples != 30 || x.Level != 0.95 {
		t.Errorf("resamples %d level %v", x.Resamples, x.Level)
	}
	if d := FitRatings(r, RatingOptions{}); d.Resamples != DefaultResamples {
		t.Errorf("default resamples %d, want %d", d.Resamples, DefaultResamples)
	}
	for i := range x.Better {
		for j := range x.Better {
			if i != j && math.Abs(x.Better[i][j]+x.Better[j][i]-1) > 1e-12 {
				t.Errorf("Better[%d][%d] + Better[%d][%d] = %v", i, j, j, i, x.Better[i][j]+x.Better[j][i])
			}
		}
	}
}

// TestRatingsCoverage simulates 200 tournaments of 100 games and counts how often the 95%
// bootstrap intervals cover the true (centred) ratings.
func TestRatingsCoverage(t *testing.T) {
	start := time.Now()
	elo := []float64{200, 50, -50, -200}
	truth := centred(elo)
	const tournaments = 200 // about 0.4 s
	covered, total := 0, 0
	width := 0.0
	for k := 0; k < tournaments; k++ {
		r := simulate(elo, 4, 100, uint64(1000+k), 0)
		rt := FitRatings(r, RatingOptions{Resamples: 200, Seed: uint64(k)})
		for i, a := range rt.Agents {
			total++
			width += a.Hi - a.Lo
			if a.Lo <= truth[i] && truth[i] <= a.Hi {
				covered++
			}
		}
	}
	rate := float64(covered) / float64(total)
	t.Logf("coverage %d/%d = %.3f of nominal 95%% intervals, mean width %.0f Elo, %v", covered, total, rate, width/float64(total), time.Since(start))
	if rate < 0.85 || rate > 0.995 {
		t.Errorf("coverage %.3f, want about 0.95 (at least 0.85)", rate)
	}
}

// TestRatingGaps: the bootstrap interval of each rating gap is antisymmetric
// (the gap of j over i is minus that of i over j), zero on the diagonal,
// holds the fitted gap, and agrees with Better: a pair ordered the same way
// in every resample has an interval above 0, one ordered so in fewer than
// half has one reaching below 0. No resamples, no gaps.
func TestRatingGaps(t *testing.T) {
	r := simulate([]float64{200, 120, 100, -300}, 4, 150, 7, 0)
	rt := FitRatings(r, RatingOptions{Resamples: 100, Seed: 3})
	sure, unsure := 0, 0
	for i := range rt.Agents {
		for j := range rt.Agents {
			lo, hi := rt.GapLo[i][j], rt.GapHi[i][j]
			gap := rt.Agents[i].Elo - rt.Agents[j].Elo
			if i == j {
				if lo != 0 || hi != 0 {
					t.Errorf("gap of %d over itself [%v, %v]", i, lo, hi)
				}
				continue
			}
			if math.Abs(lo+rt.GapHi[j][i]) > 1e-9 || math.Abs(hi+rt.GapLo[j][i]) > 1e-9 {
				t.Errorf("gap %d−%d [%v, %v] is not minus %d−%d [%v, %v]", i, j, lo, hi, j, i, rt.GapLo[j][i], rt.GapHi[j][i])
			}
			if !(lo <= gap && gap <= hi) {
				t.Errorf("gap %d−%d: %v outside its interval [%v, %v]", i, j, gap, lo, hi)
			}
			switch b := rt.Better[i][j]; {
			case b == 1:
				sure++
				if lo <= 0 {
					t.Errorf("%d above %d in every resample, but the gap's interval [%v, %v] reaches 0", i, j, lo, hi)
				}
			case b < 0.5:
				unsure++
				if lo >= 0 {
					t.Errorf("%d above %d in %.0f%% of resamples, but the gap's interval [%v, %v] is above 0", i, j, 100*b, lo, hi)
				}
			}
		}
	}
	if sure == 0 || unsure == 0 {
		t.Errorf("%d clear and %d unclear pairs: the fixture should have both", sure, unsure)
	}
	if none := FitRatings(r, RatingOptions{Resamples: -1}); none.GapLo != nil || none.GapHi != nil {
		t.Errorf("gaps without resamples: %v %v", none.GapLo, none.GapHi)
	}
}
