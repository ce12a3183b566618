package nuggetsbots

import (
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/nuggets"
)

// play runs one game of bots (seat order) with seed and returns the
// log-scores. check, if set, runs before every step with the moves chosen.
func play(bots []agents.Agent, seed uint64, check func(s *nuggets.State, moves []rules.Move)) [nuggets.Seats]float64 {
	s := playOut(bots, seed, check)
	var out [nuggets.Seats]float64
	for seat := range out {
		out[seat] = s.LogScore(seat)
	}
	return out
}

// playOut is play's game, returning its final position.
func playOut(bots []agents.Agent, seed uint64, check func(s *nuggets.State, moves []rules.Move)) *nuggets.State {
	s := nuggets.NewDefault()
	for seat, b := range bots {
		b.Reset(s, seat, rules.Derive(seed, uint64(seat+1)))
	}
	rng := rules.Derive(seed, 0)
	moves := make([]rules.Move, nuggets.Seats)
	for !s.Done() {
		for seat, b := range bots {
			moves[seat] = b.Act(s)
		}
		if check != nil {
			check(s, moves)
		}
		s.Step(moves, rng)
	}
	return s
}

// playGames plays games whole games on every core: game g seats the bots
// lineup(g) returns (in seat order), is seeded base + g, and its log-scores
// go to record (called from several goroutines, once for each g).
func playGames(games int, base uint64, lineup func(g int) []agents.Agent, record func(g int, sc [nuggets.Seats]float64)) {
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for g := w; g < games; g += workers {
				record(g, play(lineup(g), base+uint64(g), nil))
			}
		}(w)
	}
	wg.Wait()
}

