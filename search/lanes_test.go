package search_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/search"
)

// TestLanesSpec: lanes= takes 1..MaxLanes, default 1.
func TestLanesSpec(t *testing.T) {
	if p, _, err := search.ParseSpec("search:greedy"); err != nil || p.Lanes != 1 {
		t.Fatalf("default Lanes %d, err %v; want 1", p.Lanes, err)
	}
	if p, _, err := search.ParseSpec(fmt.Sprintf("search:greedy:lanes=%d", search.MaxLanes)); err != nil || p.Lanes != search.MaxLanes {
		t.Errorf("lanes=MaxLanes: Lanes %d, err %v", p.Lanes, err)
	}
	for _, bad := range []string{"lanes=0", "lanes=-2", fmt.Sprintf("lanes=%d", search.MaxLanes+1), "lanes=auto"} {
		if _, _, err := search.ParseSpec("search:greedy:" + bad); err == nil {
			t.Errorf("ParseSpec(%s): no error", bad)
		}
	}
}

// TestVirtualLoss: the lanes of one round, started from a fresh root with a
// uniform prior (prior=0), go to different root candidates, since each
// descent counts its path as a visit with no value yet (without that they
// would all take the first of the equal candidates); and after the round every visit has its value: no node is
// left pending and the root's visits are the round's simulations.
func TestVirtualLoss(t *testing.T) {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	st := position(g, 6, 4)
	seat := activeSeat(st)
	a := newAgent(t, g.Name, "search:greedy@64:trees=1:lanes=4:opp=prior:prior=0").(*search.Agent)
	tr := search.NewTestTree(a, st, seat, 64, 3)
	if n := len(tr.RootMoves(seat)); n < 4 {
		t.Fatalf("only %d root candidates", n)
	}
	tr.Round(4)
	vs := tr.CandVisits(seat)
	visited := 0
	for i, v := range vs {
		if v > 1 {
			t.Errorf("candidate %d visited %d times in a round of 4 from a fresh root: %v", i, v, vs)
		}
		visited += v
	}
	if visited != 4 {
		t.Errorf("%d root visits after a round of 4, want 4", visited)
	}
	for range 10 {
		tr.Round(4)
	}
	if root, _, _ := tr.RootVisits(); root != 44 {
		t.Errorf("root visited %d times after 44 simulations", root)
	}
	if nodes, reserved := tr.Pending(); nodes != 0 || reserved != 0 {
		t.Errorf("%d pending nodes and %d candidates reserved after the rounds", nodes, reserved)
	}
	if tr.Nodes() < 2 {
		t.Errorf("the rounds added no node")
	}
}

// TestLanesAllocs: a warm move with lanes allocates nothing on one core and
// at most its helpers' goroutines on more.
func TestLanesAllocs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	st := position(g, 6, 4)
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		a := newAgent(t, g.Name, "search:greedy@40:trees=1:lanes=4:depth=2").(*search.Agent)
		a.Reset(st, activeSeat(st), rules.NewRNG(1))
		a.Act(st) // the pools
		if n := testing.AllocsPerRun(20, func() { a.Act(st) }); n > float64(procs-1) {
			t.Errorf("GOMAXPROCS %d: %.1f allocations a move, want at most %d", procs, n, procs-1)
		}
	}
}
