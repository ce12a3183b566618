package bovinebots

import (
	"testing"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

var names = []string{"pass_pompom", "random_raven", "defensive_dan_heng", "adjacent_asta"}

func newBot(t testing.TB, name string) agents.Agent {
	t.Helper()
	e, err := agents.Lookup(bovine.Name, name)
	if err != nil {
		t.Fatal(err)
	}
	return e.New()
}

// viewCells maps a real full move of seat to view coordinates.
func viewCells(seat int, m rules.Move) (src, dst pos) {
	si, sj := bovine.RealToView(seat, int(m.Arg[0])/bovine.Size, int(m.Arg[0])%bovine.Size)
	di, dj := bovine.RealToView(seat, int(m.Arg[1])/bovine.Size, int(m.Arg[1])%bovine.Size)
	return pos{si, sj}, pos{di, dj}
}

// game plays the four bots (seat rotation by offset) for rounds rounds,
// calling check before each move is stepped.
func game(t *testing.T, offset int, seed uint64, rounds int, check func(st *bovine.State, seat int, bot agents.Agent, m rules.Move)) {
	st := bovine.New(bovine.Config(false))
	bots := make([]agents.Agent, bovine.Seats)
	for seat := range bots {
		bots[seat] = newBot(t, names[(seat+offset)%len(names)])
		bots[seat].Reset(st, seat, rules.Derive(seed, uint64(seat)))
	}
	rng := rules.NewRNG(seed)
	moves := make([]rules.Move, bovine.Seats)
	for r := 0; r < rounds && !st.Done(); r++ {
		for seat, b := range bots {
			moves[seat] = rules.Move{}
			if st.Active(seat) {
				moves[seat] = b.Act(st)
				check(st, seat, b, moves[seat])
			}
		}
		st.Step(moves, rng)
	}
}

// TestBotsLegal: over games in every seat arrangement, each bot answers Pass
// or a Legal move; random_raven answers destinations only, the others full
// moves, and only pass_pompom passes while it has a legal move.
func TestBotsLegal(t *testing.T) {
	for offset := 0; offset < 4; offset++ {
		game(t, offset, uint64(offset), 1500, func(st *bovine.State, seat int, b agents.Agent, m rules.Move) {
			if !st.Legal(seat, m) {
				t.Fatalf("%T (seat %d) answered illegal %+v", b, seat, m)
			}
			_, isPass := b.(*PassPompom)
			_, isRaven := b.(*RandomRaven)
			switch {
			case isPass && m != (rules.Move{}):
				t.Fatalf("pass_pompom moved: %+v", m)
			case !isPass && m.Kind == rules.Pass:
				t.Fatalf("%T passed with legal moves available", b)
			case isRaven && m.Kind != bovine.Dst:
				t.Fatalf("random_raven answered kind %d, want a destination only", m.Kind)
			case !isPass && !isRaven && m.Kind != bovine.Full:
				t.Fatalf("%T answered kind %d, want a full move", b, m.Kind)
			}
		})
	}
}

// TestDefensiveDanHengMinimal: its destination always has the smallest view
// row+column among the legal moves, and ties split evenly.
func TestDefensiveDanHengMinimal(t *testing.T) {
	game(t, 2, 5, 800, func(st *bovine.State, seat int, b agents.Agent, m rules.Move) {
		if _, ok := b.(*DefensiveDanHeng); !ok {
			return
		}
		best := 1 << 30
		for _, l := range st.LegalMoves(seat, nil) {
			if l.Kind == rules.Pass {
				continue
			}
			_, d := viewCells(seat, l)
			best = min(best, d.i+d.j)
		}
		_, d := viewCells(seat, m)
		if d.i+d.j != best {
			t.Fatalf("seat %d: destination %v scores %d, best is %d", seat, d, d.i+d.j, best)
		}
	})
	// At the start, seat 2's two moves both score 1: about half each.
	st := bovine.New(bovine.Config(false))
	bot := &DefensiveDanHeng{}
	bot.Reset(st, 2, rules.NewRNG(3))
	counts := map[rules.Move]int{}
	for i := 0; i < 4000; i++ {
		counts[bot.Act(st)]++
	}
	if len(counts) != 2 {
		t.Fatalf("moves %v, want 2 distinct", counts)
	}
	for m, c := range counts {
		if c < 1800 || c > 2200 {
			t.Errorf("move %+v chosen %d/4000 times", m, c)
		}
	}
}

// TestRandomRavenUniform: destinations are uniform over the legal ones.
func TestRandomRavenUniform(t *testing.T) {
	st := bovine.New(bovine.Config(false))
	st.SetCell(0, 18, 1)
	bot := &RandomRaven{}
	bot.Reset(st, 1, rules.NewRNG(8))
	counts := map[rules.Move]int{}
	const n = 6000
	for i := 0; i < n; i++ {
		counts[bot.Act(st)]++
	}
	// Seat 1 owns (0,19), (0,18): destinations (0,17), (1,18), (1,19).
	want := []rules.Move{bovine.DstMove(17), bovine.DstMove(38), bovine.DstMove(39)}
	for _, m := range want {
		if c := counts[m]; c < n/3-250 || c > n/3+250 {
			t.Errorf("destination %d chosen %d/%d times", m.Arg[0], c, n)
		}
	}
	if len(counts) != len(want) {
		t.Errorf("destinations %v", counts)
	}
}

// TestAdjacentAstaMemory: while P is its own and has a free in-bounds
// neighbour, the move is P → that neighbour; the destination becomes P; Reset
// puts P back at (0,0).
func TestAdjacentAstaMemory(t *testing.T) {
	adjacentMoves, fallbacks := 0, 0
	game(t, 1, 9, 1500, func(st *bovine.State, seat int, b agents.Agent, m rules.Move) {
		a, ok := b.(*AdjacentAsta)
		if !ok {
			return
		}
		// a.prev has already moved to the new destination; recompute the old
		// P from the source when the move was adjacent to it.
		src, dst := viewCells(seat, m)
		if p := (pos{a.prev.i, a.prev.j}); p != dst {
			t.Fatalf("P = %v after moving to %v", p, dst)
		}
		if abs(src.i-dst.i)+abs(src.j-dst.j) != 1 {
			t.Fatalf("non-adjacent move %v→%v", src, dst)
		}
	})
	// Step by step from the start: P = (0,0) is own, so the first move leaves it.
	st := bovine.New(bovine.Config(false))
	a := &AdjacentAsta{}
	a.Reset(st, 3, rules.NewRNG(1))
	rng := rules.NewRNG(2)
	moves := make([]rules.Move, bovine.Seats)
	for r := 0; r < 400 && !st.Done(); r++ {
		pi, pj := a.Prev()
		v := bovine.View(st, 3)
		hasFree := false
		if v[pi][pj] == 0 {
			for _, p := range nearby(pos{pi, pj}) {
				hasFree = hasFree || inBounds(p) && v[p.i][p.j] != 0
			}
		}
		m := a.Act(st)
		src, dst := viewCells(3, m)
		if hasFree {
			adjacentMoves++
			if src != (pos{pi, pj}) {
				t.Fatalf("round %d: P=(%d,%d) is own with a free neighbour, but moved from %v", r, pi, pj, src)
			}
		} else {
			fallbacks++
		}
		if ni, nj := a.Prev(); (pos{ni, nj}) != dst {
			t.Fatalf("P = (%d,%d), want the destination %v", ni, nj, dst)
		}
		moves[3] = m
		for s := 0; s < 3; s++ {
			moves[s] = st.RandomMove(s, rng)
		}
		st.Step(moves, rng)
	}
	if adjacentMoves == 0 || fallbacks == 0 {
		t.Errorf("adjacent moves %d, fallbacks %d: both paths should occur", adjacentMoves, fallbacks)
	}
	a.Reset(st, 3, rules.NewRNG(1))
	if i, j := a.Prev(); i != 0 || j != 0 {
		t.Errorf("Reset leaves P at (%d,%d)", i, j)
	}
	// From the start P = (0,0) has two free neighbours: about half each.
	fresh := bovine.New(bovine.Config(false))
	rng = rules.NewRNG(4)
	counts := map[rules.Move]int{}
	for k := 0; k < 4000; k++ {
		a.Reset(fresh, 1, rng)
		counts[a.Act(fresh)]++
	}
	if len(counts) != 2 {
		t.Fatalf("first moves %v, want 2 distinct", counts)
	}
	for m, c := range counts {
		if src, _ := viewCells(1, m); src != (pos{}) || c < 1800 || c > 2200 {
			t.Errorf("first move %+v (from %v) chosen %d/4000 times", m, src, c)
		}
	}
}

// TestRegistered: the four official names are registered for the game.
func TestRegistered(t *testing.T) {
	for _, n := range names {
		if _, err := agents.Lookup(bovine.Name, n); err != nil {
			t.Error(err)
		}
	}
}