func configured(t *testing.T, vals map[string]string) rules.Config {
	t.Helper()
	cfg, err := nuggets.Game.Configure(vals)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestRegistered(t *testing.T) {
	for _, tc := range []struct {
		name string
		want *Greedy
	}{{"greedy", NewGreedy()}, {"greedy_tuned", NewGreedyTuned()}, {"fortress", NewFortress()}, {"harvester", NewHarvester()}} {
		e, err := agents.Lookup("nuggets", tc.name)
		if err != nil || e.Doc == "" {
			t.Fatalf("%s: %v %+v", tc.name, err, e)
		}
		g, ok := e.New().(*Greedy)
		if !ok {
			t.Fatalf("%s: factory makes %T", tc.name, e.New())
		}
		if g.Weights != tc.want.Weights || (g.At == nil) != (tc.want.At == nil) {
			t.Errorf("%s: weights %+v (schedule %t), want %+v (schedule %t)", tc.name, g.Weights, g.At != nil, tc.want.Weights, tc.want.At != nil)
		}
	}
}

// The greedy bot answers only legal queries, never of its own squares, and
// of coloured squares only in the build phase.
func TestGreedyLegal(t *testing.T) {
	for i, vals := range []map[string]string{nil, {"invalid_query": "pass"}, {"setup_moves": "3", "build_moves": "60", "decay_table": "1-60:30,20,10,5,1"}} {
		cfg := configured(t, vals)
		for g := 0; g < 2; g++ {
			s := nuggets.New(cfg)
			bots := []agents.Agent{NewGreedy(), &agents.Random{}, NewGreedy(), NewGreedy()}
			for seat, b := range bots {
				b.Reset(s, seat, rules.Derive(uint64(g), uint64(seat)))
			}
			rng := rules.NewRNG(uint64(g))
			moves := make([]rules.Move, nuggets.Seats)
			for !s.Done() {
				for seat, b := range bots {
					m := b.Act(s)
					moves[seat] = m
					if seat == 1 {
						continue
					}
					x, y, ok := nuggets.QueryXY(m)
					if !ok || !s.Legal(seat, m) {
						t.Fatalf("config %d move %d seat %d: %+v is not a legal query", i, s.MoveNum(), seat, m)
					}
					if o := s.Owner(x, y); o == seat || o >= 0 && !s.BuildPhase() {
						t.Fatalf("config %d move %d seat %d: queried (%d,%d) owned by %d", i, s.MoveNum(), seat, x, y, o)
					}
				}
				s.Step(moves, rng)
			}
		}
	}
}

// decideMany runs Decide n times on the view of seat 0 and counts the squares.
func decideMany(s *nuggets.State, n int) map[[2]int]int {
	g, rng := NewGreedy(), rules.NewRNG(99)
	v := nuggets.ViewOf(s, 0)
	counts := map[[2]int]int{}
	for i := 0; i < n; i++ {
		x, y := g.Decide(&v, rng)
		counts[[2]int{x, y}]++
	}
	return counts
}

// uniform checks that counts cover exactly want, each within 40% of the mean.
func uniform(t *testing.T, name string, counts map[[2]int]int, want [][2]int, n int) {
	t.Helper()
	if len(counts) != len(want) {
		t.Errorf("%s: %d distinct choices, want %d: %v", name, len(counts), len(want), counts)
	}
	mean := float64(n) / float64(len(want))
	for _, w := range want {
		if c := float64(counts[w]); c < 0.6*mean || c > 1.4*mean {
			t.Errorf("%s: %v chosen %v times, want about %.0f", name, w, c, mean)
		}
	}
}

// Documented choices: start away from the edges, grow, repair, split rivals,
// and value singletons at 0 on the last move.
func TestGreedyBehaviour(t *testing.T) {
	// Empty board: every square scores 0.25 + room; the 18×18 interior wins.
	s := nuggets.NewDefault()
	const n = 32400
	var interior [][2]int
	for y := 1; y < 19; y++ {
		for x := 1; x < 19; x++ {
			interior = append(interior, [2]int{x, y})
		}
	}
	uniform(t, "empty board", decideMany(s, n), interior, n)

	// A lone own square: a side-neighbour makes a pair (0.54 > 0.25).
	s.SetCell(5, 5, 0)
	s.SetCell(9, 9, 1) // a rival's square changes nothing
	uniform(t, "singleton", decideMany(s, 4000), [][2]int{{4, 5}, {6, 5}, {5, 4}, {5, 6}}, 4000)

	// Repair: (6,5) rejoins two singletons into a triple.
	s.SetCell(7, 5, 0)
	uniform(t, "repair", decideMany(s, 100), [][2]int{{6, 5}}, 100)

	// A 20-square own row: growing it is worth ln(21/20) + 0.1 < 0.25, so it
	// starts a new nugget away from it, except on the last move (V(1) = 0).
	s = nuggets.NewDefault()
	for x := 0; x < 20; x++ {
		s.SetCell(x, 10, 0)
	}
	for _, c := range []struct {
		t    int
		grow bool
	}{{100, false}, {258, false}, {259, true}} {
		s.SetMoveNum(c.t)
		for sq := range decideMany(s, 200) {
			if touches := sq[1] == 9 || sq[1] == 11; touches != c.grow {
				t.Errorf("move %d: chose %v; want growth %v", c.t, sq, c.grow)
			}
		}
	}

	// Attack: no empty square; rival 1's line of three in rival 2's sea. The
	// middle square splits it (V(3) − 2·V(1) is the largest loss).
	s = nuggets.NewDefault()
	s.SetMoveNum(120)
	for c := 0; c < nuggets.Cells; c++ {
		s.SetCell(c%20, c/20, 2)
	}
	for x := 10; x <= 12; x++ {
		s.SetCell(x, 10, 1)
	}
	uniform(t, "attack", decideMany(s, 50), [][2]int{{11, 10}}, 50)
	// The same board in the setup phase: coloured squares are fixed, so no
	// square is a candidate and the bot answers (0,0).
	s.SetMoveNum(10)
	uniform(t, "no candidate", decideMany(s, 10), [][2]int{{0, 0}}, 10)
}

// The greedy bot clearly beats random: 1 greedy + 3 random, seats rotating.
func TestGreedyBeatsRandom(t *testing.T) {
	const games = 24
	var sum [nuggets.Seats]float64 // by role: 0 greedy, 1..3 the random seats after it
	for g := 0; g < games; g++ {
		seat := g % nuggets.Seats
		bots := make([]agents.Agent, nuggets.Seats)
		for s := range bots {
			bots[s] = &agents.Random{}
		}
		bots[seat] = NewGreedy()
		sc := play(bots, uint64(g), nil)
		for r := 0; r < nuggets.Seats; r++ {
			sum[r] += sc[(seat+r)%nuggets.Seats]
		}
	}
	for r := 1; r < nuggets.Seats; r++ {
		if sum[0] <= 2*sum[r] {
			t.Errorf("greedy mean log-score %.2f, random seat +%d %.2f: want greedy above twice random", sum[0]/games, r, sum[r]/games)
		}
	}
	t.Logf("mean log-score over %d games: greedy %.2f, random %.2f %.2f %.2f", games, sum[0]/games, sum[1]/games, sum[2]/games, sum[3]/games)
}

// BenchmarkGreedyTunedBeatsGreedy: greedy_tuned, the warm start's teacher,
// outscores greedy in the acceptance table (it, greedy, random, pass; seats
// rotated): mean log-score margin +0.37 ± 0.18 (2 SE) over these 1200 games,
// for the +0.3 the sweep measured. A strength run, not a behaviour check:
// the margin needs about 600 games to clear 2 SE (+0.28 ± 0.31 over the
// first 400), a minute at load 16, so it is a benchmark, not in the suite
// (issue 52); TestRegistered holds the bot to its weights. Run it with
// go test -run '^$' -bench GreedyTunedBeatsGreedy ./agents/nuggetsbots; it
// fails when the margin is not 2 SE above 0.
func BenchmarkGreedyTunedBeatsGreedy(b *testing.B) {
	const games = 1200
	for i := 0; i < b.N; i++ {
		var margin [games]float64 // by game: greedy_tuned's log-score less greedy's
		playGames(games, 7000, func(g int) []agents.Agent {
			rot := g % nuggets.Seats
			bots := make([]agents.Agent, nuggets.Seats)
			for i, b := range []agents.Agent{NewGreedyTuned(), NewGreedy(), &agents.Random{}, agents.Pass{}} {
				bots[(i+rot)%nuggets.Seats] = b
			}
			return bots
		}, func(g int, sc [nuggets.Seats]float64) {
			rot := g % nuggets.Seats
			margin[g] = sc[rot] - sc[(rot+1)%nuggets.Seats]
		})
		mean, se := meanSE(margin[:])
		if mean-2*se <= 0 {
			b.Errorf("greedy_tuned − greedy: %+.2f ± %.2f (2 SE) log-score a game over %d games, want above 0", mean, 2*se, games)
		}
		b.ReportMetric(mean, "margin/game")
		b.ReportMetric(2*se, "2SE")
	}
}

// meanSE returns the mean of xs and its standard error.
func meanSE(xs []float64) (mean, se float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x / n
	}
	sq := 0.0
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sq / (n - 1) / n)
}

