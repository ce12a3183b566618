package search_test

import (
	"fmt"
	"runtime"
	"slices"
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

// TestEndsInTree: near the end of a game many simulations end it inside the
// tree, on paths that descend chose from the statistics alone and finish
// cut where the game ended: at the new node (Slime; the node is taken back)
// or, where chance decides when it ends (Rising Tide's water), before the
// path's last node, at a node other simulations went past. After rounds of
// one and of four lanes, every reachable node's candidates' visits add up to
// its own (the visits counted past a cut were taken back), no node is left
// pending, and the root counts every simulation once.
func TestEndsInTree(t *testing.T) {
	for _, tc := range []struct {
		game        string
		steps, seed int
	}{{"slime", 6, 4}, {"slime", 52, 4}, {"rising-tide", 213, 2}} {
		g, err := rules.Lookup(tc.game)
		if err != nil {
			t.Fatal(err)
		}
		st := position(g, tc.steps, uint64(tc.seed))
		if st.Done() {
			t.Fatalf("%s: position after %d steps is finished", tc.game, tc.steps)
		}
		seat := activeSeat(st)
		prior := "greedy"
		if tc.game == "rising-tide" {
			prior = "wall_warsaw"
		}
		for _, lanes := range []int{1, 4} {
			a := newAgent(t, g.Name, fmt.Sprintf("search:%s@400:trees=1:lanes=%d:opp=prior", prior, lanes)).(*search.Agent)
			tr := search.NewTestTree(a, st, seat, 400, 9)
			tr.Rounds(100, lanes)
			sims := 100 * lanes
			if root, _, _ := tr.RootVisits(); root != sims {
				t.Errorf("%s step %d, lanes %d: root visited %d times after %d simulations", tc.game, tc.steps, lanes, root, sims)
			}
			bad, reach := tr.Counts()
			if bad >= 0 {
				t.Errorf("%s step %d, lanes %d: node %d's visits do not add up", tc.game, tc.steps, lanes, bad)
			}
			if nodes, reserved := tr.Pending(); nodes != 0 || reserved != 0 {
				t.Errorf("%s step %d, lanes %d: %d pending nodes, %d candidates reserved", tc.game, tc.steps, lanes, nodes, reserved)
			}
			if reach < 2 {
				t.Errorf("%s step %d, lanes %d: %d reachable nodes", tc.game, tc.steps, lanes, reach)
			}
			if tr.Nodes() > reach+lanes {
				t.Errorf("%s step %d, lanes %d: %d nodes in the pool, %d reachable: the slots taken back are not reused", tc.game, tc.steps, lanes, tr.Nodes(), reach)
			}
			if tc.steps > 6 && lanes == 1 && tr.Nodes() > sims {
				t.Errorf("%s step %d: %d nodes after %d simulations: none ended the game inside the tree", tc.game, tc.steps, tr.Nodes(), sims)
			}
		}
	}
}

// suddenEnd is a game (Four Square) that chance may also end after any step
// (one step in four): the same path of moves from the root ends the game in
// some simulations and goes on in others, so finish cuts paths before their
// last node, at nodes other simulations went past.
type suddenEnd struct {
	rules.State
	ended bool
}

func (s *suddenEnd) Step(m []rules.Move, rng *rules.RNG) {
	if s.Done() {
		return
	}
	s.State.Step(m, rng)
	s.ended = rng.U(4) == 0
}
func (s *suddenEnd) Done() bool           { return s.ended || s.State.Done() }
func (s *suddenEnd) Active(seat int) bool { return !s.ended && s.State.Active(seat) }
func (s *suddenEnd) CopyFrom(src rules.State) {
	o := src.(*suddenEnd)
	s.State.CopyFrom(o.State)
	s.ended = o.ended
}
func (s *suddenEnd) Clone() rules.State { return &suddenEnd{State: s.State.Clone(), ended: s.ended} }

// TestCutPaths: in a game that chance ends (suddenEnd), descents that run
// past where their simulation ended have those visits taken back: every
// node's candidates' visits add up to its own, with one lane and four.
func TestCutPaths(t *testing.T) {
	g, err := rules.Lookup("four-square")
	if err != nil {
		t.Fatal(err)
	}
	st := &suddenEnd{State: g.New(g.Default())}
	for _, lanes := range []int{1, 4} {
		a := newAgent(t, g.Name, fmt.Sprintf("search:random@800:trees=1:lanes=%d", lanes)).(*search.Agent)
		tr := search.NewTestTree(a, st, activeSeat(st), 800, 5)
		tr.Rounds(200, lanes)
		if root, _, _ := tr.RootVisits(); root != 200*lanes {
			t.Errorf("lanes %d: root visited %d times after %d simulations", lanes, root, 200*lanes)
		}
		bad, reach := tr.Counts()
		if bad >= 0 {
			t.Errorf("lanes %d: node %d's visits do not add up", lanes, bad)
		}
		if nodes, reserved := tr.Pending(); nodes != 0 || reserved != 0 {
			t.Errorf("lanes %d: %d pending nodes, %d candidates reserved", lanes, nodes, reserved)
		}
		if tr.Nodes() > reach+lanes {
			t.Errorf("lanes %d: %d nodes in the pool, %d reachable: the slots taken back are not reused", lanes, tr.Nodes(), reach)
		}
	}
}

// TestFinalNodes: in a game without chance (Slime), a joint move that ended
// the game stays in the tree with its outcome, and the simulations that
// choose it again read it instead of playing the path: the root's
// statistics are the same, to the bit, as a tree that plays every path
// (KeepFinals(false)), with one lane and with four, and such nodes exist.
func TestFinalNodes(t *testing.T) {
	g, err := rules.Lookup("slime")
	if err != nil {
		t.Fatal(err)
	}
	if !g.New(g.Default()).Spec().Deterministic {
		t.Fatal("slime's Spec does not say it is deterministic")
	}
	st := position(g, 52, 4)
	seat := activeSeat(st)
	for _, lanes := range []int{1, 4} {
		var ns [2][]int32
		var ws [2][]float64
		finals := 0
		for i, keep := range []bool{false, true} {
			a := newAgent(t, g.Name, fmt.Sprintf("search:greedy@800:trees=1:lanes=%d:opp=prior", lanes)).(*search.Agent)
			tr := search.NewTestTree(a, st, seat, 800, 9)
			tr.KeepFinals(keep)
			tr.Rounds(800/lanes, lanes)
			ns[i], ws[i] = tr.RootStats(seat)
			if keep {
				finals = tr.Finals()
				if bad, _ := tr.Counts(); bad >= 0 {
					t.Errorf("lanes %d: node %d's visits do not add up", lanes, bad)
				}
			}
		}
		if finals == 0 {
			t.Errorf("lanes %d: no final node after 800 simulations 52 steps in", lanes)
		}
		if !slices.Equal(ns[0], ns[1]) || !slices.Equal(ws[0], ws[1]) {
			t.Errorf("lanes %d: root statistics differ with final nodes kept:\nvisits %v\n  vs   %v\nvalues %v\n  vs   %v", lanes, ns[0], ns[1], ws[0], ws[1])
		}
	}
}
