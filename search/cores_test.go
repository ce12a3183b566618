package search_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/search"
)

// TestTreesAuto: trees=auto is one tree per core, GOMAXPROCS when the agent
// is made, and trees= takes 1..MaxTrees.
func TestTreesAuto(t *testing.T) {
	p, _, err := search.ParseSpec("search:greedy:trees=auto")
	if err != nil || p.Trees != 0 {
		t.Fatalf("ParseSpec(trees=auto): Trees %d, err %v; want 0", p.Trees, err)
	}
	for _, bad := range []string{"trees=0", "trees=-1", fmt.Sprintf("trees=%d", search.MaxTrees+1), "trees=cores"} {
		if _, _, err := search.ParseSpec("search:greedy:" + bad); err == nil {
			t.Errorf("ParseSpec(%s): no error", bad)
		}
	}
	if p, _, err := search.ParseSpec(fmt.Sprintf("search:greedy:trees=%d", search.MaxTrees)); err != nil || p.Trees != search.MaxTrees {
		t.Errorf("ParseSpec(trees=MaxTrees): Trees %d, err %v", p.Trees, err)
	}
	// ms= without trees= is auto; with trees= or without ms=, as given.
	for spec, want := range map[string]int{"search:greedy:ms=20": 0, "search:greedy:ms=20:trees=1": 1,
		"search:greedy:trees=3:ms=20": 3, "search:greedy": 2} {
		if p, _, err := search.ParseSpec(spec); err != nil || p.Trees != want {
			t.Errorf("ParseSpec(%s): Trees %d, err %v; want %d", spec, p.Trees, err, want)
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 3} {
		runtime.GOMAXPROCS(procs)
		a := newAgent(t, "slime", "search:greedy:trees=auto").(*search.Agent)
		if a.Params().Trees != procs {
			t.Errorf("GOMAXPROCS %d: trees=auto made %d trees", procs, a.Params().Trees)
		}
	}
	e, err := agents.Lookup("slime", "search:greedy:trees=auto")
	if err != nil || !strings.Contains(e.Doc, "one per core") {
		t.Errorf("trees=auto's entry: %q, %v", e.Doc, err)
	}
}

// TestSameSearchAnyCores: a move's root visits are the same whatever the
// number of cores the trees are searched on (more trees than cores, as
// many, fewer) and the lanes of a tree run on (Params.Lanes: one tree and
// several, network leaves), and trees=auto on two cores searches as
// trees=2 does.
func TestSameSearchAnyCores(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, game := range []string{"slime", "rising-tide"} {
		g, err := rules.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		st := position(g, 6, 4)
		seat := activeSeat(st)
		search1 := func(spec string, procs int) string { return searchAt(t, game, spec, st, seat, procs) }
		_, file := netFile(t, g, 8, 2, 8)
		for _, spec := range []string{
			fmt.Sprintf("search:%s@60:trees=3:depth=3", prior(game)),
			fmt.Sprintf("search:%s@61:trees=1:lanes=4:depth=3", prior(game)),
			fmt.Sprintf("search:%s@60:trees=2:lanes=3:depth=2", prior(game)),
			fmt.Sprintf("search:%s@40:trees=1:lanes=5:depth=1:value=%s", prior(game), file),
		} {
			want := search1(spec, 1)
			for _, procs := range []int{2, 3, 5} {
				if got := search1(spec, procs); got != want {
					t.Errorf("%s, %s, GOMAXPROCS %d: the search differs from GOMAXPROCS 1:\n%s\n%s", game, spec, procs, got, want)
				}
			}
		}
		two := search1(fmt.Sprintf("search:%s@60:trees=2:depth=3", prior(game)), 1)
		if auto := search1(fmt.Sprintf("search:%s@60:trees=auto:depth=3", prior(game)), 2); auto != two {
			t.Errorf("%s: trees=auto on 2 cores searches differently from trees=2:\n%s\n%s", game, auto, two)
		}
	}
}

// searchAt plays two moves of spec's agent at st for seat at GOMAXPROCS
// procs and returns them with their root visits, as text to compare.
func searchAt(t *testing.T, game, spec string, st rules.State, seat, procs int) string {
	t.Helper()
	runtime.GOMAXPROCS(procs)
	a := newAgent(t, game, spec).(*search.Agent)
	a.Reset(st, seat, rules.NewRNG(9))
	var out strings.Builder
	for range 2 {
		m := a.Act(st)
		ms, vs := a.RootVisits(nil, nil)
		fmt.Fprint(&out, m, ms, vs)
	}
	if a.Stats().Simulations == 0 {
		t.Fatalf("%s: %s did not search", game, spec)
	}
	return out.String()
}

// TestMoveAllocs: a move of a warm agent allocates at most once (the
// second worker's goroutine) whatever its trees.
func TestMoveAllocs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(2)
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	st := position(g, 6, 4)
	for _, trees := range []int{1, 2, 5} {
		a := newAgent(t, g.Name, fmt.Sprintf("search:greedy@40:trees=%d:depth=2", trees)).(*search.Agent)
		a.Reset(st, activeSeat(st), rules.NewRNG(1))
		a.Act(st) // the pools
		if a.Stats().Simulations == 0 {
			t.Fatalf("trees=%d: no search", trees)
		}
		want := 1.0
		if trees == 1 {
			want = 0
		}
		if n := testing.AllocsPerRun(20, func() { a.Act(st) }); n > want {
			t.Errorf("trees=%d: %.1f allocations a move, want at most %.0f", trees, n, want)
		}
	}
}

// activeSeat is the first seat active at st.
func activeSeat(st rules.State) int {
	for s := range st.Spec().Seats {
		if st.Active(s) {
			return s
		}
	}
	return 0
}

// TestLateTreesStop: under a limit that has passed when a worker takes a
// tree, the tree runs no simulation (not a first batch of 16): a move of
// many trees on few cores stops on time.
func TestLateTreesStop(t *testing.T) {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	st := position(g, 6, 4)
	p, _, err := search.ParseSpec("search:greedy@100000:trees=50:opp=prior")
	if err != nil {
		t.Fatal(err)
	}
	p.Limit = time.Nanosecond // passed before any tree starts
	f, err := p.Factory(g.Name)
	if err != nil {
		t.Fatal(err)
	}
	a := f().(*search.Agent)
	a.Reset(st, activeSeat(st), rules.NewRNG(1))
	a.Act(st)
	if n := a.Stats().Simulations; n != 0 {
		t.Errorf("%d simulations after the limit, want 0", n)
	}
}