// TestGreedyBestPlane: the encoder's greedy_best plane marks exactly the
// squares within nuggets.Tie of greedy_tuned's top score, and greedy_tuned
// always queries one of them (it draws among them), in every position of
// games between greedy_tuned, greedy and random, in both phases (R5).
func TestGreedyBestPlane(t *testing.T) {
	enc := nuggets.NewEncoder(nuggets.Game.Default())
	sp := enc.Space()
	planes, scalars := make([]uint8, sp.ObsSize()), make([]float32, sp.Scalars)
	bots := []agents.Agent{NewGreedyTuned(), NewGreedy(), &agents.Random{}, NewGreedyTuned()}
	checked, several := 0, 0
	for game := uint64(0); game < 3; game++ {
		play(bots, game, func(s *nuggets.State, moves []rules.Move) {
			for _, seat := range []int{0, 3} {
				enc.Observe(s, seat, planes, scalars)
				plane := planes[nuggets.PlaneGreedyBest*nuggets.Cells : (nuggets.PlaneGreedyBest+1)*nuggets.Cells]
				v := nuggets.ViewOf(s, seat)
				var scores [nuggets.Cells]float64
				nuggets.Evaluate(&v, nuggets.TunedWeights, &scores)
				top := scores[0]
				for _, sc := range scores {
					top = max(top, sc)
				}
				marked := 0
				for c, sc := range scores {
					if want := sc >= top-nuggets.Tie; (plane[c] == 1) != want {
						t.Fatalf("move %d seat %d square %d: plane %d, score %g, top %g", s.MoveNum(), seat, c, plane[c], sc, top)
					}
					marked += int(plane[c])
				}
				x, y, ok := nuggets.QueryXY(moves[seat])
				if marked > 0 && (!ok || plane[y*nuggets.Size+x] != 1) {
					t.Fatalf("greedy_tuned queried (%d,%d), not a greedy_best square", x, y)
				}
				checked++
				if marked > 1 {
					several++
				}
			}
		})
	}
	if checked < 1000 || several == 0 {
		t.Fatalf("%d positions checked, %d with several best squares", checked, several)
	}
}

