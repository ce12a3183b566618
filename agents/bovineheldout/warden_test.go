package bovineheldout

import (
	"testing"

	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/rules/bovine"
)

// custom returns a default-rules state with only the four barns, plus the
// given cows of seat 0 (real = view coordinates for seat 0, R19).
func custom(cows ...cell) *bovine.State {
	st := bovine.New(bovine.Config(false))
	for _, c := range cows {
		st.SetCell(c.i, c.j, 0)
	}
	return st
}

// TestWardenCut: the articulation search gives, for each own cow, the
// cows its loss cuts off the barn (R4), and a second path clears them.
func TestWardenCut(t *testing.T) {
	a := &WardenWanda{}
	st := custom(cell{0, 1}, cell{0, 2}, cell{0, 3}, cell{1, 3})
	a.Reset(st, 0, rules.NewRNG(1))
	if !a.s.load(st, 0) {
		t.Fatal("load")
	}
	a.articulate()
	for c, want := range map[cell]int16{{0, 1}: 3, {0, 2}: 2, {0, 3}: 1, {1, 3}: 0} {
		if got := a.cut[idx(c)]; got != want {
			t.Errorf("line: cut%v = %d, want %d", c, got, want)
		}
	}
	st = custom(cell{0, 1}, cell{0, 2}, cell{0, 3}, cell{1, 3}, cell{1, 0}, cell{1, 1}, cell{1, 2})
	a.s.load(st, 0)
	a.articulate()
	for c, want := range map[cell]int16{{0, 1}: 0, {0, 2}: 0, {0, 3}: 0, {1, 2}: 0, {1, 0}: 0} {
		if got := a.cut[idx(c)]; got != want {
			t.Errorf("ring: cut%v = %d, want %d", c, got, want)
		}
	}
}

// TestWardenRejoins: with a cut-off piece of three cows one empty cell
// away from her connected cows, she places on that cell (R11: a connected
// source places), which joins the piece back to her barn.
func TestWardenRejoins(t *testing.T) {
	st := custom(cell{0, 1}, cell{1, 0}, cell{1, 1}, cell{0, 3}, cell{0, 4}, cell{1, 4})
	for seed := uint64(0); seed < 8; seed++ {
		a := &WardenWanda{}
		a.Reset(st, 0, rules.NewRNG(seed))
		want := bovine.FullMove(0*n+1, 0*n+2)
		if m := a.Act(st); m != want {
			t.Fatalf("seed %d: %s, want %s", seed, st.MoveText(0, m), st.MoveText(0, want))
		}
	}
}

// TestWardenGuards: a rival cow next to her articulation point (0,3),
// whose capture would cut off the six cows beyond it, is captured from
// (1,2), a source whose emptying cuts nothing, before any free land is taken.
func TestWardenGuards(t *testing.T) {
	st := custom(cell{0, 1}, cell{0, 2}, cell{0, 3}, cell{0, 4}, cell{0, 5}, cell{0, 6},
		cell{0, 7}, cell{0, 8}, cell{0, 9}, cell{1, 0}, cell{1, 1}, cell{1, 2}, cell{2, 0}, cell{2, 1})
	for r := 1; r < n; r++ {
		st.SetCell(r, 3, 3) // seat 3's column (1,3)…(19,3) …
	}
	st.SetCell(n-1, 1, 3) // … joined to its barn (19,0)
	st.SetCell(n-1, 2, 3)
	if err := st.Check(); err != nil {
		t.Fatal(err)
	}
	for seed := uint64(0); seed < 8; seed++ {
		a := &WardenWanda{}
		a.Reset(st, 0, rules.NewRNG(seed))
		want := bovine.FullMove(1*n+2, 1*n+3)
		if m := a.Act(st); m != want {
			t.Fatalf("seed %d: %s, want %s", seed, st.MoveText(0, m), st.MoveText(0, want))
		}
	}
}

// TestWardenLeavesLoops: the ko rule. From the same opening position
// again and again (as if a rival took back each cow she places at once),
// she does not keep answering with the cell she likes best, (1,1), the one
// place with two own neighbours: within koSpan rounds she moves there at
// most half the time and spends the other moves elsewhere.
func TestWardenLeavesLoops(t *testing.T) {
	st := custom(cell{0, 1}, cell{1, 0})
	a := &WardenWanda{}
	a.Reset(st, 0, rules.NewRNG(4))
	first := a.Act(st)
	if want := bovine.FullMove(1*n+0, 1*n+1); first != want && first != bovine.FullMove(0*n+1, 1*n+1) {
		t.Fatalf("first move %s, want one into (1,1)", st.MoveText(0, first))
	}
	k := 1
	for r := 1; r < koSpan; r++ {
		if m := a.Act(st); m.Kind == bovine.Full && int(m.Arg[1]) == 1*n+1 {
			k++
		}
	}
	if k > koSpan/2 {
		t.Fatalf("%d of %d moves into (1,1)", k, koSpan)
	}
}

// TestActAllocatesNothing: after their first moves, the held-out bots
// answer without allocating.
func TestActAllocatesNothing(t *testing.T) {
	for _, name := range heldOut {
		names := [4]string{name, "greedy", "defensive_dan_heng", "greedy"}
		_, st := play(t, names, 11, 150, 0)
		b := newBot(t, name)
		b.Reset(st, 0, rules.NewRNG(2))
		b.Act(st)
		if n := testing.AllocsPerRun(50, func() { b.Act(st) }); n != 0 {
			t.Errorf("%s: %.1f allocations a move", name, n)
		}
	}
}
