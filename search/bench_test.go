package search_test

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/search"
)

// benchBudget is the simulations of one benchmarked move.
const benchBudget = 256

// BenchmarkSearch reports simulations per second of wall time for every
// registered game, the strongest scripted bot as prior and rollouts (depth 8,
// the default), one move of benchBudget simulations per op, from a position
// 10 random steps into the game. trees=1 is one tree on one core; trees=2 is
// root parallelism over two trees, on two cores where -cpu gives two;
// trees=auto is one tree per core (GOMAXPROCS), the budget split over them:
// its sims/s from -cpu 1 to -cpu 2 is the search's scaling (1.97× on two idle
// cores, reports/search-scaling). lanes=4 is one tree whose simulations run
// four at a time (leaf parallelism with virtual loss) on as many cores as
// -cpu gives. trees=1,value scores the leaves with a
// network of 16 filters, 3 layers and 32 hidden units (value=), every seat's
// value at every leaf since the other seats are searched too (lanes=4,value:
// the same leaves, four lanes);
// trees=1,forecast (games whose states forecast, rules.Forecaster) scores
// them on the forecast outcome (leaf=forecast). procs is the GOMAXPROCS the
// moves ran at.
//
// The loop is over b.N, not b.Loop: with b.Loop the testing package measures
// a benchmark in its first run, which it starts before it sets GOMAXPROCS to
// the first -cpu value (golang/go#49980), so in one run with -cpu 1,2 every
// "-cpu 1" figure but the first was measured at GOMAXPROCS 2 (and with
// -cpu 1,2,16 at 16): trees=2 then looked the same at every -cpu (issue 55).
//
//	go test ./search -run '^$' -bench 'Search$' -cpu 1,2 -benchtime 60x
func BenchmarkSearch(b *testing.B) {
	for _, g := range rules.Games() {
		st := position(g, 10, 3)
		if st.Done() {
			b.Fatalf("%s: the position is over after 10 random steps", g.Name)
		}
		seat := 0
		for !st.Active(seat) {
			seat++
		}
		_, file := netFile(b, g, 16, 3, 32)
		variants := []struct{ name, spec string }{
			{"trees=1", fmt.Sprintf("search:%s@%d:trees=1", prior(g.Name), benchBudget)},
			{"trees=2", fmt.Sprintf("search:%s@%d:trees=2", prior(g.Name), benchBudget)},
			{"trees=auto", fmt.Sprintf("search:%s@%d:trees=auto", prior(g.Name), benchBudget)},
			{"lanes=4", fmt.Sprintf("search:%s@%d:trees=1:lanes=4", prior(g.Name), benchBudget)},
			{"trees=1,value", fmt.Sprintf("search:%s@%d:trees=1:value=%s", prior(g.Name), benchBudget, file)},
			{"lanes=4,value", fmt.Sprintf("search:%s@%d:trees=1:lanes=4:value=%s", prior(g.Name), benchBudget, file)},
		}
		if _, ok := st.(rules.Forecaster); ok {
			variants = append(variants, struct{ name, spec string }{"trees=1,forecast",
				fmt.Sprintf("search:%s@%d:trees=1:leaf=forecast", prior(g.Name), benchBudget)})
		}
		for _, v := range variants {
			spec := v.spec
			b.Run(g.Name+"/"+v.name, func(b *testing.B) {
				a := newAgent(b, g.Name, spec).(*search.Agent)
				a.Reset(st, seat, rules.NewRNG(1))
				a.Act(st) // the pools are allocated on the first move
				a.Reset(st, seat, rules.NewRNG(1))
				b.ResetTimer()
				for range b.N {
					a.Act(st)
				}
				b.StopTimer()
				s := a.Stats()
				b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
				b.ReportMetric(float64(s.Simulations)/b.Elapsed().Seconds(), "sims/s")
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(max(s.Moves, 1)), "ms/move")
			})
		}
	}
}

// strengthSpecs are the search bots that meet issue 23's strength point in
// reports/search/README.md (Nuggets: its section "fortress as the prior"),
// one per game, each with the scripted bot it beat there, three copies of
// which it plays here.
var strengthSpecs = map[string]struct{ spec, against string }{
	"slime":          {"search:greedy@1200:trees=1:opp=prior", "greedy"},
	"rising-tide":    {"search:wall_warsaw@64:trees=1:depth=8:opp=prior:leaf=forecast:alt=trench_tunis+border_barcelona+nearby_new_orleans:extra=1:prior=0.1", "wall_warsaw"},
	"rectangle":      {"search:encloser@32:trees=1:depth=24:opp=prior:roll=encloser_once:alt=boxer", "encloser"},
	"nuggets":        {"search:fortress@64:trees=1:depth=0:extra=0:top=4:opp=prior:value=fortress:prior=0:crn=1", "fortress"},
	"bovine-borders": {"search:greedy@32:trees=1:depth=2:extra=2:opp=prior", "greedy"},
}

// BenchmarkStrengthSpecs plays whole games of each strengthSpecs bot (seat
// 0) against three copies of the bot it beat and reports the search's wall
// time per move and simulations per second: the cost per move of the
// strength runs.
//
//	go test ./search -run '^$' -bench StrengthSpecs -benchtime 2x
//
// Besides the mean it reports the median, 99th percentile and slowest of
// the search's answers (wall time of each Act, the moves it did not search
// included), since issue 23 bounds the cost of a move, not only its mean.
func BenchmarkStrengthSpecs(b *testing.B) {
	for _, g := range rules.Games() {
		run, ok := strengthSpecs[g.Name]
		if !ok {
			continue
		}
		b.Run(g.Name, func(b *testing.B) {
			var s search.Stats
			var took []time.Duration
			seed := uint64(0)
			for b.Loop() {
				seed++
				st := g.New(g.Default())
				sa := newAgent(b, g.Name, run.spec).(*search.Agent)
				bots := []agents.Agent{&timed{Agent: sa, took: &took}}
				for len(bots) < st.Spec().Seats {
					bots = append(bots, newAgent(b, g.Name, run.against))
				}
				play(b, g, bots, seed, 1<<30)
				s.Moves += sa.Stats().Moves
				s.Simulations += sa.Stats().Simulations
				s.Time += sa.Stats().Time
			}
			b.ReportMetric(float64(s.Time.Microseconds())/1000/float64(max(s.Moves, 1)), "ms/move")
			b.ReportMetric(float64(s.Moves)/float64(b.N), "moves/game")
			b.ReportMetric(s.PerSecond(), "sims/s")
			if len(took) > 0 {
				slices.Sort(took)
				at := func(q float64) float64 { return float64(took[int(q*float64(len(took)-1))].Microseconds()) / 1000 }
				b.ReportMetric(at(0.5), "p50-ms")
				b.ReportMetric(at(0.99), "p99-ms")
				b.ReportMetric(at(1), "max-ms")
			}
		})
	}
}

// timed records the wall time of each of its agent's answers.
type timed struct {
	agents.Agent
	took *[]time.Duration
}

func (t *timed) Act(st rules.State) rules.Move {
	start := time.Now()
	m := t.Agent.Act(st)
	*t.took = append(*t.took, time.Since(start))
	return m
}