// positions plays n games of greedy_tuned (seed) and returns a copy of the
// position at a random move of each, setup and build phases alike.
func positions(n int, seed uint64) []*nuggets.State {
	rng := rules.NewRNG(seed)
	var out []*nuggets.State
	for g := 0; g < n; g++ {
		stop := rng.U(nuggets.NewDefault().TotalMoves())
		bots := []agents.Agent{NewGreedyTuned(), NewGreedyTuned(), NewGreedyTuned(), NewGreedyTuned()}
		s := nuggets.NewDefault()
		for seat, b := range bots {
			b.Reset(s, seat, rules.Derive(seed, uint64(g*4+seat)))
		}
		moves := make([]rules.Move, nuggets.Seats)
		for s.MoveNum() < stop {
			for seat, b := range bots {
				moves[seat] = b.Act(s)
			}
			s.Step(moves, rng)
		}
		out = append(out, s)
	}
	return out
}

// TestRank: Rank (agents.Ranker, the search's top=K) names first the square
// Act queries with the same generator, then distinct queryable squares in
// non-increasing order of nuggets.Evaluate's score, k in all while that many
// may be queried.
func TestRank(t *testing.T) {
	for i, s := range positions(12, 5) {
		for seat := 0; seat < nuggets.Seats; seat++ {
			for _, k := range []int{1, 4, 9} {
				// fresh generators: Rank draws its ties from the same stream after Act's draw
				g, h := NewGreedyTuned(), NewGreedyTuned()
				g.Reset(s, seat, rules.NewRNG(uint64(i)))
				h.Reset(s, seat, rules.NewRNG(uint64(i)))
				got := g.Rank(s, k, nil)
				if act := h.Act(s); len(got) != k || got[0] != act {
					t.Fatalf("position %d seat %d k=%d: rank %v, want %d squares led by Act's %v", i, seat, k, got, k, act)
				}
				v := nuggets.ViewOf(s, seat)
				var scores [nuggets.Cells]float64
				nuggets.Evaluate(&v, g.Weights, &scores)
				seen := map[rules.Move]bool{}
				prev := math.Inf(1)
				for j, m := range got {
					c := -1
					for q := 0; q < nuggets.Cells; q++ {
						if s.Answer(q%nuggets.Size, q/nuggets.Size) == m {
							c = q
						}
					}
					if c < 0 || seen[m] || math.IsInf(scores[c], -1) || (j > 0 && scores[c] > prev+nuggets.Tie) {
						t.Fatalf("position %d seat %d k=%d: square %d of %v (score %v after %v) repeats, may not be queried or ranks above the one before", i, seat, k, j, got, scores[c], prev)
					}
					if j == 0 {
						// Act's square is one of the best; the rest follow in order
						prev = scores[c]
					} else {
						prev = min(prev, scores[c])
					}
					seen[m] = true
				}
			}
		}
	}
	if got := NewGreedyTuned().Rank(nil, 4, nil); len(got) != 0 {
		t.Errorf("Rank of another game's state: %v, want nothing", got)
	}
}

// TestEvaluate: Evaluate (agents.Evaluator, the search's value=) is
// tanh of the seat's standing (nuggets.State.Standing) over the others' mean, in (−1, 1), zero
// on the empty board, higher for the seat that holds more, and the four
// seats' margins (atanh of the values, times EvalScale) sum to zero.
func TestEvaluate(t *testing.T) {
	g := NewGreedyTuned()
	s := nuggets.NewDefault()
	if v := g.Evaluate(s, 0); v != 0 {
		t.Errorf("empty board: %v, want 0", v)
	}
	s.SetMoveNum(100)
	s.SetCell(0, 0, 2)
	s.SetCell(0, 1, 2)
	s.SetCell(5, 5, 3)
	// seat 2 stands at ln 2 + one side-adjacent pair (Compact 0.07) + 3 empty
	// side-neighbours (Room 0.001), seat 3 at a singleton (0.15) + 4 empty
	// side-neighbours, seats 0 and 1 at nothing
	two, three := math.Log(2)+0.07+0.003, 0.15+0.004
	want2 := math.Tanh((two - three/3) / EvalScale)
	if v := g.Evaluate(s, 2); math.Abs(v-want2) > 1e-12 {
		t.Errorf("seat 2: %v, want %v", v, want2)
	}
	if v0, v3 := g.Evaluate(s, 0), g.Evaluate(s, 3); !(v0 < 0 && v3 < 0 && v3 > v0) {
		t.Errorf("seats 0 and 3: %v, %v, want both below 0, seat 3 above seat 0", v0, v3)
	}
	for i, p := range positions(8, 9) {
		sum := 0.0
		for seat := 0; seat < nuggets.Seats; seat++ {
			v := g.Evaluate(p, seat)
			if v <= -1 || v >= 1 || math.IsNaN(v) {
				t.Fatalf("position %d seat %d: %v outside (−1, 1)", i, seat, v)
			}
			sum += math.Atanh(v)
		}
		if math.Abs(sum) > 1e-9 {
			t.Errorf("position %d: the margins over the others' mean sum to %v, want 0", i, sum)
		}
	}
}

// TestRankDrawsTies: among equal scores Rank draws its next squares from the
// bot's generator, as Act draws its own, instead of naming them in square
// order. On the empty board every interior square scores the same (a new
// singleton with four empty side-neighbours, R3); taken in square order the
// alternatives would all lie in row 1, drawn they spread over rows 1..18
// (mean 9.5).
func TestRankDrawsTies(t *testing.T) {
	s := nuggets.NewDefault()
	rows, n := 0, 0
	for seed := uint64(0); seed < 20; seed++ {
		g := NewGreedyTuned()
		g.Reset(s, 0, rules.NewRNG(seed))
		for _, m := range g.Rank(s, 9, nil)[1:] {
			x, y, ok := nuggets.QueryXY(m)
			if !ok || x < 1 || x > 18 || y < 1 || y > 18 {
				t.Fatalf("seed %d: alternative %v is not an interior square", seed, m)
			}
			rows += y
			n++
		}
	}
	if mean := float64(rows) / float64(n); mean < 7 || mean > 12 {
		t.Errorf("alternatives' mean row %.2f over %d squares, want about 9.5 (drawn, not in square order)", mean, n)
	}
}

// TestFortress: while more than nuggets.FortressLeft moves are left the
// fortress bot keeps growing the nugget it has where greedy_tuned starts a
// new one, and from then on it chooses exactly as greedy_tuned (the same
// squares from the same generator) in every position of whole games. The
// switch is counted in moves left, as R12's bands are.
func TestFortress(t *testing.T) {
	for _, c := range []struct {
		left int
		want nuggets.Weights
	}{{260, nuggets.FortressWeights}, {161, nuggets.FortressWeights}, {160, nuggets.TunedWeights}, {1, nuggets.TunedWeights}} {
		if got := nuggets.FortressAt(c.left); got != c.want {
			t.Errorf("FortressAt(%d) = %+v, want %+v", c.left, got, c.want)
		}
	}

	// A 4×4 nugget of 16 squares at move 10 (setup, R9): a square along its
	// straight sides touches one of its squares, so growing it is worth
	// ln(17/16) + 0.07 ≈ 0.13 to greedy_tuned, less than a new singleton
	// (0.15 + room), and 0.26 to fortress.
	s := nuggets.NewDefault()
	for y := 8; y < 12; y++ {
		for x := 8; x < 12; x++ {
			s.SetCell(x, y, 0)
		}
	}
	s.SetMoveNum(10)
	touches := func(x, y int) bool { return x >= 7 && x <= 12 && y >= 7 && y <= 12 }
	v := nuggets.ViewOf(s, 0)
	rng := rules.NewRNG(5)
	for i := 0; i < 50; i++ {
		if x, y := NewFortress().Decide(&v, rng); !touches(x, y) || (x == 7 || x == 12) && (y == 7 || y == 12) {
			t.Fatalf("fortress queried (%d,%d), want a square beside the 4×4 nugget", x, y)
		}
		if x, y := NewGreedyTuned().Decide(&v, rng); touches(x, y) {
			t.Fatalf("greedy_tuned queried (%d,%d) beside its 16-square nugget, want a new one", x, y)
		}
	}
	// Past the opening: fortress and greedy_tuned, given the same generator,
	// choose the same squares in every position.
	sameSquares(t, "fortress", NewFortress, "greedy_tuned", NewGreedyTuned, 3, 900,
		[]agents.Agent{NewFortress(), NewGreedyTuned(), NewFortress(), &agents.Random{}},
		func(left int) bool { return left <= nuggets.FortressLeft })
}

// sameSquares checks that bots a and b, given the same generator, choose the
// same square in every position of seat 0 where when(moves left) holds, over
// games games of lineup seeded base, base+1, ….
func sameSquares(t *testing.T, an string, a func() *Greedy, bn string, b func() *Greedy, games int, base uint64, lineup []agents.Agent, when func(left int) bool) {
	t.Helper()
	for g := 0; g < games; g++ {
		play(lineup, base+uint64(g), func(s *nuggets.State, moves []rules.Move) {
			if !when(s.TotalMoves() - s.MoveNum()) {
				return
			}
			v := nuggets.ViewOf(s, 0)
			ax, ay := a().Decide(&v, rules.NewRNG(uint64(s.MoveNum())))
			bx, by := b().Decide(&v, rules.NewRNG(uint64(s.MoveNum())))
			if ax != bx || ay != by {
				t.Fatalf("game %d move %d: %s (%d,%d), %s (%d,%d)", g, s.MoveNum(), an, ax, ay, bn, bx, by)
			}
		})
	}
}

// TestFortressBeatsGreedyTuned: one fortress against three greedy_tuned
// scores more than their mean, by more than 2 standard errors
// (reports/nuggets/fortress: +1.34 [+1.09, +1.59] over 400 games). 40 games
// (ten in each seat) separate it at about 3σ: +1.27 ± 0.80 (2 SE); 120 games
// had +1.16 ± 0.46 at three times the cost (issue 52). The bound is on the
// standard error, so it holds fewer games to the same standard.
func TestFortressBeatsGreedyTuned(t *testing.T) {
	const games = 40
	var margin [games]float64
	playGames(games, 3000, func(g int) []agents.Agent {
		bots := make([]agents.Agent, nuggets.Seats)
		for i := range bots {
			bots[i] = NewGreedyTuned()
		}
		bots[g%nuggets.Seats] = NewFortress()
		return bots
	}, func(g int, sc [nuggets.Seats]float64) {
		rot := g % nuggets.Seats
		margin[g] = sc[rot] - (sc[0]+sc[1]+sc[2]+sc[3]-sc[rot])/3
	})
	mean, se := meanSE(margin[:])
	if mean-2*se <= 0 {
		t.Errorf("fortress − greedy_tuned: %+.2f ± %.2f (2 SE) log-score a game, want above 0", mean, 2*se)
	}
	t.Logf("fortress − greedy_tuned: %+.2f ± %.2f (2 SE) over %d games", mean, 2*se, games)
}

// TestHarvester: the harvester's schedule (fortress's weights, then
// HarvestWeights in the last HarvestLeft moves); its choice where the two
// differ (a nugget of 15 squares with one concave corner: thickening it is
// worth ln(16/15) + 2·0.07 ≈ 0.20 to fortress, more than a new singleton's
// 0.15, and ln(16/15) + 2·0.045 ≈ 0.15 to the harvester, less than its
// 0.25); and the same squares as fortress, given the same generator, in
// every position before its last moves.
func TestHarvester(t *testing.T) {
	for _, c := range []struct {
		left int
		want nuggets.Weights
	}{{260, nuggets.FortressWeights}, {161, nuggets.FortressWeights}, {160, nuggets.TunedWeights},
		{nuggets.HarvestLeft + 1, nuggets.TunedWeights}, {nuggets.HarvestLeft, nuggets.HarvestWeights}, {1, nuggets.HarvestWeights}} {
		if got := nuggets.HarvestAt(c.left); got != c.want {
			t.Errorf("HarvestAt(%d) = %+v, want %+v", c.left, got, c.want)
		}
	}

	s := nuggets.NewDefault()
	for y := 8; y < 12; y++ {
		for x := 8; x < 12; x++ {
			if x != 11 || y != 11 {
				s.SetCell(x, y, 0)
			}
		}
	}
	touches := func(x, y int) bool { return x >= 7 && x <= 12 && y >= 7 && y <= 12 }
	for _, t0 := range []int{s.TotalMoves() - nuggets.HarvestLeft - 1, s.TotalMoves() - nuggets.HarvestLeft, s.TotalMoves() - 2} {
		s.SetMoveNum(t0)
		v := nuggets.ViewOf(s, 0)
		rng := rules.NewRNG(7)
		for i := 0; i < 20; i++ {
			if x, y := NewFortress().Decide(&v, rng); x != 11 || y != 11 {
				t.Fatalf("move %d: fortress queried (%d,%d), want the concave corner (11,11)", t0, x, y)
			}
			x, y := NewHarvester().Decide(&v, rng)
			late := s.TotalMoves()-t0 <= nuggets.HarvestLeft
			if late && touches(x, y) || !late && (x != 11 || y != 11) {
				t.Fatalf("move %d (%d left): harvester queried (%d,%d), want %s", t0, s.TotalMoves()-t0, x, y,
					map[bool]string{true: "a new singleton away from the nugget", false: "the corner, as fortress"}[late])
			}
		}
	}

	sameSquares(t, "harvester", NewHarvester, "fortress", NewFortress, 2, 950,
		[]agents.Agent{NewHarvester(), NewFortress(), NewGreedyTuned(), &agents.Random{}},
		func(left int) bool { return left > nuggets.HarvestLeft })
}

// TestHarvesterEndsWithSmallerNuggets: what the harvester is for. In games
// of a harvester, a fortress, greedy_tuned and greedy (seats rotated), the
// harvester ends with fewer squares in nuggets of seven or more than the
// fortress, and with more nuggets (reports/nuggets/harvest: 200 games).
func TestHarvesterEndsWithSmallerNuggets(t *testing.T) {
	const games = 24
	var big, count [2]int
	for g := 0; g < games; g++ {
		bots := []agents.Agent{NewHarvester(), NewFortress(), NewGreedyTuned(), NewGreedy()}
		seat := func(i int) int { return (i + g) % nuggets.Seats } // bot i's seat
		seated := make([]agents.Agent, nuggets.Seats)
		for i, b := range bots {
			seated[seat(i)] = b
		}
		s := playOut(seated, uint64(4000+g), nil)
		for i := range big {
			s.EachNugget(seat(i), func(size int) {
				count[i]++
				if size >= 7 {
					big[i] += size
				}
			})
		}
	}
	t.Logf("%d games: squares in nuggets of 7 or more: harvester %d, fortress %d; nuggets: %d, %d", games, big[0], big[1], count[0], count[1])
	if big[0] >= big[1] || count[0] <= count[1] {
		t.Errorf("harvester: %d squares in big nuggets and %d nuggets, fortress %d and %d: want fewer squares in big nuggets and more nuggets",
			big[0], count[0], big[1], count[1])
	}
}
